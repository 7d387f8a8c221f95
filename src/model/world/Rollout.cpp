#include "model/world/Rollout.h"

#include "model/world/Windows.h"

#include <cmath>
#include <fstream>
#include <stdexcept>

namespace worldtune {

namespace {

constexpr char kMagic[8] = {'W', 'T', 'R', 'O', 'L', 'L', '0', '2'};  ///< 02: with the performance probe

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

/// y = W x + b for W [out, in].
void affine(const std::vector<float> &W, const std::vector<float> &b, const float *x, int in, int out, float *y) {
    for (int o = 0; o < out; o++) {
        const float *row = &W[size_t(o) * size_t(in)];
        float s = b[size_t(o)];
        for (int i = 0; i < in; i++) s += row[i] * x[i];
        y[o] = s;
    }
}

}  // namespace

void RolloutTables::save(const std::string &path) const {
    std::ofstream out(path, std::ios::binary);
    out.write(kMagic, sizeof kMagic);
    const int32_t header[6] = {d_model, action_dim, action_hidden, max_tokens, vocab, perf_hidden};
    out.write(reinterpret_cast<const char *>(header), sizeof header);
    out.write(reinterpret_cast<const char *>(&residual_scale), sizeof residual_scale);
    for (const std::vector<float> *v : {&tokens, &positions, &hidden_w, &hidden_b, &w_w, &w_b, &d_w, &d_b, &g_w, &g_b,
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
        throw std::runtime_error("transition tables " + path + ": not a worldtune transition file of this version");
    int32_t h[6];
    in.read(reinterpret_cast<char *>(h), sizeof h);
    RolloutTables t;
    t.d_model = h[0], t.action_dim = h[1], t.action_hidden = h[2], t.max_tokens = h[3], t.vocab = h[4], t.perf_hidden = h[5];
    in.read(reinterpret_cast<char *>(&t.residual_scale), sizeof t.residual_scale);
    if (!in || t.d_model <= 0 || t.action_dim <= 0 || t.action_hidden <= 0 || t.max_tokens <= 0 || t.vocab <= 0 || t.perf_hidden <= 0)
        throw std::runtime_error("transition tables " + path + ": bad header");
    const uint64_t D = uint64_t(t.d_model), A = uint64_t(t.action_dim), H = uint64_t(t.action_hidden);
    t.tokens = read_vector(in, uint64_t(t.vocab) * A, path);
    t.positions = read_vector(in, uint64_t(t.max_tokens) * A, path);
    t.hidden_w = read_vector(in, H * A, path);
    t.hidden_b = read_vector(in, H, path);
    t.w_w = read_vector(in, D * H, path);
    t.w_b = read_vector(in, D, path);
    t.d_w = read_vector(in, D * H, path);
    t.d_b = read_vector(in, D, path);
    t.g_w = read_vector(in, D * H, path);
    t.g_b = read_vector(in, D, path);
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
    e_.resize(size_t(tables_.action_dim));
    h_.resize(size_t(tables_.action_hidden));
    p_.resize(size_t(tables_.perf_hidden));
}

const Rollout::Params &Rollout::params_of(const Action &action) {
    const uint64_t key = action_hash(action);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    const int A = tables_.action_dim, H = tables_.action_hidden, D = tables_.d_model;
    const std::vector<int32_t> ids = action_ids(tokenizer_, action, tables_.max_tokens);
    std::fill(e_.begin(), e_.end(), 0.0f);
    for (size_t p = 0; p < ids.size(); p++) {
        const float *tok = &tables_.tokens[size_t(ids[p]) * size_t(A)];
        const float *pos = &tables_.positions[p * size_t(A)];
        for (int i = 0; i < A; i++) e_[size_t(i)] += tok[i] + pos[i];
    }
    if (!ids.empty())
        for (float &v : e_) v /= float(ids.size());
    affine(tables_.hidden_w, tables_.hidden_b, e_.data(), A, H, h_.data());
    for (float &v : h_) v = gelu(v);
    Params p;
    p.w.resize(size_t(D));
    p.d.resize(size_t(D));
    p.g.resize(size_t(D));
    affine(tables_.w_w, tables_.w_b, h_.data(), H, D, p.w.data());
    affine(tables_.d_w, tables_.d_b, h_.data(), H, D, p.d.data());
    affine(tables_.g_w, tables_.g_b, h_.data(), H, D, p.g.data());
    float norm = 0;
    for (float v : p.w) norm += v * v;
    norm = std::max(std::sqrt(norm), 1e-12f);  // as torch's normalize (eps 1e-12)
    for (float &v : p.w) v /= norm;
    for (float &v : p.g) v = tables_.residual_scale * std::tanh(v);
    return cache_.emplace(key, std::move(p)).first->second;
}

void Rollout::step(const Params &p, std::vector<float> &z) const {
    const size_t D = z.size();
    float dot = 0;
    for (size_t i = 0; i < D; i++) dot += p.w[i] * z[i];
    for (size_t i = 0; i < D; i++) z[i] = (1.0f + p.g[i]) * (z[i] - dot * p.w[i]) + p.d[i];
}

void Rollout::run(const std::vector<float> &z0, const ActionList &actions, std::vector<float> &out) {
    out.assign(z0.begin(), z0.end());
    for (const Action &a : actions) step(params_of(a), out);
}

float Rollout::probe(const std::vector<float> &z) {
    affine(tables_.perf_hidden_w, tables_.perf_hidden_b, z.data(), tables_.d_model, tables_.perf_hidden, p_.data());
    for (float &v : p_) v = gelu(v);
    float score = 0;
    affine(tables_.perf_out_w, tables_.perf_out_b, p_.data(), tables_.perf_hidden, 1, &score);
    return score;
}

void Rollout::features(const std::vector<float> &z0, const ActionList &actions, std::vector<float> &out) {
    run(z0, actions, out);
    const float score = probe(out);
    out.push_back(score);
}

std::vector<std::vector<float>> Rollout::trajectory(const std::vector<float> &z0, const ActionList &actions) {
    std::vector<std::vector<float>> states;
    std::vector<float> z = z0;
    for (const Action &a : actions) {
        step(params_of(a), z);
        states.push_back(z);
    }
    return states;
}

}  // namespace worldtune
