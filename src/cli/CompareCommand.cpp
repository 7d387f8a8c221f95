// `worldtune compare SPEC... --models random,static --trials 64,256`: worldtune's search, per cost model
// and trial budget, against every peer, side by side in one run; writes a markdown report.
// For each workload: tune each (model, seed) to the largest budget (resumable from the database); then a
// comparison phase re-measures the best schedule found within each budget and runs every peer, in rounds,
// under the same harness, thread count and machine state, so the numbers compared were taken together.
#include "cli/Commands.h"
#include "cli/TuningRuns.h"

#include "baseline/Baseline.h"
#include "measure/Hardware.h"
#include "model/CostModel.h"
#include "search/Tuner.h"
#include "store/RecordStore.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <random>
#include <sstream>

namespace worldtune::cli {

namespace {

/// One column of worldtune's side: a model at a trial budget.
struct Column {
    std::string model;
    int trials = 0;
    std::string name() const { return model + "@" + std::to_string(trials); }
};

/// What the comparison found for one workload.
struct WorkloadReport {
    std::string spec;
    double flops = 0;
    std::map<std::string, std::vector<double>> latency;  ///< column or peer -> re-measured latencies
    std::map<std::string, std::string> peer_note;        ///< n/a reason or error
    std::map<std::string, double> peer_search_seconds;
    std::map<std::string, std::vector<double>> seconds_per_trial;  ///< model -> per fresh run
    std::map<std::string, std::vector<double>> search_share;       ///< model -> search time / wall, per fresh run
    std::map<std::string, std::vector<double>> model_share;        ///< model -> model time / wall, per fresh run
    std::map<std::string, int> trials, failed;                      ///< model -> over all its seeds
};

int count_of(const std::map<std::string, int> &counts, const std::string &key) {
    auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
}

std::string source_of(const std::string &model, uint64_t seed) { return "compare:" + model + ":seed" + std::to_string(seed); }

/// Tunes (model, seed) to `trials` records, resuming; returns that run's records in measuring order and
/// adds its overheads and counts to the report.
std::vector<Record> run_and_count(RecordStore &store, const WorkloadSpec &spec, const std::string &model_name, uint64_t seed,
                                  int trials, const MeasureParams &mp, const CostModelParams &cp, WorkloadReport &report) {
    const TuningRun run = tune_run(store, spec, model_name, seed, trials, mp, source_of(model_name, seed), cp);
    if (run.fresh) {
        const double wall = std::max(1e-9, run.wall_seconds);
        report.seconds_per_trial[model_name].push_back(run.wall_seconds / std::max(1, run.measured));
        report.search_share[model_name].push_back(run.search_seconds / wall);
        report.model_share[model_name].push_back(run.model_seconds / wall);
    }
    for (const Record &r : run.records) {
        report.trials[model_name]++;
        if (!r.result.ok()) report.failed[model_name]++;
    }
    return run.records;
}

void write_report(const std::vector<WorkloadReport> &reports, const std::vector<Column> &columns,
                  const std::vector<std::string> &peers, int seeds, int rounds, const MeasureParams &mp,
                  const std::string &command, std::ostream &out) {
    out << "GFLOP/s (higher is better) with " << mp.threads << " threads on " << hardware_summary() << ".\n";
    out << "`MODEL@N`: the best schedule among the first N measured trials of a search with that cost model; "
        << "median over " << seeds << " seed(s) × " << rounds << " round(s), each best schedule re-measured beside the peers. "
        << "Peers: median over " << rounds << " round(s). In brackets: the range. "
        << "`–`: the peer does not apply; `err`: it failed or its output was wrong.\n\n";
    std::vector<std::string> names;
    for (const Column &c : columns) names.push_back(c.name());
    names.insert(names.end(), peers.begin(), peers.end());
    out << "| workload";
    for (const std::string &n : names) out << " | " << n;
    out << " |\n|---";
    for (size_t i = 0; i < names.size(); i++) out << "|---:";
    out << "|\n";
    std::map<std::string, std::vector<double>> gflops_of;
    for (const WorkloadReport &r : reports) {
        out << "| `" << r.spec << "`";
        for (const std::string &n : names) {
            auto it = r.latency.find(n);
            if (it != r.latency.end() && !it->second.empty()) {
                out << " | " << gflops_cell(r.flops, it->second);
                gflops_of[n].push_back(r.flops / median_of(it->second) / 1e9);
            } else {
                out << " | " << (r.peer_note.count(n) && r.peer_note.at(n).rfind("n/a", 0) == 0 ? "–" : "err");
            }
        }
        out << " |\n";
    }
    // Geometric mean of each entry's speedup over the first column, on the workloads both have.
    out << "| geomean speedup over " << names.front();
    for (const std::string &n : names) {
        std::vector<double> ratios;
        for (const WorkloadReport &r : reports) {
            auto a = r.latency.find(n), b = r.latency.find(names.front());
            if (a != r.latency.end() && b != r.latency.end() && !a->second.empty() && !b->second.empty())
                ratios.push_back(median_of(b->second) / median_of(a->second));
        }
        out << " | " << (ratios.empty() ? "–" : fixed(geomean(ratios), 2) + "× (" + std::to_string(ratios.size()) + ")");
    }
    out << " |\n";

    out << "\nTime per measured trial and search overhead (fresh runs only; the search share includes sketch\n"
           "sampling, evolution, validation, model scoring and training; the model share is scoring and training):\n\n";
    out << "| workload | model | trials (all seeds) | failed | s per trial | search share | model share |\n|---|---|---:|---:|---:|---:|---:|\n";
    for (const WorkloadReport &r : reports)
        for (const auto &[model, secs] : r.seconds_per_trial)
            out << "| `" << r.spec << "` | " << model << " | " << count_of(r.trials, model) << " | " << count_of(r.failed, model) << " | " << fixed(median_of(secs), 2)
                << " | " << fixed(100 * median_of(r.search_share.at(model)), 0) << "% | " << fixed(100 * median_of(r.model_share.at(model)), 0)
                << "% |\n";
    std::string notes;
    for (const WorkloadReport &r : reports)
        for (const auto &[peer, note] : r.peer_note)
            if (note.rfind("n/a", 0) != 0) notes += "- `" + r.spec + "`, " + peer + ": " + note + "\n";
    for (const WorkloadReport &r : reports)
        for (const auto &[peer, secs] : r.peer_search_seconds)
            if (secs >= 0.05) notes += "- `" + r.spec + "`, " + peer + " searched for " + fixed(secs, 1) + " s\n";
    if (!notes.empty()) out << "\nNotes:\n\n" << notes;
    out << "\nProduced by `" << command << "`.\n";
}

}  // namespace

void add_compare_command(CLI::App &app) {
    struct Options {
        std::vector<std::string> specs;
        std::string trials = "64", models = "random", peers, db = "compare.db", out, bundle;
        int seeds = 1, rounds = 1;
        MeasureParams measure;
        double peer_timeout = 900;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("compare", "Tune workloads per cost model and budget, compare with every peer side by side; write a markdown report");
    cmd->add_option("specs", opts->specs, "Workload specs")->required();
    cmd->add_option("--models", opts->models, "Comma-separated cost models")->capture_default_str();
    cmd->add_option("--trials", opts->trials, "Comma-separated trial budgets (each run tunes to the largest)")->capture_default_str();
    cmd->add_option("--seeds", opts->seeds, "Search seeds per workload and model (1..N)")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--rounds", opts->rounds, "Comparison rounds (each re-measures every entry)")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--peers", opts->peers, "Comma-separated peers (default: all; 'none' for none)");
    cmd->add_option("--peer-timeout", opts->peer_timeout, "Seconds one peer may take (search + timing)")->capture_default_str();
    cmd->add_option("--db", opts->db, "Records database (tuning resumes from it)")->capture_default_str();
    cmd->add_option("--out", opts->out, "Markdown file to write (default: stdout only)");
    cmd->add_option("--bundle", opts->bundle, "World-model bundle for the world* models (default: the shipped one)");
    add_measure_options(cmd, opts->measure);
    cmd->callback([opts] {
        std::vector<std::string> peers = opts->peers.empty() ? baseline_names() : split_list(opts->peers);
        if (opts->peers == "none") peers.clear();
        for (const std::string &p : peers)
            if (!is_baseline_name(p)) throw CommandError("unknown peer '" + p + "'");
        std::vector<std::string> models = split_list(opts->models);
        const std::vector<std::string> known = cost_model_names();
        for (const std::string &m : models)
            if (std::find(known.begin(), known.end(), m) == known.end()) throw CommandError("unknown cost model '" + m + "'");
        std::vector<int> budgets;
        for (const std::string &t : split_list(opts->trials)) {
            int n = 0;
            try {
                n = std::stoi(t);
            } catch (...) {
            }
            if (n <= 0) throw CommandError("--trials takes positive numbers, got '" + t + "'");
            budgets.push_back(n);
        }
        if (models.empty() || budgets.empty()) throw CommandError("--models and --trials need at least one value");
        std::sort(budgets.begin(), budgets.end());
        std::vector<Column> columns;
        for (int b : budgets)
            for (const std::string &m : models) columns.push_back({m, b});
        std::vector<WorkloadSpec> specs;
        for (const std::string &s : opts->specs) specs.push_back(WorkloadSpec::parse(s));
        RecordStore store(opts->db);
        CostModelParams model_params;
        model_params.world_bundle = opts->bundle;
        const BaselineParams bp = peer_params(opts->measure, opts->peer_timeout);

        std::vector<WorkloadReport> reports;
        for (const WorkloadSpec &spec : specs) {
            WorkloadReport report;
            report.spec = spec.canonical();
            report.flops = build_workload(spec)->flops;
            std::fprintf(stderr, "%s\n", report.spec.c_str());
            std::map<std::string, std::vector<ActionList>> bests;  // column -> one per seed
            for (const std::string &m : models)
                for (int seed = 1; seed <= opts->seeds; seed++) {
                    std::vector<Record> run = run_and_count(store, spec, m, seed, budgets.back(), opts->measure, model_params, report);
                    for (int b : budgets)
                        if (std::optional<ActionList> a = best_within(run, b)) bests[Column{m, b}.name()].push_back(*a);
                }
            // The comparison phase: in each round every entry is measured once, worldtune's entries in a
            // shuffled order (a burst of load on the shared machine then hits no column systematically).
            Measurer measurer(opts->measure);
            std::mt19937_64 order_rng(4242);
            for (int round = 0; round < opts->rounds; round++) {
                std::vector<std::pair<std::string, const ActionList *>> entries;
                for (const Column &c : columns)
                    for (const ActionList &a : bests[c.name()]) entries.emplace_back(c.name(), &a);
                std::shuffle(entries.begin(), entries.end(), order_rng);
                for (const auto &[name, actions] : entries) {
                    MeasureResult r = measurer.measure_one(spec, *actions);
                    if (r.ok()) report.latency[name].push_back(r.timing.median_s);
                }
                for (const std::string &peer : peers) {
                    const std::string reason = baseline_unavailable_reason(peer, spec);
                    if (!reason.empty()) {
                        report.peer_note[peer] = "n/a: " + reason;
                        continue;
                    }
                    BaselineResult r = run_baseline_subprocess(current_executable(), peer, spec, bp);
                    std::fprintf(stderr, "  %-14s %s\n", peer.c_str(),
                                 r.ok() ? (fixed(r.gflops, 1) + " GFLOP/s").c_str() : ("error: " + r.error).c_str());
                    if (r.ok()) report.latency[peer].push_back(r.timing.median_s);
                    else report.peer_note[peer] = r.error.empty() ? "output check failed" : r.error;
                    report.peer_search_seconds[peer] = std::max(report.peer_search_seconds[peer], r.schedule_seconds);
                }
            }
            reports.push_back(report);
        }
        std::ostringstream command;
        command << "worldtune compare";
        for (const WorkloadSpec &s : specs) command << " " << s.canonical();
        command << " --models " << opts->models << " --trials " << opts->trials << " --seeds " << opts->seeds << " --rounds "
                << opts->rounds << " --threads " << opts->measure.threads;
        if (!opts->peers.empty()) command << " --peers " << opts->peers;
        std::ostringstream md;
        write_report(reports, columns, peers, opts->seeds, opts->rounds, opts->measure, command.str(), md);
        std::printf("%s", md.str().c_str());
        if (!opts->out.empty()) {
            std::ofstream file(opts->out);
            if (!file) throw CommandError("cannot write '" + opts->out + "'");
            file << md.str();
        }
    });
}

}  // namespace worldtune::cli
