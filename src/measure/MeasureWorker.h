// The worker side of measurement: what `worldtune __worker` runs. It reads requests (WorkerProtocol.h)
// from a socket, measures each in this process, and writes one reply per request. Halide's thread count
// comes from HL_NUM_THREADS, which the parent sets in the worker's environment.
//
// Test-only fault injection: WORLDTUNE_TEST_FAULT=<kind>[@<candidate>][,...] with kind one of
// crash (abort), segv, hang, wrong (adds 1 to every output value after timing). Without @, every candidate.
// Only the worker reads it; nothing else in worldtune looks at it.
#pragma once

#include "measure/WorkerProtocol.h"
#include "workload/Workload.h"

#include <map>
#include <string>
#include <vector>

namespace worldtune {

/// Measures requests in this process, keeping the random inputs and output buffer of recent specs.
class MeasureSession {
public:
    /// Never throws for a bad candidate: every failure becomes reply.error.
    WorkerReply measure(const WorkerRequest &request);

private:
    struct Data {
        std::vector<Halide::Buffer<float>> inputs;  ///< logical coordinates, in the weights' layouts
        /// The inputs as each set of blockings stores them (blocked weights arranged in their blocks), by
        /// blocking key: arranged once per blocking, outside every timed run.
        std::map<std::string, std::vector<Halide::Buffer<float>>> stored;
        Halide::Buffer<float> output;
    };
    Data &data_for(const Workload &w, uint64_t seed);
    /// `w`'s inputs as it stores them, from the session's random inputs for its spec and seed.
    const std::vector<Halide::Buffer<float>> &stored_inputs_for(const Workload &w, Data &data);

    std::map<std::string, Data> cache_;  ///< by spec, seed and the weights' layouts
    std::vector<std::string> cache_order_;
};

/// Runs the worker loop on socket `fd`: warm up, send hello, then answer requests until the peer closes.
/// Returns the process exit code.
int run_measure_worker(int fd);

}  // namespace worldtune
