// Tuning that stores every measured candidate and resumes from the store: what `worldtune tune` runs for
// one workload or a network. States already stored for a workload are never proposed again, and the model
// learns from them before the first round.
#pragma once

#include "search/CostModel.h"
#include "search/TaskScheduler.h"
#include "search/Tuner.h"
#include "store/RecordStore.h"

#include <functional>
#include <string>
#include <vector>

namespace worldtune {

struct StoredTuningParams {
    std::string source = "tune";  ///< the records' source
    TuneParams tune;               ///< tune.trials: the run's budget (over all subgraphs, for a network)
    MeasureParams measure;
    int searches = 0;              ///< a network's subgraphs tuned at once on a farm's rank 0 (0: enough to keep
                                   ///< its measurers busy, farm_concurrent_searches); without a farm always 1
};

/// Marks every stored state of `spec` as seen by `tuner` and lets `model` learn from them; returns them.
std::vector<MeasureResult> resume_from_store(const RecordStore &store, const WorkloadSpec &spec, Tuner &tuner, CostModel &model);

/// Tunes one workload for params.tune.trials trials, storing each result; `on_trial(result, index)` after
/// each. `resumed` receives how many states the store already held.
TuneSummary tune_stored(RecordStore &store, const WorkloadSpec &spec, CostModel &model, const StoredTuningParams &params,
                        size_t &resumed, const std::function<void(const MeasureResult &, int)> &on_trial);

/// One subgraph of a tuned network.
struct SubgraphResult {
    PresetEntry entry;
    double flops = 0;
    int trials = 0;   ///< measured in all (the store's included)
    double best = 0;  ///< best latency (s); 0 when none succeeded
};

struct NetworkResult {
    std::vector<SubgraphResult> subgraphs;  ///< preset order
    double estimated_latency = 0;           ///< Σ count × best over the subgraphs that have a best
    std::vector<size_t> missing;            ///< subgraphs without a measured schedule: the estimate lacks them
    double wall_seconds = 0;                ///< this run, resuming included
};

/// Splits params.tune.trials over a network's subgraphs with the task scheduler, resuming each subgraph from
/// the store; `on_round(task, measured so far, estimate)` after each round.
NetworkResult tune_network_stored(RecordStore &store, const std::string &network, CostModel &model, const StoredTuningParams &params,
                                  const std::function<void(const TaskState &, int, double)> &on_round);

}  // namespace worldtune
