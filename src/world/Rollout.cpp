#include "world/Rollout.h"

#include "common/Hash.h"
#include "world/Windows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace worldtune {

namespace {

constexpr char kMagic[8] = {'W', 'T', 'R', 'O', 'L', 'L', '0', '3'};  ///< 03: action contexts, state-reading step
constexpr size_t kMaxCachedActions = size_t(1) << 20;  ///< the cache is cleared when it grows past this

void write_vector(std::ofstream &out, const std::vector<float> &v) {
    const uint64_t n = v.size();
    out.write(reinterpret_cast<const char *>(&n), sizeof n);
    out.write(reinterpret_cast<const char *>(v.data()), std::streamsize(n * sizeof(float)));
}

std::vector<float> read_vector(std::ifstream &in, uint64_t expected, const std::string &path) {
    uint64_t n = 0;
    in.read(reinterpret_cast<char *>(&n), sizeof n);
    if (!in || n != expected) throw std::runtime_error("transition tables " + path + ": truncated or inconsistent file");
    std::vector<float> v(n);
    in.read(reinterpret_cast<char *>(v.data()), std::streamsize(n * sizeof(float)));
    if (!in) throw std::runtime_error("transition tables " + path + ": truncated file");
    return v;
}

float gelu(float x) { return 0.5f * x * (1.0f + std::erf(x / std::sqrt(2.0f))); }

/// tanh by a [7/6] Pade approximant (absolute error below 1e-6 where it is not clamped to +-1).
inline float fast_tanh(float x) {
    x = std::min(std::max(x, -4.97f), 4.97f);  // branch-free, so loops over it vectorize
    const float x2 = x * x;
    const float num = x * (135135.0f + x2 * (17325.0f + x2 * (378.0f + x2)));
    const float den = 135135.0f + x2 * (62370.0f + x2 * (3150.0f + x2 * 28.0f));
    return std::min(std::max(num / den, -1.0f), 1.0f);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WORLDTUNE_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define WORLDTUNE_VECTOR_CLONES
#endif

/// 16 floats as one GCC vector: each clone of the functions below lowers it to its widest registers (one
/// zmm with AVX-512, two ymm with AVX2, four xmm otherwise), so the arithmetic is vectorized on every
/// target without intrinsics and without depending on the auto-vectorizer.
typedef float Lanes __attribute__((vector_size(64), aligned(4), may_alias));  ///< aligned(4): loads need no alignment
constexpr int kLanes = 16;

/// The 16 floats at p as one vector (a reference, so no vector crosses a call boundary).
inline const Lanes &lanes_at(const float *p) { return *reinterpret_cast<const Lanes *>(p); }
inline Lanes &lanes_at(float *p) { return *reinterpret_cast<Lanes *>(p); }

/// y = p + C^T s with C given as [R, D]: each y[i] sums p[i], then j = 0..R-1 in order. Four blocks of
/// 16 outputs stay in registers over the whole sum (four independent chains).
WORLDTUNE_VECTOR_CLONES
void corrected(const float *__restrict p, const float *__restrict C, const float *__restrict s, int R, int D, float *__restrict y) {
    int i0 = 0;
    for (; i0 + 4 * kLanes <= D; i0 += 4 * kLanes) {
        Lanes a0 = lanes_at(p + i0), a1 = lanes_at(p + i0 + kLanes), a2 = lanes_at(p + i0 + 2 * kLanes),
              a3 = lanes_at(p + i0 + 3 * kLanes);
        for (int j = 0; j < R; j++) {
            const float sj = s[j];
            const float *row = C + size_t(j) * size_t(D) + size_t(i0);
            a0 += sj * lanes_at(row);
            a1 += sj * lanes_at(row + kLanes);
            a2 += sj * lanes_at(row + 2 * kLanes);
            a3 += sj * lanes_at(row + 3 * kLanes);
        }
        lanes_at(y + i0) = a0;
        lanes_at(y + i0 + kLanes) = a1;
        lanes_at(y + i0 + 2 * kLanes) = a2;
        lanes_at(y + i0 + 3 * kLanes) = a3;
    }
    for (; i0 + kLanes <= D; i0 += kLanes) {
        Lanes a = lanes_at(p + i0);
        for (int j = 0; j < R; j++) a += s[j] * lanes_at(C + size_t(j) * size_t(D) + size_t(i0));
        lanes_at(y + i0) = a;
    }
    for (; i0 < D; i0++) {
        float a = p[i0];
        for (int j = 0; j < R; j++) a += s[j] * C[size_t(j) * size_t(D) + size_t(i0)];
        y[i0] = a;
    }
}

/// y = W x + b with W stored transposed, Wt [in, out] (b not null): blocks of outputs stay in registers
/// over the whole sum over the inputs, each output summed b, then i = 0..in-1 in order.
inline void affine_t(const float *__restrict Wt, const float *__restrict b, const float *__restrict x, int in, int out, float *__restrict y) {
    corrected(b, Wt, x, in, out, y);
}

/// a . b in 16 partial sums (one vector of lanes), added up in lane order at the end.
WORLDTUNE_VECTOR_CLONES
float dot(const float *__restrict a, const float *__restrict b, int n) {
    Lanes part = {};
    int i = 0;
    for (; i + kLanes <= n; i += kLanes) part += lanes_at(a + i) * lanes_at(b + i);
    float sum = 0;
    for (int k = 0; k < kLanes; k++) sum += part[k];
    for (; i < n; i++) sum += a[i] * b[i];
    return sum;
}

/// The [rows, cols] matrix transposed to [cols, rows].
std::vector<float> transposed(const std::vector<float> &m, int rows, int cols) {
    std::vector<float> t(m.size());
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) t[size_t(c) * size_t(rows) + size_t(r)] = m[size_t(r) * size_t(cols) + size_t(c)];
    return t;
}

uint64_t context_hash(uint64_t h, const ActionContext &c) {
    for (float v : c) {
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        h = mix64(h, bits);
    }
    return h;
}

}  // namespace

void RolloutTables::save(const std::string &path) const {
    std::ofstream out(path, std::ios::binary);
    out.write(kMagic, sizeof kMagic);
    const int32_t header[8] = {d_model, action_dim, action_hidden, max_tokens, vocab, perf_hidden, state_rank, action_context ? 1 : 0};
    out.write(reinterpret_cast<const char *>(header), sizeof header);
    out.write(reinterpret_cast<const char *>(&residual_scale), sizeof residual_scale);
    for (const std::vector<float> *v : {&tokens, &positions, &context_w, &context_b, &hidden_w, &hidden_b, &w_w, &w_b, &d_w, &d_b,
                                        &g_w, &g_b, &state_z_w, &state_h_w, &state_h_b, &state_w_w, &state_d_w, &state_g_w,
                                        &perf_hidden_w, &perf_hidden_b, &perf_out_w, &perf_out_b})
        write_vector(out, *v);
    if (!out) throw std::runtime_error("transition tables: cannot write " + path);
}

RolloutTables RolloutTables::load(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("transition tables " + path + " not found");
    char magic[8];
    in.read(magic, sizeof magic);
    if (!in || std::string(magic, 8) != std::string(kMagic, 8))
        throw std::runtime_error("transition tables " + path + ": not a worldtune transition file of this version (retrain the bundle)");
    int32_t h[8];
    in.read(reinterpret_cast<char *>(h), sizeof h);
    RolloutTables t;
    t.d_model = h[0], t.action_dim = h[1], t.action_hidden = h[2], t.max_tokens = h[3], t.vocab = h[4], t.perf_hidden = h[5];
    t.state_rank = h[6], t.action_context = h[7] != 0;
    in.read(reinterpret_cast<char *>(&t.residual_scale), sizeof t.residual_scale);
    if (!in || t.d_model <= 0 || t.action_dim <= 0 || t.action_hidden <= 0 || t.max_tokens <= 0 || t.vocab <= 0 || t.perf_hidden <= 0 ||
        t.state_rank < 0 || t.state_rank > 4096)
        throw std::runtime_error("transition tables " + path + ": bad header");
    const uint64_t D = uint64_t(t.d_model), A = uint64_t(t.action_dim), H = uint64_t(t.action_hidden), R = uint64_t(t.state_rank),
                   K = kActionContextFeatures;
    t.tokens = read_vector(in, uint64_t(t.vocab) * A, path);
    t.positions = read_vector(in, uint64_t(t.max_tokens) * A, path);
    t.context_w = read_vector(in, A * K, path);
    t.context_b = read_vector(in, A, path);
    t.hidden_w = read_vector(in, H * A, path);
    t.hidden_b = read_vector(in, H, path);
    t.w_w = read_vector(in, D * H, path);
    t.w_b = read_vector(in, D, path);
    t.d_w = read_vector(in, D * H, path);
    t.d_b = read_vector(in, D, path);
    t.g_w = read_vector(in, D * H, path);
    t.g_b = read_vector(in, D, path);
    t.state_z_w = read_vector(in, R * D, path);
    t.state_h_w = read_vector(in, R * H, path);
    t.state_h_b = read_vector(in, R, path);
    t.state_w_w = read_vector(in, D * R, path);
    t.state_d_w = read_vector(in, D * R, path);
    t.state_g_w = read_vector(in, D * R, path);
    const uint64_t P = uint64_t(t.perf_hidden);
    t.perf_hidden_w = read_vector(in, P * D, path);
    t.perf_hidden_b = read_vector(in, P, path);
    t.perf_out_w = read_vector(in, P, path);
    t.perf_out_b = read_vector(in, 1, path);
    return t;
}

Rollout::Rollout(RolloutTables tables, const Tokenizer &tokenizer) : tables_(std::move(tables)), tokenizer_(tokenizer) {
    if (tokenizer_.vocab_size() != tables_.vocab)
        throw std::runtime_error("transition tables were trained with a vocabulary of " + std::to_string(tables_.vocab) +
                                 " words, the tokenizer has " + std::to_string(tokenizer_.vocab_size()));
    const int D = tables_.d_model, R = tables_.state_rank;
    e_.resize(size_t(tables_.action_dim));
    h_.resize(size_t(tables_.action_hidden));
    p_.resize(size_t(tables_.perf_hidden));
    s_.resize(size_t(R));
    w_.resize(size_t(D));
    g_.resize(size_t(D));
    d_.resize(size_t(D));
    const int A = tables_.action_dim, H = tables_.action_hidden, P = tables_.perf_hidden;
    t_.context = transposed(tables_.context_w, A, kActionContextFeatures);
    t_.hidden = transposed(tables_.hidden_w, H, A);
    t_.w = transposed(tables_.w_w, D, H);
    t_.d = transposed(tables_.d_w, D, H);
    t_.g = transposed(tables_.g_w, D, H);
    t_.perf = transposed(tables_.perf_hidden_w, P, D);
    if (R > 0) {
        t_.state_h = transposed(tables_.state_h_w, R, H);
        t_.state_z = transposed(tables_.state_z_w, R, D);
        state_w_t_ = transposed(tables_.state_w_w, D, R);
        state_d_t_ = transposed(tables_.state_d_w, D, R);
        state_g_t_ = transposed(tables_.state_g_w, D, R);
    }
}

uint64_t Rollout::key_of(uint64_t hash, const ActionContext *context) const {
    const bool with_context = tables_.action_context && context;
    return with_context ? context_hash(hash, *context) : hash;
}

const Rollout::Params &Rollout::params_of(uint64_t key, const Action &action, const ActionContext *context) {
    const bool with_context = tables_.action_context && context;
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    if (cache_.size() >= kMaxCachedActions) cache_.clear();
    const int A = tables_.action_dim, H = tables_.action_hidden, D = tables_.d_model, R = tables_.state_rank;
    const std::vector<int32_t> ids = action_ids(tokenizer_, action, tables_.max_tokens);
    std::fill(e_.begin(), e_.end(), 0.0f);
    for (size_t p = 0; p < ids.size(); p++) {
        const float *tok = &tables_.tokens[size_t(ids[p]) * size_t(A)];
        const float *pos = &tables_.positions[p * size_t(A)];
        for (int i = 0; i < A; i++) e_[size_t(i)] += tok[i] + pos[i];
    }
    if (!ids.empty())
        for (float &v : e_) v /= float(ids.size());
    // The context's projection (its bias is added for a zero context too, as torch does).
    const ActionContext zero{};
    ctx_.resize(static_cast<size_t>(A));
    affine_t(t_.context.data(), tables_.context_b.data(), with_context ? context->data() : zero.data(), kActionContextFeatures, A, ctx_.data());
    for (int i = 0; i < A; i++) e_[size_t(i)] += ctx_[size_t(i)];
    affine_t(t_.hidden.data(), tables_.hidden_b.data(), e_.data(), A, H, h_.data());
    for (float &v : h_) v = gelu(v);
    Params p;
    p.w.resize(size_t(D));
    p.d.resize(size_t(D));
    p.g.resize(size_t(D));
    affine_t(t_.w.data(), tables_.w_b.data(), h_.data(), H, D, p.w.data());
    affine_t(t_.d.data(), tables_.d_b.data(), h_.data(), H, D, p.d.data());
    affine_t(t_.g.data(), tables_.g_b.data(), h_.data(), H, D, p.g.data());
    if (R > 0) {
        p.u.resize(size_t(R));
        affine_t(t_.state_h.data(), tables_.state_h_b.data(), h_.data(), H, R, p.u.data());
    } else {
        float norm = 0;
        for (float v : p.w) norm += v * v;
        norm = std::max(std::sqrt(norm), 1e-12f);  // as torch's normalize (eps 1e-12)
        for (float &v : p.w) v /= norm;
        for (float &v : p.g) v = tables_.residual_scale * std::tanh(v);
    }
    return cache_.emplace(key, std::move(p)).first->second;
}

namespace {

/// y = W x + b, Wt [in, out], for maps with few outputs and many inputs (S_z z: D inputs, R outputs):
/// per block of 16 outputs, four partial sums over the inputs, so four dependency chains run side by side
/// instead of one chain of `in` multiply-adds.
WORLDTUNE_VECTOR_CLONES
void affine_t_split(const float *__restrict Wt, const float *__restrict b, const float *__restrict x, int in, int out, float *__restrict y) {
    int o0 = 0;
    for (; o0 + kLanes <= out; o0 += kLanes) {
        Lanes part[4] = {};
        int i = 0;
        for (; i + 4 <= in; i += 4)
            for (int q = 0; q < 4; q++) part[q] += x[i + q] * lanes_at(Wt + size_t(i + q) * size_t(out) + size_t(o0));
        for (; i < in; i++) part[0] += x[i] * lanes_at(Wt + size_t(i) * size_t(out) + size_t(o0));
        lanes_at(y + o0) = lanes_at(b + o0) + ((part[0] + part[1]) + (part[2] + part[3]));
    }
    for (; o0 < out; o0++) {
        float a = b[o0];
        for (int i = 0; i < in; i++) a += Wt[size_t(i) * size_t(out) + size_t(o0)] * x[i];
        y[o0] = a;
    }
}

/// The state-reading part of a step: s = tanh(S_z z + u) (S_z given transposed, [D, R]); w = w_a + C_w^T s,
/// d = d_a + C_d^T s, g = g_a + C_g^T s (the C given as [R, D], the _a parts the action's); then w
/// normalized and g gated.
WORLDTUNE_VECTOR_CLONES
void state_correction(const float *__restrict SzT, const float *__restrict u, const float *__restrict Cw, const float *__restrict Cd,
                      const float *__restrict Cg, const float *__restrict z, const float *__restrict wa, const float *__restrict da,
                      const float *__restrict ga, int R, int D, float residual_scale, float *__restrict s, float *__restrict w,
                      float *__restrict d, float *__restrict g) {
    affine_t_split(SzT, u, z, D, R, s);
    for (int j = 0; j < R; j++) s[j] = fast_tanh(s[j]);
    corrected(wa, Cw, s, R, D, w);
    corrected(da, Cd, s, R, D, d);
    corrected(ga, Cg, s, R, D, g);
    const float inv = 1.0f / std::max(std::sqrt(dot(w, w, D)), 1e-12f);
    for (int i = 0; i < D; i++) {
        w[i] *= inv;
        g[i] = residual_scale * fast_tanh(g[i]);
    }
}

/// z <- (1 + g) * (z - (w . z) w) + d.
WORLDTUNE_VECTOR_CLONES
void transh_step(const float *__restrict w, const float *__restrict d, const float *__restrict g, int D, float *__restrict z) {
    const float wz = dot(w, z, D);
    for (int i = 0; i < D; i++) z[i] = (1.0f + g[i]) * (z[i] - wz * w[i]) + d[i];
}

}  // namespace

void Rollout::step(const Params &p, std::vector<float> &z) {
    const int D = int(z.size()), R = tables_.state_rank;
    if (R == 0) return transh_step(p.w.data(), p.d.data(), p.g.data(), D, z.data());
    state_correction(t_.state_z.data(), p.u.data(), state_w_t_.data(), state_d_t_.data(), state_g_t_.data(), z.data(), p.w.data(),
                     p.d.data(), p.g.data(), R, D, tables_.residual_scale, s_.data(), w_.data(), d_.data(), g_.data());
    transh_step(w_.data(), d_.data(), g_.data(), D, z.data());
}

void Rollout::run(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
                  std::vector<float> &out, const std::vector<uint64_t> *action_hashes) {
    if (z0 != path_z0_) {
        path_z0_ = z0;
        path_depth_ = 0;
    }
    out.assign(z0.begin(), z0.end());
    size_t shared = 0;  // steps taken from the path so far
    for (size_t t = 0; t < actions.size(); t++) {
        const ActionContext *context = t < contexts.size() ? &contexts[t] : nullptr;
        const uint64_t key = key_of(action_hashes ? (*action_hashes)[t] : action_hash(actions[t]), context);
        if (t == shared && t < path_depth_ && path_keys_[t] == key) {
            shared++;
            continue;
        }
        if (t == shared) {  // the first step off the path: resume from its last shared state
            if (shared > 0) out = path_states_[shared - 1];
            path_depth_ = shared;
        }
        step(params_of(key, actions[t], context), out);
        if (path_keys_.size() <= t) {
            path_keys_.push_back(key);
            path_states_.push_back(out);
        } else {
            path_keys_[t] = key;
            path_states_[t] = out;
        }
        path_depth_ = t + 1;
    }
    if (shared > 0 && shared == actions.size()) out = path_states_[shared - 1];
}

void Rollout::forget() {
    cache_.clear();
    path_z0_.clear();
    path_depth_ = 0;
}

float Rollout::probe(const std::vector<float> &z) {
    affine_t_split(t_.perf.data(), tables_.perf_hidden_b.data(), z.data(), tables_.d_model, tables_.perf_hidden, p_.data());
    for (float &v : p_) v = gelu(v);
    float score = 0;
    score = tables_.perf_out_b[0] + dot(tables_.perf_out_w.data(), p_.data(), tables_.perf_hidden);
    return score;
}

void Rollout::features(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
                       std::vector<float> &out, const std::vector<uint64_t> *action_hashes) {
    run(z0, actions, contexts, out, action_hashes);
    const float score = probe(out);
    out.push_back(score);
}

std::vector<std::vector<float>> Rollout::trajectory(const std::vector<float> &z0, const ActionList &actions,
                                                    const std::vector<ActionContext> &contexts) {
    std::vector<std::vector<float>> states;
    std::vector<float> z = z0;
    for (size_t t = 0; t < actions.size(); t++) {
        const ActionContext *context = t < contexts.size() ? &contexts[t] : nullptr;
        step(params_of(key_of(action_hash(actions[t]), context), actions[t], context), z);
        states.push_back(z);
    }
    return states;
}

}  // namespace worldtune
