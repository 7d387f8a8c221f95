// dense:M,N,K[,bias][,act]: Y[M][N] = act(X[M][K] · W[N][K]ᵀ + bias[N]), a fully connected layer.
// In Halide order: acc(n, m) = Σk X(k, m) · W(k, n); out(n, m) = act(acc(n, m) + bias(n)).
#include "workload/OpRegistry.h"

namespace worldtune {

using namespace Halide;

const OpDef &dense_op() {
    static const OpDef op = [] {
        OpDef d;
        d.name = "dense";
        d.summary = "Y[M][N] = act(X[M][K] * W[N][K]^T + bias[N]) (bias=0|1, act=none|relu|gelu)";
        d.keys = {{"M"}, {"N"}, {"K"}, {"bias", false, "0", {"0", "1"}}, {"act", false, "none", {"none", "relu", "gelu"}}};
        d.build = [](const WorkloadSpec &s, WorkloadBuilder &b) {
            const int M = s.integer("M"), N = s.integer("N"), K = s.integer("K");
            const bool has_bias = s.text("bias") == "1";
            ImageParam X = b.input("X", {K, M});
            InputRef W = b.input("W", {K, N}, InputRole::Weight);
            Var n("n"), m("m");
            RDom k(0, K, "k");
            Func acc("acc"), out("out");
            acc(n, m) = 0.0f;
            acc(n, m) += X(k, m) * W(k, n);
            Expr value = acc(n, m);
            if (has_bias) {
                InputRef bias = b.input("bias", {N}, InputRole::Weight);
                value = value + bias(n);
            }
            out(n, m) = apply_activation(s.text("act"), value);
            b.func(acc, {N, M});
            b.output(out, {N, M});
        };
        d.reference = [](const WorkloadSpec &s, const std::vector<Buffer<float>> &in, const std::vector<int> &c) {
            const int K = s.integer("K");
            double sum = 0;
            for (int k = 0; k < K; k++) sum += double(in[0](k, c[1])) * in[1](k, c[0]);
            if (s.text("bias") == "1") sum += in[2](c[0]);
            return reference_activation(s.text("act"), sum);
        };
        d.flops = [](const WorkloadSpec &s) {
            const double outputs = double(s.integer("M")) * s.integer("N");
            const double epilogue = (s.text("bias") == "1" ? 1 : 0) + activation_flops(s.text("act"));
            return outputs * (2.0 * s.integer("K") + epilogue);
        };
        return d;
    }();
    return op;
}

}  // namespace worldtune
