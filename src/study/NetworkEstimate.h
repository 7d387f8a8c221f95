// The end-to-end part of `worldtune bench`: a network's estimated latency is the sum over its distinct
// subgraphs of occurrences × latency. worldtune's estimate tunes every subgraph with one model for a
// fixed budget (one seed) and re-measures each best schedule; libtorch runs the same subgraphs beside it,
// in the same rounds, with the same harness and thread count.
#pragma once

#include "baseline/Baseline.h"
#include "measure/Measurer.h"
#include "model/ModelFactory.h"
#include "store/RecordStore.h"

#include <functional>
#include <string>
#include <vector>

namespace worldtune {

struct SubgraphEstimate {
    std::string spec;
    int count = 0;                      ///< occurrences in the network
    std::vector<double> tuned;          ///< re-measured latencies of the tuned schedule (s)
    bool has_schedule = true;           ///< false: no schedule to re-measure (every trial failed, or not tuned)
    std::vector<double> libtorch;       ///< libtorch's latencies (s); empty when it cannot run the subgraph
    std::string libtorch_note;          ///< why libtorch has no number ("" when it has one)
};

struct NetworkEstimate {
    std::string network;
    std::vector<SubgraphEstimate> subgraphs;

    /// Σ count × median latency (libtorch's or the tuned schedules') over the subgraphs that both have a
    /// number for, so the two sums compare like for like.
    double total(bool libtorch) const;
};

struct NetworkBenchParams {
    std::string model = "world";         ///< model that tunes every subgraph
    int trials = 64;                     ///< per subgraph
    int rounds = 3;                      ///< re-measurement rounds (tuned schedule and libtorch each round)
    std::string tuned_as;                ///< how the schedules were tuned, for the report ("": by `model`
                                         ///< for `trials` trials per subgraph, seed 1)
    MeasureParams measure;
    BaselineParams baseline;
    CostModelParams model_params;
    /// Records source of a (model, seed) run: runs shared with the per-workload bench resume, not repeat.
    std::function<std::string(const std::string &, uint64_t)> source;
};

/// Tunes every subgraph of `network` (resuming from the database); each one's best schedule within the
/// budget, none where every trial failed. Subgraphs in preset order.
std::vector<std::optional<ActionList>> tune_network_subgraphs(RecordStore &store, const std::string &network, const NetworkBenchParams &params);

/// Re-measures tune_network_subgraphs' schedules and runs libtorch on every subgraph, round by round. Kept apart
/// from the tuning so that a resumed bench measures everything together, once, after all tuning is done.
NetworkEstimate measure_network(const std::string &network, const std::vector<std::optional<ActionList>> &bests,
                                const NetworkBenchParams &params);

/// The report section: per network, worldtune's and libtorch's estimates and their ratio.
std::string network_report(const std::vector<NetworkEstimate> &estimates, const NetworkBenchParams &params);

}  // namespace worldtune
