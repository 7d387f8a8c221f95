// Rank 0's side of a measurement farm, without MPI: hands batches of candidates to the measurer ranks, a
// few ahead each (FarmParams::queue_depth) so none waits, collects the results in any order, and gives up
// on a measurer that falls silent (dead or hung): its in-flight candidates go back to the queue, a late
// answer from it is ignored, so no candidate is handed over twice. The wire is a FarmTransport (MPI in
// farm/MpiFarm.cpp, a fake in the tests).
//
// Several searches may run batches at once, each on a thread of its own: their candidates share the
// measurers, first come first served, and each batch's results reach the thread that sent it. While one
// search proposes its next batch, the others' batches keep the measurers busy. The transport is only
// touched under the dispatcher's lock (MPI_THREAD_SERIALIZED is enough).
#pragma once

#include "farm/FarmProtocol.h"
#include "measure/Measurer.h"

#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace worldtune {

struct FarmMessage {
    int rank = 0;
    FarmTag tag = FarmTag::Heartbeat;
    std::string text;
};

class FarmTransport {
public:
    virtual ~FarmTransport() = default;
    virtual void send(int rank, FarmTag tag, const std::string &text) = 0;
    /// The next message from any measurer, or nothing (never blocks).
    virtual std::optional<FarmMessage> poll() = 0;
};

/// How busy the measurers were, from the first candidate handed out to the last result received.
struct FarmUse {
    double span_seconds = 0;     ///< first hand-out to last result
    double idle_seconds = 0;     ///< summed over the measurers still in the farm: time with nothing in flight
    int measurers = 0;           ///< measurers still in the farm
    int64_t results = 0;         ///< results received
    /// The measurers' idle share of the span (0 when nothing was measured).
    double idle_share() const { return span_seconds > 0 && measurers > 0 ? idle_seconds / (span_seconds * measurers) : 0; }
};

class Dispatcher {
public:
    /// `measurers`: the ranks to use. `clock` returns seconds (tests pass a fake one).
    Dispatcher(FarmTransport &transport, std::vector<int> measurers, FarmParams params,
               std::function<double()> clock, std::function<void(double)> sleep);

    /// Measures `candidates` on the measurers; calls on_result(index, result) on the calling thread as results
    /// arrive. Returns the indices no measurer could take because every one is lost (the caller measures them
    /// itself). Safe to call from several threads at once.
    std::vector<size_t> run(const WorkloadSpec &spec, const std::vector<ActionList> &candidates, const MeasureParams &params,
                            const std::function<void(size_t, MeasureResult)> &on_result,
                            const std::function<void(const std::string &)> &log);

    std::vector<int> lost() const;
    FarmUse use() const;

private:
    struct Batch {
        FarmTask base;
        const std::vector<ActionList> *candidates = nullptr;
        std::deque<std::pair<size_t, MeasureResult>> arrived;  ///< results not yet handed to the batch's thread
    };
    struct Pending {
        Batch *batch;
        size_t index;
    };
    struct InFlight {
        int64_t id;
        Pending work;
    };
    struct Measurer {
        int rank;
        double last_heard = 0;
        std::deque<InFlight> in_flight;
        double idle_since = 0;  ///< when in_flight last became empty
        double idle_seconds = 0;
    };
    // All of these run under mutex_.
    void pump(bool &heard, const std::function<void(const std::string &)> &log);
    void send_work();
    void receive(const FarmMessage &message);
    void lose_silent(const std::function<void(const std::string &)> &log);
    std::vector<size_t> take_queued(const Batch &batch);

    FarmTransport &transport_;
    FarmParams params_;
    std::function<double()> clock_;
    std::function<void(double)> sleep_;
    mutable std::mutex mutex_;
    std::deque<Pending> queue_;  ///< candidates of every running batch not yet handed out, oldest first
    std::vector<Measurer> measurers_;
    std::vector<int> lost_;
    int64_t next_id_ = 1;
    double first_hand_out_ = -1;  ///< -1: nothing handed out yet
    double last_result_ = 0;
    int64_t results_ = 0;
};

}  // namespace worldtune
