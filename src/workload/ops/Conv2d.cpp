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
//
// Winograd (a `WG` action, BuildChoices::winograd_tile = m; a dense 3x3 NCHW window at stride 1 only): the
// output in m x m tiles (tx, ty), the weights passed transformed, W as U(k, c, xi, nu) (workload/Winograd.h).
// Stages: pad(c, x, y, n), the zero-padded input with channels innermost (inlined, it reads the caller's
// NCHW input; computed, it is a layout transform); wino_in(tx, ty, c, xi, nu, n) = Bᵀ d B of each input
// tile (the channels it reads densely are stored innermost when the constant-tensor rule vectorizes them);
// acc(k, tx, ty, n, xi, nu) = Σ_c U(k, c, xi, nu) wino_in(tx, ty, c, xi, nu, n), one matrix product per
// transformed position (outermost, so a root schedule's parallel loop runs over them); wino_out(k, i, j, tx,
// ty, n) = Aᵀ acc A; out(x, y, k, n) reads it back in NCHW
// order, with bias and activation. xi, nu of wino_in and i, j of wino_out index the transforms' constant
// matrices (FuncInfo::constant_index_dims). The last tiles reach past the output; the padded input is zero
// there and the extra outputs are never read.
#include "workload/OpRegistry.h"
#include "workload/Winograd.h"

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

/// Σ coefficient × term over the terms whose coefficient is not zero (0 when none is).
Expr linear_combination(const std::vector<double> &coefficients, const std::vector<Expr> &terms) {
    Expr sum;
    for (size_t i = 0; i < terms.size(); i++) {
        const double w = coefficients[i];
        if (w == 0) continue;
        const Expr term = w == 1 ? terms[i] : w == -1 ? -terms[i] : Expr(float(w)) * terms[i];
        sum = sum.defined() ? sum + term : term;
    }
    return sum.defined() ? sum : Expr(0.0f);
}

/// One value per choice of `index` in [0, count): the choice's own expression once `index` is a constant
/// (an unrolled loop), which the simplifier folds.
Expr per_index(const Expr &index, int count, const std::function<Expr(int)> &value) {
    std::vector<Expr> values;
    for (int i = 0; i < count; i++) values.push_back(value(i));
    return mux(index, values);
}

/// Whether a convolution has a Winograd form here: a dense 3x3 window at stride 1, without dilation or
/// groups, in NCHW.
bool winograd_fits(const ConvShape &c) {
    return !c.nhwc && c.groups == 1 && c.stride == 1 && c.dilation == 1 && c.R == 3 && c.S == 3;
}

void build_winograd(const ConvShape &c, int m, WorkloadBuilder &b) {
    const int alpha = m + 2, tiles_x = (c.Wo + m - 1) / m, tiles_y = (c.Ho + m - 1) / m;
    ImageParam I = b.input("I", {c.W, c.H, c.C, c.N});
    ImageParam U = b.transformed_weight("W", {c.S, c.R, c.C, c.K}, m);
    Var x("x"), y("y"), k("k"), n("n"), ci("c"), tx("tx"), ty("ty"), xi("xi"), nu("nu"), i("i"), j("j");

    Func pad("pad");
    Expr inside = x >= c.pad && x < c.W + c.pad && y >= c.pad && y < c.H + c.pad;
    pad(ci, x, y, n) = select(inside, I(clamp(x - c.pad, 0, c.W - 1), clamp(y - c.pad, 0, c.H - 1), ci, n), 0.0f);
    b.func(pad, {c.C, tiles_x * m + 2, tiles_y * m + 2, c.N});

    // Bᵀ d B: rows of the tile transformed along x (xi), then those along y (nu).
    Func in("wino_in");
    auto along_x = [&](int row) {
        return per_index(xi, alpha, [&](int to) {
            std::vector<double> w;
            std::vector<Expr> d;
            for (int a = 0; a < alpha; a++) w.push_back(winograd_input_coefficient(m, to, a)), d.push_back(pad(ci, tx * m + a, ty * m + row, n));
            return linear_combination(w, d);
        });
    };
    std::vector<Expr> rows;
    for (int row = 0; row < alpha; row++) rows.push_back(along_x(row));
    in(tx, ty, ci, xi, nu, n) = per_index(nu, alpha, [&](int to) {
        std::vector<double> w;
        for (int row = 0; row < alpha; row++) w.push_back(winograd_input_coefficient(m, to, row));
        return linear_combination(w, rows);
    });
    b.func(in, {tiles_x, tiles_y, c.C, alpha, alpha, c.N}, {"xi", "nu"});

    Func acc("acc");
    RDom r(0, c.C, "r");
    acc(k, tx, ty, n, xi, nu) = 0.0f;
    acc(k, tx, ty, n, xi, nu) += U(k, r, xi, nu) * in(tx, ty, r, xi, nu, n);
    b.func(acc, {c.K, tiles_x, tiles_y, c.N, alpha, alpha});

    // Aᵀ M A: along xi into i, then along nu into j.
    Func tile_out("wino_out");
    tile_out(k, i, j, tx, ty, n) = per_index(j, m, [&](int to_j) {
        std::vector<double> wj;
        std::vector<Expr> cols;
        for (int v = 0; v < alpha; v++) {
            wj.push_back(winograd_output_coefficient(m, to_j, v));
            cols.push_back(per_index(i, m, [&](int to_i) {
                std::vector<double> wi;
                std::vector<Expr> ms;
                for (int u = 0; u < alpha; u++) wi.push_back(winograd_output_coefficient(m, to_i, u)), ms.push_back(acc(k, tx, ty, n, u, v));
                return linear_combination(wi, ms);
            }));
        }
        return linear_combination(wj, cols);
    });
    b.func(tile_out, {c.K, m, m, tiles_x, tiles_y, c.N}, {"i", "j"});

    Func out("out");
    Expr value = tile_out(k, x % m, y % m, x / m, y / m, n);
    if (c.bias) {
        InputRef bias = b.input("bias", {c.K}, InputRole::Weight);
        value = value + bias(k);
    }
    out(x, y, k, n) = apply_activation(c.act, value);
    b.output(out, {c.Wo, c.Ho, c.K, c.N});
}

void build(const WorkloadSpec &s, WorkloadBuilder &b) {
    const ConvShape c(s);
    if (b.winograd_tile() > 0) {
        if (!winograd_fits(c)) throw SpecError("no Winograd form of " + s.canonical() + ": only a dense 3x3 NCHW convolution at stride 1 has one");
        return build_winograd(c, b.winograd_tile(), b);
    }
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
