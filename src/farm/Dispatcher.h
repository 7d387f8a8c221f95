// Rank 0's side of a measurement farm, without MPI: hands a batch of candidates to the measurer ranks, a
// few ahead each (FarmParams::queue_depth) so none waits, collects the results in any order, and gives up
// on a measurer that falls silent (dead or hung): its in-flight candidates go back to the queue, a late
// answer from it is ignored, so no candidate is handed over twice. The wire is a FarmTransport (MPI in
// farm/MpiFarm.cpp, a fake in the tests).
#pragma once

#include "farm/FarmProtocol.h"
#include "measure/Measurer.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
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

class Dispatcher {
public:
    /// `measurers`: the ranks to use. `clock` returns seconds (tests pass a fake one).
    Dispatcher(FarmTransport &transport, std::vector<int> measurers, FarmParams params,
               std::function<double()> clock, std::function<void(double)> sleep);

    /// Measures `candidates` on the measurers; calls on_result(index, result) as results arrive. Returns the
    /// indices no measurer could take because every one is lost (the caller measures them itself).
    std::vector<size_t> run(const WorkloadSpec &spec, const std::vector<ActionList> &candidates, const MeasureParams &params,
                            const std::function<void(size_t, MeasureResult)> &on_result,
                            const std::function<void(const std::string &)> &log);

    const std::vector<int> &lost() const { return lost_; }

private:
    struct InFlight {
        int64_t id;
        size_t index;
    };
    struct Measurer {
        int rank;
        double last_heard = 0;
        std::deque<InFlight> in_flight;
    };
    void send_work(std::deque<size_t> &queue, const FarmTask &base, const std::vector<ActionList> &candidates);
    void lose_silent(std::deque<size_t> &queue, const std::function<void(const std::string &)> &log);

    FarmTransport &transport_;
    FarmParams params_;
    std::function<double()> clock_;
    std::function<void(double)> sleep_;
    std::vector<Measurer> measurers_;
    std::vector<int> lost_;
    int64_t next_id_ = 1;
};

}  // namespace worldtune
