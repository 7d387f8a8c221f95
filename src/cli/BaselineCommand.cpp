// `worldtune baseline SPEC [--only NAME,...] [--threads N] [--repeats R] [--min-time S] [--timeout S] [--json]`:
// time every applicable peer (Halide's autoschedulers, OpenBLAS, oneDNN, libtorch) on one workload, each
// in its own child process, and print a table or JSON lines. Also the hidden `__baseline_worker` it runs.
#include "cli/Commands.h"

#include "baseline/Baseline.h"
#include "workload/Spec.h"

#include <unistd.h>

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

namespace worldtune::cli {

namespace {

std::string check_text(const BaselineResult &r) {
    if (!r.output_checked) return "-";
    std::ostringstream s;
    s << (r.check_passed ? "ok" : "FAIL") << " (" << std::scientific << std::setprecision(1) << r.max_rel_error << ")";
    return s.str();
}

void print_header() {
    std::printf("%-14s %10s %21s %9s %9s  %-14s %s\n", "peer", "median ms", "min-max ms", "GFLOP/s", "search s",
                "check", "notes");
    std::fflush(stdout);
}

void print_row(const BaselineResult &r) {
    if (!r.available) {
        std::printf("%-14s %10s %21s %9s %9s  %-14s n/a: %s\n", r.name.c_str(), "-", "-", "-", "-", "-",
                    r.unavailable_reason.c_str());
    } else {
        const bool timed = r.timing.repeats > 0;
        const std::string median = timed ? fixed(r.timing.median_s * 1e3, 3) : "-";
        const std::string range = timed ? fixed(r.timing.min_s * 1e3, 3) + "-" + fixed(r.timing.max_s * 1e3, 3) : "-";
        const std::string gflops = timed ? fixed(r.gflops, 1) : "-";
        const std::string search = r.schedule_seconds > 0 ? fixed(r.schedule_seconds, 2) : "-";
        const std::string notes = r.error.empty() ? r.detail : "error: " + r.error;
        std::printf("%-14s %10s %21s %9s %9s  %-14s %s\n", r.name.c_str(), median.c_str(), range.c_str(), gflops.c_str(),
                    search.c_str(), check_text(r).c_str(), notes.c_str());
    }
    std::fflush(stdout);
}

void add_worker(CLI::App &app) {
    struct Options {
        std::string name, spec;
        BaselineParams params;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("__baseline_worker", "Run one baseline in this process and print one JSON line");
    cmd->group("");  // hidden: only `worldtune baseline` runs it
    cmd->add_option("name", opts->name)->required();
    cmd->add_option("spec", opts->spec)->required();
    BaselineParams &p = opts->params;
    cmd->add_option("--threads", p.threads);
    cmd->add_option("--warmup", p.timing.warmup_runs);
    cmd->add_option("--warmup-time", p.warmup_seconds);
    cmd->add_option("--repeats", p.timing.repeats);
    cmd->add_option("--min-time", p.timing.min_repeat_seconds);
    cmd->add_option("--max-time", p.timing.max_total_seconds);
    cmd->add_option("--cache-bytes", p.cache_bytes);
    cmd->add_option("--balance", p.balance);
    cmd->add_option("--rtol", p.rtol);
    cmd->add_option("--atol", p.atol);
    cmd->add_option("--seed", p.seed);
    cmd->callback([opts] {
        // Libraries and autoschedulers may print to stdout: keep it for the JSON line, send the rest to stderr.
        std::fflush(stdout);
        const int json_fd = dup(STDOUT_FILENO);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        const WorkloadSpec spec = WorkloadSpec::parse(opts->spec);
        const BaselineResult r = run_baseline_in_process(opts->name, spec, opts->params);
        std::cout.flush();
        std::fflush(stdout);
        const std::string line = to_json(r).dump() + "\n";
        if (write(json_fd, line.data(), line.size()) != ssize_t(line.size())) throw CommandError("cannot write the result");
        close(json_fd);
    });
}

}  // namespace

void add_baseline_command(CLI::App &app) {
    struct Options {
        std::string spec, only;
        BaselineParams params;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();
    opts->params.threads = int(std::max(1u, std::thread::hardware_concurrency()));
    CLI::App *cmd = app.add_subcommand("baseline", "Time Halide's autoschedulers and vendor libraries on a workload");
    cmd->add_option("spec", opts->spec, "Workload spec, e.g. matmul:M=1024,N=1024,K=1024")->required();
    std::string names;
    for (const std::string &n : baseline_names()) names += (names.empty() ? "" : ",") + n;
    cmd->add_option("--only", opts->only, "Comma-separated peers to run (default all: " + names + ")");
    cmd->add_option("--threads", opts->params.threads, "Threads for every peer (default: all cores)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--repeats", opts->params.timing.repeats, "Timed repeats (median reported)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--min-time", opts->params.timing.min_repeat_seconds, "Minimum seconds of one repeat")
        ->capture_default_str();
    cmd->add_option("--warmup-time", opts->params.warmup_seconds,
                    "Seconds each peer runs untimed before its repeats (libraries that set up over their first calls)")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--timeout", opts->params.timeout_seconds,
                    "Seconds per peer (search + compile + timing) before its process is killed")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_flag("--json", opts->json, "One JSON object per peer, one per line");
    cmd->callback([opts] {
        const WorkloadSpec spec = WorkloadSpec::parse(opts->spec);
        std::vector<std::string> peers = opts->only.empty() ? baseline_names() : split_list(opts->only);
        for (const std::string &p : peers)
            if (!is_baseline_name(p)) throw CommandError("unknown baseline '" + p + "' (known: " + [] {
                std::string all;
                for (const std::string &n : baseline_names()) all += (all.empty() ? "" : ", ") + n;
                return all;
            }() + ")");
        const std::string binary = current_executable();
        if (!opts->json) {
            std::printf("%s, %d thread(s)\n", spec.canonical().c_str(), opts->params.threads);
            print_header();
        }
        for (const std::string &p : peers) {
            const BaselineResult r = run_baseline_subprocess(binary, p, spec, opts->params);
            if (opts->json) std::cout << to_json(r).dump() << std::endl;
            else print_row(r);
        }
    });
    add_worker(app);
}

}  // namespace worldtune::cli
