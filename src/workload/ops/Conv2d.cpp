// conv2d: a 2-D convolution, NCHW (default) or NHWC, with stride, zero padding, dilation, groups
// (groups=C is depthwise), optional bias and activation.
//
//   NCHW: input I[N][C][H][W], weights W[K][C/groups][R][S], output [N][K][Ho][Wo];
//         Halide order I(x, y, c, n), W(s, r, c, k), out(x, y, k, n); RDom r: r$x = s, r$y = r, r$z = c.
//   NHWC: input I[N][H][W][C], weights W[R][S][C/groups][K], output [N][Ho][Wo][K];
//         Halide order I(c, x, y, n), W(k, c, s, r), out(k, x, y, n); RDom r: r$x = c, r$y = s, r$z = r.
//
// Ho = (H + 2*pad - dilation*(R-1) - 1) / stride + 1 (Wo alike). When pad > 0 a Func `pad` holds the
// zero-padded input with its origin at the padded corner, so `acc` reads the same index expressions
// with or without padding. A 1x1 window at a stride reads the input through `sub`, its dense subsampled
// view (FuncInfo::view: inlined unless a schedule computes it). Stages: pad (if pad > 0), sub (if 1x1 and
// stride > 1), acc (the reduction), out (bias + activation).
#include "workload/OpRegistry.h"

namespace worldtune {

using namespace Halide;

namespace {

struct ConvShape {
    int N, C, H, W, K, R, S, stride, pad, dilation, groups;
    bool nhwc, bias;
    std::string act;
    int Ho, Wo;
    int Cg() const { return C / groups; }
    int Kg() const { return K / groups; }

    explicit ConvShape(const WorkloadSpec &s)
        : N(s.integer("N")), C(s.integer("C")), H(s.integer("H")), W(s.integer("W")), K(s.integer("K")),
          R(s.integer("R")), S(s.integer("S")), stride(s.integer("stride")), pad(s.integer("pad")),
          dilation(s.integer("dilation")), groups(s.integer("groups")), nhwc(s.text("layout") == "NHWC"),
          bias(s.text("bias") == "1"), act(s.text("act")),
          Ho(output_size(H, R, pad, dilation, stride)), Wo(output_size(W, S, pad, dilation, stride)) {}

    static int output_size(int64_t in, int64_t kernel, int64_t pad, int64_t dilation, int64_t stride) {
        const int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1;
        return span < 0 ? 0 : int(span / stride + 1);
    }
};

void validate(const WorkloadSpec &s) {
    const int64_t C = s.integer("C"), K = s.integer("K"), groups = s.integer("groups");
    if (C % groups != 0 || K % groups != 0)
        throw SpecError("conv2d: groups=" + std::to_string(groups) + " must divide C=" + std::to_string(C) +
                        " and K=" + std::to_string(K) + " in '" + s.canonical() + "'");
    ConvShape c(s);
    if (c.Ho <= 0 || c.Wo <= 0)
        throw SpecError("conv2d: output size " + std::to_string(c.Ho) + "x" + std::to_string(c.Wo) +
                        " is not positive (kernel larger than padded input) in '" + s.canonical() + "'");
}

void build(const WorkloadSpec &s, WorkloadBuilder &b) {
    const ConvShape c(s);
    ImageParam I = c.nhwc ? b.input("I", {c.C, c.W, c.H, c.N}) : b.input("I", {c.W, c.H, c.C, c.N});
    InputRef Wt = c.nhwc ? b.input("W", {c.K, c.Cg(), c.S, c.R}, InputRole::Weight) : b.input("W", {c.S, c.R, c.Cg(), c.K}, InputRole::Weight);
    Var x("x"), y("y"), k("k"), n("n"), ci("c");

    // The padded extents the output reads, counted from the padded origin.
    const int pad_w = (c.Wo - 1) * c.stride + c.dilation * (c.S - 1) + 1;
    const int pad_h = (c.Ho - 1) * c.stride + c.dilation * (c.R - 1) + 1;
    Func pad("pad");
    if (c.pad > 0) {
        Expr inside = x >= c.pad && x < c.W + c.pad && y >= c.pad && y < c.H + c.pad;
        Expr ix = clamp(x - c.pad, 0, c.W - 1), iy = clamp(y - c.pad, 0, c.H - 1);
        if (c.nhwc) {
            pad(ci, x, y, n) = select(inside, I(ci, ix, iy, n), 0.0f);
            b.func(pad, {c.C, pad_w, pad_h, c.N});
        } else {
            pad(x, y, ci, n) = select(inside, I(ix, iy, ci, n), 0.0f);
            b.func(pad, {pad_w, pad_h, c.C, c.N});
        }
    }
    auto padded = [&](Expr ch, Expr xe, Expr ye) -> Expr {
        if (c.pad > 0) return c.nhwc ? pad(ch, xe, ye, n) : pad(xe, ye, ch, n);
        return c.nhwc ? I(ch, xe, ye, n) : I(xe, ye, ch, n);
    };
    // A 1x1 window at a stride reads every stride-th pixel, each once: `sub` is that dense view. Inlined, the
    // program is the plain strided read; computed, the reduction reads a dense copy a fraction of the size.
    Func sub("sub");
    const bool subsampled = c.stride > 1 && c.R == 1 && c.S == 1;
    if (subsampled) {
        if (c.nhwc) {
            sub(ci, x, y, n) = padded(ci, x * c.stride, y * c.stride);
            b.view(sub, {c.C, c.Wo, c.Ho, c.N});
        } else {
            sub(x, y, ci, n) = padded(ci, x * c.stride, y * c.stride);
            b.view(sub, {c.Wo, c.Ho, c.C, c.N});
        }
    }
    // What window position (rx, ry) of output pixel (x, y) reads (rx, ry: the 1x1 window's own loops, at 0).
    auto source = [&](Expr ch, Expr rx, Expr ry) -> Expr {
        if (subsampled) return c.nhwc ? sub(ch, x + rx, y + ry, n) : sub(x + rx, y + ry, ch, n);
        return padded(ch, x * c.stride + rx * c.dilation, y * c.stride + ry * c.dilation);
    };

    Func acc("acc"), out("out");
    if (c.nhwc) {
        RDom r({{0, c.Cg()}, {0, c.S}, {0, c.R}}, "r");
        Expr ch = c.groups == 1 ? Expr(r.x) : (k / c.Kg()) * c.Cg() + r.x;
        acc(k, x, y, n) = 0.0f;
        acc(k, x, y, n) += source(ch, r.y, r.z) * Wt(k, r.x, r.y, r.z);
    } else {
        RDom r({{0, c.S}, {0, c.R}, {0, c.Cg()}}, "r");
        Expr ch = c.groups == 1 ? Expr(r.z) : (k / c.Kg()) * c.Cg() + r.z;
        acc(x, y, k, n) = 0.0f;
        acc(x, y, k, n) += source(ch, r.x, r.y) * Wt(r.x, r.y, r.z, k);
    }

    std::vector<Var> vars = c.nhwc ? std::vector<Var>{k, x, y, n} : std::vector<Var>{x, y, k, n};
    Expr value = acc(vars);
    if (c.bias) {
        InputRef bias = b.input("bias", {c.K}, InputRole::Weight);
        value = value + bias(k);
    }
    out(vars) = apply_activation(c.act, value);

    std::vector<int> shape = c.nhwc ? std::vector<int>{c.K, c.Wo, c.Ho, c.N} : std::vector<int>{c.Wo, c.Ho, c.K, c.N};
    b.func(acc, std::vector<int64_t>(shape.begin(), shape.end()));
    b.output(out, shape);
}

double reference(const WorkloadSpec &s, const std::vector<Buffer<float>> &in, const std::vector<int> &coord) {
    const ConvShape c(s);
    const int x = c.nhwc ? coord[1] : coord[0], y = c.nhwc ? coord[2] : coord[1];
    const int k = c.nhwc ? coord[0] : coord[2], n = coord[3];
    const int group = k / c.Kg();
    double sum = 0;
    for (int ch = 0; ch < c.Cg(); ch++)
        for (int r = 0; r < c.R; r++)
            for (int sx = 0; sx < c.S; sx++) {
                const int iy = y * c.stride + r * c.dilation - c.pad, ix = x * c.stride + sx * c.dilation - c.pad;
                if (iy < 0 || iy >= c.H || ix < 0 || ix >= c.W) continue;
                const int ic = group * c.Cg() + ch;
                const double v = c.nhwc ? in[0](ic, ix, iy, n) : in[0](ix, iy, ic, n);
                const double w = c.nhwc ? in[1](k, ch, sx, r) : in[1](sx, r, ch, k);
                sum += v * w;
            }
    if (c.bias) sum += in[2](k);
    return reference_activation(c.act, sum);
}

double flops(const WorkloadSpec &s) {
    const ConvShape c(s);
    const double outputs = double(c.N) * c.K * c.Ho * c.Wo;
    const double epilogue = (c.bias ? 1 : 0) + activation_flops(c.act);
    return outputs * (2.0 * c.Cg() * c.R * c.S + epilogue);
}

}  // namespace

const OpDef &conv2d_op() {
    static const OpDef op = [] {
        OpDef d;
        d.name = "conv2d";
        d.summary = "2-D convolution of I[N][C][H][W] by W[K][C/groups][R][S] (layout=NHWC: I[N][H][W][C], "
                    "W[R][S][C/groups][K]); stride, zero pad, dilation, groups (=C: depthwise), bias, act";
        d.keys = {{"N"}, {"C"}, {"H"}, {"W"}, {"K"}, {"R"}, {"S"},
                  {"stride", false, "1"},
                  {"pad", false, "0", {}, true},
                  {"dilation", false, "1"},
                  {"groups", false, "1"},
                  {"bias", false, "0", {"0", "1"}},
                  {"act", false, "none", {"none", "relu", "gelu"}},
                  {"layout", false, "NCHW", {"NCHW", "NHWC"}}};
        d.validate_keys = validate;
        d.build = build;
        d.reference = reference;
        d.flops = flops;
        return d;
    }();
    return op;
}

}  // namespace worldtune
