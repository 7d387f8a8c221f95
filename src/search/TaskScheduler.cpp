#include "search/TaskScheduler.h"

#include "common/OnThreads.h"
#include "workload/OpRegistry.h"

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <mutex>
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

size_t TaskScheduler::pick_task() const { return pick_free_task(std::vector<bool>(tasks_.size(), false)).value_or(0); }

std::optional<size_t> TaskScheduler::pick_free_task(const std::vector<bool> &busy) const {
    // Warm-up: every task gets a round before gradients are compared, largest expected cost first.
    std::optional<size_t> warm_up;
    for (size_t i = 0; i < tasks_.size(); i++)
        if (!busy[i] && tasks_[i].trials == 0 && (!warm_up || expected_cost(tasks_[i]) > expected_cost(tasks_[*warm_up]))) warm_up = i;
    if (warm_up) return warm_up;
    std::optional<size_t> best_task;
    double best_gain = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < tasks_.size(); i++) {
        if (busy[i]) continue;
        const TaskState &t = tasks_[i];
        if (t.best <= 0) return i;  // nothing runs yet: the largest possible gain
        // Backward gradient: the best latency's drop per trial over the last rounds.
        const auto &h = t.best_history;
        const size_t window = std::min<size_t>(params_.backward_window, h.size() - 1);
        const double backward = window > 0 ? (h[h.size() - 1 - window] - h.back()) / double(window * params_.trials_per_round) : 0;
        // Optimistic forward gradient: as if the latency could keep dropping at best / trials.
        const double forward = t.best / double(std::max(1, t.trials));
        const double gain = t.entry.count * (params_.alpha * backward + (1 - params_.alpha) * forward);
        if (!best_task || gain > best_gain) best_gain = gain, best_task = i;
    }
    return best_task;
}

int TaskScheduler::round_trials(size_t task) const { return round_trials(task, std::vector<bool>(tasks_.size(), false), 0); }

int TaskScheduler::round_trials(size_t task, const std::vector<bool> &busy, int reserved) const {
    const int left = params_.total_trials - spent_ - reserved;
    int round = params_.trials_per_round;
    if (tasks_.at(task).trials == 0) {
        int unwarmed = 0;
        for (size_t i = 0; i < tasks_.size(); i++) unwarmed += tasks_[i].trials == 0 && !busy[i];
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

void TaskScheduler::finish_round(size_t i, const TuneSummary &s) {
    TaskState &t = tasks_[i];
    spent_ += std::max(1, s.measured);
    t.trials += s.measured;
    if (s.best && (t.best <= 0 || s.best->timing.median_s < t.best)) t.best = s.best->timing.median_s;
    t.best_history.push_back(t.best);
}

void TaskScheduler::run(const std::function<void(size_t, const MeasureResult &)> &on_measured,
                        const std::function<void(size_t, const TaskState &)> &on_round, int searches) {
    std::mutex mutex;  // guards tasks_' bookkeeping, spent_, busy and reserved
    std::condition_variable round_done;
    std::vector<bool> busy(tasks_.size(), false);
    int reserved = 0;     // trials of the rounds running now
    const double start = now_seconds();
    const auto out_of_time = [&] { return params_.time_budget_s > 0 && now_seconds() - start >= params_.time_budget_s; };
    bool failed = false;  // a round threw: the others end theirs and stop
    auto search = [&](size_t) {
        std::unique_lock<std::mutex> lock(mutex);
        while (true) {
            if (failed || spent_ + reserved >= params_.total_trials || out_of_time()) return;
            const std::optional<size_t> picked = pick_free_task(busy);
            if (!picked) {
                round_done.wait(lock);
                continue;
            }
            const size_t i = *picked;
            const int trials = round_trials(i, busy, reserved);
            busy[i] = true;
            reserved += trials;
            lock.unlock();
            TuneSummary s;
            try {
                s = tasks_[i].tuner->run_trials(trials, [&](const MeasureResult &r, int) { on_measured(i, r); });
            } catch (...) {
                lock.lock();
                failed = true;
                round_done.notify_all();
                throw;
            }
            lock.lock();
            reserved -= trials;
            busy[i] = false;
            finish_round(i, s);
            if (on_round) on_round(i, tasks_[i]);
            if (s.measured == 0) tasks_[i].trials = std::max(tasks_[i].trials, 1);  // exhausted: stop picking it for warm-up
            round_done.notify_all();
        }
    };
    for_each_on_threads(size_t(std::max(1, searches)), std::max(1, searches), search);
}

double TaskScheduler::estimated_latency(double missing_penalty) const {
    double total = 0;
    for (const TaskState &t : tasks_) total += t.entry.count * (t.best > 0 ? t.best : missing_penalty);
    return total;
}

}  // namespace worldtune
