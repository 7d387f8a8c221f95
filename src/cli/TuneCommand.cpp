// `worldtune tune SPEC --trials N` searches schedules for one workload; `worldtune tune --network NAME
// --trials N` splits the budget over a network's subgraphs with the task scheduler. Every candidate is
// measured and stored; runs resume from the database (states in it are not measured again, and the model
// learns from them first). Prints the best schedule as Halide C++ code, or the per-subgraph table.
#include "cli/Commands.h"

#include "measure/Hardware.h"
#include "model/ModelFactory.h"
#include "world/WorldBundle.h"
#include "schedule/Apply.h"
#include "schedule/PrintHalide.h"
#include "search/StoredTuning.h"
#include "store/RecordStore.h"

#include <cstdio>
#include <iostream>

namespace worldtune::cli {

namespace {

struct TuneOptions {
    std::string spec, network, db = RecordStore::kDefaultPath, model = "world", bundle;
    TuneParams tune;
    MeasureParams measure;
    int searches = 0;
    bool quiet = false;
};

std::string trial_line(const MeasureResult &r) {
    return r.ok() ? format_seconds(r.timing.median_s) + "  " + std::to_string(int(r.gflops + 0.5)) + " GFLOP/s"
                  : std::string("error: ") + error_kind_name(r.error);
}

StoredTuningParams stored_params(const TuneOptions &o) {
    StoredTuningParams p;
    p.source = "tune:" + o.model;
    p.tune = o.tune;
    p.measure = o.measure;
    p.searches = o.searches;
    return p;
}

void tune_one(const TuneOptions &o, RecordStore &store, CostModel &model) {
    const WorkloadSpec spec = WorkloadSpec::parse(o.spec);
    std::fprintf(stderr, "tuning %s: %d trials, model %s, %d threads, %s\n", spec.canonical().c_str(), o.tune.trials, o.model.c_str(),
                 o.measure.threads, hardware_summary().c_str());
    double best = 0;
    size_t resumed = 0;
    const TuneSummary summary = tune_stored(store, spec, model, stored_params(o), resumed, [&](const MeasureResult &r, int index) {
        if (r.ok() && (best == 0 || r.timing.median_s < best)) best = r.timing.median_s;
        if (!o.quiet)
            std::fprintf(stderr, "[%4d/%d] %-36s best %s\n", index + 1, o.tune.trials, trial_line(r).c_str(),
                         best > 0 ? format_seconds(best).c_str() : "-");
    });
    std::fprintf(stderr, "%zu states already in %s (not measured again)\n", resumed, o.db.c_str());
    std::printf("workload      %s\n", spec.canonical().c_str());
    std::printf("trials        %d measured (%d failed) in %.1f s: %.2f s per trial (measuring %.0f%%, search %.0f%%, of which model %.0f%%)\n",
                summary.measured, summary.failed, summary.wall_seconds, summary.measured ? summary.wall_seconds / summary.measured : 0.0,
                100 * summary.measure_seconds / std::max(1e-9, summary.wall_seconds),
                100 * summary.propose_seconds / std::max(1e-9, summary.wall_seconds),
                100 * summary.model_seconds / std::max(1e-9, summary.wall_seconds));
    std::optional<Record> overall = store.best_for(spec.canonical());
    if (!overall) throw CommandError("no candidate of " + spec.canonical() + " ran correctly");
    const MeasureResult &b = overall->result;
    if (summary.best)
        std::printf("best this run %s  %.1f GFLOP/s\n", format_seconds(summary.best->timing.median_s).c_str(), summary.best->gflops);
    std::printf("best overall  %s  %.1f GFLOP/s  (record %lld, min %s, max %s)\n", format_seconds(b.timing.median_s).c_str(),
                b.gflops, (long long)overall->id, format_seconds(b.timing.min_s).c_str(), format_seconds(b.timing.max_s).c_str());
    std::printf("\n%s", print_halide(*build_workload(spec), actions_from_json(b.actions)).c_str());
}

void tune_network(const TuneOptions &o, RecordStore &store, CostModel &model) {
    std::fprintf(stderr, "tuning network %s: %zu subgraphs, %d trials, model %s, %d threads, %s\n", o.network.c_str(),
                 preset(o.network).size(), o.tune.trials, o.model.c_str(), o.measure.threads, hardware_summary().c_str());
    const NetworkResult result = tune_network_stored(store, o.network, model, stored_params(o), [&](const TaskState &t, int done, double estimate) {
        if (!o.quiet)
            std::fprintf(stderr, "[%5d/%d] %-48s best %-10s network %s\n", done, o.tune.trials, t.entry.spec.c_str(),
                         t.best > 0 ? format_seconds(t.best).c_str() : "-", format_seconds(estimate).c_str());
    });
    int trials = 0;
    for (const SubgraphResult &t : result.subgraphs) trials += t.trials;
    std::printf("network %s: %d trials in all (database included), %.1f min this run\n", o.network.c_str(), trials, result.wall_seconds / 60);
    std::printf("%-56s %5s %7s %12s %10s\n", "subgraph", "count", "trials", "best", "GFLOP/s");
    for (const SubgraphResult &t : result.subgraphs)
        std::printf("%-56s %5d %7d %12s %10.1f\n", t.entry.spec.c_str(), t.entry.count, t.trials,
                    t.best > 0 ? format_seconds(t.best).c_str() : "-", t.best > 0 ? t.flops / t.best / 1e9 : 0.0);
    const std::vector<size_t> &missing = result.missing;
    if (missing.empty()) {
        std::printf("estimated end-to-end latency (sum of count x best): %s\n", format_seconds(result.estimated_latency).c_str());
        return;
    }
    int missing_count = 0;
    for (size_t i : missing) missing_count += result.subgraphs[i].entry.count;
    std::printf("PARTIAL estimate: %s for the subgraphs with a measured schedule; %zu of %zu subgraphs (%d of the network's "
                "instances) have none and are missing from it (budget too small or every trial failed):\n",
                format_seconds(result.estimated_latency).c_str(), missing.size(), result.subgraphs.size(), missing_count);
    for (size_t i : missing) std::printf("  missing: %s (x%d)\n", result.subgraphs[i].entry.spec.c_str(), result.subgraphs[i].entry.count);
}

}  // namespace

void add_tune_command(CLI::App &app) {
    auto opts = std::make_shared<TuneOptions>();
    CLI::App *cmd = app.add_subcommand("tune", "Search schedules for a workload or a network, measuring each candidate");
    cmd->add_option("spec", opts->spec, "Workload spec, e.g. matmul:M=1024,N=1024,K=1024");
    cmd->add_option("--network", opts->network, "Tune every subgraph of a network preset instead (see `worldtune workloads`)");
    cmd->add_option("--trials", opts->tune.trials, "Candidates to measure in this run (in all, for a network)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--model", opts->model, "Cost model choosing what to measure")
        ->capture_default_str()->check(CLI::IsMember(cost_model_names()));
    cmd->add_option("--bundle", opts->bundle, "World-model bundle for --model world* (default: the shipped models/world)");
    cmd->add_option("--per-round", opts->tune.measures_per_round, "Candidates measured between model updates")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--searches", opts->searches,
                    "With --network under mpirun: subgraphs tuned at once (0: enough to keep the measurer ranks busy)")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--population", opts->tune.evolution.population, "Evolutionary search population")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option_function<int>(
           "--generations",
           [opts](int g) {
               opts->tune.evolution.generations = g;
               opts->tune.evolution.prior_generations = g;
           },
           "Evolutionary search generations per batch (default: 4, or 1 for the world model, whose prior more "
           "generations only exploit)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--late-after", opts->tune.evolution.late_after,
                    "Measurements after which a model with a prior searches with the --late-* settings (0: never)")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--late-generations", opts->tune.evolution.late_generations, "Generations per batch once late")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--late-seed-from-best", opts->tune.evolution.late_seed_from_best,
                    "Share of the first generation grown from the best measured once late")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--neighbourhood", opts->tune.evolution.neighbourhood_tapes,
                    "With a model with a prior: the fastest measured schedules whose every one-decision neighbour is "
                    "scored each batch (0: none)")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--neighbourhood-share", opts->tune.evolution.neighbourhood_share,
                    "Share of each batch's model-picked part taken from those neighbours, best-scored first")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--random-share", opts->tune.evolution.eps_greedy,
                    "Share of each batch drawn at random (epsilon-greedy)")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--diversity", opts->tune.evolution.batch.weight,
                    "Weight of dissimilarity when picking a batch among the best-scored (0: the top by score)")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--seed", opts->tune.seed, "Search seed")->capture_default_str();
    cmd->add_option_function<double>(
           "--hours", [opts](double hours) { opts->tune.time_budget_s = hours * 3600; },
           "Wall-clock budget (0: none): once spent, no new batch starts (with --network, no new round); the "
           "one under way finishes. --trials stays the cap")
        ->check(CLI::NonNegativeNumber);
    add_space_option(cmd, opts->tune.sampler);
    cmd->add_option("--db", opts->db, "Records database")->capture_default_str();
    cmd->add_flag("--quiet", opts->quiet, "No per-trial progress lines");
    add_measure_options(cmd, opts->measure);
    add_hardware_option(cmd);
    cmd->callback([opts] {
        if (opts->spec.empty() == opts->network.empty()) throw CommandError("tune takes either a SPEC or --network NAME");
        if (!opts->network.empty()) preset(opts->network);  // refuse an unknown network before opening anything
        else WorkloadSpec::parse(opts->spec);
        RecordStore store(opts->db);
        CostModelParams model_params;
        model_params.seed = opts->tune.seed;
        model_params.threads = opts->measure.threads;
        model_params.world_bundle = opts->bundle;
        std::unique_ptr<CostModel> model;
        try {
            model = make_cost_model(opts->model, model_params);
        } catch (const BundleError &e) {
            throw CommandError(one_line(e.what()) + " (choose another model with --model static or --model random, or a bundle with --bundle DIR)");
        }
        print_farm_groups();
        if (opts->network.empty()) tune_one(*opts, store, *model);
        else tune_network(*opts, store, *model);
    });
}

}  // namespace worldtune::cli
