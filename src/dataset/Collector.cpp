#include "dataset/Collector.h"

#include "common/Hash.h"
#include "common/Statistics.h"
#include "dataset/DatasetFile.h"
#include "farm/Farm.h"
#include "measure/Hardware.h"
#include "measure/Timing.h"
#include "model/ModelFactory.h"
#include "workload/Workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace worldtune {

namespace {

std::string skip_key(const std::string &spec) { return "collect-skip:" + spec; }

std::string clock_text(double seconds) {
    const long s = long(std::max(0.0, seconds));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    return buf;
}

/// What the database holds for one workload.
struct WorkloadState {
    std::map<std::string, int> per_source;  ///< records per source
    std::vector<double> ok_latencies;        ///< successful records of any source
    double best = 0;
};

/// Whether a record counts for a collection on `machine` (null: every record does).
bool on_machine(const Record &r, const nlohmann::json &machine) { return machine.is_null() || same_machine(r.result.hardware, machine); }

WorkloadState state_of(const RecordStore &store, const std::string &spec, const nlohmann::json &machine) {
    WorkloadState w;
    store.for_each([&](const Record &r) {
        if (!on_machine(r, machine)) return;
        w.per_source[r.source]++;
        if (!r.result.ok()) return;
        w.ok_latencies.push_back(r.result.timing.median_s);
        if (w.best == 0 || r.result.timing.median_s < w.best) w.best = r.result.timing.median_s;
    }, spec);
    return w;
}

}  // namespace

std::string collect_source(const std::string &model) { return "collect:" + model; }

CollectSummary collect_trajectories(RecordStore &store, const std::vector<std::string> &specs,
                                    const CollectParams &params, const std::function<void(const std::string &)> &log) {
    if (params.trials <= 0 || params.pass_trials <= 0) throw std::invalid_argument("collect: trials and pass trials must be positive");
    if (params.models.empty()) throw std::invalid_argument("collect: no model given");
    const std::vector<std::string> known = cost_model_names();
    for (const std::string &m : params.models)
        if (std::find(known.begin(), known.end(), m) == known.end()) make_cost_model(m);  // throws naming the models

    CollectSummary summary;
    const double start = now_seconds();
    double measure_time = 0;
    std::unique_ptr<CandidateMeasurer> measurer = make_measurer(params.measure);
    const int passes = (params.trials + params.pass_trials - 1) / params.pass_trials;
    auto out_of_time = [&] { return params.hours > 0 && now_seconds() - start > params.hours * 3600; };

    for (int pass = 1; pass <= passes && !summary.time_limit_hit; pass++) {
        const int target = std::min(params.trials, pass * params.pass_trials);
        for (size_t w = 0; w < specs.size() && !summary.time_limit_hit; w++) {
            const std::string &spec_text = specs[w];
            if (store.note(skip_key(spec_text))) continue;
            for (size_t m = 0; m < params.models.size(); m++) {
                if (out_of_time()) {
                    summary.time_limit_hit = true;
                    break;
                }
                const std::string &model_name = params.models[m];
                const std::string source = collect_source(model_name);
                WorkloadSpec spec;
                try {
                    spec = WorkloadSpec::parse(spec_text);
                    build_workload(spec);
                } catch (const std::exception &e) {
                    store.set_note(skip_key(spec_text), std::string("cannot build: ") + e.what());
                    log("skipping " + spec_text + ": cannot build: " + e.what());
                    break;
                }
                // Searches `count` more trials of this model, resuming from the database.
                auto search = [&](int count) {
                    CostModelParams mp;
                    mp.seed = params.seed;
                    mp.threads = params.measure.threads;
                    std::unique_ptr<CostModel> model = make_cost_model(model_name, mp);
                    std::vector<MeasureResult> earlier;
                    std::vector<ActionList> seen;
                    store.for_each([&](const Record &r) {
                        if (!on_machine(r, params.machine)) return;
                        seen.push_back(actions_from_json(r.result.actions));
                        if (r.source == source) earlier.push_back(r.result);
                    }, spec_text);
                    TuneParams tp = params.tune;
                    tp.trials = count;
                    tp.seed = fnv1a64(spec_text + "\n" + model_name + "\n" + std::to_string(params.seed) + "\n" +
                                      std::to_string(earlier.size()));
                    Tuner tuner(spec, tp, *measurer, model.get());
                    for (const ActionList &a : seen) tuner.mark_seen(a);
                    if (!earlier.empty()) {
                        model->set_task(spec);
                        model->update(earlier);
                    }
                    return tuner.run([&](const MeasureResult &r, int) { store.add(r, source); });
                };
                // Too slow to collect: decided on the median run of the successful records.
                auto too_slow = [&](const WorkloadState &state) {
                    if (state.ok_latencies.size() < size_t(params.min_runs_for_skip) ||
                        median_of(state.ok_latencies) <= params.max_run_seconds)
                        return false;
                    const std::string why = "median candidate run " + format_seconds(median_of(state.ok_latencies)) +
                                            " exceeds the bound of " + format_seconds(params.max_run_seconds) + " (" +
                                            std::to_string(state.ok_latencies.size()) + " successful records)";
                    store.set_note(skip_key(spec_text), why);
                    log("skipping " + spec_text + ": " + why);
                    return true;
                };
                WorkloadState before = state_of(store, spec_text, params.machine);
                if (too_slow(before)) break;
                const int have = before.per_source[source];
                if (have >= target) continue;

                TuneSummary run;
                int remaining = target - have;
                bool exhausted = false;  // the search found no new state to measure
                if (before.ok_latencies.size() < size_t(params.min_runs_for_skip)) {
                    // A new workload: probe with one batch before spending a whole pass on it.
                    run = search(std::min(remaining, std::max(params.min_runs_for_skip, params.tune.measures_per_round)));
                    remaining -= run.measured;
                    exhausted = run.measured == 0;
                    if (too_slow(state_of(store, spec_text, params.machine))) {
                        summary.measured += run.measured;
                        summary.failed += run.failed;
                        measure_time += run.wall_seconds;
                        break;
                    }
                }
                if (remaining > 0 && !exhausted) {
                    const TuneSummary rest = search(remaining);
                    run.measured += rest.measured;
                    run.failed += rest.failed;
                    run.wall_seconds += rest.wall_seconds;
                }
                summary.measured += run.measured;
                summary.failed += run.failed;
                measure_time += run.wall_seconds;

                const WorkloadState after = state_of(store, spec_text, params.machine);
                char line[512];
                const double per_trial = summary.measured ? measure_time / double(summary.measured) : 0;
                std::snprintf(line, sizeof line, "[pass %d/%d, %zu/%zu] %s %s: +%d (%d failed), %d/%d; best %s; %.2f s/trial, elapsed %s",
                              pass, passes, w + 1, specs.size(), model_name.c_str(), spec_text.c_str(), run.measured,
                              run.failed, after.per_source.count(source) ? after.per_source.at(source) : 0, params.trials,
                              after.best > 0 ? format_seconds(after.best).c_str() : "-", per_trial,
                              clock_text(now_seconds() - start).c_str());
                log(line);
            }
        }
    }

    for (const std::string &spec : specs) {
        if (store.note(skip_key(spec))) {
            summary.workloads_skipped++;
            continue;
        }
        const WorkloadState w = state_of(store, spec, params.machine);
        bool done = true;
        for (const std::string &m : params.models) done = done && w.per_source.count(collect_source(m)) && w.per_source.at(collect_source(m)) >= params.trials;
        summary.workloads_done += done;
    }
    store.for_each([&](const Record &r) { summary.records += r.source.rfind("collect:", 0) == 0 && on_machine(r, params.machine); });
    summary.wall_seconds = now_seconds() - start;
    return summary;
}

}  // namespace worldtune
