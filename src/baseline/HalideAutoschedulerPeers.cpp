// Halide 14's autoscheduler plugins (Adams2019, Mullapudi2016, Li2018) on the workload's own pipeline.
//
// Each loads its plugin from HALIDE_PLUGIN_DIR, runs Pipeline::auto_schedule with
// MachineParams(threads, cache_bytes, balance) for the host target, JIT-compiles, and times realize()
// into a preallocated output, as candidates are timed. Adams2019 uses the weights built into Debian's
// plugin; its search is bounded only by the worker's timeout, and HL_BEAM_SIZE / HL_NUM_PASSES /
// HL_RANDOM_DROPOUT / HL_SEED in the environment reach it unchanged (defaults: beam 32, 5 passes).
#include "baseline/Peer.h"

#include "measure/Timing.h"

#include <cstdlib>
#include <mutex>
#include <set>

#ifndef HALIDE_PLUGIN_DIR
#error "HALIDE_PLUGIN_DIR must name the folder of Halide's libautoschedule_*.so"
#endif

namespace worldtune {

namespace {

void load_plugin_once(const std::string &file) {
    static std::mutex mutex;
    static std::set<std::string> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    if (loaded.count(file)) return;
    Halide::load_plugin(std::string(HALIDE_PLUGIN_DIR) + "/" + file);
    loaded.insert(file);
}

Peer autoscheduler_peer(const std::string &peer_name, const std::string &scheduler, const std::string &plugin_file) {
    Peer p;
    p.name = peer_name;
    p.unavailable_reason = [](const WorkloadSpec &) { return std::string(); };
    p.set_threads = [](int threads) {
        // Halide reads HL_NUM_THREADS at its first parallel run; the parent sets it too.
        setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);
    };
    p.prepare = [scheduler, plugin_file](const Workload &w, const std::vector<Halide::Buffer<float>> &inputs,
                                         Halide::Buffer<float> &out, const BaselineParams &params) {
        load_plugin_once(plugin_file);
        Halide::Pipeline pipeline = w.pipeline();
        const Halide::Target target = Halide::get_host_target();
        const Halide::MachineParams machine(params.threads, params.cache_bytes, params.balance);
        PeerProgram program;
        const double t0 = now_seconds();
        pipeline.auto_schedule(scheduler, target, machine);
        program.schedule_seconds = now_seconds() - t0;
        pipeline.compile_jit(target);
        for (size_t i = 0; i < w.inputs.size(); i++) {
            Halide::ImageParam param = w.inputs[i];
            param.set(inputs[i]);
        }
        Halide::Buffer<float> output = out;  // shares out's storage
        program.run = [pipeline, output]() mutable { pipeline.realize(output); };
        program.detail = scheduler;
        for (const char *var : {"HL_BEAM_SIZE", "HL_NUM_PASSES", "HL_RANDOM_DROPOUT", "HL_SEED"})
            if (const char *value = getenv(var)) program.detail += std::string(" ") + var + "=" + value;
        return program;
    };
    return p;
}

}  // namespace

const Peer &adams2019_peer() {
    static const Peer p = autoscheduler_peer("adams2019", "Adams2019", "libautoschedule_adams2019.so");
    return p;
}

const Peer &mullapudi2016_peer() {
    static const Peer p = autoscheduler_peer("mullapudi2016", "Mullapudi2016", "libautoschedule_mullapudi2016.so");
    return p;
}

const Peer &li2018_peer() {
    static const Peer p = autoscheduler_peer("li2018", "Li2018", "libautoschedule_li2018.so");
    return p;
}

}  // namespace worldtune
