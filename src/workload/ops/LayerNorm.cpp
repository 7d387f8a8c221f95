// layernorm:M,N: Y[M][N] = (X - mean) / sqrt(var + 1e-5) * gamma[N] + beta[N], statistics over each row (N).
// In Halide order: mean(m) = Σk X(k, m) / N; var(m) = Σk (X(k, m) - mean(m))² / N (two passes, as stable
// as the reference); out(n, m) = (X(n, m) - mean(m)) / sqrt(var(m) + eps) * gamma(n) + beta(n).
// mean and var are reductions (RDom k), out is elementwise.
#include "workload/OpRegistry.h"

#include <cmath>

namespace worldtune {

using namespace Halide;

namespace {
constexpr double kEpsilon = 1e-5;
}  // namespace

const OpDef &layernorm_op() {
    static const OpDef op = [] {
        OpDef d;
        d.name = "layernorm";
        d.summary = "Y[M][N] = (X - mean) / sqrt(var + 1e-5) * gamma[N] + beta[N], over each row of X[M][N]";
        d.keys = {{"M"}, {"N"}};
        d.build = [](const WorkloadSpec &s, WorkloadBuilder &b) {
            const int M = s.integer("M"), N = s.integer("N");
            ImageParam X = b.input("X", {N, M});
            InputRef gamma = b.input("gamma", {N}, InputRole::Weight);
            InputRef beta = b.input("beta", {N}, InputRole::Weight);
            Var n("n"), m("m");
            RDom kmean(0, N, "k"), kvar(0, N, "k");
            const float inv_n = 1.0f / float(N);
            Func mean("mean"), var("var"), out("out");
            mean(m) = 0.0f;
            mean(m) += X(kmean, m) * inv_n;
            var(m) = 0.0f;
            var(m) += (X(kvar, m) - mean(m)) * (X(kvar, m) - mean(m)) * inv_n;
            out(n, m) = (X(n, m) - mean(m)) / sqrt(var(m) + float(kEpsilon)) * gamma(n) + beta(n);
            b.func(mean, {M});
            b.func(var, {M});
            b.output(out, {N, M});
        };
        d.reference = [](const WorkloadSpec &s, const std::vector<Buffer<float>> &in, const std::vector<int> &c) {
            const int N = s.integer("N");
            double mean = 0;
            for (int k = 0; k < N; k++) mean += in[0](k, c[1]);
            mean /= N;
            double var = 0;
            for (int k = 0; k < N; k++) var += (in[0](k, c[1]) - mean) * (in[0](k, c[1]) - mean);
            var /= N;
            return (in[0](c[0], c[1]) - mean) / std::sqrt(var + kEpsilon) * in[1](c[0]) + in[2](c[0]);
        };
        // Per element: mean 2 (multiply, add), var 4 (subtract, square, multiply, add), output 4; per row 3.
        d.flops = [](const WorkloadSpec &s) {
            const double M = s.integer("M"), N = s.integer("N");
            return 10.0 * M * N + 3.0 * M;
        };
        return d;
    }();
    return op;
}

}  // namespace worldtune
