// `worldtune estimate --network NAME [--db FILE] [--rounds R]`: the end-to-end estimate of a network tuned
// with `worldtune tune --network`: every subgraph's best schedule in the database re-measured beside libtorch,
// round by round, in the same harness and thread count (the end-to-end section of `worldtune bench`).
#include "cli/Commands.h"

#include "store/RecordStore.h"
#include "study/NetworkEstimate.h"
#include "study/TuningRuns.h"
#include "workload/Presets.h"

#include <sys/stat.h>

#include <cstdio>

namespace worldtune::cli {

void add_estimate_command(CLI::App &app) {
    struct Options {
        std::string network, db = RecordStore::kDefaultPath;
        NetworkBenchParams params;
        double peer_timeout = 600;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("estimate", "Re-measure a tuned network's best schedules beside libtorch: the end-to-end estimate");
    cmd->add_option("--network", opts->network, "Network preset (see `worldtune workloads`)")->required();
    cmd->add_option("--db", opts->db, "Records database the network was tuned into")->capture_default_str();
    cmd->add_option("--rounds", opts->params.rounds, "Re-measurement rounds (each subgraph's best and libtorch each round)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--peer-timeout", opts->peer_timeout, "Seconds per libtorch run before its process is killed")
        ->capture_default_str()->check(CLI::PositiveNumber);
    add_measure_options(cmd, opts->params.measure);
    cmd->callback([opts] {
        const std::vector<PresetEntry> entries = preset(opts->network);
        struct stat st;
        if (stat(opts->db.c_str(), &st) != 0) throw CommandError("no database " + opts->db + " (tune the network into it first)");
        RecordStore store(opts->db);
        std::vector<std::optional<ActionList>> bests;
        int with_best = 0;
        for (const PresetEntry &e : entries) {
            std::optional<Record> r = store.best_for(WorkloadSpec::parse(e.spec).canonical());
            bests.push_back(r ? std::optional<ActionList>(actions_from_json(r->result.actions)) : std::nullopt);
            with_best += bool(r);
        }
        if (with_best == 0) throw CommandError("no subgraph of " + opts->network + " has a measured schedule in " + opts->db);
        NetworkBenchParams &p = opts->params;
        p.baseline = peer_params(p.measure, opts->peer_timeout);
        p.tuned_as = "each subgraph's best schedule in " + opts->db + " (" + std::to_string(with_best) + " of " +
                     std::to_string(entries.size()) + " subgraphs have one)";
        std::fprintf(stderr, "estimate %s: %d of %zu subgraphs tuned; re-measuring beside libtorch, rounds: %d\n", opts->network.c_str(), with_best,
                     entries.size(), p.rounds);
        std::printf("%s", network_report({measure_network(opts->network, bests, p)}, p).c_str());
    });
}

}  // namespace worldtune::cli
