#include "measure/MeasureWorker.h"
#include "measure/Timing.h"

#include "lower/StateText.h"
#include "measure/Hardware.h"
#include "measure/OutputCheck.h"
#include "schedule/Apply.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>

namespace worldtune {

using namespace Halide;

namespace {

constexpr size_t kCachedSpecs = 2;

enum class FaultKind { None, Crash, Segv, Hang, Wrong };

/// The test fault for this candidate, from WORLDTUNE_TEST_FAULT (see the header).
FaultKind test_fault(int candidate) {
    const char *env = std::getenv("WORLDTUNE_TEST_FAULT");
    if (!env || !*env) return FaultKind::None;
    std::istringstream items(env);
    for (std::string item; std::getline(items, item, ',');) {
        const size_t at = item.find('@');
        const std::string kind = item.substr(0, at);
        if (at != std::string::npos && std::atoi(item.c_str() + at + 1) != candidate) continue;
        if (kind == "crash") return FaultKind::Crash;
        if (kind == "segv") return FaultKind::Segv;
        if (kind == "hang") return FaultKind::Hang;
        if (kind == "wrong") return FaultKind::Wrong;
    }
    return FaultKind::None;
}

void inject_early_fault(FaultKind fault) {
    if (fault == FaultKind::Crash) std::abort();
    if (fault == FaultKind::Segv) raise(SIGSEGV);
    if (fault == FaultKind::Hang) {
        const pid_t parent = getppid();
        while (getppid() == parent) sleep(1);  // until killed, or orphaned
        std::_Exit(3);
    }
}

/// Warms LLVM and Halide's thread pool so the first candidate's compile time is not inflated.
void warm_up() {
    Var x("x");
    Func f("warmup");
    f(x) = cast<float>(x) * 2.0f;
    f.vectorize(x, 8).parallel(x, 64);
    f.realize({1024}, get_host_target());
}

}  // namespace

MeasureSession::Data &MeasureSession::data_for(const Workload &w, uint64_t seed) {
    std::string key = w.spec.canonical() + "#" + std::to_string(seed);
    for (const std::vector<int> &layout : w.input_layouts) {  // weights a schedule asks for in another layout
        key += "#";
        for (int d : layout) key += std::to_string(d);
    }
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    if (cache_order_.size() >= kCachedSpecs) {
        cache_.erase(cache_order_.front());
        cache_order_.erase(cache_order_.begin());
    }
    Data d;
    d.inputs = random_inputs(w, seed);
    d.output = Buffer<float>(w.output_shape);
    cache_order_.push_back(key);
    return cache_.emplace(key, std::move(d)).first->second;
}

const std::vector<Buffer<float>> &MeasureSession::stored_inputs_for(const Workload &w, Data &data) {
    std::string key;  // weights a schedule asks for in blocks or transformed (Winograd)
    for (size_t i = 0; i < w.input_blockings.size(); i++)
        key += "#" + std::to_string(w.input_blockings[i].dim) + "/" + std::to_string(w.input_blockings[i].block) + "/" +
               std::to_string(w.input_winograd_tiles[i]);
    auto it = data.stored.find(key);
    if (it == data.stored.end()) it = data.stored.emplace(key, w.stored_inputs(data.inputs)).first;
    return it->second;
}

WorkerReply MeasureSession::measure(const WorkerRequest &request) {
    WorkerReply reply;
    reply.id = request.id;
    reply.target = host_target_string();
    const Target target = get_host_target();
    auto fail = [&](ErrorKind kind, const std::string &message, int action = -1) {
        reply.error = kind;
        reply.error_msg = one_line(message);
        reply.error_action = action;
        reply.timing = TimingStats();
    };
    enum class Phase { Build, Compile, Run } phase = Phase::Build;
    const double start = now_seconds();
    try {
        const WorkloadSpec spec = WorkloadSpec::parse(request.spec);
        const ActionList actions = actions_from_json(request.actions);
        std::unique_ptr<Workload> w = build_workload(spec);
        apply_actions(*w, actions);
        phase = Phase::Compile;
        Pipeline pipeline = w->pipeline();
        try {
            pipeline.compile_jit(target);
        } catch (const CompileError &e) {
            // Most refusals surface only when the whole schedule is lowered: find the action to blame.
            validate_actions(spec, actions);
            throw;
        }
        reply.compile_s = now_seconds() - start;

        const FaultKind fault = test_fault(request.candidate);
        inject_early_fault(fault);

        phase = Phase::Run;
        Data &data = data_for(*w, request.seed);
        w->bind_stored_inputs(stored_inputs_for(*w, data));
        data.output.fill(std::numeric_limits<float>::quiet_NaN());  // points a schedule skips stay NaN
        reply.timing = time_callable([&] { pipeline.realize(data.output, target); }, request.timing);

        if (fault == FaultKind::Wrong) data.output.for_each_value([](float &v) { v += 1.0f; });
        if (request.check) {
            const CheckReport check = check_output(*w, data.inputs, data.output, request.rtol, request.atol, request.seed);
            if (!check.ok)
                fail(ErrorKind::WrongOutput, std::to_string(check.mismatches) + " of " + std::to_string(check.checked) +
                                                 " checked points differ; first: " + check.first_mismatch);
        }
    } catch (const ScheduleError &e) {
        fail(ErrorKind::Schedule, e.what(), e.action_index);
    } catch (const ActionFormatError &e) {
        fail(ErrorKind::Schedule, e.what());
    } catch (const SpecError &e) {
        fail(ErrorKind::Compile, std::string("spec: ") + e.what());
    } catch (const RuntimeError &e) {
        fail(ErrorKind::Runtime, e.what());
    } catch (const CompileError &e) {
        fail(phase == Phase::Run ? ErrorKind::Runtime : ErrorKind::Compile, e.what());
    } catch (const InternalError &e) {
        fail(phase == Phase::Run ? ErrorKind::Runtime : ErrorKind::Compile, std::string("internal: ") + e.what());
    } catch (const Halide::Error &e) {
        fail(phase == Phase::Run ? ErrorKind::Runtime : ErrorKind::Compile, e.what());
    } catch (const std::exception &e) {
        fail(phase == Phase::Run ? ErrorKind::Runtime : ErrorKind::Compile, e.what());
    }
    if (reply.compile_s == 0 && reply.error != ErrorKind::None) reply.compile_s = now_seconds() - start;
    return reply;
}

namespace {

/// Reads the next line from `fd`, blocking; false at end of stream.
bool read_line(int fd, LineBuffer &buffer, std::string &line) {
    char chunk[65536];
    while (!buffer.next_line(line)) {
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        buffer.feed(chunk, size_t(n));
    }
    return true;
}

}  // namespace

int run_measure_worker(int fd) {
    use_timing_allocator();  // as every peer's process
    try {
        warm_up();
    } catch (const std::exception &e) {
        std::cerr << "worldtune worker: warm-up failed: " << one_line(e.what()) << "\n";
        return 2;
    }
    const nlohmann::json hello = {{"hello", "worldtune-worker"},
                                  {"protocol", kWorkerProtocolVersion},
                                  {"pid", int(getpid())},
                                  {"target", host_target_string()}};
    if (!write_all(fd, hello.dump() + "\n")) return 0;

    MeasureSession session;
    LineBuffer buffer;
    std::string line;
    while (read_line(fd, buffer, line)) {
        if (line.empty()) continue;
        WorkerRequest request;
        try {
            request = worker_request_from_json(nlohmann::json::parse(line));
        } catch (const std::exception &e) {
            std::cerr << "worldtune worker: bad request: " << one_line(e.what()) << "\n";
            return 2;
        }
        const WorkerReply reply = session.measure(request);
        const std::string text = to_json(reply).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (!write_all(fd, text + "\n")) return 0;
    }
    return 0;
}

}  // namespace worldtune
