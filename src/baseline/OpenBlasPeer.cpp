// OpenBLAS: cblas_sgemm on the workload's own row-major arrays (no copies).
//   matmul        one sgemm
//   batch_matmul  one sgemm per batch (trans_b=1: B transposed)
//   dense         the output rows are first filled with the bias, then sgemm with beta = 1 and W transposed,
//                 then the activation in one loop over the output split across the threads
#include "baseline/Peer.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>

namespace worldtune {

namespace {

/// The tanh approximation of GELU, as the workload's `act=gelu` computes it.
inline float gelu_tanh(float x) {
    return 0.5f * x * (1.0f + std::tanh(0.7978845608028654f * (x + 0.044715f * x * x * x)));
}

std::string openblas_reason(const WorkloadSpec &spec) {
    const std::string &op = spec.op();
    if (op == "matmul" || op == "batch_matmul" || op == "dense") return "";
    return no_routine_reason("OpenBLAS", op) + " (it runs matmul, batch_matmul, dense)";
}

PeerProgram openblas_prepare(const Workload &w, const std::vector<Halide::Buffer<float>> &in, Halide::Buffer<float> &out,
                             const BaselineParams &params) {
    const WorkloadSpec &s = w.spec;
    const int M = int(s.integer("M")), N = int(s.integer("N")), K = int(s.integer("K"));
    const float *A = in[0].data(), *B = in[1].data();
    float *C = out.data();
    PeerProgram program;
    if (s.op() == "matmul") {
        program.run = [=] { cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K, B, N, 0.0f, C, N); };
        program.detail = "cblas_sgemm";
    } else if (s.op() == "batch_matmul") {
        const int batches = int(s.integer("B"));
        const bool trans_b = s.text("trans_b") == "1";
        program.run = [=] {
            for (int b = 0; b < batches; b++)
                cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, M, N, K, 1.0f,
                            A + int64_t(b) * M * K, K, B + int64_t(b) * K * N, trans_b ? K : N, 0.0f,
                            C + int64_t(b) * M * N, N);
        };
        program.detail = "cblas_sgemm per batch";
    } else {  // dense: Y = act(X W^T + bias)
        const bool has_bias = s.text("bias") == "1";
        const float *bias = has_bias ? in[2].data() : nullptr;
        const std::string act = s.text("act");
        const int threads = params.threads;
        program.run = [=] {
            if (bias)
                for (int m = 0; m < M; m++) std::copy(bias, bias + N, C + int64_t(m) * N);
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, K, 1.0f, A, K, B, K, bias ? 1.0f : 0.0f, C, N);
            if (act == "none") return;
            parallel_chunks(int64_t(M) * N, threads, [&](int64_t begin, int64_t end) {
                if (act == "relu") {
                    for (int64_t i = begin; i < end; i++) C[i] = C[i] > 0.0f ? C[i] : 0.0f;
                } else {
                    for (int64_t i = begin; i < end; i++) C[i] = gelu_tanh(C[i]);
                }
            });
        };
        program.detail = std::string("bias copy + cblas_sgemm(W^T)") + (act == "none" ? "" : " + " + act + " loop");
    }
    return program;
}

}  // namespace

const Peer &openblas_peer() {
    static const Peer p = [] {
        Peer peer;
        peer.name = "openblas";
        peer.unavailable_reason = openblas_reason;
        peer.set_threads = [](int threads) { openblas_set_num_threads(threads); };
        peer.prepare = openblas_prepare;
        return peer;
    }();
    return p;
}

}  // namespace worldtune
