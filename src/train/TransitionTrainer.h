// Training the transition F(z, a) on trajectories (torch stays inside TransitionTrainer.cpp).
//
// A batch of trajectories is rolled out from the encoded initial state z_0 = E(s_0) over all its actions;
// the loss is
//   state matching   mean over the known states t (s_T always, s_1..s_{T-1} for the sampled trajectories)
//                    of mean((z^_t - E(s_t))^2), plus
//   margin ranking   margin_weight * mean(max(0, margin + dist(z^_T, E(s_T)) - dist(z^_T, E(s'_T))))
//                    over `negatives` final states s'_T of other trajectories of the same workload,
//   performance      perf_weight * mean(softplus(probe(z^_T of the slower) - probe(z^_T of the faster)))
//                    over the pairs of trajectories of one workload in the batch (batches keep
//                    transition_per_workload trajectories of a workload together),
// with dist the mean squared difference. The encoder is frozen: targets are precomputed vectors.
#pragma once

#include "features/ActionContext.h"
#include "train/EncoderTrainer.h"
#include "world/Rollout.h"

namespace worldtune {

/// One trajectory for training: its workload and, per step, the action's token ids and the index of the
/// encoded state reached (into the state vectors; -1 where unknown). states[0] and states.back() are known.
struct TrajectorySample {
    int group = 0;
    std::vector<std::vector<int32_t>> actions;  ///< T actions
    std::vector<ActionContext> contexts;        ///< T contexts (ActionContext.h; empty: all zero)
    std::vector<int> states;                    ///< T + 1 entries
    double latency = 0;                         ///< measured seconds (<= 0: failed)
};

/// Quality of predicted final states on a set of trajectories.
struct TransitionQuality {
    double final_mse = 0;        ///< mean dist(z^_T, E(s_T))
    double identity_mse = 0;     ///< mean dist(z_0, E(s_T)): the "no transition" baseline
    double closer_than_negative = 0;  ///< share of (trajectory, negative) pairs with z^_T closer to its own E(s_T)
    double probe_pairwise = 0;   ///< share of same-workload pairs the performance probe orders correctly
    int trajectories = 0;
};

class TransitionTrainer {
public:
    TransitionTrainer(const WorldConfig &config, int vocab_size);
    ~TransitionTrainer();
    TransitionTrainer(const TransitionTrainer &) = delete;
    TransitionTrainer &operator=(const TransitionTrainer &) = delete;

    /// Trains config.transition_epochs epochs; logs the validation quality after each epoch and keeps the
    /// weights of the best epoch (the best probe ordering, or the lowest validation final_mse without a
    /// probe; the last epoch without validation data). With a `checkpoint` path it saves one after every
    /// epoch (PATH.json, .model, .optim, .best) and resumes from it when it belongs to the same number of
    /// trajectories, vocabulary and epochs (dropout draws after a resume differ from an unbroken run).
    StageReport train(const std::vector<TrajectorySample> &train, const std::vector<TrajectorySample> &val,
                      const std::vector<std::vector<float>> &states, const Log &log, const std::string &checkpoint = "");
    TransitionQuality evaluate(const std::vector<TrajectorySample> &samples, const std::vector<std::vector<float>> &states) const;
    /// The predicted final states z^_T of trajectories (eval mode), D floats each.
    std::vector<std::vector<float>> predict_finals(const std::vector<TrajectorySample> &samples,
                                                   const std::vector<std::vector<float>> &states) const;
    /// The performance probe's scores of states (D floats each), in eval mode.
    std::vector<double> probe_scores(const std::vector<std::vector<float>> &z) const;
    /// The weights as plain tables for the torch-free rollout.
    RolloutTables tables() const;

    void save(const std::string &path) const;
    void load(const std::string &path);  ///< throws std::runtime_error naming the file

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace worldtune
