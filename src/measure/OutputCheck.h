// The correctness check of a measured candidate: seeded random inputs, a choice of output points, and a
// comparison with the op's plain C++ reference at those points (never the whole reference of a big output).
#pragma once

#include "workload/Workload.h"

#include "Halide.h"

#include <cstdint>
#include <string>
#include <vector>

namespace worldtune {

constexpr int64_t kCheckAllPointsUpTo = 4096;  ///< outputs this small are checked at every point
constexpr int kRandomCheckPoints = 512;        ///< bigger outputs: this many seeded random points ...
constexpr int kEdgeCheckPointsPerSide = 4;     ///< ... plus every corner and, per dim and side, this many
                                               ///< random points with that dim at its first / last index

/// One buffer per input of `w`, in its shape and layout, uniform in [-1, 1] from `seed` (the same seed, the
/// same value at every coordinate, whatever the layout).
std::vector<Halide::Buffer<float>> random_inputs(const Workload &w, uint64_t seed);

/// The output points to check (Halide order), sorted and without duplicates.
std::vector<std::vector<int>> check_points(const std::vector<int> &shape, uint64_t seed);

/// The longest reduction of the workload: the largest product of one stage's reduction extents (1 if none).
int64_t reduction_length(const Workload &w);

struct CheckReport {
    bool ok = true;
    int checked = 0;
    int mismatches = 0;
    std::string first_mismatch;  ///< "out(3, 5) = 1.5 but reference 1.25 (|diff| 0.25 > tolerance 0.0013)"
};

/// Compares `output` with reference_at at check_points: a point passes when
/// |out - ref| <= atol * sqrt(reduction_length(w)) + rtol * |ref| (NaN never passes).
CheckReport check_output(const Workload &w, const std::vector<Halide::Buffer<float>> &inputs,
                         const Halide::Buffer<float> &output, double rtol, double atol, uint64_t seed);

}  // namespace worldtune
