// Peers to compare against: Halide's autoschedulers and the vendor libraries, each run on a workload
// spec, timed with the same harness as candidates and checked against the op's reference.
//
// Peers (names as the command line spells them):
//   adams2019, mullapudi2016, li2018   Halide 14's autoscheduler plugins on the workload's own pipeline
//   openblas                           cblas_sgemm for matmul, batch_matmul, dense
//   onednn                             oneDNN 2.6 primitives (matmul, conv, pooling, softmax, layer norm)
//   libtorch                           libtorch 1.13's CPU operators, every op
//
// Thread counts, Halide's HL_NUM_THREADS and the libraries' pools are per process, so every peer runs in
// a fresh child process (`worldtune __baseline_worker ...`) with a timeout; see run_baseline_subprocess.
//
// How to add a peer: write src/baseline/<Name>Peer.cpp defining `const Peer &<name>_peer()`, declare it
// in Peer.h, list it in all_peers() (Baseline.cpp), and add its applicable ops to tests/BaselineTest.cpp.
#pragma once

#include "measure/Timing.h"
#include "workload/Spec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace worldtune {

/// Every knob of a baseline run, with its default and unit.
struct BaselineParams {
    int threads = 1;                            ///< threads the peer may use (all its pools are set to this)
    TimingParams timing;                        ///< the same harness as candidates, but for the warm-up:
    double warmup_seconds = 0.25;               ///< a peer warms up at least this long before it is timed
                                                ///< (libtorch sets up its oneDNN kernels over its first
                                                ///< calls: docs/benchmarks.md, "Warm-up of the peers"),
                                                ///< and so does a schedule re-measured beside the peers
                                                ///< (side_by_side_measure)
    double timeout_seconds = 600;               ///< per peer, in the child process: search + compile + timing
    uint64_t cache_bytes = 16ull << 20;         ///< last-level cache size given to Halide's autoschedulers
    float balance = 40;                         ///< MachineParams::balance (load cost vs. arithmetic)
    double rtol = 1e-3;                         ///< as MeasureParams: a point passes when |got - ref| <=
    double atol = 1e-3;                         ///< rtol * |ref| + atol * sqrt(reduction length)
    uint64_t seed = 1;                          ///< random inputs (uniform in [-1, 1]) and sampled points
};

/// What one peer did on one workload.
struct BaselineResult {
    std::string name;
    std::string spec;                 ///< canonical spec text
    int threads = 0;
    bool available = false;           ///< false: the peer cannot run this op or these keys
    std::string unavailable_reason;
    TimingStats timing;
    double gflops = 0;                ///< workload flops / median latency
    double schedule_seconds = 0;      ///< autoscheduler search time; 0 for libraries
    std::string detail;               ///< what ran: implementation name, layout choices
    std::string error;                ///< non-empty: the peer failed (exception, crash, timeout)
    bool output_checked = false;
    double max_rel_error = 0;         ///< max over sampled points of |got - ref| / (|ref| + atol' / rtol),
                                      ///< atol' = atol * sqrt(reduction length): passes when <= rtol
    bool check_passed = false;        ///< output_checked and max_rel_error <= rtol

    /// Available, no error, output checked and correct: a latency one may compare against.
    bool ok() const { return available && error.empty() && check_passed; }
};

/// Every peer name, in the order the command prints them.
std::vector<std::string> baseline_names();
bool is_baseline_name(const std::string &name);

/// Why `name` cannot run `spec` ("" when it can). Throws SpecError for an unknown name.
std::string baseline_unavailable_reason(const std::string &name, const WorkloadSpec &spec);

/// Runs one peer in this process. Sets the peer's thread pools first: call it once per process, before
/// any other Halide or library work (the worker does). Never throws: failures land in `error`.
BaselineResult run_baseline_in_process(const std::string &name, const WorkloadSpec &spec, const BaselineParams &params);

/// Runs one peer in a child process `worker_binary __baseline_worker ...` with HL_NUM_THREADS,
/// OMP_NUM_THREADS and OPENBLAS_NUM_THREADS set to params.threads, the entries the peer asks for where
/// this process's environment does not set them (libtorch: OMP_WAIT_POLICY=PASSIVE for its BLAS-backed
/// ops), the rest of the environment unchanged, killed after params.timeout_seconds.
/// A crash, a timeout or unreadable output becomes `error`. An unavailable peer starts no process.
BaselineResult run_baseline_subprocess(const std::string &worker_binary, const std::string &name,
                                       const WorkloadSpec &spec, const BaselineParams &params);

/// The path of the running executable (/proc/self/exe).
std::string current_executable();

nlohmann::json to_json(const BaselineResult &r);
BaselineResult baseline_result_from_json(const nlohmann::json &j);

/// The worker's argument list after the binary: `__baseline_worker NAME SPEC --threads ...`.
std::vector<std::string> baseline_worker_args(const std::string &name, const WorkloadSpec &spec, const BaselineParams &params);

}  // namespace worldtune
