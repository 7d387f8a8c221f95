#include "study/Compare.h"

#include "common/Text.h"
#include "measure/Hardware.h"
#include "model/ModelFactory.h"
#include "workload/Workload.h"

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <random>
#include <sstream>

namespace worldtune {

namespace {

int count_of(const std::map<std::string, int> &counts, const std::string &key) {
    auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
}

/// A --models entry: a cost model, optionally with the search space it searches and, for the world
/// models, the bundle they load: MODEL[/SPACE][@BUNDLE] ("static/v1", "world/v2@models/retrained").
struct ModelEntry {
    std::string model, space;  ///< space "": the default (default_search_space())
    std::string bundle;        ///< "": --bundle (or the shipped one)
};

ModelEntry parse_entry(const std::string &entry) {
    ModelEntry e;
    const size_t at = entry.find('@');
    const std::string head = entry.substr(0, at);
    if (at != std::string::npos) e.bundle = entry.substr(at + 1);
    const size_t slash = head.find('/');
    e.model = head.substr(0, slash);
    if (slash != std::string::npos) e.space = head.substr(slash + 1);
    return e;
}

std::string space_of(const ModelEntry &e) { return e.space.empty() ? default_search_space() : e.space; }

/// The run's records are kept under the model, the space it searched and the bundle it named.
std::string compare_source(const ModelEntry &e, uint64_t seed) {
    return "compare:" + e.model + "/" + space_of(e) + (e.bundle.empty() ? "" : "@" + e.bundle) + ":seed" + std::to_string(seed);
}

/// Tunes (model entry, seed) to `trials` records, resuming; returns that run's records in measuring order
/// and adds its overheads and counts to the workload's results.
std::vector<Record> run_and_count(RecordStore &store, const WorkloadSpec &spec, const std::string &model_name, uint64_t seed,
                                  int trials, const MeasureParams &mp, const CostModelParams &cp, CompareWorkload &w) {
    const ModelEntry entry = parse_entry(model_name);
    TuneParams search;
    search.sampler = sampler_params_for_space(space_of(entry));
    CostModelParams model_params = cp;
    if (!entry.bundle.empty()) model_params.world_bundle = entry.bundle;
    const TuningRun run = tune_run(store, spec, entry.model, seed, trials, mp, compare_source(entry, seed), model_params, search);
    if (run.fresh) {
        const double wall = std::max(1e-9, run.wall_seconds);
        w.seconds_per_trial[model_name].push_back(run.wall_seconds / std::max(1, run.measured));
        w.search_share[model_name].push_back(run.search_seconds / wall);
        w.model_share[model_name].push_back(run.model_seconds / wall);
    }
    for (const Record &r : run.records) {
        w.trials[model_name]++;
        if (!r.result.ok()) w.failed[model_name]++;
    }
    return run.records;
}

std::vector<int> parse_budgets(const std::string &text) {
    std::vector<int> budgets;
    for (const std::string &t : split_list(text)) {
        int n = 0;
        try {
            n = std::stoi(t);
        } catch (...) {
        }
        if (n <= 0) throw StudyError("--trials takes positive numbers, got '" + t + "'");
        budgets.push_back(n);
    }
    std::sort(budgets.begin(), budgets.end());
    return budgets;
}

/// Checks the models, budgets and peers; returns the columns (budget-major) and the peers.
CompareResults plan_compare(const CompareParams &p) {
    CompareResults results;
    results.peers = p.peers.empty() ? baseline_names() : split_list(p.peers);
    if (p.peers == "none") results.peers.clear();
    for (const std::string &peer : results.peers)
        if (!is_baseline_name(peer)) throw StudyError("unknown peer '" + peer + "'");
    const std::vector<std::string> models = split_list(p.models);
    const std::vector<std::string> known = cost_model_names();
    for (const std::string &m : models) {
        const ModelEntry e = parse_entry(m);
        if (std::find(known.begin(), known.end(), e.model) == known.end()) throw StudyError("unknown cost model '" + e.model + "'");
        if (!e.bundle.empty() && !uses_world_bundle(e.model))
            throw StudyError("'" + m + "': only the world models load a bundle");
        if (!e.bundle.empty() && !std::filesystem::is_directory(e.bundle))
            throw StudyError("'" + m + "': bundle directory '" + e.bundle + "' not found");
        try {
            sampler_params_for_space(space_of(e));
        } catch (const std::invalid_argument &x) {
            throw StudyError(std::string(x.what()) + " in '" + m + "'");
        }
    }
    const std::vector<int> budgets = parse_budgets(p.trials);
    if (models.empty() || budgets.empty()) throw StudyError("--models and --trials need at least one value");
    for (int b : budgets)
        for (const std::string &m : models) results.columns.push_back({m, b});
    return results;
}

std::string command_line(const CompareParams &p) {
    std::ostringstream command;
    command << "worldtune compare";
    for (const std::string &s : p.specs) command << " " << WorkloadSpec::parse(s).canonical();
    command << " --models " << p.models << " --trials " << p.trials << " --seeds " << p.seeds << " --rounds " << p.rounds
            << " --threads " << p.measure.threads;
    if (!p.peers.empty()) command << " --peers " << p.peers;
    return command.str();
}

void write_table(const CompareResults &results, std::ostream &out) {
    std::vector<std::string> names;
    for (const CompareColumn &c : results.columns) names.push_back(c.name());
    names.insert(names.end(), results.peers.begin(), results.peers.end());
    out << workload_table_header(names);
    for (const CompareWorkload &w : results.workloads) {
        out << "| `" << w.spec << "`";
        for (const std::string &n : names) {
            auto it = w.measured.latency.find(n);
            if (it != w.measured.latency.end() && !it->second.empty()) out << " | " << gflops_cell(w.flops, it->second);
            else out << " | " << (w.measured.peer_note.count(n) && peer_not_applicable(w.measured.peer_note.at(n)) ? "–" : "err");
        }
        out << " |\n";
    }
    // Geometric mean of each entry's speedup over the first column, on the workloads both have.
    out << "| geomean speedup over " << names.front();
    for (const std::string &n : names) {
        std::vector<double> ratios;
        for (const CompareWorkload &w : results.workloads) {
            auto a = w.measured.latency.find(n), b = w.measured.latency.find(names.front());
            if (a != w.measured.latency.end() && b != w.measured.latency.end() && !a->second.empty() && !b->second.empty())
                ratios.push_back(median_of(b->second) / median_of(a->second));
        }
        out << " | " << (ratios.empty() ? "–" : fixed(geomean(ratios), 2) + "× (" + std::to_string(ratios.size()) + ")");
    }
    out << " |\n";
}

void write_overheads(const CompareResults &results, std::ostream &out) {
    out << "\nTime per measured trial and search overhead (fresh runs only; the search share includes sketch\n"
           "sampling, evolution, validation, model scoring and training; the model share is scoring and training):\n\n";
    out << "| workload | model | trials (all seeds) | failed | s per trial | search share | model share |\n|---|---|---:|---:|---:|---:|---:|\n";
    for (const CompareWorkload &w : results.workloads)
        for (const auto &[model, secs] : w.seconds_per_trial)
            out << "| `" << w.spec << "` | " << model << " | " << count_of(w.trials, model) << " | " << count_of(w.failed, model) << " | "
                << fixed(median_of(secs), 2) << " | " << fixed(100 * median_of(w.search_share.at(model)), 0) << "% | "
                << fixed(100 * median_of(w.model_share.at(model)), 0) << "% |\n";
    std::string notes;
    for (const CompareWorkload &w : results.workloads)
        for (const auto &[peer, note] : w.measured.peer_note)
            if (!peer_not_applicable(note)) notes += "- `" + w.spec + "`, " + peer + ": " + note + "\n";
    for (const CompareWorkload &w : results.workloads)
        for (const auto &[peer, secs] : w.measured.peer_search_seconds)
            if (secs >= 0.05) notes += "- `" + w.spec + "`, " + peer + " searched for " + fixed(secs, 1) + " s\n";
    if (!notes.empty()) out << "\nNotes:\n\n" << notes;
}

}  // namespace

CompareResults run_compare(const CompareParams &p) {
    CompareResults results = plan_compare(p);
    std::vector<WorkloadSpec> specs;
    for (const std::string &s : p.specs) specs.push_back(WorkloadSpec::parse(s));
    RecordStore store(p.db);
    CostModelParams model_params;
    model_params.world_bundle = p.bundle;
    const SideBySideParams side{p.rounds, results.peers, peer_params(p.measure, p.peer_timeout), p.measure.worker_binary};
    const int largest = results.columns.back().trials;
    for (const WorkloadSpec &spec : specs) {
        CompareWorkload w;
        w.spec = spec.canonical();
        w.flops = build_workload(spec)->flops;
        std::fprintf(stderr, "%s\n", w.spec.c_str());
        std::map<std::string, std::vector<ActionList>> bests;  // column -> one per seed
        for (const CompareColumn &c : results.columns) {
            if (c.trials != largest) continue;  // one run per (model, seed), tuned to the largest budget
            for (int seed = 1; seed <= p.seeds; seed++) {
                const std::vector<Record> run = run_and_count(store, spec, c.model, uint64_t(seed), largest, p.measure, model_params, w);
                for (const CompareColumn &b : results.columns)
                    if (b.model == c.model)
                        if (std::optional<ActionList> a = best_within(run, b.trials)) bests[b.name()].push_back(*a);
            }
        }
        std::vector<SideBySideEntry> entries;
        for (const CompareColumn &c : results.columns)
            for (size_t k = 0; k < bests[c.name()].size(); k++) entries.push_back({c.name(), k, &bests[c.name()][k]});
        Measurer measurer(side_by_side_measure(p.measure, side.baseline));
        std::mt19937_64 order_rng(4242);
        remeasure_side_by_side(spec, entries, side, measurer, order_rng, w.measured);
        results.workloads.push_back(std::move(w));
    }
    return results;
}

std::string compare_report(const CompareResults &results, const CompareParams &p) {
    std::ostringstream out;
    out << "GFLOP/s (higher is better) with " << p.measure.threads << " threads on " << hardware_summary() << ".\n";
    out << "`MODEL@N`: the best schedule among the first N measured trials of a search with that cost model; "
        << "median over " << p.seeds << " seed(s) × " << p.rounds << " round(s), each best schedule re-measured beside the peers. "
        << "Peers: median over " << p.rounds << " round(s). In brackets: the range. "
        << "`–`: the peer does not apply; `err`: it failed or its output was wrong.\n\n";
    write_table(results, out);
    write_overheads(results, out);
    out << "\nProduced by `" << command_line(p) << "`.\n";
    return out.str();
}

}  // namespace worldtune
