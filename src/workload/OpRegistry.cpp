// The registry of ops (all_ops, find_op) and the activations ops share.
#include "workload/OpRegistry.h"

#include <cmath>

namespace worldtune {

const std::vector<const OpDef *> &all_ops() {
    static const std::vector<const OpDef *> ops = {
        &matmul_op(),
        &batch_matmul_op(),
        &dense_op(),
        &conv2d_op(),
        &pool2d_op(),
        &softmax_op(),
        &layernorm_op(),
    };
    return ops;
}

const OpDef *find_op(const std::string &name) {
    for (const OpDef *op : all_ops())
        if (op->name == name) return op;
    return nullptr;
}

namespace {
constexpr double kGeluScale = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluCubic = 0.044715;
}  // namespace

Halide::Expr apply_activation(const std::string &act, Halide::Expr x) {
    if (act == "relu") return Halide::max(x, 0.0f);
    if (act == "gelu") {
        // 0.5 x (1 + tanh(u)) written as x / (1 + exp(-2u)), the same function: Halide's float exp is its
        // own vectorizable polynomial, while its tanh calls libm once per lane, which made a BERT FFN-up
        // layer 3x slower than oneDNN (docs/results/issue22-v6-zen5). Large |u| saturates to x or -0.
        Halide::Expr inner = float(kGeluScale) * (x + float(kGeluCubic) * x * x * x);
        return x / (1.0f + Halide::exp(-2.0f * inner));
    }
    return x;
}

double reference_activation(const std::string &act, double x) {
    if (act == "relu") return x > 0 ? x : 0;
    if (act == "gelu") return 0.5 * x * (1.0 + std::tanh(kGeluScale * (x + kGeluCubic * x * x * x)));
    return x;
}

double activation_flops(const std::string &act) {
    if (act == "relu") return 1;
    if (act == "gelu") return 8;
    return 0;
}

}  // namespace worldtune
