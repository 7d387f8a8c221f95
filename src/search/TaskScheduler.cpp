#include "search/TaskScheduler.h"

#include "workload/OpRegistry.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace worldtune {

namespace {
double expected_cost(const TaskState &t) { return double(t.entry.count) * t.flops; }
}  // namespace

TaskScheduler::TaskScheduler(std::vector<PresetEntry> tasks, SchedulerParams params,
                             std::function<std::unique_ptr<Tuner>(const WorkloadSpec &)> make_tuner)
    : params_(params) {
    for (PresetEntry &e : tasks) {
        TaskState t;
        const WorkloadSpec spec = WorkloadSpec::parse(e.spec);
        t.tuner = make_tuner(spec);
        const OpDef *op = find_op(spec.op());
        t.flops = op && op->flops ? op->flops(spec) : 0;
        t.entry = std::move(e);
        tasks_.push_back(std::move(t));
    }
}

void TaskScheduler::resume(size_t task, int trials, double best_latency) {
    TaskState &t = tasks_.at(task);
    t.trials = trials;
    t.best = best_latency;
    if (trials > 0) t.best_history.push_back(best_latency);
}

size_t TaskScheduler::pick_task() const {
    // Warm-up: every task gets a round before gradients are compared, largest expected cost first.
    std::optional<size_t> warm_up;
    for (size_t i = 0; i < tasks_.size(); i++)
        if (tasks_[i].trials == 0 && (!warm_up || expected_cost(tasks_[i]) > expected_cost(tasks_[*warm_up]))) warm_up = i;
    if (warm_up) return *warm_up;
    size_t best_task = 0;
    double best_gain = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < tasks_.size(); i++) {
        const TaskState &t = tasks_[i];
        if (t.best <= 0) return i;  // nothing runs yet: the largest possible gain
        // Backward gradient: the best latency's drop per trial over the last rounds.
        const auto &h = t.best_history;
        const size_t window = std::min<size_t>(params_.backward_window, h.size() - 1);
        const double backward = window > 0 ? (h[h.size() - 1 - window] - h.back()) / double(window * params_.trials_per_round) : 0;
        // Optimistic forward gradient: as if the latency could keep dropping at best / trials.
        const double forward = t.best / double(std::max(1, t.trials));
        const double gain = t.entry.count * (params_.alpha * backward + (1 - params_.alpha) * forward);
        if (gain > best_gain) best_gain = gain, best_task = i;
    }
    return best_task;
}

int TaskScheduler::round_trials(size_t task) const {
    const int left = params_.total_trials - spent_;
    int round = params_.trials_per_round;
    if (tasks_.at(task).trials == 0) {
        const int unwarmed = int(std::count_if(tasks_.begin(), tasks_.end(), [](const TaskState &t) { return t.trials == 0; }));
        round = std::min(round, left / std::max(1, unwarmed));
    }
    return std::max(1, std::min(round, left));
}

std::vector<size_t> TaskScheduler::missing_tasks() const {
    std::vector<size_t> out;
    for (size_t i = 0; i < tasks_.size(); i++)
        if (tasks_[i].best <= 0) out.push_back(i);
    return out;
}

void TaskScheduler::run(const std::function<void(size_t, const MeasureResult &)> &on_measured,
                        const std::function<void(size_t, const TaskState &)> &on_round) {
    while (spent_ < params_.total_trials) {
        const size_t i = pick_task();
        TaskState &t = tasks_[i];
        TuneSummary s = t.tuner->run_trials(round_trials(i), [&](const MeasureResult &r, int) { on_measured(i, r); });
        spent_ += std::max(1, s.measured);
        t.trials += s.measured;
        if (s.best && (t.best <= 0 || s.best->timing.median_s < t.best)) t.best = s.best->timing.median_s;
        t.best_history.push_back(t.best);
        if (on_round) on_round(i, t);
        if (s.measured == 0) t.trials = std::max(t.trials, 1);  // exhausted: stop picking it for warm-up
    }
}

double TaskScheduler::estimated_latency(double missing_penalty) const {
    double total = 0;
    for (const TaskState &t : tasks_) total += t.entry.count * (t.best > 0 ? t.best : missing_penalty);
    return total;
}

}  // namespace worldtune
