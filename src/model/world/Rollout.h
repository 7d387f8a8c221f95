// The transition's inference path without torch: the trained action network exported as plain float
// tables, and a rollout loop z_0 -> z_T over a candidate's actions. Per-action parameters (w, d, g) are
// computed once per distinct action text and cached, so scoring a candidate costs one cache lookup and
// O(D) arithmetic per action, with no allocation once the cache is warm.
#pragma once

#include "model/world/Tokenizer.h"
#include "model/world/WorldConfig.h"
#include "schedule/Action.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace worldtune {

/// The trained action network's weights (row-major, as torch stores Linear weights: [out, in]).
struct RolloutTables {
    int d_model = 0, action_dim = 0, action_hidden = 0, max_tokens = 0, vocab = 0;
    float residual_scale = 0;
    std::vector<float> tokens, positions;            ///< [vocab, A], [max_tokens, A]
    std::vector<float> hidden_w, hidden_b;           ///< [H, A], [H]
    std::vector<float> w_w, w_b, d_w, d_b, g_w, g_b; ///< [D, H], [D] each
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

    /// z_T from z_0 (D floats) over the actions, into `out` (resized to D). An empty list gives z_0.
    void run(const std::vector<float> &z0, const ActionList &actions, std::vector<float> &out);
    /// The world ranker's state features: z_T followed by the performance probe's score of it
    /// (feature_dim() floats).
    void features(const std::vector<float> &z0, const ActionList &actions, std::vector<float> &out);
    int feature_dim() const { return tables_.d_model + 1; }
    /// The performance probe's score of a state (D floats).
    float probe(const std::vector<float> &z);
    /// Every intermediate prediction z_1..z_T, for inspection and tests.
    std::vector<std::vector<float>> trajectory(const std::vector<float> &z0, const ActionList &actions);

    int dim() const { return tables_.d_model; }
    size_t cached_actions() const { return cache_.size(); }

private:
    struct Params {
        std::vector<float> w, d, g;
    };
    const Params &params_of(const Action &action);
    void step(const Params &p, std::vector<float> &z) const;

    RolloutTables tables_;
    const Tokenizer &tokenizer_;
    std::unordered_map<uint64_t, Params> cache_;  ///< by action_hash
    std::vector<float> e_, h_, p_;  ///< scratch
};

}  // namespace worldtune
