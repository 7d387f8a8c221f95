#include "study/Remeasure.h"

#include "common/Statistics.h"
#include "common/Text.h"
#include "study/SideBySide.h"
#include "study/TuningRuns.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>

namespace worldtune {

namespace {

/// One run to re-measure: a database and the budget its best is taken within.
struct RunSource {
    std::string path;
    std::string name;
    int trials = 0;
};

/// "PATH" or "PATH@N" (N > 0): the run's database, its name (file stem, "@N" kept) and its budget.
RunSource parse_run(const std::string &text, int default_trials) {
    RunSource run{text, "", default_trials};
    std::string suffix;
    const size_t at = text.rfind('@');
    if (at != std::string::npos && at + 1 < text.size() &&
        text.find_first_not_of("0123456789", at + 1) == std::string::npos) {
        run.path = text.substr(0, at);
        suffix = text.substr(at);
        try {
            run.trials = std::stoi(text.substr(at + 1));
        } catch (const std::exception &) {
            run.trials = 0;
        }
        if (run.trials < 1) throw StudyError("bad budget in " + text + ": PATH@N takes a positive N");
    }
    run.name = std::filesystem::path(run.path).stem().string() + suffix;
    return run;
}

/// The runs' bests of one workload, in database order; the schedules they hold are kept in `schedules`.
std::vector<RemeasuredBest> bests_of(const std::string &spec, const std::vector<RunSource> &runs,
                                     const std::vector<std::unique_ptr<RecordStore>> &stores, std::vector<ActionList> &schedules) {
    std::vector<RemeasuredBest> bests;
    for (size_t i = 0; i < stores.size(); i++) {
        const std::vector<Record> run = stores[i]->records_for(spec);
        const Record *best = best_record_within(run, runs[i].trials);
        if (int(run.size()) < runs[i].trials || !best) {
            std::fprintf(stderr, "  %s: %zu records of %d, too few or none correct; left out\n", runs[i].name.c_str(),
                         run.size(), runs[i].trials);
            continue;
        }
        bests.push_back({spec, runs[i].name, best->result.timing.median_s, {}});
        schedules.push_back(actions_from_json(best->result.actions));
    }
    return bests;
}

}  // namespace

void remeasure_bests(const RemeasureParams &p, const std::set<std::string> &skip,
                     const std::function<void(const std::vector<RemeasuredBest> &)> &on_workload) {
    if (p.dbs.empty()) throw StudyError("no records database to re-measure");
    if (p.trials < 1 || p.rounds < 1) throw StudyError("trials and rounds must be positive");
    std::vector<RunSource> runs;
    std::vector<std::unique_ptr<RecordStore>> stores;
    std::set<std::string> names;
    for (const std::string &db : p.dbs) {
        const RunSource run = parse_run(db, p.trials);
        if (!std::filesystem::exists(run.path)) throw StudyError("no records database " + run.path);
        if (!names.insert(run.name).second) throw StudyError("two runs named " + run.name + ": runs need distinct names");
        stores.push_back(std::make_unique<RecordStore>(run.path));
        runs.push_back(run);
    }
    const SideBySideParams side{p.rounds, {}, peer_params(p.measure, 0), p.measure.worker_binary};
    Measurer measurer(side_by_side_measure(p.measure, side.baseline));
    std::mt19937_64 order_rng(p.seed * 4242);
    for (size_t w = 0; w < p.specs.size(); w++) {
        const WorkloadSpec spec = WorkloadSpec::parse(p.specs[w]);
        const std::string text = spec.canonical();
        if (skip.count(text)) continue;
        std::fprintf(stderr, "[%zu/%zu] %s\n", w + 1, p.specs.size(), text.c_str());
        std::vector<ActionList> schedules;
        std::vector<RemeasuredBest> bests = bests_of(text, runs, stores, schedules);
        std::vector<SideBySideEntry> entries;
        for (size_t i = 0; i < bests.size(); i++) entries.push_back({bests[i].run, 0, &schedules[i]});
        SideBySide measured;
        remeasure_side_by_side(spec, entries, side, measurer, order_rng, measured);
        for (RemeasuredBest &b : bests) b.remeasured_s = measured.latency[b.run];
        on_workload(bests);
    }
}

std::string remeasured_tsv_header() { return "spec\trun\ttuning_us\tremeasured_us\trounds\n"; }

std::string remeasured_tsv_line(const RemeasuredBest &b) {
    std::ostringstream line;
    line << b.spec << '\t' << b.run << '\t' << fixed(b.tuning_s * 1e6, 3) << '\t'
         << (b.remeasured_s.empty() ? std::string("nan") : fixed(median_of(b.remeasured_s) * 1e6, 3)) << '\t'
         << b.remeasured_s.size() << '\n';
    return line.str();
}

std::set<std::string> remeasured_specs(const std::string &path) {
    std::set<std::string> specs;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const size_t tab = line.find('\t');
        if (tab != std::string::npos && line.rfind("spec\t", 0) != 0) specs.insert(line.substr(0, tab));
    }
    return specs;
}

}  // namespace worldtune
