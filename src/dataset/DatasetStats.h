// What a dataset holds, in numbers: workloads per op and split, trajectories, errors, trajectory lengths,
// the latency spread within each workload, and how many tokens the state texts hold.
#pragma once

#include "dataset/DatasetFile.h"

#include <map>
#include <string>

namespace worldtune {

/// min / median / max / mean of a list of values (all 0 when empty).
struct Spread {
    int64_t count = 0;
    double min = 0, median = 0, max = 0, mean = 0;
    static Spread of(std::vector<double> values);
};

struct DatasetStats {
    int64_t workloads = 0;
    int64_t trajectories = 0;
    std::map<std::string, int64_t> workloads_per_op;
    std::map<std::string, int64_t> workloads_per_split;     ///< "train", "val", "test"
    std::map<std::string, int64_t> trajectories_per_split;
    std::map<std::string, int64_t> errors;                  ///< trajectories per error kind name, "none" included
    Spread length;              ///< actions per trajectory
    Spread best_over_median;    ///< per workload with >= 2 error-free trajectories: best / median latency
    Spread tokens;              ///< whitespace-split tokens of the final state text, on the sample
    int64_t token_states_failed = 0;  ///< sampled states that did not lower
};

/// Counts everything; lowers up to `token_sample` final states (spread evenly; ~10-30 ms each) for tokens.
DatasetStats dataset_stats(const Dataset &dataset, int token_sample);

/// The statistics as a readable report, several lines.
std::string format_stats(const DatasetStats &stats);

}  // namespace worldtune
