// Calibrating a world-model bundle to the machine it tunes on.
//
// The shipped rankers learned the preferences of the machine their training records were measured on
// (which tile sizes fit its caches, whether a tiny reduction is worth waking the thread pool). Their
// hardware features are constant in that data, so they cannot carry what differs on another machine.
// Calibration measures nothing itself: it reads records measured on this machine (say, a short
// `worldtune dataset collect` over the training list) and fits, for each ranker variant, an XGBoost
// correction on top of the shipped ranker (its scores as base margin), over the rows the ranker reads plus
// the parallelism features (WorldModel::feature_rows; ScheduleFeatures.h), so scoring a candidate still
// never lowers it. Those features mean the same in every workload, which is what lets records of small ops
// teach the correction this machine's cost of starting parallel work. The search's online correction then learns on top of the
// calibrated ranker.
//
// The rounds are chosen on held-out workloads: a share of the workloads (CalibrationParams::holdout) is
// kept out, a correction is fitted per candidate round count on the rest, and the count with the best mean
// pairwise accuracy on the held-out workloads wins; the final correction is fitted on all workloads. When no
// count beats the uncalibrated ranker on the held-out workloads, the variant is left uncalibrated.
//
// Files in the bundle: calibration_<variant>.ubj (Ranker format) and calibration.json
//   {"format": "worldtune-calibration", "version", "created_at", "hardware": hardware_json() of the machine,
//    "records", "workloads", "held_out_workloads", "depth", "eta",
//    "variants": {variant: {"rounds" (0: uncalibrated), "held_out_before", "held_out_after": metrics}}}.
// A WorldModel uses a calibration only on the machine it names (same_machine), so a bundle copied to
// another machine ranks as shipped. Never calibrate on the workloads a model is evaluated on.
#pragma once

#include "common/Defaults.h"
#include "common/RankingMetrics.h"
#include "train/EncoderTrainer.h"
#include "world/CalibrationFile.h"
#include "store/RecordStore.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace worldtune {

/// Every knob of a calibration.
struct CalibrationParams {
    std::vector<std::string> variants = {"world", "initial", "actions"};  ///< "final" lowers every record: slow
    std::vector<int> round_choices = {10, 25, 50, 100, 200};  ///< round counts tried on the held-out workloads
    int depth = 4;              ///< tree depth of the correction (the online correction's)
    double eta = 0.1;           ///< its learning rate (the online correction's)
    double holdout = 0.25;      ///< share of the workloads held out to choose the rounds
    int min_successes = 8;      ///< a workload needs this many error-free records to take part
    uint64_t seed = 1;          ///< which workloads are held out
    int threads = kDefaultThreads;
};

struct CalibratedVariant {
    std::string variant;
    int rounds = 0;              ///< 0: left uncalibrated
    RankingMetrics before;       ///< shipped ranker on the held-out workloads
    RankingMetrics after;        ///< the chosen correction on them
};

struct CalibrationReport {
    int64_t records = 0;         ///< records used
    int workloads = 0;           ///< workloads used
    int64_t other_machines = 0;  ///< records skipped: measured on another machine
    std::vector<CalibratedVariant> variants;
};

/// Fits the calibration of the bundle in `bundle_dir` from the records of `store` measured on this machine,
/// of the workloads `use_workload` accepts (canonical spec text: the CLI accepts only the training split of
/// the bundle's dataset), and writes it into the bundle. Throws std::runtime_error with one line when there
/// is too little to learn from.
CalibrationReport calibrate_bundle(const std::string &bundle_dir, const RecordStore &store,
                                   const std::function<bool(const std::string &)> &use_workload, const CalibrationParams &params,
                                   const Log &log);

}  // namespace worldtune
