// `worldtune bench`: the head-to-head evaluation, resumable, into a report folder.
//   1. Workloads: preset subgraphs that are not in the dataset's train split (or the given specs, checked).
//   2. Tuning: every model (world, world+static, static, random) searches each workload for `trials`
//      trials with `seeds` seeds, and every ablation (world-initial, world-final) the first
//      `ablation_count` workloads; on the first `efficiency_count` workloads the static model goes on to
//      `efficiency` trials (sample efficiency: 10x the budget). Then every subgraph of each `networks`
//      preset is tuned by the lead model (`network_trials`, seed 1).
//      Every trial is stored at once: a resumed bench measures only what is missing.
//   3. Comparison phase, after all tuning: each run's best schedule within its budget is re-measured in
//      `rounds` rounds beside every peer (SideBySide.h); each network subgraph's best beside libtorch, for
//      the end-to-end estimate Σ occurrences × latency (NetworkEstimate.h).
//   4. Report (BenchReport.h): report.md (tables, ratios, geometric means, wall times, the command),
//      curves.png, speedups.png, efficiency.png, and the gnuplot data and scripts that drew them.
#pragma once

#include "common/Defaults.h"
#include "common/Statistics.h"
#include "measure/Measurer.h"
#include "search/Tuner.h"
#include "store/RecordStore.h"
#include "study/NetworkEstimate.h"
#include "study/TuningRuns.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace worldtune {

/// Every knob of a bench, with the defaults of `worldtune bench`.
struct BenchParams {
    std::string dataset, out = "results", db = "bench.db", bundle, peers, list;
    std::vector<std::string> specs;
    std::string models = "world,world+static,static,random", ablations = "world-initial";
    std::string networks = "resnet50,mobilenet_v2,bert_base,gpt2";
    int network_trials = 64;
    int count = 12, trials = 64, efficiency = 640, efficiency_count = 3, seeds = 5, rounds = 3;
    int ablation_count = 0;  ///< the ablations run on the first N workloads (0: all; world-final lowers and
                             ///< encodes every candidate it scores, about 15x the world model's tuning time)
    uint64_t seed = 1;       ///< the workload choice and the comparison's order
    double peer_timeout = 900;
    MeasureParams measure;
    TuneParams search;  ///< the search's knobs (population, generations), the same for every model
};

/// What a bench compares, checked: the workloads, the models and the rest, from BenchParams.
struct BenchPlan {
    std::vector<std::string> specs, models, ablations, all_models, networks, peers;
    std::string lead;            ///< the first model: the one whose speedups are reported
    bool has_static = false;
    bool efficiency_study = false;
    std::string efficiency_entry;  ///< "static@<efficiency>"
};

/// One workload's results.
struct BenchWorkload {
    std::string spec;
    double flops = 0;
    std::map<std::string, std::vector<std::vector<double>>> curves;  ///< model -> per seed best-so-far latency
    std::map<std::string, std::vector<double>> latency;              ///< entry -> re-measured latencies
    std::map<std::string, SeedSamples> seed_latency;                 ///< entry -> per seed (a peer: one), its latencies
    std::map<std::string, std::string> peer_note;
};

struct ModelTime {
    double wall = 0, model = 0;
    int trials = 0;  ///< trials whose time is known (RunTime)
    int runs = 0;
};

struct BenchResults {
    BenchPlan plan;
    std::vector<BenchWorkload> workloads;
    std::map<std::string, ModelTime> times;
    std::vector<NetworkEstimate> estimates;
    NetworkBenchParams network;
    double seconds = 0;  ///< this invocation's wall time
};

/// The records source of a bench run of `model` with `seed`.
std::string bench_source(const std::string &model, uint64_t seed);
/// Checks the parameters and chooses the workloads; throws StudyError.
BenchPlan plan_bench(const BenchParams &params);
/// Tunes what the database lacks, then re-measures every best schedule beside the peers.
BenchResults run_bench(const BenchParams &params);
/// Refuses a database holding records of another machine type (a resumed bench would mix them in).
void refuse_other_machines(const RecordStore &store);

}  // namespace worldtune
