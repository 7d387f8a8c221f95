// OpenBLAS: cblas_sgemm on the workload's own row-major arrays (no copies).
//   matmul        one sgemm
//   batch_matmul  one sgemm per batch (trans_b=1: B transposed)
//   dense         sgemm with W transposed, then bias and activation in one loop over the output rows,
//                 split across the threads
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
    const std::string core = std::string(" (OpenBLAS core ") + openblas_get_corename() + ")";
    if (s.op() == "matmul") {
        program.run = [=] { cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K, B, N, 0.0f, C, N); };
        program.detail = "cblas_sgemm" + core;
    } else if (s.op() == "batch_matmul") {
        const int batches = int(s.integer("B"));
        const bool trans_b = s.text("trans_b") == "1";
        program.run = [=] {
            for (int b = 0; b < batches; b++)
                cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, M, N, K, 1.0f,
                            A + int64_t(b) * M * K, K, B + int64_t(b) * K * N, trans_b ? K : N, 0.0f,
                            C + int64_t(b) * M * N, N);
        };
        program.detail = "cblas_sgemm per batch" + core;
    } else {  // dense: Y = act(X W^T + bias)
        const bool has_bias = s.text("bias") == "1";
        const float *bias = has_bias ? in[2].data() : nullptr;
        const std::string act = s.text("act");
        const int threads = params.threads;
        program.run = [=] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, K, 1.0f, A, K, B, K, 0.0f, C, N);
            if (!bias && act == "none") return;
            // The epilogue in one pass over the rows, split across the threads as the sgemm was.
            parallel_chunks(M, threads, [&](int64_t m_begin, int64_t m_end) {
                for (int64_t m = m_begin; m < m_end; m++) {
                    float *row = C + m * N;
                    if (bias)
                        for (int n = 0; n < N; n++) row[n] += bias[n];
                    if (act == "relu")
                        for (int n = 0; n < N; n++) row[n] = row[n] > 0.0f ? row[n] : 0.0f;
                    else if (act == "gelu")
                        for (int n = 0; n < N; n++) row[n] = gelu_tanh(row[n]);
                }
            });
        };
        program.detail = std::string("cblas_sgemm(W^T)") + (bias ? " + bias" : "") + (act == "none" ? "" : " + " + act) +
                         (bias || act != "none" ? " loop" : "") + core;
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
