// libtorch 1.13's CPU operators, in inference mode, on tensors that view the workload's own arrays.
//   matmul torch::matmul; batch_matmul torch::bmm (trans_b: a transposed view, no copy);
//   dense torch::linear then relu_ / gelu(approximate "tanh"); conv2d torch::conv2d then the activation;
//   pool2d max_pool2d / avg_pool2d(count_include_pad); softmax torch::softmax; layernorm torch::layer_norm.
// NHWC conv: the input is viewed as [N][H][W][C] and permuted to a channels_last NCHW tensor (no copy);
// the weights [R][S][C/g][K] are permuted and made channels_last once, untimed. Each run allocates its
// result as torch code does; the copy into the Halide-order output happens after timing.
// This is the only file that includes <torch/torch.h> (it costs ~20 s and 1 GB to compile).
#include "baseline/Peer.h"

#include <torch/torch.h>

#include <cstdlib>
#include <cstring>

namespace worldtune {

namespace {

std::string libtorch_reason(const WorkloadSpec &spec) {
    if (spec.op() == "pool2d") {
        const int64_t pad = spec.integer("pad");
        if (2 * pad > spec.integer("R") || 2 * pad > spec.integer("S"))
            return "libtorch pooling needs pad <= half the window (pad=" + std::to_string(pad) + ")";
    }
    return "";
}

/// libtorch runs matmul-like ops on OpenBLAS (its own pthread pool) and everything else, the epilogues
/// of those ops included, on OpenMP. With both pools on two cores, OpenMP's spinning idle threads starve
/// OpenBLAS's: dense 256x1024x1024 + ReLU ran at ~25 GFLOP/s (erratic, 7-27 ms) under libgomp's default
/// wait policy and at ~135 with OMP_WAIT_POLICY=PASSIVE. Ops on oneDNN alone (conv2d) are the other way
/// round (~220 GFLOP/s by default, ~110 passive), so the policy is chosen per op.
std::vector<std::string> libtorch_environment(const WorkloadSpec &spec) {
    const std::string &op = spec.op();
    if (op == "matmul" || op == "batch_matmul" || op == "dense") return {"OMP_WAIT_POLICY=PASSIVE"};
    return {};
}

/// A tensor over a Halide buffer's memory with the row-major sizes of its (reversed) shape.
torch::Tensor view(const Halide::Buffer<float> &b) {
    std::vector<int64_t> sizes;
    for (int d = b.dimensions() - 1; d >= 0; d--) sizes.push_back(b.dim(d).extent());
    return torch::from_blob(const_cast<float *>(b.data()), sizes, torch::TensorOptions().dtype(torch::kFloat32));
}

torch::Tensor activate(const std::string &act, torch::Tensor t) {
    if (act == "relu") return t.relu_();
    if (act == "gelu") return torch::gelu(t, "tanh");
    return t;
}

PeerProgram libtorch_prepare(const Workload &w, const std::vector<Halide::Buffer<float>> &in, Halide::Buffer<float> &,
                             const BaselineParams &) {
    c10::InferenceMode guard;
    const WorkloadSpec &s = w.spec;
    const std::string &op = s.op();
    std::vector<torch::Tensor> t;
    for (const Halide::Buffer<float> &b : in) t.push_back(view(b));
    auto result = std::make_shared<torch::Tensor>();
    bool nhwc_result = false;
    std::function<torch::Tensor()> compute;
    std::string detail;

    if (op == "matmul") {
        compute = [t] { return torch::matmul(t[0], t[1]); };
        detail = "torch::matmul";
    } else if (op == "batch_matmul") {
        torch::Tensor rhs = s.text("trans_b") == "1" ? t[1].transpose(1, 2) : t[1];
        compute = [t, rhs] { return torch::bmm(t[0], rhs); };
        detail = "torch::bmm";
    } else if (op == "dense") {
        torch::Tensor bias = s.text("bias") == "1" ? t[2] : torch::Tensor();
        const std::string act = s.text("act");
        compute = [t, bias, act] { return activate(act, torch::linear(t[0], t[1], bias)); };
        detail = "torch::linear" + (act == "none" ? "" : " + " + act);
    } else if (op == "conv2d") {
        const bool nhwc = s.text("layout") == "NHWC";
        torch::Tensor input = t[0], weight = t[1];
        if (nhwc) {
            input = t[0].permute({0, 3, 1, 2});  // [N][H][W][C] memory as a channels_last NCHW tensor
            weight = t[1].permute({3, 2, 0, 1}).contiguous(torch::MemoryFormat::ChannelsLast);
            nhwc_result = true;
        }
        torch::Tensor bias = s.text("bias") == "1" ? t[2] : torch::Tensor();
        const int64_t stride = s.integer("stride"), pad = s.integer("pad"), dilation = s.integer("dilation");
        const int64_t groups = s.integer("groups");
        const std::string act = s.text("act");
        compute = [=] {
            return activate(act, torch::conv2d(input, weight, bias, {stride, stride}, {pad, pad}, {dilation, dilation}, groups));
        };
        detail = std::string("torch::conv2d") + (nhwc ? " channels_last" : "") + (act == "none" ? "" : " + " + act) +
                 (at::hasMKLDNN() ? ", mkldnn built in" : ", no mkldnn");
    } else if (op == "pool2d") {
        const int64_t R = s.integer("R"), S = s.integer("S"), stride = s.integer("stride"), pad = s.integer("pad");
        if (s.text("kind") == "max") {
            compute = [=] { return torch::max_pool2d(t[0], {R, S}, {stride, stride}, {pad, pad}); };
            detail = "torch::max_pool2d";
        } else {
            compute = [=] { return torch::avg_pool2d(t[0], {R, S}, {stride, stride}, {pad, pad}, false, true); };
            detail = "torch::avg_pool2d(count_include_pad)";
        }
    } else if (op == "softmax") {
        compute = [t] { return torch::softmax(t[0], 1); };
        detail = "torch::softmax";
    } else if (op == "layernorm") {
        const int64_t N = s.integer("N");
        compute = [t, N] { return torch::layer_norm(t[0], {N}, t[1], t[2], 1e-5, false); };
        detail = "torch::layer_norm";
    } else {
        throw std::runtime_error("libtorch peer: no operator for " + op);
    }

    PeerProgram program;
    program.run = [compute, result] {
        c10::InferenceMode run_guard;
        *result = compute();
    };
    program.finish = [result, nhwc_result](Halide::Buffer<float> &out) {
        torch::Tensor r = nhwc_result ? result->permute({0, 2, 3, 1}) : *result;
        r = r.contiguous();
        if (size_t(r.numel()) != out.number_of_elements())
            throw std::runtime_error("libtorch result has " + std::to_string(r.numel()) + " elements, expected " +
                                     std::to_string(out.number_of_elements()));
        std::memcpy(out.data(), r.data_ptr<float>(), out.size_in_bytes());
    };
    if (const char *policy = getenv("OMP_WAIT_POLICY")) detail += std::string(", OMP_WAIT_POLICY=") + policy;
    program.detail = detail;
    return program;
}

}  // namespace

const Peer &libtorch_peer() {
    static const Peer p = [] {
        Peer peer;
        peer.name = "libtorch";
        peer.unavailable_reason = libtorch_reason;
        peer.set_threads = [](int threads) {
            torch::set_num_threads(threads);
            try {
                torch::set_num_interop_threads(1);
            } catch (const c10::Error &) {
                // Already set in this process: the inter-op pool is unused by single operators anyway.
            }
        };
        peer.environment = libtorch_environment;
        peer.prepare = libtorch_prepare;
        return peer;
    }();
    return p;
}

}  // namespace worldtune
