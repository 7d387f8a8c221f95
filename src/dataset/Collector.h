// Trajectory collection: `worldtune dataset collect` runs worldtune's search with each collection model
// (random search for poor-to-fair schedules, the static model's evolutionary search for good ones) over a
// workload list, measures every candidate and stores it in the records database, where each record is a
// trajectory (spec, action list, measurement, hardware).
//
// Collection goes in passes over the list: pass p raises every (workload, model) to
// min(trials, p * pass_trials) records, so an interrupted collection has already covered every workload
// evenly. Progress is counted from the database (records of the spec with source "collect:<model>"), so a
// killed or time-limited collection resumes where it stopped; a run's model first learns from the records
// its earlier passes left. A workload whose candidates run longer than max_run_seconds (median of its
// successful records, once min_runs_for_skip exist) is skipped from then on, and so is one that cannot be
// built; both leave a note in the database ("collect-skip:<spec>", shown by `worldtune dataset collect`).
//
// On a measurement farm (farm/Farm.h) rank 0 searches several workloads of a pass at once, each on a thread
// of its own, so that the measurers never wait while one search proposes its next batch. Each workload's
// search is seeded and resumed from its own records only, so it proposes what a lone search would.
#pragma once

#include "measure/Measurer.h"
#include "search/Tuner.h"
#include "store/RecordStore.h"

#include <functional>
#include <string>
#include <vector>

namespace worldtune {

/// Every knob of a collection, with defaults.
struct CollectParams {
    std::vector<std::string> models = {"random", "static"};  ///< each one searches every workload
    int trials = 96;              ///< measured candidates per workload and model
    int pass_trials = 32;         ///< per workload and model in each pass over the list
    uint64_t seed = 1;            ///< mixed with the workload, model and pass into each search's seed
    double max_run_seconds = 0.2; ///< skip a workload whose candidates' median run is longer
    int min_runs_for_skip = 4;    ///< successful records needed before that median is trusted
    double hours = 0;             ///< stop (resumably) after this many hours; 0: no limit
    int searches = 0;             ///< workloads searched at once on a farm's rank 0 (0: enough to keep its
                                  ///< measurers busy, farm_concurrent_searches); without a farm always 1
    TuneParams tune = collection_tune_params();  ///< batch, sampler, evolution (trials and seed set per run)
    nlohmann::json machine;       ///< count, resume and learn only from records of this machine type
                                  ///< (same_machine); null: from every record (a farm sets each group's)
    MeasureParams measure;

    /// The search used for collection: the tuner's defaults with a population of 128 (half Ansor's): the
    /// static model's evolution lowers every candidate it scores, and collection needs good schedules, not
    /// the best one.
    static TuneParams collection_tune_params() {
        TuneParams t;
        t.evolution.population = 128;
        return t;
    }
};

struct CollectSummary {
    int64_t measured = 0;       ///< candidates measured by this call
    int64_t failed = 0;         ///< of which ended in an error
    int64_t records = 0;        ///< collection records in the database at the end (all sources "collect:*"; of
                                ///< params.machine when set)
    int workloads_done = 0;     ///< workloads with every model at `trials`
    int workloads_skipped = 0;  ///< too slow or not buildable (noted)
    bool time_limit_hit = false;
    double wall_seconds = 0;
};

/// The source a collection model's records carry.
std::string collect_source(const std::string &model);

/// Runs (or resumes) a collection over `specs`; `log` receives one line per finished search and note.
/// Throws std::invalid_argument for an unknown model or bad parameters.
CollectSummary collect_trajectories(RecordStore &store, const std::vector<std::string> &specs,
                                    const CollectParams &params, const std::function<void(const std::string &)> &log);

}  // namespace worldtune
