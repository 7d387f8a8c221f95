// The compiler world model as a cost model for the search (`worldtune tune --model world`).
//
// set_task lowers the workload's pre-schedule state s_0 once and encodes it, z_0 = E(s_0). predict rolls
// each candidate's actions out from z_0 with the transition (plain C++, never lowering the candidate; each
// action read with the extents it acts on, ScheduleFeatures.h: action_contexts) and scores the predicted
// terminal state z^_T, with the action statistics and hardware features, by the shipped ranker.
//
// update learns online through the world model itself (WorldConfig::online_mode): "latent" (default) fits
// a correction on the candidates' rolled-out latents and parallelism features, anchored to the prior
// (LatentCorrection.h); "booster" trains an XGBoost correction on top of the prior's margins; "none" keeps
// the prior. Encoder and transition stay frozen. There is no model learned from scratch on the run.
// With WorldConfig::online_lowered_features the booster also reads the lowered statements' static features,
// as a cascade: the prior ranks the whole batch without lowering anything, then only its best
// `online_lowered_shortlist` (unmeasured, scorable) candidates are lowered and ranked by the correction, on
// top of every other candidate, which keeps the prior's order.
//
// Ablation variants use the same bundle and the same online learning: "world-initial" scores E(s_0) (no
// transition: only the action statistics tell candidates apart), "world-final" lowers and encodes each
// candidate's real final state E(s_T) (static encoding, the slow path), "world-actions" uses the action
// statistics alone.
//
// On the machine a calibration names (Calibration.h), the prior is the shipped ranker plus that machine's
// correction (an optional extra: `worldtune calibrate`).
//
// The bundle is a directory (see WorldBundle.h).
#pragma once

#include "common/Defaults.h"
#include "search/CostModel.h"
#include "features/ScheduleFeatures.h"
#include "world/LatentCorrection.h"
#include "world/LoweredRows.h"
#include "world/Ranker.h"
#include "world/Rollout.h"
#include "world/WorldBundle.h"

#include <map>
#include <memory>

namespace worldtune {

class Encoder;

enum class WorldVariant { World, Initial, Final, Actions };
/// "world", "world-initial", "world-final", "world-actions".
const char *world_variant_model_name(WorldVariant v);
/// The ranker variant name inside the bundle: "world", "initial", "final", "actions".
const char *world_variant_ranker(WorldVariant v);
/// The variant of a ranker name; throws std::invalid_argument for another name.
WorldVariant world_variant_from_ranker(const std::string &ranker);

class WorldModel : public CostModel {
public:
    /// Loads the bundle; throws BundleError with one clear line when it is missing or incompatible.
    /// With `use_calibration`, the bundle's calibration for this machine is applied when there is one.
    WorldModel(const std::string &bundle_dir, WorldVariant variant = WorldVariant::World, int threads = kDefaultThreads,
               bool use_calibration = true);
    ~WorldModel() override;

    std::string name() const override { return world_variant_model_name(variant_); }
    void set_task(const WorkloadSpec &spec) override;
    std::vector<double> predict(const std::vector<ActionList> &candidates) override;
    void update(const std::vector<MeasureResult> &results) override;
    bool has_prior() const override { return true; }

    /// z = E(s) of a state text.
    std::vector<float> encode_text(const std::string &text) const;
    std::vector<std::vector<float>> encode_texts(const std::vector<std::string> &texts) const;
    /// The feature rows of candidates of the current task (what predict scores), row_width() floats each:
    /// the shipped ranker's row (Ranker.h: state, action statistics, hardware, and with
    /// WorldConfig::ranker_schedule_stats the schedule statistics), always ending in the parallelism features
    /// (ScheduleFeatures.h; appended when the ranker does not read them), which the online learning reads.
    /// Empties the rollouts' caches of actions and paths (throughput measurements of a first sight).
    void forget_rollouts();
    std::vector<float> feature_rows(const std::vector<ActionList> &candidates, std::vector<bool> *valid = nullptr);
    int row_width() const { return ranker_.width() + (bundle_.config.ranker_schedule_stats ? 0 : kParallelismFeatures); }
    /// The online correction's rows: feature_rows widened by `columns` columns of the candidates' schedule
    /// features (one KeyedFeatures per row) and, when `lowered` is given, by each row's pooled lowered
    /// features (kPooledLength floats; zeros for a null pointer).
    std::vector<float> online_rows(const std::vector<KeyedFeatures> &schedules, const std::vector<float> &rows, size_t columns,
                                   const std::vector<const std::vector<float> *> *lowered = nullptr) const;
    const WorldBundle &bundle() const { return bundle_; }
    /// The ranker candidates are scored by before any online learning: the shipped one, calibrated to this
    /// machine when the bundle has a calibration for it.
    const Ranker &prior() const { return calibrated_ ? calibration_ : ranker_; }
    bool calibrated() const { return calibrated_; }
    WorldVariant variant() const { return variant_; }

private:
    /// Threads that build and score a batch of `candidates` rows.
    size_t row_workers(size_t candidates) const;
    WorldBundle bundle_;
    WorldVariant variant_;
    int threads_;
    std::unique_ptr<Encoder> encoder_;
    std::unique_ptr<Rollout> rollout_;
    std::vector<std::unique_ptr<Rollout>> rollouts_;  ///< one more per extra thread (Rollout caches per instance)
    Ranker ranker_;
    Ranker calibration_;       ///< this machine's correction on top of ranker_ (Calibration.h)
    bool calibrated_ = false;
    Ranker online_;            ///< online_mode "booster": the correction on top of prior()
    bool online_trained_ = false;
    LatentCorrection latent_;  ///< online_mode "latent"
    WorkloadSpec task_;
    bool has_task_ = false;
    std::vector<float> z0_;
    std::map<std::string, std::vector<float>> z0_cache_;
    /// Per task, its programs' stages (what ScheduleFeatures simulates) and its arithmetic.
    std::map<std::string, std::unique_ptr<TaskPrograms>> stages_cache_;
    const TaskPrograms *stages_ = nullptr;  ///< the current task's
    FeatureColumns online_columns_;  ///< the schedule features' columns, as the online data met them
    size_t online_width_ = 0;        ///< of those, the ones the trained booster correction reads
    /// The latent correction's inputs of feature rows: the state part and the parallelism features.
    std::vector<float> latent_inputs(const std::vector<float> &rows) const;
    int latent_width() const { return prior().state_dim() + kParallelismFeatures; }
    struct OnlineGroup;  ///< one task's measurements with their feature rows (WorldModel.cpp)
    void update_booster(const std::vector<OnlineGroup> &groups);
    void update_latent(const std::vector<OnlineGroup> &groups);
    /// The booster correction's scores of a batch (its feature rows `rows`).
    std::vector<double> corrected_scores(const std::vector<ActionList> &candidates, const std::vector<float> &rows, size_t workers);
    /// online_lowered_features: the prior's order, with its best unmeasured candidates lowered and ranked
    /// by the correction on top (the cascade above).
    std::vector<double> cascade_scores(const std::vector<ActionList> &candidates, const std::vector<float> &rows,
                                       const std::vector<bool> &valid, size_t workers);
    LoweredRows lowered_;      ///< online_lowered_features: pooled lowered features, cached
    nlohmann::json hardware_;
    std::vector<float> hardware_row_;  ///< hardware_features(hardware_), appended to every row
    /// This run's measurements per task: (actions, latency; <= 0 failed).
    std::map<std::string, std::vector<std::pair<ActionList, double>>> measured_;
    /// Per task (canonical spec): the latent inputs of its fastest measured candidates, the trust guard's
    /// anchors (WorldConfig::online_trust).
    std::map<std::string, std::vector<float>> anchors_;
};

}  // namespace worldtune
