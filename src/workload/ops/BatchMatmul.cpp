// batch_matmul:B,M,N,K[,trans_b]: C[b][M][N] = A[b][M][K] · Bmat[b][K][N] (or Bmat[b][N][K]ᵀ when trans_b=1).
// In Halide order: out(n, m, b) = Σk A(k, m, b) · Bmat(n, k, b), or Bmat(k, n, b) when transposed.
#include "workload/OpRegistry.h"

namespace worldtune {

using namespace Halide;

const OpDef &batch_matmul_op() {
    static const OpDef op = [] {
        OpDef d;
        d.name = "batch_matmul";
        d.summary = "C[B][M][N] = A[B][M][K] * Bmat[B][K][N] (trans_b=1: Bmat[B][N][K] transposed)";
        d.keys = {{"B"}, {"M"}, {"N"}, {"K"}, {"trans_b", false, "0", {"0", "1"}}};
        d.build = [](const WorkloadSpec &s, WorkloadBuilder &b) {
            const int Bn = s.integer("B"), M = s.integer("M"), N = s.integer("N"), K = s.integer("K");
            const bool trans_b = s.text("trans_b") == "1";
            ImageParam A = b.input("A", {K, M, Bn});
            ImageParam Bmat = trans_b ? b.input("Bmat", {K, N, Bn}) : b.input("Bmat", {N, K, Bn});
            Var n("n"), m("m"), bb("b");
            RDom k(0, K, "k");
            Func acc("acc"), out("out");
            acc(n, m, bb) = 0.0f;
            acc(n, m, bb) += A(k, m, bb) * (trans_b ? Bmat(k, n, bb) : Bmat(n, k, bb));
            out(n, m, bb) = acc(n, m, bb);
            b.func(acc, {N, M, Bn});
            b.output(out, {N, M, Bn});
        };
        d.reference = [](const WorkloadSpec &s, const std::vector<Buffer<float>> &in, const std::vector<int> &c) {
            const int K = s.integer("K");
            const bool trans_b = s.text("trans_b") == "1";
            double sum = 0;
            for (int k = 0; k < K; k++) {
                double rhs = trans_b ? in[1](k, c[0], c[2]) : in[1](c[0], k, c[2]);
                sum += double(in[0](k, c[1], c[2])) * rhs;
            }
            return sum;
        };
        d.flops = [](const WorkloadSpec &s) {
            return 2.0 * s.integer("B") * s.integer("M") * s.integer("N") * s.integer("K");
        };
        return d;
    }();
    return op;
}

}  // namespace worldtune
