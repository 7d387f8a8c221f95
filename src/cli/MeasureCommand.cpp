// `worldtune measure SPEC [--actions FILE] ...`: measure one state in a worker, store the record, print it.
#include "cli/Commands.h"

#include "measure/Hardware.h"
#include "measure/Measurer.h"
#include "schedule/Action.h"
#include "store/RecordStore.h"
#include "workload/Spec.h"

#include <cstdio>
#include <iostream>

namespace worldtune::cli {

void add_measure_command(CLI::App &app) {
    struct Options {
        std::string spec, actions_file, db = RecordStore::kDefaultPath, source = "measure";
        MeasureParams params;
        bool no_check = false, no_store = false;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("measure", "Compile, run, time and check one state in a worker; store the record");
    cmd->add_option("spec", opts->spec, "Workload spec, e.g. matmul:M=64,N=64,K=64")->required();
    cmd->add_option("--actions", opts->actions_file, "JSON file with the action list (default: none, the unscheduled program)");
    cmd->add_option("--threads", opts->params.threads, "Halide threads")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--repeats", opts->params.timing.repeats, "Timed repeats (median is the latency)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--min-time", opts->params.timing.min_repeat_seconds, "Minimum seconds of one repeat")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--timeout", opts->params.timeout_seconds, "Seconds allowed for compile + run + check")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--seed", opts->params.seed, "Seed of the random inputs and checked points")->capture_default_str();
    cmd->add_option("--db", opts->db, "Records database")->capture_default_str();
    cmd->add_option("--source", opts->source, "Source label stored with the record")->capture_default_str();
    cmd->add_flag("--no-check", opts->no_check, "Skip the comparison with the reference output");
    cmd->add_flag("--no-store", opts->no_store, "Do not store the record");
    cmd->callback([opts] {
        const WorkloadSpec spec = WorkloadSpec::parse(opts->spec);
        ActionList actions;
        if (!opts->actions_file.empty()) actions = read_actions_file(opts->actions_file);
        opts->params.check_output = !opts->no_check;
        // Open the store first: a bad database should fail before minutes of measuring.
        std::unique_ptr<RecordStore> store;
        if (!opts->no_store) store = std::make_unique<RecordStore>(opts->db);

        Measurer measurer(opts->params);
        const MeasureResult r = measurer.measure_one(spec, actions);
        std::printf("spec       %s\n", r.spec.c_str());
        std::printf("actions    %zu\n", actions.size());
        std::printf("machine    %s, %d threads\n", hardware_summary().c_str(), r.threads);
        std::printf("compile    %s\n", format_seconds(r.compile_seconds).c_str());
        if (r.ok()) {
            std::printf("latency    median %s  (min %s, max %s; %d repeats x %d runs)\n",
                        format_seconds(r.timing.median_s).c_str(), format_seconds(r.timing.min_s).c_str(),
                        format_seconds(r.timing.max_s).c_str(), r.timing.repeats, r.timing.runs_per_repeat);
            std::printf("repeats   ");
            for (double t : r.timing.samples_s) std::printf(" %.3g", t * 1e3);
            std::printf(" ms\n");
            std::printf("GFLOP/s    %.2f\n", r.gflops);
            std::printf("check      %s\n", opts->params.check_output ? "passed" : "skipped");
        } else {
            std::printf("error      %s: %s\n", error_kind_name(r.error), r.error_msg.c_str());
        }
        if (store) std::printf("record     %lld in %s\n", (long long)store->add(r, opts->source), opts->db.c_str());
        std::fflush(stdout);
        if (!r.ok()) throw CommandError(std::string("candidate failed: ") + error_kind_name(r.error));
    });
}

}  // namespace worldtune::cli
