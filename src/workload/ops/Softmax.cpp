// softmax:M,N: row-wise softmax of X[M][N] over N, numerically stable (the row max is subtracted).
// In Halide order: rowmax(m) = max_k X(k, m); expv(n, m) = exp(X(n, m) - rowmax(m));
// rowsum(m) = Σk expv(k, m); out(n, m) = expv(n, m) / rowsum(m). rowmax and rowsum are reductions
// (RDom k), expv and out are elementwise.
#include "workload/OpRegistry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace worldtune {

using namespace Halide;

const OpDef &softmax_op() {
    static const OpDef op = [] {
        OpDef d;
        d.name = "softmax";
        d.summary = "Y[M][N] = softmax of each row of X[M][N] (over N, max-subtracted)";
        d.keys = {{"M"}, {"N"}};
        d.build = [](const WorkloadSpec &s, WorkloadBuilder &b) {
            const int M = s.integer("M"), N = s.integer("N");
            ImageParam X = b.input("X", {N, M});
            Var n("n"), m("m");
            RDom kmax(0, N, "k"), ksum(0, N, "k");
            Func rowmax("rowmax"), expv("expv"), rowsum("rowsum"), out("out");
            rowmax(m) = -std::numeric_limits<float>::infinity();
            rowmax(m) = max(rowmax(m), X(kmax, m));
            expv(n, m) = exp(X(n, m) - rowmax(m));
            rowsum(m) = 0.0f;
            rowsum(m) += expv(ksum, m);
            out(n, m) = expv(n, m) / rowsum(m);
            b.func(rowmax, {M});
            b.func(expv, {N, M});
            b.func(rowsum, {M});
            b.output(out, {N, M});
        };
        d.reference = [](const WorkloadSpec &s, const std::vector<Buffer<float>> &in, const std::vector<int> &c) {
            const int N = s.integer("N");
            double row_max = -std::numeric_limits<double>::infinity();
            for (int k = 0; k < N; k++) row_max = std::max(row_max, double(in[0](k, c[1])));
            double sum = 0;
            for (int k = 0; k < N; k++) sum += std::exp(double(in[0](k, c[1])) - row_max);
            return std::exp(double(in[0](c[0], c[1])) - row_max) / sum;
        };
        // Per element: max, subtract, exp, add, divide (exp counted as one operation).
        d.flops = [](const WorkloadSpec &s) { return 5.0 * s.integer("M") * s.integer("N"); };
        return d;
    }();
    return op;
}

}  // namespace worldtune
