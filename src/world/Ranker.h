// The world model's ranker: XGBoost with a ranking objective (WorldConfig::ranker_objective, default
// rank:pairwise), one group per workload, over a candidate's feature row:
//   [state vector (the predicted z^_T and its probe score, or an ablation's vector), action statistics,
//    hardware].
// Action statistics: the count of each action kind (10), the sequence length, and the number of
// parallel, vectorize and unroll annotations. Hardware: logical cores, vector lanes of float32, and
// log2 of the L1d, L2 and L3 sizes (from hardware_json, so a model trained on one machine says so).
//
// Variants (what the state vector is) serve the ablations: "world" (z^_T from the transition), "initial"
// (E(s_0): no transition), "final" (E(s_T) of the lowered final state: static encoding), "actions" (no
// state vector). Labels are throughput normalized within the workload (failed candidates 0).
// File: one JSON header line {"format": "worldtune-ranker", "version", "variant", "state_dim",
// "feature_length"} and XGBoost's UBJSON model.
#pragma once

#include "common/Booster.h"
#include "common/FlatForest.h"
#include "common/Defaults.h"
#include "features/ActionContext.h"
#include "world/WorldConfig.h"
#include "schedule/Action.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace worldtune {

constexpr int kActionStatFeatures = 14;
constexpr int kHardwareFeatures = 5;
constexpr int kContextStatFeatures = 8;
/// The schedule statistics a ranker reads with WorldConfig::ranker_schedule_stats: the context statistics
/// and the parallelism features (ScheduleFeatures.h), both read from the actions without lowering.
constexpr int kScheduleStatFeatures = kContextStatFeatures + 4;

/// The ranker variants a bundle holds: over the rollout's predicted final state ("world", the one the
/// search uses), over E(s_0), over E(final state) (lowered), and over the action statistics alone.
inline const std::vector<std::string> &ranker_variants() {
    static const std::vector<std::string> variants = {"world", "initial", "final", "actions"};
    return variants;
}

/// Width of a variant's state vector: D, plus the performance probe's score for "world" (the probe is
/// trained on the rollout, see WorldConfig::perf_weight), none for "actions".
inline int ranker_state_dim(const std::string &variant, int d_model) {
    return variant == "actions" ? 0 : variant == "world" ? d_model + 1 : d_model;
}

/// Appends the action statistics of a candidate.
void append_action_stats(const ActionList &actions, std::vector<float> &row);
/// The hardware features of a machine description (hardware_json()): computed once per machine, appended
/// to every row of it.
std::vector<float> hardware_features(const nlohmann::json &hardware);
/// Appends statistics of the extents the actions act on (ActionContext.h): the tail waste summed over
/// splits, the splits whose factors do not divide their loop, log2 of the vectorized loop's extent and
/// whether it is a multiple of 16, log2 of the parallel loop's extent, log2 of the unrolled extent, the mean
/// log2 extent of the split loops, and log2 of the most instances of a compute_at.
void append_context_stats(const ActionList &actions, const std::vector<ActionContext> &contexts, std::vector<float> &row);
/// The columns after a candidate's state vector in a ranker row: action statistics, hardware (its
/// hardware_features), then with
/// `schedule_stats` the context statistics and the parallelism features (kParallelismFeatures floats).
void append_candidate_features(const ActionList &actions, const std::vector<ActionContext> &contexts,
                               const std::vector<float> &parallelism, const std::vector<float> &hardware, bool schedule_stats,
                               std::vector<float> &row);

/// The labels a booster learns from: normalized throughputs as they are (grades 0), or integer grades
/// round(grades * throughput).
std::vector<float> training_labels(const std::vector<float> &throughputs, int grades);

/// Rows of candidates grouped by workload (each group contiguous), with labels.
struct RankingData {
    std::vector<float> rows;          ///< row-major, `width` floats each
    std::vector<float> labels;        ///< normalized throughput
    std::vector<unsigned> groups;     ///< sizes of the consecutive groups
    int width = 0;
    size_t size() const { return labels.size(); }
    /// Appends one workload's candidates: rows (width floats each) and latencies (<= 0: failed).
    void add_group(const std::vector<std::vector<float>> &group_rows, const std::vector<double> &latencies);
};

struct RankerParams {
    std::string objective = "rank:pairwise";
    int label_grades = 0;  ///< 0: learn from the normalized throughput itself; N > 0: from integer grades
                           ///< round(N * normalized throughput), 0..N (what rank:ndcg's gain 2^grade - 1 wants)
    int rounds = 300;
    int depth = 6;
    double eta = 0.1;
    int threads = kDefaultThreads;
    uint64_t seed = 1;
};

/// The shipped ranker's training parameters from a bundle's configuration (objective, labels, rounds,
/// depth, learning rate, threads, seed).
RankerParams ranker_params(const WorldConfig &config);
/// The online correction's ("booster") training parameters once a run has measured `measured` candidates:
/// online_rounds / online_depth / online_eta, or the online_late_* ones past online_late_after (when it is
/// not 0); the depth is at most ranker_depth, and it trains on one thread.
RankerParams online_booster_params(const WorldConfig &config, size_t measured);

class Ranker {
public:
    static constexpr int kFileVersion = 1;

    Ranker(std::string variant, int state_dim);
    Ranker(Ranker &&) noexcept = default;
    Ranker &operator=(Ranker &&) noexcept = default;

    /// Trains on `train`; with validation data, keeps the round count with the best mean top-1 score
    /// (checked every 25 rounds). Rows may be wider than the variant's (extra columns after it). Returns the
    /// rounds kept.
    int train(const RankingData &train, const RankingData *val, const RankerParams &params);
    /// Trains an online correction on top of `base` (its margins times `base_weight` as base margin) for
    /// `rounds` rounds. Rows may be wider than the base's: the base reads their first base.width() values,
    /// the correction all but its first `hidden_columns` (the base still reads them; the correction's trees
    /// never split on them). base_weight 0: the correction learns alone, from scratch.
    void train_on_top(const Ranker &base, const RankingData &data, const RankerParams &params, double base_weight = 1.0,
                      size_t hidden_columns = 0);
    /// Makes a loaded correction score on top of `base` again (train_on_top's link is not saved).
    void set_base(const Ranker *base) { base_ = base; }
    /// Scores of rows (higher = faster): `count` rows of width() floats or more (it reads the first width()
    /// of each). With a base (train_on_top), includes its margin.
    std::vector<double> predict(const std::vector<float> &rows, size_t count) const;

    bool trained() const;
    const std::string &variant() const { return variant_; }
    int state_dim() const { return state_dim_; }
    int width() const { return state_dim_ + kActionStatFeatures + kHardwareFeatures + extra_width_; }

    void save(const std::string &path) const;
    /// Throws std::runtime_error for a missing file, another format, version, variant or width. With
    /// `extra_columns`, the file may read more features than the variant's (a correction's, train_on_top).
    static Ranker load(const std::string &path, const std::string &variant, int state_dim, bool extra_columns = false);

private:
    std::string variant_;
    int state_dim_ = 0;
    Booster booster_;
    std::optional<FlatForest> forest_;   ///< booster_'s trees, flat, when it can score them exactly
    /// Flattens booster_ into forest_ (or leaves XGBoost's predictor in charge).
    void flatten();
    const Ranker *base_ = nullptr;       ///< for online corrections
    double base_weight_ = 1.0;           ///< the base's margins are scaled by this (train_on_top)
    int extra_width_ = 0;                ///< features of an online correction beyond its base's
};

}  // namespace worldtune
