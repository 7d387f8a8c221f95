// The `static` cost model, our Ansor baseline: XGBoost over hand-made per-statement features of the
// lowered loop nest (StaticFeatures.h).
//
// A candidate's statements are pooled into one row: the sum and the maximum of every feature over its
// statements, and the statement count (kPooledLength values). Training is online and per workload, as
// Ansor's: labels are throughput normalized within the workload (fastest latency / its latency, in (0, 1];
// failed candidates 0), and the objective is XGBoost's pairwise ranking (`rank:pairwise`) with one group
// per workload, since the search needs only the order of candidates within a task.
//
// Why not Ansor's pack-sum (one score per statement, summed, squared error against the label): it ranked
// barely above chance on our records (docs/benchmarks.md, "Third run": the numbers and how they were made).
//
// Until it has trained (fewer than kMinTrainSamples successful measurements) the model scores candidates
// with small random numbers, without lowering them. Once trained, invalid candidates (Halide refuses
// them) get -infinity. Features are
// cached per candidate (key: canonical spec + action-list JSON), so a candidate is lowered once.
//
// Model file format (save/load): one JSON header line {"format": "worldtune-static-model", "version",
// "feature_version", "feature_length"}, then XGBoost's UBJSON model bytes. Files of another format or
// feature version are refused with a clear message.
#pragma once

#include "common/OneLineError.h"
#include "common/Booster.h"
#include "features/StaticFeatures.h"
#include "model/ModelFactory.h"

#include <deque>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace worldtune {

/// A model file that cannot be read (missing, another format or feature version), or an XGBoost failure.
struct ModelError : OneLineError {
    using OneLineError::OneLineError;
};


class StaticModel : public CostModel {
public:
    static constexpr int kMinTrainSamples = 8;         ///< successful measurements before the first training
    static constexpr size_t kFeatureCacheSize = 20000; ///< candidates whose features are kept (oldest dropped)
    static constexpr int kParallelTrainRows = 20000;   ///< feature rows from which XGBoost uses params.threads
    static constexpr int kFileVersion = 2;

    explicit StaticModel(const CostModelParams &params = {});
    StaticModel(const StaticModel &) = delete;
    StaticModel &operator=(const StaticModel &) = delete;

    std::string name() const override { return "static"; }
    void set_task(const WorkloadSpec &spec) override;
    std::vector<double> predict(const std::vector<ActionList> &candidates) override;
    void update(const std::vector<MeasureResult> &results) override;

    /// The feature rows of candidates of the current task (cached; extracted on params.threads threads).
    /// An invalid candidate gets a null pointer and `valid[i] = false`. Pointers stay valid until the next
    /// call of features(), predict() or update().
    std::vector<const FeatureRows *> features(const std::vector<ActionList> &candidates, std::vector<bool> *valid = nullptr);

    /// Whether an XGBoost model has been trained (or loaded).
    bool trained() const { return bool(booster_); }
    /// Measured candidates kept for training (failed ones included) and how many succeeded.
    size_t samples() const { return samples_.size(); }
    size_t successful_samples() const;
    /// Boosting rounds of the current model (0 untrained).
    int rounds() const { return rounds_; }
    /// Retrains now on every sample (update() does it by itself every params.retrain_every calls).
    void train();

    void save(const std::string &path) const;  ///< throws ModelError when untrained or on I/O failure
    void load(const std::string &path);        ///< throws ModelError (see the file format above)

private:
    struct Sample {
        std::string spec;          ///< canonical spec text
        double latency = 0;        ///< median seconds; 0 when the measurement failed
        const FeatureRows *rows;   ///< owned by sample_rows_
    };
    struct CacheEntry {
        bool valid = false;
        FeatureRows rows;
    };

    /// Features of (spec, actions) pairs, extracting the missing ones in parallel.
    std::vector<const CacheEntry *> lookup(const std::vector<std::pair<WorkloadSpec, ActionList>> &states);
    std::vector<double> predict_rows(const std::vector<const FeatureRows *> &candidates) const;
    std::vector<std::pair<std::string, std::string>> booster_settings() const;

    CostModelParams params_;
    WorkloadSpec task_;
    bool has_task_ = false;
    std::mt19937_64 rng_;
    std::unordered_map<std::string, std::unique_ptr<CacheEntry>> cache_;
    std::deque<std::string> cache_order_;
    std::vector<Sample> samples_;
    std::deque<FeatureRows> sample_rows_;
    int updates_since_training_ = 0;
    Booster booster_;
    int rounds_ = 0;
    int xgb_threads_ = 1;      ///< XGBoost's threads for the current model (see kParallelTrainRows)
};

/// Scoring throughput of a model on a population: candidates scored per second, feature extraction
/// included (a fresh, empty cache) and, separately, when every candidate's features are cached.
struct ScoringThroughput {
    double candidates_per_second = 0;         ///< first scoring: lowering + features + prediction
    double cached_candidates_per_second = 0;  ///< second scoring of the same population
    int candidates = 0;
    int invalid = 0;
};
ScoringThroughput measure_scoring_throughput(CostModel &model, const WorkloadSpec &spec,
                                             const std::vector<ActionList> &population);

}  // namespace worldtune
