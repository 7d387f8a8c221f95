// pool2d:N,C,H,W,R,S[,stride][,pad][,kind]: max or average pooling of I[N][C][H][W] over R x S windows.
// In Halide order: I(x, y, c, n), out(x, y, c, n); RDom r: r$x over S, r$y over R.
// Stages: pad (if pad > 0; the padded input with its origin at the padded corner, filled with -inf for
// max and 0 for avg), acc (the window reduction), out (acc, or acc / (R*S) for avg: count_include_pad).
#include "workload/OpRegistry.h"

#include <algorithm>
#include <limits>

namespace worldtune {

using namespace Halide;

namespace {

struct PoolShape {
    int N, C, H, W, R, S, stride, pad;
    bool is_max;
    int Ho, Wo;

    explicit PoolShape(const WorkloadSpec &s)
        : N(s.integer("N")), C(s.integer("C")), H(s.integer("H")), W(s.integer("W")), R(s.integer("R")),
          S(s.integer("S")), stride(s.integer("stride")), pad(s.integer("pad")), is_max(s.text("kind") == "max"),
          Ho(output_size(H, R, pad, stride)), Wo(output_size(W, S, pad, stride)) {}

    static int output_size(int64_t in, int64_t kernel, int64_t pad, int64_t stride) {
        const int64_t span = in + 2 * pad - kernel;
        return span < 0 ? 0 : int(span / stride + 1);
    }
};

void validate(const WorkloadSpec &s) {
    const PoolShape p(s);
    // A window made only of padding would have no defined maximum.
    if (p.pad >= p.R || p.pad >= p.S)
        throw SpecError("pool2d: pad=" + std::to_string(p.pad) + " must be smaller than the window " +
                        std::to_string(p.R) + "x" + std::to_string(p.S) + " in '" + s.canonical() + "'");
    if (p.Ho <= 0 || p.Wo <= 0)
        throw SpecError("pool2d: output size " + std::to_string(p.Ho) + "x" + std::to_string(p.Wo) +
                        " is not positive (window larger than padded input) in '" + s.canonical() + "'");
}

void build(const WorkloadSpec &s, WorkloadBuilder &b) {
    const PoolShape p(s);
    const float fill = p.is_max ? -std::numeric_limits<float>::infinity() : 0.0f;
    ImageParam I = b.input("I", {p.W, p.H, p.C, p.N});
    Var x("x"), y("y"), c("c"), n("n");

    Func pad("pad");
    if (p.pad > 0) {
        Expr inside = x >= p.pad && x < p.W + p.pad && y >= p.pad && y < p.H + p.pad;
        pad(x, y, c, n) = select(inside, I(clamp(x - p.pad, 0, p.W - 1), clamp(y - p.pad, 0, p.H - 1), c, n), fill);
        b.func(pad, {(p.Wo - 1) * p.stride + p.S, (p.Ho - 1) * p.stride + p.R, p.C, p.N});
    }
    RDom r({{0, p.S}, {0, p.R}}, "r");
    Expr xe = x * p.stride + r.x, ye = y * p.stride + r.y;
    Expr v = p.pad > 0 ? pad(xe, ye, c, n) : I(xe, ye, c, n);

    Func acc("acc"), out("out");
    acc(x, y, c, n) = fill;
    if (p.is_max)
        acc(x, y, c, n) = max(acc(x, y, c, n), v);
    else
        acc(x, y, c, n) += v;
    out(x, y, c, n) = p.is_max ? acc(x, y, c, n) : acc(x, y, c, n) * (1.0f / float(p.R * p.S));
    b.func(acc, {p.Wo, p.Ho, p.C, p.N});
    b.output(out, {p.Wo, p.Ho, p.C, p.N});
}

double reference(const WorkloadSpec &s, const std::vector<Buffer<float>> &in, const std::vector<int> &coord) {
    const PoolShape p(s);
    const int x = coord[0], y = coord[1], c = coord[2], n = coord[3];
    double result = p.is_max ? -std::numeric_limits<double>::infinity() : 0.0;
    for (int r = 0; r < p.R; r++)
        for (int sx = 0; sx < p.S; sx++) {
            const int iy = y * p.stride + r - p.pad, ix = x * p.stride + sx - p.pad;
            const bool inside = iy >= 0 && iy < p.H && ix >= 0 && ix < p.W;
            if (p.is_max) {
                if (inside) result = std::max(result, double(in[0](ix, iy, c, n)));
            } else if (inside) {
                result += in[0](ix, iy, c, n);
            }
        }
    return p.is_max ? result : result / (p.R * p.S);
}

double flops(const WorkloadSpec &s) {
    const PoolShape p(s);
    const double outputs = double(p.N) * p.C * p.Ho * p.Wo;
    return outputs * (double(p.R) * p.S + (p.is_max ? 0 : 1));
}

}  // namespace

const OpDef &pool2d_op() {
    static const OpDef op = [] {
        OpDef d;
        d.name = "pool2d";
        d.summary = "R x S max or average pooling of I[N][C][H][W] with stride and pad (avg counts padding)";
        d.keys = {{"N"}, {"C"}, {"H"}, {"W"}, {"R"}, {"S"},
                  {"stride", false, "1"},
                  {"pad", false, "0", {}, true},
                  {"kind", false, "max", {"max", "avg"}}};
        d.validate_keys = validate;
        d.build = build;
        d.reference = reference;
        d.flops = flops;
        return d;
    }();
    return op;
}

}  // namespace worldtune
