#include "farm/Dispatcher.h"

#include <algorithm>

namespace worldtune {

Dispatcher::Dispatcher(FarmTransport &transport, std::vector<int> measurers, FarmParams params,
                       std::function<double()> clock, std::function<void(double)> sleep)
    : transport_(transport), params_(params), clock_(std::move(clock)), sleep_(std::move(sleep)) {
    for (int rank : measurers) measurers_.push_back({rank, clock_(), {}});
}

void Dispatcher::send_work() {
    for (Measurer &m : measurers_) {
        while (!queue_.empty() && int(m.in_flight.size()) < std::max(1, params_.queue_depth)) {
            const Pending work = queue_.front();
            queue_.pop_front();
            FarmTask task = work.batch->base;
            task.id = next_id_++;
            task.actions = actions_to_json((*work.batch->candidates)[work.index]);
            const double now = clock_();
            if (first_hand_out_ < 0) {
                first_hand_out_ = now;
                for (Measurer &x : measurers_) x.idle_since = now;
            }
            if (m.in_flight.empty()) {
                m.idle_seconds += now - m.idle_since;
                // An idle measurer's silence starts now, not at its last heartbeat rank 0 has not read yet.
                m.last_heard = std::max(m.last_heard, now);
            }
            transport_.send(m.rank, FarmTag::Task, farm_task_text(task));
            m.in_flight.push_back({task.id, work});
        }
    }
}

void Dispatcher::receive(const FarmMessage &message) {
    auto m = std::find_if(measurers_.begin(), measurers_.end(), [&](const Measurer &x) { return x.rank == message.rank; });
    if (m == measurers_.end()) return;  // a lost measurer: its work was requeued
    const double now = clock_();
    m->last_heard = now;
    if (message.tag != FarmTag::Result) return;
    int64_t id = 0;
    MeasureResult result = farm_result_from_text(message.text, id);
    auto f = std::find_if(m->in_flight.begin(), m->in_flight.end(), [&](const InFlight &x) { return x.id == id; });
    if (f == m->in_flight.end()) return;
    f->work.batch->arrived.emplace_back(f->work.index, std::move(result));
    m->in_flight.erase(f);
    if (m->in_flight.empty()) m->idle_since = now;
    results_++;
    last_result_ = now;
}

void Dispatcher::lose_silent(const std::function<void(const std::string &)> &log) {
    const double now = clock_();
    for (auto it = measurers_.begin(); it != measurers_.end();) {
        if (it->in_flight.empty() || now - it->last_heard <= params_.silence_seconds) {
            ++it;
            continue;
        }
        for (auto f = it->in_flight.rbegin(); f != it->in_flight.rend(); ++f) queue_.push_front(f->work);
        if (log)
            log("measurer rank " + std::to_string(it->rank) + " silent for " + std::to_string(int(now - it->last_heard)) +
                " s: lost; " + std::to_string(it->in_flight.size()) + " candidates go back to the queue");
        lost_.push_back(it->rank);
        it = measurers_.erase(it);
    }
}

void Dispatcher::pump(bool &heard, const std::function<void(const std::string &)> &log) {
    send_work();
    while (std::optional<FarmMessage> message = transport_.poll()) {
        heard = true;
        receive(*message);
        send_work();
    }
    lose_silent(log);
}

std::vector<size_t> Dispatcher::take_queued(const Batch &batch) {
    std::vector<size_t> taken;
    for (auto it = queue_.begin(); it != queue_.end();) {
        if (it->batch != &batch) {
            ++it;
            continue;
        }
        taken.push_back(it->index);
        it = queue_.erase(it);
    }
    return taken;
}

std::vector<size_t> Dispatcher::run(const WorkloadSpec &spec, const std::vector<ActionList> &candidates, const MeasureParams &params,
                                    const std::function<void(size_t, MeasureResult)> &on_result,
                                    const std::function<void(const std::string &)> &log) {
    Batch batch;
    batch.base.spec = spec.canonical();
    batch.base.params = params;
    batch.candidates = &candidates;
    // However run ends (on_result may throw), no queued or in-flight entry may outlive the batch.
    struct Forget {
        Dispatcher &d;
        const Batch &batch;
        ~Forget() {
            std::lock_guard<std::mutex> lock(d.mutex_);
            d.take_queued(batch);
            for (Measurer &m : d.measurers_)
                m.in_flight.erase(std::remove_if(m.in_flight.begin(), m.in_flight.end(),
                                                 [&](const InFlight &f) { return f.work.batch == &batch; }),
                                  m.in_flight.end());
        }
    } forget{*this, batch};
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (size_t i = 0; i < candidates.size(); i++) queue_.push_back({&batch, i});
    }
    size_t waiting = candidates.size();
    std::vector<size_t> left;
    while (waiting > 0) {
        std::deque<std::pair<size_t, MeasureResult>> arrived;
        bool heard = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (measurers_.empty()) {
                const std::vector<size_t> mine = take_queued(batch);
                left.insert(left.end(), mine.begin(), mine.end());
                waiting -= mine.size();
            } else {
                pump(heard, log);
            }
            arrived.swap(batch.arrived);
        }
        waiting -= arrived.size();
        for (auto &[index, result] : arrived) on_result(index, std::move(result));
        if (waiting > 0 && !heard && arrived.empty()) sleep_(params_.poll_seconds);
    }
    return left;
}

std::vector<int> Dispatcher::lost() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lost_;
}

FarmUse Dispatcher::use() const {
    std::lock_guard<std::mutex> lock(mutex_);
    FarmUse u;
    if (first_hand_out_ < 0) return u;
    u.span_seconds = std::max(0.0, last_result_ - first_hand_out_);
    for (const Measurer &m : measurers_)
        u.idle_seconds += m.idle_seconds + (m.in_flight.empty() ? std::max(0.0, last_result_ - m.idle_since) : 0.0);
    u.measurers = int(measurers_.size());
    u.results = results_;
    return u;
}

}  // namespace worldtune
