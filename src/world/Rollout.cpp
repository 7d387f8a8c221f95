#include "world/Rollout.h"

#include "common/Hash.h"
#include "world/RolloutKernels.h"
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
    p_.resize(size_t(tables_.perf_hidden));
    step_scratch_.resize(4 * size_t(R + 3 * D));
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
    auto [it, added] = cache_.try_emplace(key);
    if (added) pending_.push_back({&it->second, &action, tables_.action_context ? context : nullptr});
    return it->second;
}

void Rollout::embed(const Action &action, const ActionContext *context, float *e) {
    // The mean of the action's token and position embeddings, plus its context's projection (whose bias is
    // added for a zero context too, as torch does).
    const int A = tables_.action_dim;
    const std::vector<int32_t> ids = action_ids(tokenizer_, action, tables_.max_tokens);
    std::fill(e, e + A, 0.0f);
    for (size_t p = 0; p < ids.size(); p++) {
        const float *tok = &tables_.tokens[size_t(ids[p]) * size_t(A)];
        const float *pos = &tables_.positions[p * size_t(A)];
        for (int i = 0; i < A; i++) e[i] += tok[i] + pos[i];
    }
    if (!ids.empty())
        for (int i = 0; i < A; i++) e[i] /= float(ids.size());
    const ActionContext zero{};
    ctx_.resize(static_cast<size_t>(A));
    affine_t(t_.context.data(), tables_.context_b.data(), context ? context->data() : zero.data(), kActionContextFeatures, A, ctx_.data());
    for (int i = 0; i < A; i++) e[i] += ctx_[size_t(i)];
}

void Rollout::compute_pending() {
    const int A = tables_.action_dim, H = tables_.action_hidden, D = tables_.d_model, R = tables_.state_rank;
    e_.resize(4 * size_t(A));
    h_.resize(4 * size_t(H));
    for (size_t first = 0; first < pending_.size(); first += 4) {
        const int count = int(std::min<size_t>(4, pending_.size() - first));
        const float *es[4], *hs_in[4];
        float *hs[4], *ws[4], *ds[4], *gs[4], *us[4];
        for (int c = 0; c < count; c++) {
            const Pending &job = pending_[first + size_t(c)];
            embed(*job.action, job.context, &e_[size_t(c) * size_t(A)]);
            es[c] = &e_[size_t(c) * size_t(A)];
            hs[c] = &h_[size_t(c) * size_t(H)];
            hs_in[c] = hs[c];
            Params &p = *job.params;
            p.w.resize(size_t(D));
            p.d.resize(size_t(D));
            p.g.resize(size_t(D));
            p.u.resize(size_t(R));
            ws[c] = p.w.data(), ds[c] = p.d.data(), gs[c] = p.g.data(), us[c] = p.u.data();
        }
        affine_t_n(t_.hidden.data(), tables_.hidden_b.data(), es, count, A, H, hs);
        for (int c = 0; c < count; c++)
            for (int i = 0; i < H; i++) hs[c][i] = gelu(hs[c][i]);
        affine_t_n(t_.w.data(), tables_.w_b.data(), hs_in, count, H, D, ws);
        affine_t_n(t_.d.data(), tables_.d_b.data(), hs_in, count, H, D, ds);
        affine_t_n(t_.g.data(), tables_.g_b.data(), hs_in, count, H, D, gs);
        if (R > 0) {
            affine_t_n(t_.state_h.data(), tables_.state_h_b.data(), hs_in, count, H, R, us);
            continue;
        }
        for (int c = 0; c < count; c++) {  // the state-blind step's final w and g
            Params &p = *pending_[first + size_t(c)].params;
            float norm = 0;
            for (float v : p.w) norm += v * v;
            norm = std::max(std::sqrt(norm), 1e-12f);  // as torch's normalize (eps 1e-12)
            for (float &v : p.w) v /= norm;
            for (float &v : p.g) v = tables_.residual_scale * std::tanh(v);
        }
    }
    pending_.clear();
}

void Rollout::add_path(const RolloutInput &input) {
    const ActionList &actions = *input.actions;
    const size_t T = actions.size();
    keys_.resize(T);
    for (size_t t = 0; t < T; t++) {
        const ActionContext *context = input.contexts && t < input.contexts->size() ? &(*input.contexts)[t] : nullptr;
        keys_[t] = key_of(input.action_hashes ? (*input.action_hashes)[t] : action_hash(actions[t]), context);
    }
    size_t shared = 0;  // steps this path shares with the previous one of the block
    while (shared < T && shared < path_keys_.size() && keys_[shared] == path_keys_[shared]) shared++;
    path_keys_.resize(shared);
    path_nodes_.resize(shared);
    for (size_t t = shared; t < T; t++) {
        const ActionContext *context = input.contexts && t < input.contexts->size() ? &(*input.contexts)[t] : nullptr;
        const int parent = t == 0 ? -1 : path_nodes_[t - 1];
        if (depths_.size() <= t) depths_.emplace_back();
        depths_[t].push_back(int(nodes_.size()));
        nodes_.push_back({parent, &params_of(keys_[t], actions[t], context)});
        path_keys_.push_back(keys_[t]);
        path_nodes_.push_back(int(nodes_.size()) - 1);
    }
    ends_.push_back(T == 0 ? -1 : path_nodes_[T - 1]);
}

void Rollout::roll_block(const std::vector<float> &z0, const std::vector<RolloutInput> &inputs) {
    // Params are referenced by the block's nodes: the cache is only ever cleared between blocks.
    if (cache_.size() >= kMaxCachedActions) cache_.clear();
    nodes_.clear();
    ends_.clear();
    path_keys_.clear();
    path_nodes_.clear();
    for (std::vector<int> &d : depths_) d.clear();
    for (const RolloutInput &input : inputs) add_path(input);
    compute_pending();
    // Depth by depth: a node's parent is one step shallower, so it is done before the node is.
    const size_t D = size_t(tables_.d_model);
    states_.resize(nodes_.size() * D);
    const StepWeights weights{t_.state_z.data(), state_w_t_.data(), state_d_t_.data(), state_g_t_.data(), tables_.state_rank,
                              tables_.d_model, tables_.residual_scale};
    std::vector<StepNode> &batch = step_nodes_;
    for (const std::vector<int> &depth : depths_) {
        batch.clear();
        for (int n : depth) {
            const Node &node = nodes_[size_t(n)];
            float *z = &states_[size_t(n) * D];
            const float *from = node.parent < 0 ? z0.data() : &states_[size_t(node.parent) * D];
            std::copy(from, from + D, z);
            const Params &p = *node.params;
            if (tables_.state_rank == 0) transh_step(p.w.data(), p.d.data(), p.g.data(), int(D), z);
            else batch.push_back({p.u.data(), p.w.data(), p.d.data(), p.g.data(), z});
        }
        if (!batch.empty()) state_steps(weights, batch.data(), int(batch.size()), step_scratch_.data());
    }
}

const float *Rollout::final_state(const std::vector<float> &z0, size_t k) const {
    return ends_[k] < 0 ? z0.data() : &states_[size_t(ends_[k]) * size_t(tables_.d_model)];
}

void Rollout::run(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
                  std::vector<float> &out, const std::vector<uint64_t> *action_hashes) {
    roll_block(z0, {RolloutInput{&actions, &contexts, action_hashes}});
    const float *z = final_state(z0, 0);
    out.assign(z, z + tables_.d_model);
}

void Rollout::features_block(const std::vector<float> &z0, const std::vector<RolloutInput> &inputs,
                             std::vector<std::vector<float>> &out) {
    roll_block(z0, inputs);
    out.resize(inputs.size());
    for (size_t k = 0; k < inputs.size(); k++) {
        const float *z = final_state(z0, k);
        out[k].assign(z, z + tables_.d_model);
        const float score = probe(out[k]);
        out[k].push_back(score);
    }
}

void Rollout::forget() { cache_.clear(); }

float Rollout::probe(const std::vector<float> &z) {
    affine_t_split(t_.perf.data(), tables_.perf_hidden_b.data(), z.data(), tables_.d_model, tables_.perf_hidden, p_.data());
    for (float &v : p_) v = gelu(v);
    return tables_.perf_out_b[0] + dot(tables_.perf_out_w.data(), p_.data(), tables_.perf_hidden);
}

void Rollout::features(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
                       std::vector<float> &out, const std::vector<uint64_t> *action_hashes) {
    run(z0, actions, contexts, out, action_hashes);
    const float score = probe(out);
    out.push_back(score);
}

std::vector<std::vector<float>> Rollout::trajectory(const std::vector<float> &z0, const ActionList &actions,
                                                    const std::vector<ActionContext> &contexts) {
    roll_block(z0, {RolloutInput{&actions, &contexts, nullptr}});
    std::vector<std::vector<float>> states;
    const size_t D = size_t(tables_.d_model);
    for (size_t t = 0; t < nodes_.size(); t++) states.emplace_back(states_.begin() + long(t * D), states_.begin() + long((t + 1) * D));
    return states;
}

}  // namespace worldtune
