#include "study/TuningRuns.h"

#include "common/Text.h"
#include "measure/Timing.h"
#include "search/Tuner.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace worldtune {

namespace {

RunTime load_run_time(const RecordStore &store, const std::string &key) {
    RunTime t;
    const std::optional<std::string> text = store.note(key);
    if (!text) return t;
    try {
        const nlohmann::json j = nlohmann::json::parse(*text);
        t.wall_seconds = j.at("wall_s").get<double>();
        t.model_seconds = j.at("model_s").get<double>();
        t.trials = j.at("trials").get<int>();
    } catch (const nlohmann::json::exception &) {
        return RunTime{};  // unreadable timing only loses the timing, never the records
    }
    return t;
}

void save_run_time(RecordStore &store, const std::string &key, const RunTime &t) {
    const nlohmann::json j = {{"wall_s", t.wall_seconds}, {"model_s", t.model_seconds}, {"trials", t.trials}};
    store.set_note(key, j.dump());
}

/// The note under which tune_run keeps a run's RunTime.
std::string run_time_key(const std::string &source, const std::string &spec) { return "run-time:" + source + ":" + spec; }

}  // namespace

TuningRun tune_run(RecordStore &store, const WorkloadSpec &spec, const std::string &model_name, uint64_t seed, int trials,
                   const MeasureParams &mp, const std::string &source, const CostModelParams &model_params,
                   const TuneParams &search) {
    TuningRun run;
    std::vector<MeasureResult> known;
    store.for_each([&](const Record &r) {
        if (r.source != source) return;  // each run is independent: it sees only its own records
        run.records.push_back(r);
        known.push_back(r.result);
    }, spec.canonical());
    const std::string time_key = run_time_key(source, spec.canonical());
    run.total = load_run_time(store, time_key);
    if (int(run.records.size()) >= trials) return run;

    CostModelParams cp = model_params;
    cp.seed = seed;
    cp.threads = mp.threads;
    std::unique_ptr<CostModel> model = make_cost_model(model_name, cp);
    if (!known.empty()) {
        model->set_task(spec);
        model->update(known);
    }
    std::fprintf(stderr, "  %s: %d trials to measure (%zu in the database)\n", source.c_str(), trials - int(run.records.size()),
                 run.records.size());
    TuneParams tp = search;
    tp.seed = seed;
    tp.trials = trials - int(run.records.size());
    Measurer measurer(mp);
    Tuner tuner(spec, tp, measurer, model.get());
    for (const Record &r : run.records) tuner.mark_seen(actions_from_json(r.result.actions));
    const TuneSummary s = tuner.run([&](const MeasureResult &r, int) {
        Record rec;
        rec.id = store.add(r, source);
        rec.result = r;
        rec.source = source;
        run.records.push_back(rec);
    });
    run.fresh = s.measured > 0;
    run.measured = s.measured;
    run.wall_seconds = s.wall_seconds;
    run.search_seconds = s.propose_seconds;
    run.model_seconds = s.model_seconds;
    if (s.measured > 0) {
        run.total.wall_seconds += s.wall_seconds;
        run.total.model_seconds += s.model_seconds;
        run.total.trials += s.measured;
        save_run_time(store, time_key, run.total);
    }
    return run;
}

const Record *best_record_within(const std::vector<Record> &run, int budget) {
    const Record *best = nullptr;
    for (int i = 0; i < std::min<int>(budget, int(run.size())); i++)
        if (run[size_t(i)].result.ok() && (!best || run[size_t(i)].result.timing.median_s < best->result.timing.median_s))
            best = &run[size_t(i)];
    return best;
}

std::optional<ActionList> best_within(const std::vector<Record> &run, int budget) {
    const Record *best = best_record_within(run, budget);
    if (!best) return std::nullopt;
    return actions_from_json(best->result.actions);
}

std::vector<double> best_so_far(const std::vector<Record> &run, int budget) {
    std::vector<double> curve;
    double best = 0;
    for (int i = 0; i < std::min<int>(budget, int(run.size())); i++) {
        const MeasureResult &r = run[size_t(i)].result;
        if (r.ok() && (best == 0 || r.timing.median_s < best)) best = r.timing.median_s;
        curve.push_back(best);
    }
    return curve;
}

BaselineParams peer_params(const MeasureParams &measure, double timeout_seconds) {
    BaselineParams bp;
    bp.threads = measure.threads;
    bp.timing = measure.timing;
    bp.timeout_seconds = timeout_seconds;
    return bp;
}

std::string workload_table_header(const std::vector<std::string> &columns) {
    std::string md = "| workload";
    for (const std::string &c : columns) md += " | " + c;
    md += " |\n|---";
    for (size_t i = 0; i < columns.size(); i++) md += "|---:";
    return md + "|\n";
}

std::string gflops_cell(double flops, const std::vector<double> &latencies) {
    if (latencies.empty()) return "err";
    const auto [lo, hi] = std::minmax_element(latencies.begin(), latencies.end());
    std::string cell = fixed(flops / median_of(latencies) / 1e9, 1);
    if (latencies.size() > 1) cell += " (" + fixed(flops / *hi / 1e9, 0) + "–" + fixed(flops / *lo / 1e9, 0) + ")";
    return cell;
}

}  // namespace worldtune
