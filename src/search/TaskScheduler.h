// Splits a tuning budget over the subgraphs of a network, as Ansor's task scheduler does: after one
// warm-up round per task, each round goes to the task whose next round promises the largest drop of the
// network's estimated latency (weight × gradient of its best latency over trials).
// The warm-up goes largest expected cost first (occurrences × FLOPs), and its rounds shrink when the budget
// is small, so every task is reached whenever the budget has a trial for each: a warm-up round measures
// min(trials_per_round, remaining budget / tasks still to warm up), at least one.
#pragma once

#include "search/Tuner.h"
#include "workload/Presets.h"

#include <functional>
#include <memory>
#include <optional>

namespace worldtune {

/// Every knob of the task scheduler.
struct SchedulerParams {
    int total_trials = 1000;     ///< over all tasks
    int trials_per_round = 16;   ///< measured per task each time it is picked
    double alpha = 0.2;          ///< Ansor's α: weight of the backward (observed) gradient vs the optimistic one
    int backward_window = 3;     ///< rounds over which the observed gradient is measured
    double time_budget_s = 0;    ///< wall seconds for the run (0: none); set from TuneParams::time_budget_s
};

struct TaskState {
    PresetEntry entry;             ///< spec and occurrences in the network
    double flops = 0;              ///< of one occurrence (the warm-up's order: count × flops, largest first)
    std::unique_ptr<Tuner> tuner;
    int trials = 0;                ///< measured so far (database included)
    double best = 0;               ///< best latency (s); 0 while none succeeded
    std::vector<double> best_history;  ///< best after each of its rounds
};

class TaskScheduler {
public:
    /// `make_tuner(spec)` builds a task's tuner (sharing measurer and model as the caller likes).
    TaskScheduler(std::vector<PresetEntry> tasks, SchedulerParams params,
                  std::function<std::unique_ptr<Tuner>(const WorkloadSpec &)> make_tuner);

    /// Sets what the database already knows of task i (resume).
    void resume(size_t task, int trials, double best_latency);
    /// Runs rounds until the budget is spent; `on_measured(task, result)` after each measurement.
    /// With `searches` > 1, that many rounds of different tasks run at once, each on a thread of its own (a
    /// measurement farm measures one task's batch while another task's search proposes): the callbacks may
    /// then come from any of those threads, on_round one at a time, and the tuners must not share an unlocked
    /// model. A round is picked as in a lone run, among the tasks no other round holds.
    void run(const std::function<void(size_t, const MeasureResult &)> &on_measured,
             const std::function<void(size_t, const TaskState &)> &on_round = nullptr, int searches = 1);

    const std::vector<TaskState> &tasks() const { return tasks_; }
    /// Σ occurrences × best latency; tasks without a result count as `missing_penalty` each (seconds).
    double estimated_latency(double missing_penalty = 0) const;
    /// The task the next round should go to.
    size_t pick_task() const;
    /// How many trials the next round of task i measures (within what is left of the budget).
    int round_trials(size_t task) const;
    /// The tasks without a measured schedule yet (an estimate that leaves them out is partial).
    std::vector<size_t> missing_tasks() const;

private:
    /// The best task to pick among those not `busy` (none: every task is busy).
    std::optional<size_t> pick_free_task(const std::vector<bool> &busy) const;
    /// Round size as round_trials, with `reserved` trials of running rounds counted as spent.
    int round_trials(size_t task, const std::vector<bool> &busy, int reserved) const;
    /// Books a finished round of task i that measured `s`.
    void finish_round(size_t i, const TuneSummary &s);

    std::vector<TaskState> tasks_;
    SchedulerParams params_;
    int spent_ = 0;
};

}  // namespace worldtune
