// `worldtune tune SPEC --trials N`: search schedules for one workload, measure and store every candidate,
// print the best as Halide C++ code. Resumable: states already in the database are not measured again.
#include "cli/Commands.h"

#include "measure/Hardware.h"
#include "schedule/PrintHalide.h"
#include "search/Tuner.h"
#include "store/RecordStore.h"

#include <cstdio>
#include <iostream>

namespace worldtune::cli {

void add_tune_command(CLI::App &app) {
    struct Options {
        std::string spec, db = RecordStore::kDefaultPath, model = "random";
        TuneParams tune;
        MeasureParams measure;
        bool quiet = false;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("tune", "Search schedules for a workload, measuring each candidate");
    cmd->add_option("spec", opts->spec, "Workload spec, e.g. matmul:M=1024,N=1024,K=1024")->required();
    cmd->add_option("--trials", opts->tune.trials, "Candidates to measure in this run")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--model", opts->model, "Cost model choosing what to measure")
        ->capture_default_str()->check(CLI::IsMember({"random"}));
    cmd->add_option("--seed", opts->tune.seed, "Search seed")->capture_default_str();
    cmd->add_option("--db", opts->db, "Records database")->capture_default_str();
    cmd->add_flag("--quiet", opts->quiet, "No per-trial progress lines");
    add_measure_options(cmd, opts->measure);
    cmd->callback([opts] {
        const WorkloadSpec spec = WorkloadSpec::parse(opts->spec);
        RecordStore store(opts->db);
        const std::string source = "tune:" + opts->model;
        Measurer measurer(opts->measure);
        Tuner tuner(spec, opts->tune, measurer);
        int resumed = 0;
        store.for_each([&](const Record &r) {
            tuner.mark_seen(actions_from_json(r.result.actions));
            resumed++;
        }, spec.canonical());
        std::fprintf(stderr, "tuning %s: %d trials, model %s, %d threads, %s (%d states already in %s)\n",
                     spec.canonical().c_str(), opts->tune.trials, opts->model.c_str(), opts->measure.threads,
                     hardware_summary().c_str(), resumed, opts->db.c_str());

        double best = 0;
        TuneSummary summary = tuner.run([&](const MeasureResult &r, int index) {
            store.add(r, source);
            if (r.ok() && (best == 0 || r.timing.median_s < best)) best = r.timing.median_s;
            if (opts->quiet) return;
            std::string what = r.ok() ? format_seconds(r.timing.median_s) + "  " + std::to_string(int(r.gflops + 0.5)) + " GFLOP/s"
                                      : std::string("error: ") + error_kind_name(r.error);
            std::fprintf(stderr, "[%4d/%d] %-36s best %s\n", index + 1, opts->tune.trials, what.c_str(),
                         best > 0 ? format_seconds(best).c_str() : "-");
        });

        std::printf("workload      %s\n", spec.canonical().c_str());
        std::printf("trials        %d measured (%d failed) in %.1f s: %.2f s per trial (measuring %.0f%%, proposing %.0f%%)\n",
                    summary.measured, summary.failed, summary.wall_seconds,
                    summary.measured ? summary.wall_seconds / summary.measured : 0.0,
                    100 * summary.measure_seconds / std::max(1e-9, summary.wall_seconds),
                    100 * summary.propose_seconds / std::max(1e-9, summary.wall_seconds));
        std::optional<Record> overall = store.best_for(spec.canonical());
        if (!overall) throw CommandError("no candidate of " + spec.canonical() + " ran correctly");
        const MeasureResult &b = overall->result;
        if (summary.best) std::printf("best this run %s  %.1f GFLOP/s\n", format_seconds(summary.best->timing.median_s).c_str(), summary.best->gflops);
        std::printf("best overall  %s  %.1f GFLOP/s  (record %lld, min %s, max %s)\n", format_seconds(b.timing.median_s).c_str(),
                    b.gflops, (long long)overall->id, format_seconds(b.timing.min_s).c_str(), format_seconds(b.timing.max_s).c_str());
        std::printf("\n%s", print_halide(*build_workload(spec), actions_from_json(b.actions)).c_str());
    });
}

}  // namespace worldtune::cli
