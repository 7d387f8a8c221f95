#include "measure/Measurer.h"

#include "measure/Hardware.h"
#include "measure/WorkerProcess.h"
#include "measure/WorkerProtocol.h"
#include "workload/OpRegistry.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <sstream>

namespace worldtune {

namespace {

struct ErrorKindName {
    ErrorKind kind;
    const char *name;
};

constexpr ErrorKindName kErrorKindNames[] = {
    {ErrorKind::None, "none"},         {ErrorKind::Schedule, "schedule"},
    {ErrorKind::Compile, "compile"},   {ErrorKind::Runtime, "runtime"},
    {ErrorKind::WrongOutput, "wrong_output"}, {ErrorKind::Timeout, "timeout"},
    {ErrorKind::Crash, "crash"},
};

double workload_flops(const WorkloadSpec &spec) {
    const OpDef *op = find_op(spec.op());
    return op && op->flops ? op->flops(spec) : 0;
}

std::string seconds_text(double s) {
    std::ostringstream out;
    out << s;
    return out.str();
}

}  // namespace

const char *error_kind_name(ErrorKind kind) {
    for (const ErrorKindName &e : kErrorKindNames)
        if (e.kind == kind) return e.name;
    return "unknown";
}

ErrorKind error_kind_from_name(const std::string &name) {
    for (const ErrorKindName &e : kErrorKindNames)
        if (name == e.name) return e.kind;
    throw std::invalid_argument("unknown error kind '" + name + "'");
}

std::string format_seconds(double seconds) {
    const char *unit = "s";
    double v = seconds;
    if (seconds < 1e-3) {
        v = seconds * 1e6;
        unit = "us";
    } else if (seconds < 1) {
        v = seconds * 1e3;
        unit = "ms";
    }
    char text[32];
    std::snprintf(text, sizeof text, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, unit);
    return text;
}

std::string utc_timestamp() {
    using namespace std::chrono;
    const auto now = system_clock::now();
    const std::time_t seconds = system_clock::to_time_t(now);
    const int millis = int(duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[40];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
    return text;
}

Measurer::Measurer(MeasureParams params) : params_(std::move(params)) {
    if (params_.worker_binary.empty()) params_.worker_binary = WorkerProcess::self_binary();
    if (params_.threads < 1) throw MeasureError("threads must be at least 1");
    if (params_.timeout_seconds <= 0) throw MeasureError("timeout must be positive");
}

Measurer::~Measurer() = default;

std::vector<MeasureResult> Measurer::measure(const WorkloadSpec &spec, const std::vector<ActionList> &candidates) {
    std::vector<MeasureResult> results;
    results.reserve(candidates.size());
    for (size_t i = 0; i < candidates.size(); i++) results.push_back(measure_candidate(spec, candidates[i], int(i)));
    return results;
}

MeasureResult Measurer::measure_one(const WorkloadSpec &spec, const ActionList &actions) {
    return measure_candidate(spec, actions, 0);
}

MeasureResult Measurer::measure_candidate(const WorkloadSpec &spec, const ActionList &actions, int index) {
    MeasureResult r;
    r.spec = spec.canonical();
    r.actions = actions_to_json(actions);
    r.hardware = hardware_json();
    r.target = host_target_string();
    r.threads = params_.threads;
    r.version = WORLDTUNE_VERSION;
    auto fail = [&](ErrorKind kind, const std::string &message) {
        r.error = kind;
        r.error_msg = message;
    };

    WorkerRequest request;
    request.id = next_request_id_++;
    request.candidate = index;
    request.spec = r.spec;
    request.actions = r.actions;
    request.timing = params_.timing;
    request.check = params_.check_output;
    request.rtol = params_.rtol;
    request.atol = params_.atol;
    request.seed = params_.seed;
    const std::string line = to_json(request).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

    if (!worker_) worker_ = std::make_unique<WorkerProcess>(params_.worker_binary, params_.threads,
                                                            params_.startup_timeout_seconds);
    // A worker that died between candidates (killed from outside) is replaced once.
    if (!worker_->send_line(line)) {
        worker_ = std::make_unique<WorkerProcess>(params_.worker_binary, params_.threads, params_.startup_timeout_seconds);
        if (!worker_->send_line(line)) {
            fail(ErrorKind::Crash, worker_->reap_and_describe());
            worker_.reset();
        }
    }
    const double start = now_seconds();
    if (worker_) {
        worker_->clear_stderr_tail();
        std::string reply_line;
        switch (worker_->read_line(start + params_.timeout_seconds, reply_line)) {
        case WorkerProcess::ReadKind::Timeout:
            worker_->kill_now();
            worker_.reset();
            fail(ErrorKind::Timeout, "no result within " + seconds_text(params_.timeout_seconds) +
                                         " s (compile + run); worker killed");
            break;
        case WorkerProcess::ReadKind::Exited:
            fail(ErrorKind::Crash, worker_->reap_and_describe());
            worker_.reset();
            break;
        case WorkerProcess::ReadKind::Line:
            try {
                const WorkerReply reply = worker_reply_from_json(nlohmann::json::parse(reply_line));
                if (reply.id != request.id)
                    throw std::runtime_error("reply to request " + std::to_string(reply.id) + ", expected " +
                                             std::to_string(request.id));
                r.error = reply.error;
                r.error_action = reply.error_action;
                r.error_msg = reply.error_msg;
                r.compile_seconds = reply.compile_s;
                r.timing = reply.timing;
                if (!reply.target.empty()) r.target = reply.target;
            } catch (const std::exception &e) {
                worker_->kill_now();
                worker_.reset();
                fail(ErrorKind::Crash, std::string("worker protocol error: ") + e.what());
            }
            break;
        }
    }
    r.wall_seconds = now_seconds() - start;
    if (r.ok() && r.timing.median_s > 0) r.gflops = workload_flops(spec) / r.timing.median_s * 1e-9;
    if (!r.ok()) r.timing = TimingStats();
    r.timestamp = utc_timestamp();
    return r;
}

}  // namespace worldtune
