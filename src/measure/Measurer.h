// Measures candidate schedules in a persistent worker process: compile, run on seeded random inputs,
// time, check the output against the op's reference, and turn every failure into a typed error.
//
// Key pieces:
//   MeasureParams  every knob of a measurement, with its default and unit (the command line fills it)
//   MeasureResult  one candidate's outcome, as the record store keeps it
//   Measurer       the parent side: one worker (`worldtune __worker`) spoken to in JSON Lines over a
//                  socket, a timeout per candidate enforced with poll(), a fresh worker after a
//                  timeout or a crash. The worker side is in MeasureWorker.h.
#pragma once

#include "common/OneLineError.h"
#include "common/Defaults.h"
#include "measure/Timing.h"
#include "schedule/Action.h"
#include "workload/Spec.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace worldtune {

/// How a candidate failed. The names (error_kind_name) are stable: they are stored in records.
enum class ErrorKind {
    None,         ///< measured and (unless check_output is off) correct
    Schedule,     ///< Halide refuses the action list (ScheduleError; error_action names the action)
    Compile,      ///< the schedule lowers but compiling it fails (Halide::CompileError, InternalError)
    Runtime,      ///< the compiled pipeline fails when run (Halide::RuntimeError, e.g. out-of-bounds)
    WrongOutput,  ///< runs, but the output differs from the reference
    Timeout,      ///< no result within timeout_seconds (compile + run); the worker was killed
    Crash,        ///< the worker died (signal or exit) while measuring
};

const char *error_kind_name(ErrorKind kind);
/// Inverse of error_kind_name; throws std::invalid_argument for an unknown name.
ErrorKind error_kind_from_name(const std::string &name);

/// Every knob of a measurement.
struct MeasureParams {
    int threads = kDefaultThreads;                  ///< Halide threads (HL_NUM_THREADS in the worker's environment)
    double timeout_seconds = 30;      ///< per candidate, compile + run + check, counted by the parent
    double startup_timeout_seconds = 60;  ///< for a fresh worker to start and warm up (before any candidate)
    TimingParams timing;              ///< warm-up, repeats, minimum repeat time
    bool check_output = true;         ///< compare the output with the op's reference
    double rtol = 1e-3;               ///< relative tolerance of the check
    double atol = 1e-3;               ///< absolute tolerance, multiplied by sqrt(reduction length) of the
                                      ///< workload (float32 sums of n terms drift like sqrt(n))
    uint64_t seed = 1;                ///< random inputs (uniform in [-1, 1]) and checked points
    std::string worker_binary;        ///< the worldtune binary to run as worker; "" = this process's binary
};

/// One measured candidate.
struct MeasureResult {
    std::string spec;                  ///< canonical spec text
    nlohmann::json actions = nlohmann::json::array();  ///< the action list as JSON
    TimingStats timing;                ///< per-run latency statistics (empty on error)
    double gflops = 0;                 ///< workload flops / median latency, in 1e9 per second
    double compile_seconds = 0;        ///< build + apply actions + JIT compile, in the worker
    ErrorKind error = ErrorKind::None;
    int error_action = -1;             ///< Schedule: the refused action's index (-1: found only at lowering)
    std::string error_msg;             ///< one line, empty when error is None
    nlohmann::json hardware;           ///< hardware_json() of the measuring machine
    std::string target;                ///< Halide target the candidate was compiled for
    int threads = 0;
    std::string version;               ///< worldtune version that measured it
    std::string timestamp;             ///< when it was measured, ISO 8601 UTC with milliseconds
    double wall_seconds = 0;           ///< parent-side time for this candidate (request to result); not stored

    bool ok() const { return error == ErrorKind::None; }
};

/// A problem with the measuring setup itself (the worker binary cannot start), not with a candidate.
struct MeasureError : OneLineError {
    using OneLineError::OneLineError;
};

class WorkerProcess;

class Measurer {
public:
    explicit Measurer(MeasureParams params = {});
    ~Measurer();
    Measurer(const Measurer &) = delete;
    Measurer &operator=(const Measurer &) = delete;

    /// Measures every candidate, in order, one result each. Candidates that fail get an error kind; the
    /// batch always completes. Throws MeasureError only when no worker can be started at all.
    std::vector<MeasureResult> measure(const WorkloadSpec &spec, const std::vector<ActionList> &candidates);
    MeasureResult measure_one(const WorkloadSpec &spec, const ActionList &actions);

    const MeasureParams &params() const { return params_; }

private:
    MeasureResult measure_candidate(const WorkloadSpec &spec, const ActionList &actions, int index);

    MeasureParams params_;
    std::unique_ptr<WorkerProcess> worker_;
    int64_t next_request_id_ = 0;
};

/// A latency for people: "850 us", "12.3 ms", "1.52 s" (three significant digits).
std::string format_seconds(double seconds);

/// Now as ISO 8601 UTC with milliseconds: "2024-05-01T12:34:56.789Z".
std::string utc_timestamp();

}  // namespace worldtune
