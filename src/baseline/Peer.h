// The inside of the baselines: what one peer provides, and the helpers the peers share.
#pragma once

#include "baseline/Baseline.h"
#include "workload/Workload.h"

#include "Halide.h"

#include <functional>
#include <string>
#include <vector>

namespace worldtune {

/// A peer made ready to run one workload on given inputs.
struct PeerProgram {
    std::function<void()> run;  ///< one complete execution (what is timed)
    /// Copies the last run's output into `out` (Halide order, dense). Empty: `run` writes `out` itself.
    std::function<void(Halide::Buffer<float> &out)> finish;
    double schedule_seconds = 0;  ///< autoscheduler search time, for the Halide peers
    std::string detail;           ///< implementation and layout notes for the report
};

struct Peer {
    std::string name;
    /// Why the peer cannot run this spec; "" when it can. Must not touch Halide or the peer's library.
    std::function<std::string(const WorkloadSpec &)> unavailable_reason;
    /// Sets the peer's thread pools to `threads`; called first, once per process.
    std::function<void(int threads)> set_threads;
    /// Extra "KEY=VALUE" entries for the worker's environment (read by libraries as they load), each
    /// applied unless the caller's environment sets KEY. May be empty.
    std::function<std::vector<std::string>(const WorkloadSpec &)> environment;
    /// Everything before timing: scheduling, compiling, packing constant weights. `inputs` are the
    /// workload's inputs in Halide order (dense, so their memory is the row-major array of the reversed
    /// shape); `out` has the output shape, is dense, and outlives the program.
    std::function<PeerProgram(const Workload &, const std::vector<Halide::Buffer<float>> &inputs,
                              Halide::Buffer<float> &out, const BaselineParams &)>
        prepare;
};

const Peer &adams2019_peer();
const Peer &mullapudi2016_peer();
const Peer &li2018_peer();
const Peer &openblas_peer();
const Peer &onednn_peer();
const Peer &libtorch_peer();

const std::vector<const Peer *> &all_peers();
const Peer *find_peer(const std::string &name);

/// max_rel_error as BaselineResult defines it, over measure/OutputCheck's check_points (the points
/// candidates are checked at); infinity when a checked output is not finite.
double max_relative_error(const Workload &w, const std::vector<Halide::Buffer<float>> &inputs,
                          const Halide::Buffer<float> &out, double rtol, double atol, uint64_t seed);

/// Runs body(begin, end) over [0, n) split in `threads` contiguous chunks, on the calling thread and
/// threads - 1 helper threads (for the small epilogues of library calls that are not threaded themselves).
void parallel_chunks(int64_t n, int threads, const std::function<void(int64_t, int64_t)> &body);

/// Reason text for an op a peer has no routine for.
std::string no_routine_reason(const std::string &peer, const std::string &op);

}  // namespace worldtune
