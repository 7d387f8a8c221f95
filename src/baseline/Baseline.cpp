// The list of peers, running one in this process (inputs, timing, output check), and results as JSON.
#include "baseline/Baseline.h"

#include "baseline/Peer.h"
#include "measure/OutputCheck.h"
#include "measure/WorkerProtocol.h"
#include "schedule/Apply.h"
#include "workload/OpRegistry.h"


#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <thread>

namespace worldtune {

const std::vector<const Peer *> &all_peers() {
    static const std::vector<const Peer *> peers = {
        &adams2019_peer(), &mullapudi2016_peer(), &li2018_peer(), &openblas_peer(), &onednn_peer(), &libtorch_peer(),
    };
    return peers;
}

const Peer *find_peer(const std::string &name) {
    for (const Peer *p : all_peers())
        if (p->name == name) return p;
    return nullptr;
}

std::vector<std::string> baseline_names() {
    std::vector<std::string> names;
    for (const Peer *p : all_peers()) names.push_back(p->name);
    return names;
}

bool is_baseline_name(const std::string &name) { return find_peer(name) != nullptr; }

std::string baseline_unavailable_reason(const std::string &name, const WorkloadSpec &spec) {
    const Peer *peer = find_peer(name);
    if (!peer) throw SpecError("unknown baseline '" + name + "'");
    return peer->unavailable_reason(spec);
}

std::string no_routine_reason(const std::string &peer, const std::string &op) {
    return peer + " has no routine for " + op;
}

double max_relative_error(const Workload &w, const std::vector<Halide::Buffer<float>> &inputs,
                          const Halide::Buffer<float> &out, double rtol, double atol, uint64_t seed) {
    const double floor = atol * std::sqrt(double(reduction_length(w))) / rtol;
    double worst = 0;
    for (const std::vector<int> &c : check_points(w.output_shape, seed)) {
        const double got = out(c.data());
        if (!std::isfinite(got)) return std::numeric_limits<double>::infinity();
        const double ref = reference_at(w, inputs, c);
        worst = std::max(worst, std::abs(got - ref) / (std::abs(ref) + floor));
    }
    return worst;
}

void parallel_chunks(int64_t n, int threads, const std::function<void(int64_t, int64_t)> &body) {
    threads = int(std::max<int64_t>(1, std::min<int64_t>(threads, n)));
    if (threads == 1) {
        body(0, n);
        return;
    }
    std::vector<std::thread> helpers;
    const int64_t chunk = (n + threads - 1) / threads;
    for (int t = 1; t < threads; t++) {
        const int64_t begin = std::min(n, t * chunk), end = std::min(n, begin + chunk);
        helpers.emplace_back([&body, begin, end] { body(begin, end); });
    }
    body(0, std::min(n, chunk));
    for (std::thread &t : helpers) t.join();
}

BaselineResult run_baseline_in_process(const std::string &name, const WorkloadSpec &spec, const BaselineParams &params) {
    BaselineResult r;
    r.name = name;
    r.spec = spec.canonical();
    r.threads = params.threads;
    const Peer *peer = find_peer(name);
    if (!peer) {
        r.error = "unknown baseline '" + name + "'";
        return r;
    }
    r.unavailable_reason = peer->unavailable_reason(spec);
    if (!r.unavailable_reason.empty()) return r;
    r.available = true;
    try {
        use_timing_allocator();  // as worldtune's measuring worker
        peer->set_threads(params.threads);
        std::unique_ptr<Workload> w = build_workload(spec);
        std::vector<Halide::Buffer<float>> inputs = random_inputs(*w, params.seed);
        Halide::Buffer<float> out(w->output_shape);
        out.fill(std::numeric_limits<float>::quiet_NaN());  // a peer that writes nothing fails the check
        PeerProgram program = peer->prepare(*w, inputs, out, params);
        r.schedule_seconds = program.schedule_seconds;
        r.detail = program.detail;
        TimingParams timing = params.timing;
        timing.warmup_min_seconds = params.warmup_seconds;
        r.timing = time_callable(program.run, timing);
        if (program.finish) program.finish(out);
        if (r.timing.median_s > 0) r.gflops = w->flops / r.timing.median_s * 1e-9;
        r.max_rel_error = max_relative_error(*w, inputs, out, params.rtol, params.atol, params.seed);
        r.output_checked = true;
        r.check_passed = r.max_rel_error <= params.rtol;
        if (!r.check_passed) {
            CheckReport report = check_output(*w, inputs, out, params.rtol, params.atol, params.seed);
            r.error = "wrong output: " + (report.first_mismatch.empty() ? "non-finite value" : report.first_mismatch);
        }
    } catch (const Halide::Error &e) {
        r.error = "Halide error: " + one_line(e.what());
    } catch (const std::exception &e) {
        r.error = one_line(e.what());
    } catch (...) {
        r.error = "unknown exception";
    }
    return r;
}

nlohmann::json to_json(const BaselineResult &r) {
    // JSON has no infinity: a non-finite error is written as null.
    nlohmann::json max_rel_error = std::isfinite(r.max_rel_error) ? nlohmann::json(r.max_rel_error) : nlohmann::json();
    return {
        {"baseline", r.name},
        {"spec", r.spec},
        {"threads", r.threads},
        {"available", r.available},
        {"unavailable_reason", r.unavailable_reason},
        {"timing", to_json(r.timing)},
        {"gflops", r.gflops},
        {"schedule_s", r.schedule_seconds},
        {"detail", r.detail},
        {"error", r.error},
        {"output_checked", r.output_checked},
        {"max_rel_error", max_rel_error},
        {"check_passed", r.check_passed},
    };
}

BaselineResult baseline_result_from_json(const nlohmann::json &j) {
    BaselineResult r;
    r.name = j.at("baseline").get<std::string>();
    r.spec = j.at("spec").get<std::string>();
    r.threads = j.at("threads").get<int>();
    r.available = j.at("available").get<bool>();
    r.unavailable_reason = j.at("unavailable_reason").get<std::string>();
    r.timing = timing_stats_from_json(j.at("timing"));
    r.gflops = j.at("gflops").get<double>();
    r.schedule_seconds = j.at("schedule_s").get<double>();
    r.detail = j.at("detail").get<std::string>();
    r.error = j.at("error").get<std::string>();
    r.output_checked = j.at("output_checked").get<bool>();
    const nlohmann::json &e = j.at("max_rel_error");
    r.max_rel_error = e.is_null() ? std::numeric_limits<double>::infinity() : e.get<double>();
    r.check_passed = j.at("check_passed").get<bool>();
    return r;
}

std::vector<std::string> baseline_worker_args(const std::string &name, const WorkloadSpec &spec, const BaselineParams &p) {
    auto num = [](double v) {
        std::ostringstream s;
        s.precision(17);
        s << v;
        return s.str();
    };
    return {"__baseline_worker", name, spec.canonical(),
            "--threads", std::to_string(p.threads),
            "--warmup", std::to_string(p.timing.warmup_runs),
            "--warmup-time", num(p.warmup_seconds),
            "--repeats", std::to_string(p.timing.repeats),
            "--min-time", num(p.timing.min_repeat_seconds),
            "--max-time", num(p.timing.max_total_seconds),
            "--cache-bytes", std::to_string(p.cache_bytes),
            "--balance", num(p.balance),
            "--rtol", num(p.rtol),
            "--atol", num(p.atol),
            "--seed", std::to_string(p.seed)};
}

}  // namespace worldtune
