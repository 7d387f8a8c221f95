#include "dataset/Collector.h"

#include "common/Hash.h"
#include "common/OnThreads.h"
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
#include <mutex>
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

/// What the searches of one collection share. Searches of different workloads may run at once (a farm's
/// rank 0, CollectParams::searches): the store, the log and the tallies are used under `mutex` only.
struct Collection {
    RecordStore &store;
    const CollectParams &params;
    CandidateMeasurer &measurer;
    const std::function<void(const std::string &)> &log;
    double start = 0;
    std::mutex mutex;
    CollectSummary summary;
    double measure_time = 0;

    WorkloadState state(const std::string &spec) {
        std::lock_guard<std::mutex> lock(mutex);
        return state_of(store, spec, params.machine);
    }
    void note_skip(const std::string &spec, const std::string &why) {
        std::lock_guard<std::mutex> lock(mutex);
        store.set_note(skip_key(spec), why);
        log("skipping " + spec + ": " + why);
    }
    bool skipped(const std::string &spec) {
        std::lock_guard<std::mutex> lock(mutex);
        return bool(store.note(skip_key(spec)));
    }
    /// Stops the collection (resumably) once its hours are spent.
    bool out_of_time() {
        std::lock_guard<std::mutex> lock(mutex);
        if (params.hours > 0 && now_seconds() - start > params.hours * 3600) summary.time_limit_hit = true;
        return summary.time_limit_hit;
    }
    void tally(const TuneSummary &run) {
        std::lock_guard<std::mutex> lock(mutex);
        summary.measured += run.measured;
        summary.failed += run.failed;
        measure_time += run.wall_seconds;
    }
};

/// Searches `count` more trials of `model_name` on a workload, resuming from the database: the model first
/// learns from the records this model left there, and no stored state is proposed again.
TuneSummary search_more(Collection &c, const WorkloadSpec &spec, const std::string &spec_text, const std::string &model_name, int count) {
    const std::string source = collect_source(model_name);
    CostModelParams mp;
    mp.seed = c.params.seed;
    mp.threads = c.params.measure.threads;
    std::unique_ptr<CostModel> model = make_cost_model(model_name, mp);
    std::vector<MeasureResult> earlier;
    std::vector<ActionList> seen;
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        c.store.for_each([&](const Record &r) {
            if (!on_machine(r, c.params.machine)) return;
            seen.push_back(actions_from_json(r.result.actions));
            if (r.source == source) earlier.push_back(r.result);
        }, spec_text);
    }
    TuneParams tp = c.params.tune;
    tp.trials = count;
    tp.seed = fnv1a64(spec_text + "\n" + model_name + "\n" + std::to_string(c.params.seed) + "\n" + std::to_string(earlier.size()));
    Tuner tuner(spec, tp, c.measurer, model.get());
    for (const ActionList &a : seen) tuner.mark_seen(a);
    if (!earlier.empty()) {
        model->set_task(spec);
        model->update(earlier);
    }
    return tuner.run([&](const MeasureResult &r, int) {
        std::lock_guard<std::mutex> lock(c.mutex);
        c.store.add(r, source);
    });
}

/// Too slow to collect: decided on the median run of the successful records; noted in the database.
bool skip_if_too_slow(Collection &c, const std::string &spec_text, const WorkloadState &state) {
    if (state.ok_latencies.size() < size_t(c.params.min_runs_for_skip) || median_of(state.ok_latencies) <= c.params.max_run_seconds)
        return false;
    c.note_skip(spec_text, "median candidate run " + format_seconds(median_of(state.ok_latencies)) + " exceeds the bound of " +
                               format_seconds(c.params.max_run_seconds) + " (" + std::to_string(state.ok_latencies.size()) +
                               " successful records)");
    return true;
}

/// Raises every model's records of workload `w` to `target` (one pass's share).
void collect_workload(Collection &c, const std::vector<std::string> &specs, size_t w, int pass, int passes, int target) {
    const CollectParams &params = c.params;
    const std::string &spec_text = specs[w];
    if (c.skipped(spec_text)) return;
    for (const std::string &model_name : params.models) {
        if (c.out_of_time()) return;
        const std::string source = collect_source(model_name);
        WorkloadSpec spec;
        try {
            spec = WorkloadSpec::parse(spec_text);
            build_workload(spec);
        } catch (const std::exception &e) {
            c.note_skip(spec_text, std::string("cannot build: ") + e.what());
            return;
        }
        WorkloadState before = c.state(spec_text);
        if (skip_if_too_slow(c, spec_text, before)) return;
        const int have = before.per_source[source];
        if (have >= target) continue;

        TuneSummary run;
        int remaining = target - have;
        bool exhausted = false;  // the search found no new state to measure
        if (before.ok_latencies.size() < size_t(params.min_runs_for_skip)) {
            // A new workload: probe with one batch before spending a whole pass on it.
            run = search_more(c, spec, spec_text, model_name,
                              std::min(remaining, std::max(params.min_runs_for_skip, params.tune.measures_per_round)));
            remaining -= run.measured;
            exhausted = run.measured == 0;
            if (skip_if_too_slow(c, spec_text, c.state(spec_text))) {
                c.tally(run);
                return;
            }
        }
        if (remaining > 0 && !exhausted) {
            const TuneSummary rest = search_more(c, spec, spec_text, model_name, remaining);
            run.measured += rest.measured;
            run.failed += rest.failed;
            run.wall_seconds += rest.wall_seconds;
        }
        c.tally(run);

        const WorkloadState after = c.state(spec_text);
        std::lock_guard<std::mutex> lock(c.mutex);
        char line[512];
        const double per_trial = c.summary.measured ? c.measure_time / double(c.summary.measured) : 0;
        std::snprintf(line, sizeof line, "[pass %d/%d, %zu/%zu] %s %s: +%d (%d failed), %d/%d; best %s; %.2f s/trial, elapsed %s",
                      pass, passes, w + 1, specs.size(), model_name.c_str(), spec_text.c_str(), run.measured, run.failed,
                      after.per_source.count(source) ? after.per_source.at(source) : 0, params.trials,
                      after.best > 0 ? format_seconds(after.best).c_str() : "-", per_trial, clock_text(now_seconds() - c.start).c_str());
        c.log(line);
    }
}

}  // namespace

std::string collect_source(const std::string &model) { return "collect:" + model; }

CollectSummary collect_trajectories(RecordStore &store, const std::vector<std::string> &specs,
                                    const CollectParams &params, const std::function<void(const std::string &)> &log) {
    if (params.trials <= 0 || params.pass_trials <= 0) throw std::invalid_argument("collect: trials and pass trials must be positive");
    if (params.searches < 0) throw std::invalid_argument("collect: searches must be 0 (automatic) or positive");
    if (params.models.empty()) throw std::invalid_argument("collect: no model given");
    const std::vector<std::string> known = cost_model_names();
    for (const std::string &m : params.models)
        if (std::find(known.begin(), known.end(), m) == known.end()) make_cost_model(m);  // throws naming the models

    std::unique_ptr<CandidateMeasurer> measurer = make_measurer(params.measure);
    Collection c{store, params, *measurer, log, now_seconds()};
    // Only a farm measures several candidates at once; locally, searches run one after another.
    const int searches = farm_active() ? (params.searches > 0 ? params.searches : farm_concurrent_searches(params.tune.measures_per_round)) : 1;
    const int passes = (params.trials + params.pass_trials - 1) / params.pass_trials;
    for (int pass = 1; pass <= passes && !c.summary.time_limit_hit; pass++) {
        const int target = std::min(params.trials, pass * params.pass_trials);
        for_each_on_threads(specs.size(), searches, [&](size_t w) { collect_workload(c, specs, w, pass, passes, target); });
    }

    CollectSummary summary = c.summary;
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
    summary.wall_seconds = now_seconds() - c.start;
    return summary;
}

}  // namespace worldtune
