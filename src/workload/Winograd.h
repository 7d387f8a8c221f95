// Winograd's minimal filtering F(m, 3): m outputs of a 3-tap correlation from m + 2 inputs with m + 2
// multiplies (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", CVPR 2016). Nested in
// 2-D, an m x m output tile of a 3x3 correlation is Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A for the (m+2) x (m+2) input
// tile d and the kernel g. A convolution layer sums the elementwise products over its input channels before
// the output transform: per transformed position (xi, nu) one matrix product over the channels, with
// (m+2)² / (9 m²) of the direct algorithm's multiplies (4/9 for F(2, 3), 1/4 for F(4, 3)).
//
// Indices here: an input tile element a and a transformed element xi run over [0, m + 2), a kernel tap r
// over [0, 3), an output i over [0, m). The interpolation points are 0, ±1 (F(2, 3)) and 0, ±1, ±2 (F(4, 3))
// with the point at infinity; larger tiles lose float32 accuracy and are not offered.
#pragma once

#include "workload/Workload.h"

#include "Halide.h"

#include <map>
#include <memory>
#include <vector>

namespace worldtune {

/// The output tiles m with a transform here, smallest first.
const std::vector<int> &winograd_tiles();
bool is_winograd_tile(int m);

/// Bᵀ[xi][a]: the weight of input tile element a in transformed element xi.
double winograd_input_coefficient(int m, int xi, int a);
/// G[xi][r]: the weight of kernel tap r in transformed element xi.
double winograd_kernel_coefficient(int m, int xi, int r);
/// Aᵀ[i][xi]: the weight of transformed element xi in output i.
double winograd_output_coefficient(int m, int i, int xi);

/// A 3x3 convolution's weights (logical, Halide order W(s, r, c, k)) transformed for F(m, 3):
/// U(k, c, xi, nu) = Σ_{s, r} G[xi][s] G[nu][r] W(s, r, c, k), output channels innermost, so the matrix
/// products read whole vectors of them. A weight is known before the program runs: its caller transforms it
/// once, as it arranges weights stored in blocks.
Halide::Buffer<float> winograd_weights(const Halide::Buffer<float> &weights, int m);

/// The Winograd programs of a spec, by tile (BuildChoices::winograd_tile): empty for a spec without a form.
std::map<int, std::unique_ptr<Workload>> winograd_forms(const WorkloadSpec &spec);

}  // namespace worldtune
