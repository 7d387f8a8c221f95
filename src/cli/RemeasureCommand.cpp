// `worldtune remeasure`: parses the options and re-measures tuning runs' bests side by side
// (study/Remeasure.h says why); appends one tab-separated line per run and workload to --out, resuming.
#include "cli/Commands.h"

#include "dataset/WorkloadList.h"
#include "study/Remeasure.h"
#include "study/TuningRuns.h"

#include <cstdio>
#include <fstream>
#include <memory>

namespace worldtune::cli {

void add_remeasure_command(CLI::App &app) {
    struct Options : RemeasureParams {
        std::string list;
        std::string out;
    };
    auto o = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("remeasure", "Re-measure the best schedule of tuning runs side by side, one run per records database");
    cmd->add_option("--db", o->dbs, "Records databases, one tuning run each, comma-separated; PATH@N takes that run's best within its first N records")->required()->delimiter(',');
    cmd->add_option("--list", o->list, "File of workload specs, one per line (e.g. docs/val_workloads.txt)")->required();
    cmd->add_option("--trials", o->trials, "A run's best among its first N records of a workload")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--rounds", o->rounds, "Rounds; each measures every run's best once, in a shuffled order")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--seed", o->seed, "Seed of the rounds' order")->capture_default_str();
    cmd->add_option("--out", o->out, "Tab-separated file to append to; workloads already in it are skipped")->required();
    add_measure_options(cmd, o->measure);
    cmd->callback([o] {
        try {
            o->specs = read_workload_list(o->list);
        } catch (const std::runtime_error &e) {
            throw CommandError(e.what());
        }
        const std::set<std::string> done = remeasured_specs(o->out);
        const bool fresh = !std::ifstream(o->out).good();
        std::ofstream out;  // opened at the first workload measured: a refused run writes nothing
        try {
            remeasure_bests(*o, done, [&](const std::vector<RemeasuredBest> &bests) {
                if (!out.is_open()) {
                    out.open(o->out, std::ios::app);
                    if (!out) throw CommandError("cannot write " + o->out);
                    if (fresh) out << remeasured_tsv_header();
                }
                for (const RemeasuredBest &b : bests) {
                    out << remeasured_tsv_line(b);
                    std::fprintf(stderr, "  %s", remeasured_tsv_line(b).c_str());
                }
                out << std::flush;
            });
        } catch (const StudyError &e) {
            throw CommandError(e.what());
        }
    });
}

}  // namespace worldtune::cli
