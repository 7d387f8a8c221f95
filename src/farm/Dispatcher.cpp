#include "farm/Dispatcher.h"

#include <algorithm>

namespace worldtune {

Dispatcher::Dispatcher(FarmTransport &transport, std::vector<int> measurers, FarmParams params,
                       std::function<double()> clock, std::function<void(double)> sleep)
    : transport_(transport), params_(params), clock_(std::move(clock)), sleep_(std::move(sleep)) {
    for (int rank : measurers) measurers_.push_back({rank, clock_(), {}});
}

void Dispatcher::send_work(std::deque<size_t> &queue, const FarmTask &base, const std::vector<ActionList> &candidates) {
    for (Measurer &m : measurers_) {
        while (!queue.empty() && int(m.in_flight.size()) < std::max(1, params_.queue_depth)) {
            FarmTask task = base;
            task.id = next_id_++;
            task.actions = actions_to_json(candidates[queue.front()]);
            // An idle measurer's silence starts now, not at its last heartbeat rank 0 has not read yet.
            if (m.in_flight.empty()) m.last_heard = std::max(m.last_heard, clock_());
            transport_.send(m.rank, FarmTag::Task, farm_task_text(task));
            m.in_flight.push_back({task.id, queue.front()});
            queue.pop_front();
        }
    }
}

void Dispatcher::lose_silent(std::deque<size_t> &queue, const std::function<void(const std::string &)> &log) {
    const double now = clock_();
    for (auto it = measurers_.begin(); it != measurers_.end();) {
        if (it->in_flight.empty() || now - it->last_heard <= params_.silence_seconds) {
            ++it;
            continue;
        }
        for (auto f = it->in_flight.rbegin(); f != it->in_flight.rend(); ++f) queue.push_front(f->index);
        if (log)
            log("measurer rank " + std::to_string(it->rank) + " silent for " + std::to_string(int(now - it->last_heard)) +
                " s: lost; " + std::to_string(it->in_flight.size()) + " candidates go back to the queue");
        lost_.push_back(it->rank);
        it = measurers_.erase(it);
    }
}

std::vector<size_t> Dispatcher::run(const WorkloadSpec &spec, const std::vector<ActionList> &candidates, const MeasureParams &params,
                                    const std::function<void(size_t, MeasureResult)> &on_result,
                                    const std::function<void(const std::string &)> &log) {
    std::deque<size_t> queue;
    for (size_t i = 0; i < candidates.size(); i++) queue.push_back(i);
    FarmTask base;
    base.spec = spec.canonical();
    base.params = params;
    size_t handed = 0;
    while (handed < candidates.size() && !measurers_.empty()) {
        send_work(queue, base, candidates);
        bool heard = false;
        while (std::optional<FarmMessage> message = transport_.poll()) {
            heard = true;
            auto m = std::find_if(measurers_.begin(), measurers_.end(), [&](const Measurer &x) { return x.rank == message->rank; });
            if (m == measurers_.end()) continue;  // a lost measurer: its work was requeued
            m->last_heard = clock_();
            if (message->tag != FarmTag::Result) continue;
            int64_t id = 0;
            MeasureResult result = farm_result_from_text(message->text, id);
            auto f = std::find_if(m->in_flight.begin(), m->in_flight.end(), [&](const InFlight &x) { return x.id == id; });
            if (f == m->in_flight.end()) continue;
            const size_t index = f->index;
            m->in_flight.erase(f);
            on_result(index, std::move(result));
            handed++;
            send_work(queue, base, candidates);
        }
        lose_silent(queue, log);
        if (!heard) sleep_(params_.poll_seconds);
    }
    return std::vector<size_t>(queue.begin(), queue.end());
}

}  // namespace worldtune
