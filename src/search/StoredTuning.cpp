#include "search/StoredTuning.h"

#include "farm/Farm.h"
#include "search/SharedTaskModel.h"
#include "workload/Presets.h"

#include <mutex>

namespace worldtune {

std::vector<MeasureResult> resume_from_store(const RecordStore &store, const WorkloadSpec &spec, Tuner &tuner, CostModel &model) {
    std::vector<MeasureResult> earlier;
    store.for_each([&](const Record &r) {
        tuner.mark_seen(actions_from_json(r.result.actions));
        earlier.push_back(r.result);
    }, spec.canonical());
    if (!earlier.empty()) model.update(earlier);
    return earlier;
}

TuneSummary tune_stored(RecordStore &store, const WorkloadSpec &spec, CostModel &model, const StoredTuningParams &p, size_t &resumed,
                        const std::function<void(const MeasureResult &, int)> &on_trial) {
    std::unique_ptr<CandidateMeasurer> measurer = make_measurer(p.measure);
    Tuner tuner(spec, p.tune, *measurer, &model);
    resumed = resume_from_store(store, spec, tuner, model).size();
    return tuner.run([&](const MeasureResult &r, int index) {
        store.add(r, p.source);
        if (on_trial) on_trial(r, index);
    });
}

NetworkResult tune_network_stored(RecordStore &store, const std::string &network, CostModel &model, const StoredTuningParams &p,
                                  const std::function<void(const TaskState &, int, double)> &on_round) {
    const double start = now_seconds();
    std::unique_ptr<CandidateMeasurer> measurer = make_measurer(p.measure);
    SchedulerParams sp;
    sp.total_trials = p.tune.trials;
    sp.trials_per_round = p.tune.measures_per_round;
    sp.time_budget_s = p.tune.time_budget_s;
    TuneParams per_round = p.tune;
    per_round.trials = sp.trials_per_round;
    per_round.time_budget_s = 0;  // the scheduler keeps the run's clock; a round always finishes
    // Only a farm measures several candidates at once; locally, rounds run one after another.
    const int searches = farm_active() ? (p.searches > 0 ? p.searches : farm_concurrent_searches(sp.trials_per_round)) : 1;
    std::mutex model_mutex, store_mutex;
    std::vector<std::unique_ptr<SharedTaskModel>> views;  // one per task when rounds run at once
    TaskScheduler scheduler(preset(network), sp, [&](const WorkloadSpec &spec) {
        CostModel *task_model = &model;
        if (searches > 1) task_model = views.emplace_back(std::make_unique<SharedTaskModel>(model, model_mutex)).get();
        return std::make_unique<Tuner>(spec, per_round, *measurer, task_model);
    });
    for (size_t i = 0; i < scheduler.tasks().size(); i++) {
        const TaskState &t = scheduler.tasks()[i];
        const WorkloadSpec spec = WorkloadSpec::parse(t.entry.spec);
        const std::vector<MeasureResult> earlier = resume_from_store(store, spec, *t.tuner, model);
        const std::optional<Record> best = store.best_for(spec.canonical());
        scheduler.resume(i, int(earlier.size()), best ? best->result.timing.median_s : 0);
    }
    int done = 0;
    scheduler.run([&](size_t, const MeasureResult &r) {
        std::lock_guard<std::mutex> lock(store_mutex);
        store.add(r, p.source);
        done++;
    }, [&](size_t, const TaskState &t) {
        std::lock_guard<std::mutex> lock(store_mutex);
        if (on_round) on_round(t, done, scheduler.estimated_latency());
    }, searches);
    NetworkResult out;
    for (const TaskState &t : scheduler.tasks()) out.subgraphs.push_back({t.entry, t.flops, t.trials, t.best});
    out.estimated_latency = scheduler.estimated_latency();
    out.missing = scheduler.missing_tasks();
    out.wall_seconds = now_seconds() - start;
    return out;
}

}  // namespace worldtune
