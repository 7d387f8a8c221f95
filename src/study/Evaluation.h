// `worldtune eval`: the world model against its baselines and ablations on the dataset's held-out test
// split, by the ranking metrics of RankingMetrics.h (top-1, top-5, pairwise accuracy, NDCG@10), one
// group per test workload, over its successfully measured trajectories:
//   world          ranker on z^_T, rolled out from E(s_0) over the actions (the candidate is never lowered)
//   static         the static-feature model (StaticModel), trained on the same dataset's train split
//   random         seeded random scores
//   initial        ranker on E(s_0) + action statistics (no transition)
//   final          ranker on E(s_T) of the lowered final state + action statistics (static encoding)
//   actions        ranker on action statistics alone
// It also measures how the encoder sees divisibility noise (latent distance within workload pairs that
// differ only by one unit in one size, e.g. 1023 vs 1024, against the distance between other workloads
// of the same op), and scoring throughput of world vs static on one population, side by side.
#pragma once

#include "common/Defaults.h"
#include "common/RankingMetrics.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace worldtune {

struct EvalOptions {
    std::string bundle;                 ///< world-model bundle directory
    std::string dataset;                ///< dataset file
    std::vector<std::string> train_datasets;  ///< what the static model trains on (train split; default: `dataset`)
    std::string split = "test";         ///< the split evaluated: "test" for claims, "val" to choose settings
    bool quick = false;                 ///< only the rankers over rollouts, E(s_0) and actions, and random:
                                        ///< no static model, no E(s_T) encoding, no noise; the world model's
                                        ///< throughput only
    int static_per_workload = 0;        ///< train trajectories per workload for the static model (0: all)
    int throughput_candidates = 4096;   ///< population scored in the throughput comparison (a search's
                                        ///< generations of 2,048 are scored in one call)
    uint64_t seed = 1;
    int threads = kDefaultThreads;
};

struct NoiseReport {
    int pairs = 0;                     ///< divisibility pairs found
    double pair_distance = 0;          ///< mean latent distance within a pair (of E(s_0))
    double same_op_distance = 0;       ///< mean distance between different workloads of the same op kinds
    std::vector<std::string> examples; ///< a few pairs, "a | b: distance"
    int scheduled_pairs = 0;                 ///< (pair, schedule) states compared
    double scheduled_pair_distance = 0;      ///< E(s_T) of one schedule on both workloads of a pair
    double scheduled_other_distance = 0;     ///< E(s_T) of one schedule on a workload and on another of its op
};

struct ThroughputReport {
    std::string spec;
    int candidates = 0;
    double world_per_second = 0;        ///< first scoring of the population (actions not seen before)
    double world_warm_per_second = 0;   ///< the same population scored again (actions cached, as in a
                                        ///< search's later generations)
    double static_per_second = 0;       ///< 0: not measured (--quick)
};

struct EvalReport {
    std::map<std::string, RankingMetrics> models;  ///< by model name (see above)
    int test_workloads = 0, test_trajectories = 0;
    NoiseReport noise;
    ThroughputReport throughput;
    double seconds = 0;
};

EvalReport evaluate_world_model(const EvalOptions &options, const std::function<void(const std::string &)> &log);
/// The report as markdown (tables and how it was produced).
std::string eval_markdown(const EvalReport &report, const EvalOptions &options, const std::string &command);

}  // namespace worldtune
