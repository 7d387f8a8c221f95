// `worldtune compare SPEC... --trials N`: worldtune's search against every peer, side by side in one run,
// written as a markdown report. For each workload: tune (per seed, resumable from the database), then a
// comparison phase that re-measures each seed's best schedule and runs every peer under the same harness,
// thread count and machine state, in rounds, so the numbers compared were taken together.
#include "cli/Commands.h"

#include "baseline/Baseline.h"
#include "measure/Hardware.h"
#include "search/Tuner.h"
#include "store/RecordStore.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

namespace worldtune::cli {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// "median (min–max)" of GFLOP/s over latency samples.
std::string gflops_cell(double flops, const std::vector<double> &latencies);

std::string fmt(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::string gflops_cell(double flops, const std::vector<double> &latencies) {
    if (latencies.empty()) return "err";
    const auto [lo, hi] = std::minmax_element(latencies.begin(), latencies.end());
    std::string cell = fmt(flops / median(latencies) / 1e9, 1);
    if (latencies.size() > 1) cell += " (" + fmt(flops / *hi / 1e9, 0) + "–" + fmt(flops / *lo / 1e9, 0) + ")";
    return cell;
}

/// What the comparison found for one workload.
struct WorkloadReport {
    std::string spec;
    double flops = 0;
    std::vector<double> tuned_latency;                  ///< per seed: the best schedule re-measured
    std::vector<double> seconds_per_trial;              ///< per seed: tuning wall time / trials
    std::vector<double> compile_seconds;                ///< every trial's compile time
    int trials = 0, failed = 0;
    std::map<std::string, std::vector<double>> peer_latency;  ///< per round
    std::map<std::string, std::string> peer_note;             ///< n/a reason or error
    std::map<std::string, double> peer_search_seconds;
};

std::string seed_source(uint64_t seed) { return "compare:random:seed" + std::to_string(seed); }

/// Tunes one seed to `trials` measured records (resuming what the database holds); returns the best record.
std::optional<Record> tune_seed(RecordStore &store, const WorkloadSpec &spec, uint64_t seed, int trials,
                                const MeasureParams &mp, WorkloadReport &report) {
    const std::string source = seed_source(seed);
    int have = 0;
    TuneParams tp;
    tp.seed = seed;
    std::vector<ActionList> seen;
    store.for_each([&](const Record &r) {
        if (r.source == source) have++;
        seen.push_back(actions_from_json(r.result.actions));
    }, spec.canonical());
    if (have < trials) {
        tp.trials = trials - have;
        Measurer measurer(mp);
        Tuner tuner(spec, tp, measurer);
        for (const ActionList &a : seen) tuner.mark_seen(a);
        std::fprintf(stderr, "  seed %llu: %d trials to measure (%d in the database)\n", (unsigned long long)seed, tp.trials, have);
        TuneSummary s = tuner.run([&](const MeasureResult &r, int) { store.add(r, source); });
        report.seconds_per_trial.push_back(s.wall_seconds / std::max(1, s.measured));
    }
    std::optional<Record> best;
    store.for_each([&](const Record &r) {
        if (r.source != source) return;
        report.trials++;
        report.compile_seconds.push_back(r.result.compile_seconds);
        if (!r.result.ok()) {
            report.failed++;
            return;
        }
        if (!best || r.result.timing.median_s < best->result.timing.median_s) best = r;
    }, spec.canonical());
    return best;
}

void write_report(const std::vector<WorkloadReport> &reports, const std::vector<std::string> &peers, int trials,
                  int seeds, int rounds, const MeasureParams &mp, const std::string &command, std::ostream &out) {
    out << "GFLOP/s (higher is better) with " << mp.threads << " threads on " << hardware_summary() << ".\n";
    out << "`random-" << trials << "`: best of " << trials << " measured random-search trials, median over " << seeds
        << " seed(s) and " << rounds << " round(s), each best schedule re-measured beside the peers. Peers: median over "
        << rounds << " round(s). In brackets: the range. "
        << "`–`: the peer does not apply; `err`: it failed or its output was wrong.\n\n";
    out << "| workload | random-" << trials;
    for (const std::string &p : peers) out << " | " << p;
    out << " |\n|---|---:";
    for (size_t i = 0; i < peers.size(); i++) out << "|---:";
    out << "|\n";
    for (const WorkloadReport &r : reports) {
        out << "| `" << r.spec << "` | " << gflops_cell(r.flops, r.tuned_latency);
        for (const std::string &p : peers) {
            auto it = r.peer_latency.find(p);
            if (it != r.peer_latency.end() && !it->second.empty()) out << " | " << gflops_cell(r.flops, it->second);
            else out << " | " << (r.peer_note.count(p) && r.peer_note.at(p).rfind("n/a", 0) == 0 ? "–" : "err");
        }
        out << " |\n";
    }
    out << "\nTime per measured trial (compile + run + check, in the worker; the search's own time included):\n\n";
    out << "| workload | trials | failed | seconds per trial | median compile s |\n|---|---:|---:|---:|---:|\n";
    for (const WorkloadReport &r : reports)
        out << "| `" << r.spec << "` | " << r.trials << " | " << r.failed << " | "
            << (r.seconds_per_trial.empty() ? "(resumed)" : fmt(median(r.seconds_per_trial), 2)) << " | "
            << fmt(median(r.compile_seconds), 3) << " |\n";
    std::string notes;
    for (const WorkloadReport &r : reports)
        for (const auto &[peer, note] : r.peer_note)
            if (note.rfind("n/a", 0) != 0) notes += "- `" + r.spec + "`, " + peer + ": " + note + "\n";
    for (const WorkloadReport &r : reports)
        for (const auto &[peer, secs] : r.peer_search_seconds)
            if (secs >= 0.05) notes += "- `" + r.spec + "`, " + peer + " searched for " + fmt(secs, 1) + " s\n";
    if (!notes.empty()) out << "\nNotes:\n\n" << notes;
    out << "\nProduced by `" << command << "`.\n";
}

}  // namespace

void add_compare_command(CLI::App &app) {
    struct Options {
        std::vector<std::string> specs;
        int trials = 64, seeds = 1, rounds = 1;
        std::string db = "compare.db", out, peers;
        MeasureParams measure;
        double peer_timeout = 900;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("compare", "Tune workloads and compare with every peer, side by side; write a markdown report");
    cmd->add_option("specs", opts->specs, "Workload specs")->required();
    cmd->add_option("--trials", opts->trials, "Measured trials per seed")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--seeds", opts->seeds, "Search seeds per workload (1..N)")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--rounds", opts->rounds, "Comparison rounds (each re-measures every entry)")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--peers", opts->peers, "Comma-separated peers (default: all)");
    cmd->add_option("--peer-timeout", opts->peer_timeout, "Seconds one peer may take (search + timing)")->capture_default_str();
    cmd->add_option("--db", opts->db, "Records database (tuning resumes from it)")->capture_default_str();
    cmd->add_option("--out", opts->out, "Markdown file to write (default: stdout only)");
    add_measure_options(cmd, opts->measure);
    cmd->callback([opts] {
        std::vector<std::string> peers = baseline_names();
        if (!opts->peers.empty()) {
            peers.clear();
            std::stringstream in(opts->peers);
            std::string p;
            while (std::getline(in, p, ','))
                if (!p.empty()) {
                    if (!is_baseline_name(p)) throw CommandError("unknown peer '" + p + "'");
                    peers.push_back(p);
                }
        }
        std::vector<WorkloadSpec> specs;
        for (const std::string &s : opts->specs) specs.push_back(WorkloadSpec::parse(s));
        RecordStore store(opts->db);
        BaselineParams bp;
        bp.threads = opts->measure.threads;
        bp.timing = opts->measure.timing;
        bp.timeout_seconds = opts->peer_timeout;

        std::vector<WorkloadReport> reports;
        for (const WorkloadSpec &spec : specs) {
            WorkloadReport report;
            report.spec = spec.canonical();
            report.flops = build_workload(spec)->flops;
            std::fprintf(stderr, "%s\n", report.spec.c_str());
            std::vector<ActionList> bests;
            for (int seed = 1; seed <= opts->seeds; seed++) {
                std::optional<Record> best = tune_seed(store, spec, seed, opts->trials, opts->measure, report);
                if (best) bests.push_back(actions_from_json(best->result.actions));
            }
            // The comparison phase: every entry measured in each round, one after the other.
            Measurer measurer(opts->measure);
            for (int round = 0; round < opts->rounds; round++) {
                std::vector<double> tuned;
                for (const ActionList &a : bests) {
                    MeasureResult r = measurer.measure_one(spec, a);
                    if (r.ok()) tuned.push_back(r.timing.median_s);
                }
                // Per seed, the median over rounds: keep a running list per round and take medians at the end.
                for (double t : tuned) report.tuned_latency.push_back(t);
                for (const std::string &peer : peers) {
                    const std::string reason = baseline_unavailable_reason(peer, spec);
                    if (!reason.empty()) {
                        report.peer_note[peer] = "n/a: " + reason;
                        continue;
                    }
                    BaselineResult r = run_baseline_subprocess(current_executable(), peer, spec, bp);
                    std::fprintf(stderr, "  %-14s %s\n", peer.c_str(),
                                 r.ok() ? (fmt(r.gflops, 1) + " GFLOP/s").c_str() : ("error: " + r.error).c_str());
                    if (r.ok()) report.peer_latency[peer].push_back(r.timing.median_s);
                    else report.peer_note[peer] = r.error.empty() ? "output check failed" : r.error;
                    report.peer_search_seconds[peer] = std::max(report.peer_search_seconds[peer], r.schedule_seconds);
                }
            }
            reports.push_back(report);
        }
        std::ostringstream command;
        command << "worldtune compare";
        for (const WorkloadSpec &s : specs) command << " " << s.canonical();
        command << " --trials " << opts->trials << " --seeds " << opts->seeds << " --rounds " << opts->rounds
                << " --threads " << opts->measure.threads;
        std::ostringstream md;
        write_report(reports, peers, opts->trials, opts->seeds, opts->rounds, opts->measure, command.str(), md);
        std::printf("%s", md.str().c_str());
        if (!opts->out.empty()) {
            std::ofstream file(opts->out);
            if (!file) throw CommandError("cannot write '" + opts->out + "'");
            file << md.str();
        }
    });
}

}  // namespace worldtune::cli
