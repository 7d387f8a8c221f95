// The transition's inference path without torch: the trained networks exported as plain float tables,
// and a rollout loop z_0 -> z_T over a candidate's actions. What depends on the action alone (its hidden
// vector's projections) is computed once per distinct (action, context) and cached; what depends on the
// state (the bottleneck s, Nets.h: Transition) costs O(D * state_rank) per step, with no allocation once
// the cache is warm.
#pragma once

#include "features/ActionContext.h"
#include "world/Tokenizer.h"
#include "world/WorldConfig.h"
#include "schedule/Action.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace worldtune {

/// The trained transition's weights (row-major, as torch stores Linear weights: [out, in]).
struct RolloutTables {
    int d_model = 0, action_dim = 0, action_hidden = 0, max_tokens = 0, vocab = 0;
    int state_rank = 0;                              ///< R; 0: the state-blind step
    bool action_context = true;                      ///< whether actions are read with their contexts
    float residual_scale = 0;
    std::vector<float> tokens, positions;            ///< [vocab, A], [max_tokens, A]
    std::vector<float> context_w, context_b;         ///< [A, K], [A]
    std::vector<float> hidden_w, hidden_b;           ///< [H, A], [H]
    std::vector<float> w_w, w_b, d_w, d_b, g_w, g_b; ///< [D, H], [D] each
    std::vector<float> state_z_w;                    ///< [R, D]
    std::vector<float> state_h_w, state_h_b;         ///< [R, H], [R]
    std::vector<float> state_w_w, state_d_w, state_g_w;  ///< [D, R] each
    int perf_hidden = 0;                             ///< P
    std::vector<float> perf_hidden_w, perf_hidden_b; ///< [P, D], [P]
    std::vector<float> perf_out_w, perf_out_b;       ///< [1, P], [1]

    void save(const std::string &path) const;
    /// Throws std::runtime_error for a missing, truncated or foreign file.
    static RolloutTables load(const std::string &path);
};

class Rollout {
public:
    Rollout(RolloutTables tables, const Tokenizer &tokenizer);

    /// z_T from z_0 (D floats) over the actions and their contexts (one per action, or none: all zero),
    /// into `out` (resized to D). An empty list gives z_0. The steps a candidate shares with the one rolled
    /// out before it (same z_0, same actions and contexts from the first) are not computed again: their
    /// states are kept (candidates sorted by their actions share the most). The result is the same.
    /// `action_hashes`, when given, holds the actions' action_hash values (Windows.h), so they are not
    /// computed again.
    void run(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
             std::vector<float> &out, const std::vector<uint64_t> *action_hashes = nullptr);
    /// The world ranker's state features: z_T followed by the performance probe's score of it
    /// (feature_dim() floats).
    void features(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
                  std::vector<float> &out, const std::vector<uint64_t> *action_hashes = nullptr);
    int feature_dim() const { return tables_.d_model + 1; }
    /// The performance probe's score of a state (D floats).
    float probe(const std::vector<float> &z);
    /// Every intermediate prediction z_1..z_T, for inspection and tests.
    std::vector<std::vector<float>> trajectory(const std::vector<float> &z0, const ActionList &actions,
                                               const std::vector<ActionContext> &contexts);

    /// Forgets every cached action and the last path (the next rollout computes everything anew).
    void forget();
    int dim() const { return tables_.d_model; }
    int state_rank() const { return tables_.state_rank; }
    size_t cached_actions() const { return cache_.size(); }

private:
    /// An action's part of the step: w, d, g before the state's correction (state_rank > 0), or final
    /// (normalized w, gated g) for the state-blind step; u = S_h h + b.
    struct Params {
        std::vector<float> w, d, g, u;
    };
    /// The cache key of an action (its action_hash given) read in its context.
    uint64_t key_of(uint64_t action_hash, const ActionContext *context) const;
    const Params &params_of(uint64_t key, const Action &action, const ActionContext *context);
    void step(const Params &p, std::vector<float> &z);

    RolloutTables tables_;
    const Tokenizer &tokenizer_;
    /// Weights stored [in, out] for the vectorized affine maps (Rollout.cpp: affine_t).
    struct TransposedWeights {
        std::vector<float> context, hidden, w, d, g, state_h, state_z, perf;
    } t_;
    std::vector<float> state_w_t_, state_d_t_, state_g_t_;  ///< the C matrices transposed: [R, D]
    std::unordered_map<uint64_t, Params> cache_;  ///< by action_hash and context
    /// The last rollout's path: its z_0, and per step the step's key and the state after it (the first
    /// path_depth_ entries are valid; the vectors keep their capacity between candidates).
    std::vector<float> path_z0_;
    std::vector<uint64_t> path_keys_;
    std::vector<std::vector<float>> path_states_;
    size_t path_depth_ = 0;
    std::vector<float> e_, h_, p_, s_, w_, g_, d_, ctx_;  ///< scratch
};

}  // namespace worldtune
