// The transition's inference path without torch: the trained networks exported as plain float tables,
// and a rollout loop z_0 -> z_T over a candidate's actions. What depends on the action alone (its hidden
// vector's projections) is computed once per distinct (action, context) and cached; what depends on the
// state (the bottleneck s, Nets.h: Transition) costs O(D * state_rank) per step, with no allocation once
// the cache is warm.
#pragma once

#include "features/ActionContext.h"
#include "world/RolloutKernels.h"
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

/// One candidate to roll out: its actions, their contexts (one per action, or none: all zero) and,
/// optionally, the actions' action_hash values (Windows.h) when the caller has them already.
struct RolloutInput {
    const ActionList *actions = nullptr;
    const std::vector<ActionContext> *contexts = nullptr;
    const std::vector<uint64_t> *action_hashes = nullptr;
};

class Rollout {
public:
    Rollout(RolloutTables tables, const Tokenizer &tokenizer);

    /// z_T from z_0 (D floats) over the actions and their contexts (one per action, or none: all zero),
    /// into `out` (resized to D). An empty list gives z_0. `action_hashes`, when given, holds the actions'
    /// action_hash values, so they are not computed again.
    void run(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
             std::vector<float> &out, const std::vector<uint64_t> *action_hashes = nullptr);
    /// The world ranker's state features: z_T followed by the performance probe's score of it
    /// (feature_dim() floats).
    void features(const std::vector<float> &z0, const ActionList &actions, const std::vector<ActionContext> &contexts,
                  std::vector<float> &out, const std::vector<uint64_t> *action_hashes = nullptr);
    /// features() of a block of candidates from the same z_0, into out[k] for inputs[k]. The steps a
    /// candidate shares with the one before it in the block (the same actions and contexts from the first)
    /// are computed once, so a block sorted by actions shares the most; the steps of one depth run four at a
    /// time (RolloutKernels.h: state_steps). Each candidate gets exactly what features() gives it alone.
    void features_block(const std::vector<float> &z0, const std::vector<RolloutInput> &inputs, std::vector<std::vector<float>> &out);
    int feature_dim() const { return tables_.d_model + 1; }
    /// The performance probe's score of a state (D floats).
    float probe(const std::vector<float> &z);
    /// Every intermediate prediction z_1..z_T, for inspection and tests.
    std::vector<std::vector<float>> trajectory(const std::vector<float> &z0, const ActionList &actions,
                                               const std::vector<ActionContext> &contexts);

    /// Forgets every cached action (the next rollout computes their parts anew).
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
    /// A step of a block's prefix tree: the node it follows (-1: z_0) and the action's part.
    struct Node {
        int parent;
        const Params *params;
    };
    /// The cache key of an action (its action_hash given) read in its context.
    uint64_t key_of(uint64_t action_hash, const ActionContext *context) const;
    /// The action's part for `key`: from the cache, or a new entry that compute_pending() fills.
    const Params &params_of(uint64_t key, const Action &action, const ActionContext *context);
    /// e: the action's embedding (action_dim floats) in its context (null: a zero context).
    void embed(const Action &action, const ActionContext *context, float *e);
    /// Computes the parts of the actions params_of added, four at a time.
    void compute_pending();
    /// The block's prefix tree gets the steps of `input` it does not share with the previous path.
    void add_path(const RolloutInput &input);
    /// Builds the prefix tree of `inputs` and steps its nodes depth by depth (states_, ends_).
    void roll_block(const std::vector<float> &z0, const std::vector<RolloutInput> &inputs);
    /// z_T of the block's k-th input (D floats).
    const float *final_state(const std::vector<float> &z0, size_t k) const;

    RolloutTables tables_;
    const Tokenizer &tokenizer_;
    /// Weights stored [in, out] for the vectorized affine maps (RolloutKernels.h: affine_t).
    struct TransposedWeights {
        std::vector<float> context, hidden, w, d, g, state_h, state_z, perf;
    } t_;
    std::vector<float> state_w_t_, state_d_t_, state_g_t_;  ///< the C matrices transposed: [R, D]
    std::unordered_map<uint64_t, Params> cache_;  ///< by action_hash and context
    struct Pending {
        Params *params;
        const Action *action;
        const ActionContext *context;  ///< null: a zero context
    };
    std::vector<Pending> pending_;  ///< cache entries params_of added and compute_pending has not filled
    // The current block (roll_block); the vectors keep their capacity from block to block.
    std::vector<Node> nodes_;
    std::vector<std::vector<int>> depths_;  ///< node indices by depth (depth t: the (t+1)-th step)
    std::vector<float> states_;             ///< each node's state, D floats per node
    std::vector<int> ends_;                 ///< per input, the node of its last step (-1: no action)
    std::vector<uint64_t> path_keys_, keys_;  ///< the previous path's step keys; the current one's
    std::vector<int> path_nodes_;           ///< the previous path's nodes
    std::vector<StepNode> step_nodes_;
    std::vector<float> step_scratch_;
    std::vector<float> e_, h_, p_, ctx_;  ///< scratch
};

}  // namespace worldtune
