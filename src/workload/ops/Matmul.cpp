// matmul:M,N,K: C[M][N] = A[M][K] · B[K][N], row-major. In Halide order: C(n, m) = Σk A(k, m) · B(n, k).
#include "workload/OpRegistry.h"

namespace worldtune {

using namespace Halide;

const OpDef &matmul_op() {
    static const OpDef op = [] {
        OpDef d;
        d.name = "matmul";
        d.summary = "C[M][N] = A[M][K] * B[K][N] (row-major float32)";
        d.keys = {{"M"}, {"N"}, {"K"}};
        d.build = [](const WorkloadSpec &s, WorkloadBuilder &b) {
            const int M = s.integer("M"), N = s.integer("N"), K = s.integer("K");
            ImageParam A = b.input("A", {K, M});
            ImageParam B = b.input("B", {N, K});
            Var n("n"), m("m");
            RDom k(0, K, "k");
            Func acc("acc"), out("out");
            acc(n, m) = 0.0f;
            acc(n, m) += A(k, m) * B(n, k);
            out(n, m) = acc(n, m);
            b.func(acc, {N, M});
            b.output(out, {N, M});
        };
        d.reference = [](const WorkloadSpec &s, const std::vector<Buffer<float>> &in, const std::vector<int> &c) {
            const int K = s.integer("K");
            double sum = 0;
            for (int k = 0; k < K; k++) sum += double(in[0](k, c[1])) * in[1](c[0], k);
            return sum;
        };
        d.flops = [](const WorkloadSpec &s) { return 2.0 * s.integer("M") * s.integer("N") * s.integer("K"); };
        return d;
    }();
    return op;
}

}  // namespace worldtune
