// `worldtune bench`: parses the options and runs the bench of study/Bench.h, whose header says what it does;
// the report goes to --out (study/BenchReport.h) and stdout.
#include "cli/Commands.h"

#include "study/Bench.h"
#include "study/BenchReport.h"

#include <cstdio>
#include <memory>

namespace worldtune::cli {

void add_bench_command(CLI::App &app) {
    auto o = std::make_shared<BenchParams>();
    CLI::App *cmd = app.add_subcommand("bench", "World model vs static vs random vs peers on held-out subgraphs; report with plots");
    cmd->add_option("--dataset", o->dataset, "Dataset file: benchmarked workloads must be outside its train split")->required();
    cmd->add_option("--specs", o->specs, "Specs to benchmark, space-separated (default: held-out preset subgraphs)");
    cmd->add_option("--list", o->list, "File of specs to benchmark, one per line (docs/bench_workloads.txt: the fixed bench list)");
    cmd->add_option("--count", o->count, "Held-out subgraphs to benchmark")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--models", o->models, "Models compared (the first is the one whose speedups are reported)")->capture_default_str();
    cmd->add_option("--ablations", o->ablations, "Ablation models ('none' for none)")->capture_default_str();
    cmd->add_option("--trials", o->trials, "Trials per run")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--efficiency", o->efficiency, "Static model's budget on the sample-efficiency subset")->capture_default_str();
    cmd->add_option("--efficiency-count", o->efficiency_count, "Workloads in that subset (0: none)")->capture_default_str();
    cmd->add_option("--ablation-count", o->ablation_count, "The ablations run on the first N workloads (0: all)")->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--seeds", o->seeds, "Seeds per run")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--rounds", o->rounds, "Comparison rounds")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--networks", o->networks, "Presets whose end-to-end latency is estimated ('none' for none)")->capture_default_str();
    cmd->add_option("--network-trials", o->network_trials, "Trials per subgraph for the network estimate")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--peers", o->peers, "Comma-separated peers (default: all; 'none')");
    cmd->add_option("--peer-timeout", o->peer_timeout, "Seconds one peer may take")->capture_default_str();
    cmd->add_option("--db", o->db, "Records database (the bench resumes from it)")->capture_default_str();
    cmd->add_option("--out", o->out, "Report folder")->capture_default_str();
    cmd->add_option("--bundle", o->bundle, "World-model bundle (default: the shipped one)");
    cmd->add_option("--seed", o->seed, "Seed of the workload choice")->capture_default_str();
    cmd->add_option("--population", o->search.evolution.population, "Evolutionary search population")->capture_default_str()
        ->check(CLI::PositiveNumber);
    cmd->add_option_function<int>(
           "--generations",
           [o](int g) {
               o->search.evolution.generations = g;
               o->search.evolution.prior_generations = g;
           },
           "Evolutionary search generations per batch, for every model (default: 4, 1 for models with a prior)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--neighbourhood", o->search.evolution.neighbourhood_tapes,
                    "Models with a prior: the fastest measured schedules whose one-decision neighbours are scored each batch")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--neighbourhood-share", o->search.evolution.neighbourhood_share,
                    "Share of each batch's model-picked part taken from those neighbours")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    add_measure_options(cmd, o->measure);
    cmd->callback([o] {
        try {
            const BenchResults results = run_bench(*o);
            std::printf("%s", write_bench_report(results, *o).c_str());
        } catch (const StudyError &e) {
            throw CommandError(e.what());
        }
    });
}

}  // namespace worldtune::cli
