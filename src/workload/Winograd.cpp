#include "workload/Winograd.h"

#include <stdexcept>
#include <string>

namespace worldtune {

namespace {

// F(2, 3): points 0, 1, -1 and infinity.
constexpr double kInput2[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
constexpr double kKernel2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
constexpr double kOutput2[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

// F(4, 3): points 0, 1, -1, 2, -2 and infinity.
constexpr double kInput4[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                                  {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
constexpr double kKernel4[6][3] = {{1.0 / 4, 0, 0},
                                   {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                   {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                   {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                   {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                   {0, 0, 1}};
constexpr double kOutput4[4][6] = {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};

void check_tile(int m) {
    if (!is_winograd_tile(m)) throw std::invalid_argument("no Winograd transform F(" + std::to_string(m) + ", 3) (known: 2, 4)");
}

}  // namespace

const std::vector<int> &winograd_tiles() {
    static const std::vector<int> tiles = {2, 4};
    return tiles;
}

bool is_winograd_tile(int m) { return m == 2 || m == 4; }

double winograd_input_coefficient(int m, int xi, int a) {
    check_tile(m);
    return m == 2 ? kInput2[xi][a] : kInput4[xi][a];
}

double winograd_kernel_coefficient(int m, int xi, int r) {
    check_tile(m);
    return m == 2 ? kKernel2[xi][r] : kKernel4[xi][r];
}

double winograd_output_coefficient(int m, int i, int xi) {
    check_tile(m);
    return m == 2 ? kOutput2[i][xi] : kOutput4[i][xi];
}

Halide::Buffer<float> winograd_weights(const Halide::Buffer<float> &weights, int m) {
    check_tile(m);
    if (weights.dimensions() != 4 || weights.dim(0).extent() != 3 || weights.dim(1).extent() != 3)
        throw std::invalid_argument("a Winograd F(m, 3) transform takes 3x3 weights W(s, r, c, k)");
    const int alpha = m + 2, channels = weights.dim(2).extent(), outputs = weights.dim(3).extent();
    Halide::Buffer<float> u(outputs, channels, alpha, alpha);
    for (int k = 0; k < outputs; k++)
        for (int c = 0; c < channels; c++)
            for (int xi = 0; xi < alpha; xi++)
                for (int nu = 0; nu < alpha; nu++) {
                    double sum = 0;
                    for (int s = 0; s < 3; s++)
                        for (int r = 0; r < 3; r++)
                            sum += winograd_kernel_coefficient(m, xi, s) * winograd_kernel_coefficient(m, nu, r) *
                                   double(weights(s + weights.dim(0).min(), r + weights.dim(1).min(), c + weights.dim(2).min(),
                                                  k + weights.dim(3).min()));
                    u(k, c, xi, nu) = float(sum);
                }
    return u;
}

std::map<int, std::unique_ptr<Workload>> winograd_forms(const WorkloadSpec &spec) {
    std::map<int, std::unique_ptr<Workload>> forms;
    for (int m : winograd_tiles()) {
        try {
            forms[m] = build_workload(spec, BuildChoices{{}, m});
        } catch (const SpecError &) {
            // no Winograd form of this spec
        }
    }
    return forms;
}

}  // namespace worldtune
