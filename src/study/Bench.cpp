#include "study/Bench.h"

#include "baseline/Baseline.h"
#include "common/Text.h"
#include "dataset/DatasetFile.h"
#include "dataset/WorkloadList.h"
#include "measure/Hardware.h"
#include "measure/Timing.h"
#include "model/ModelFactory.h"
#include "study/SideBySide.h"
#include "study/TuningRuns.h"
#include "workload/Presets.h"
#include "workload/Workload.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>

namespace worldtune {

namespace {

std::set<std::string> train_split(const Dataset &dataset) {
    std::set<std::string> train;
    for (const DatasetWorkload &w : dataset.workloads)
        if (w.split == SplitKind::Train) train.insert(w.spec);
    return train;
}

/// Preset subgraphs outside the train split, spread over the presets (round robin), seeded order.
std::vector<std::string> held_out_subgraphs(const std::set<std::string> &train, int count, uint64_t seed) {
    std::vector<std::vector<std::string>> per_preset;
    std::set<std::string> taken;
    std::mt19937_64 rng(seed);
    for (const std::string &name : preset_names()) {
        std::vector<std::string> list;
        for (const PresetEntry &e : preset(name)) {
            const std::string canonical = WorkloadSpec::parse(e.spec).canonical();
            if (!train.count(canonical) && taken.insert(canonical).second) list.push_back(canonical);
        }
        std::shuffle(list.begin(), list.end(), rng);
        per_preset.push_back(list);
    }
    std::vector<std::string> out;
    for (size_t round = 0; int(out.size()) < count; round++) {
        bool any = false;
        for (const auto &list : per_preset)
            if (round < list.size() && int(out.size()) < count) {
                out.push_back(list[round]);
                any = true;
            }
        if (!any) break;
    }
    return out;
}

/// The workloads: the given specs (checked to be outside the train split) or held-out preset subgraphs.
std::vector<std::string> bench_specs(const BenchParams &p) {
    Dataset dataset;
    try {
        dataset = load_dataset(p.dataset);
    } catch (const std::exception &e) {
        throw StudyError(e.what());
    }
    const std::set<std::string> train = train_split(dataset);
    std::vector<std::string> given = p.specs;
    if (!p.list.empty()) {
        try {
            for (const std::string &s : read_workload_list(p.list)) given.push_back(s);
        } catch (const std::exception &e) {
            throw StudyError(e.what());
        }
    }
    if (given.empty()) return held_out_subgraphs(train, p.count, p.seed);
    std::vector<std::string> specs;
    for (const std::string &s : given) {
        const std::string c = WorkloadSpec::parse(s).canonical();
        if (train.count(c)) throw StudyError(c + " is in the dataset's train split: benchmark held-out workloads only");
        specs.push_back(c);
    }
    return specs;
}

std::vector<std::string> list_or_none(const std::string &text) {
    return text == "none" ? std::vector<std::string>{} : split_list(text);
}

void check_names(const std::vector<std::string> &names, const std::vector<std::string> &known, const char *what) {
    for (const std::string &n : names)
        if (std::find(known.begin(), known.end(), n) == known.end()) throw StudyError("unknown " + std::string(what) + " '" + n + "'");
}

/// Tunes every (workload, model, seed) run to its budget, resuming; collects curves and best schedules.
void tune_workloads(const BenchParams &p, const BenchPlan &plan, RecordStore &store, const CostModelParams &model_params,
                    BenchResults &results, std::vector<std::map<std::string, std::vector<ActionList>>> &bests) {
    bests.assign(plan.specs.size(), {});
    for (size_t w = 0; w < plan.specs.size(); w++) {
        const WorkloadSpec spec = WorkloadSpec::parse(plan.specs[w]);
        BenchWorkload res;
        res.spec = plan.specs[w];
        res.flops = build_workload(spec)->flops;
        std::fprintf(stderr, "[%zu/%zu] %s\n", w + 1, plan.specs.size(), res.spec.c_str());
        const bool efficiency = plan.efficiency_study && int(w) < p.efficiency_count;
        const bool ablated = p.ablation_count == 0 || int(w) < p.ablation_count;
        for (const std::string &m : plan.all_models) {
            if (!ablated && std::find(plan.ablations.begin(), plan.ablations.end(), m) != plan.ablations.end()) continue;
            for (int seed = 1; seed <= p.seeds; seed++) {
                const int budget = (efficiency && m == "static") ? p.efficiency : p.trials;
                const TuningRun run =
                    tune_run(store, spec, m, uint64_t(seed), budget, p.measure, bench_source(m, uint64_t(seed)), model_params, p.search);
                ModelTime &t = results.times[m];
                t.wall += run.total.wall_seconds;
                t.model += run.total.model_seconds;
                t.trials += run.total.trials;
                t.runs++;
                res.curves[m].push_back(best_so_far(run.records, budget));
                if (auto a = best_within(run.records, p.trials)) bests[w][m + "@" + std::to_string(p.trials)].push_back(*a);
                if (efficiency && m == "static")
                    if (auto a = best_within(run.records, p.efficiency)) bests[w][plan.efficiency_entry].push_back(*a);
            }
        }
        results.workloads.push_back(std::move(res));
    }
}

/// The comparison phase: every workload's best schedules re-measured beside the peers.
void compare_workloads(const BenchParams &p, const BenchPlan &plan, const std::vector<std::map<std::string, std::vector<ActionList>>> &bests,
                       BenchResults &results) {
    const SideBySideParams side{p.rounds, plan.peers, peer_params(p.measure, p.peer_timeout), p.measure.worker_binary};
    Measurer measurer(side_by_side_measure(p.measure, side.baseline));
    std::mt19937_64 order_rng(p.seed * 4242);
    for (size_t w = 0; w < results.workloads.size(); w++) {
        BenchWorkload &res = results.workloads[w];
        std::fprintf(stderr, "[compare %zu/%zu] %s\n", w + 1, results.workloads.size(), res.spec.c_str());
        std::vector<SideBySideEntry> entries;
        for (const auto &[name, list] : bests[w])
            for (size_t k = 0; k < list.size(); k++) entries.push_back({name, k, &list[k]});
        SideBySide measured;
        remeasure_side_by_side(WorkloadSpec::parse(res.spec), entries, side, measurer, order_rng, measured);
        res.latency = std::move(measured.latency);
        res.seed_latency = std::move(measured.seed_latency);
        res.peer_note = std::move(measured.peer_note);
    }
}

}  // namespace

std::string bench_source(const std::string &model, uint64_t seed) { return "bench:" + model + ":seed" + std::to_string(seed); }

void refuse_other_machines(const RecordStore &store) {
    std::string other;
    store.for_each([&](const Record &r) {
        if (other.empty() && !same_machine(r.result.hardware, hardware_json()))
            other = r.result.hardware.is_object() ? r.result.hardware.value("cpu_model", std::string("unknown")) : "unknown";
    });
    if (!other.empty())
        throw StudyError(store.path() + " holds records measured on another machine (" + other + "); this one is " +
                         hardware_json().value("cpu_model", std::string("unknown")) + ": use another --db");
}

BenchPlan plan_bench(const BenchParams &p) {
    BenchPlan plan;
    plan.specs = bench_specs(p);
    if (plan.specs.empty()) throw StudyError("no held-out workload to benchmark");
    plan.models = split_list(p.models);
    if (plan.models.empty()) throw StudyError("--models needs at least one model");
    plan.ablations = list_or_none(p.ablations);
    check_names(plan.models, cost_model_names(), "model");
    check_names(plan.ablations, cost_model_names(), "ablation");
    plan.networks = list_or_none(p.networks);
    check_names(plan.networks, preset_names(), "network");
    plan.peers = p.peers.empty() ? baseline_names() : split_list(p.peers);
    if (p.peers == "none") plan.peers.clear();
    plan.all_models = plan.models;
    plan.all_models.insert(plan.all_models.end(), plan.ablations.begin(), plan.ablations.end());
    plan.has_static = std::find(plan.models.begin(), plan.models.end(), "static") != plan.models.end();
    plan.lead = plan.models.front();
    plan.efficiency_study = plan.has_static && p.efficiency_count > 0 && p.efficiency > p.trials;
    plan.efficiency_entry = "static@" + std::to_string(p.efficiency);
    return plan;
}

BenchResults run_bench(const BenchParams &p) {
    const double start = now_seconds();
    BenchResults results;
    results.plan = plan_bench(p);
    const BenchPlan &plan = results.plan;
    RecordStore store(p.db);
    refuse_other_machines(store);
    CostModelParams model_params;
    model_params.world_bundle = p.bundle;

    // Tuning first, every workload and network (stored, so a resumed bench skips it); the comparison
    // measurements come after, all in one invocation, so a resume never repeats them.
    std::vector<std::map<std::string, std::vector<ActionList>>> bests;  ///< per workload: entry -> schedules
    tune_workloads(p, plan, store, model_params, results, bests);
    NetworkBenchParams &np = results.network;
    np.model = plan.lead;
    np.trials = p.network_trials;
    np.rounds = p.rounds;
    np.measure = p.measure;
    np.baseline = peer_params(p.measure, p.peer_timeout);
    np.model_params = model_params;
    np.source = bench_source;
    std::vector<std::vector<std::optional<ActionList>>> network_bests;
    for (const std::string &n : plan.networks) network_bests.push_back(tune_network_subgraphs(store, n, np));

    compare_workloads(p, plan, bests, results);
    for (size_t i = 0; i < plan.networks.size(); i++) {
        std::fprintf(stderr, "[compare %s]\n", plan.networks[i].c_str());
        results.estimates.push_back(measure_network(plan.networks[i], network_bests[i], np));
    }
    results.seconds = now_seconds() - start;
    return results;
}

}  // namespace worldtune
