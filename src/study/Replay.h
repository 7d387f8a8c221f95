// `worldtune replay`: how well each cost model, having seen the first N measurements of a tuning run,
// picks the fastest among the other measured schedules of the same workload. No new measurement: it
// replays a records database (a bench's, a tune's), so models can be compared on exactly the same data,
// deterministically. It isolates what the search takes from the model (its ranking after online
// learning) from the search's own luck.
//
// For each workload of the database, every run (records of one `source`, in measurement order) with at
// least max(after) successful trials gives a training prefix; the pool is every other distinct
// successful schedule of the workload (subsampled to `pool`). The model is trained on the prefix as the
// tuner would (update() with the prefix, a batch at a time), then scores the pool. Reported per model
// and N, geometric means over runs of the pool-best latency divided by: the latency of the model's top-1
// pick, the best latency of its batch (the B it would measure in one tuning round, `batch`, picked as the
// search does: BatchSelection.h), and the geometric mean latency of that batch. Each is 1.0 when the
// model puts the pool's fastest first (all B of them, for the last). `db` may name several databases
// (comma-separated): a run is then the records of one source in one database, the pool draws on all.
#pragma once

#include "common/Defaults.h"
#include "search/Evolution.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace worldtune {

/// Every knob of a replay, with the defaults of `worldtune replay`.
struct ReplayParams {
    std::string db, models = "world,static", after = "0,16,32,48", bundle;
    int pool = 300;
    double near = 0;    ///< > 0: the pool keeps only schedules at most this × the run's incumbent (its best in
                        ///< the first N) — how well a model ranks near the best it has seen; 0: all
    int runs = 4;       ///< runs per workload used as training prefixes
    int batch = 16;     ///< candidates measured per tuning round (TuneParams::measures_per_round)
    int threads = kDefaultThreads;
    uint64_t seed = 1;  ///< the pool subsample and the models
    BatchDiversity diversity = EvolutionParams().batch;  ///< how the search picks a batch among its best
};

/// One model after N measurements, over the runs replayed: each run's ratios.
struct ReplayScore {
    std::vector<double> top1, top_batch, batch_mean;
};

struct ReplayResults {
    std::vector<std::string> models;
    std::vector<int> after;
    std::map<std::pair<std::string, int>, ReplayScore> scores;  ///< (model, N) -> scores
};

/// Replays the database; throws StudyError (study/TuningRuns.h) on parameters it cannot use.
ReplayResults run_replay(const ReplayParams &params);
/// The table: per model and N, the runs and the geometric means of the three ratios.
std::string replay_table(const ReplayResults &results, const ReplayParams &params);

}  // namespace worldtune
