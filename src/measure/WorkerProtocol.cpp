#include "measure/WorkerProtocol.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace worldtune {

using nlohmann::json;

json to_json(const TimingParams &p) {
    return {{"warmup_runs", p.warmup_runs},
            {"repeats", p.repeats},
            {"min_repeat_seconds", p.min_repeat_seconds},
            {"max_total_seconds", p.max_total_seconds}};
}

TimingParams timing_params_from_json(const json &j) {
    TimingParams p;
    p.warmup_runs = j.at("warmup_runs").get<int>();
    p.repeats = j.at("repeats").get<int>();
    p.min_repeat_seconds = j.at("min_repeat_seconds").get<double>();
    p.max_total_seconds = j.at("max_total_seconds").get<double>();
    return p;
}

json to_json(const TimingStats &s) {
    return {{"median_s", s.median_s}, {"min_s", s.min_s},       {"max_s", s.max_s},
            {"mean_s", s.mean_s},     {"stddev_s", s.stddev_s}, {"repeats", s.repeats},
            {"runs_per_repeat", s.runs_per_repeat}, {"samples_s", s.samples_s}};
}

TimingStats timing_stats_from_json(const json &j) {
    TimingStats s;
    s.median_s = j.at("median_s").get<double>();
    s.min_s = j.at("min_s").get<double>();
    s.max_s = j.at("max_s").get<double>();
    s.mean_s = j.at("mean_s").get<double>();
    s.stddev_s = j.at("stddev_s").get<double>();
    s.repeats = j.at("repeats").get<int>();
    s.runs_per_repeat = j.at("runs_per_repeat").get<int>();
    s.samples_s = j.at("samples_s").get<std::vector<double>>();
    return s;
}

json to_json(const WorkerRequest &r) {
    return {{"id", r.id},           {"candidate", r.candidate}, {"spec", r.spec},
            {"actions", r.actions}, {"timing", to_json(r.timing)}, {"check", r.check},
            {"rtol", r.rtol},       {"atol", r.atol},            {"seed", r.seed}};
}

WorkerRequest worker_request_from_json(const json &j) {
    WorkerRequest r;
    r.id = j.at("id").get<int64_t>();
    r.candidate = j.value("candidate", 0);
    r.spec = j.at("spec").get<std::string>();
    r.actions = j.at("actions");
    r.timing = timing_params_from_json(j.at("timing"));
    r.check = j.at("check").get<bool>();
    r.rtol = j.at("rtol").get<double>();
    r.atol = j.at("atol").get<double>();
    r.seed = j.at("seed").get<uint64_t>();
    return r;
}

json to_json(const WorkerReply &r) {
    return {{"id", r.id},
            {"error_kind", error_kind_name(r.error)},
            {"error_action", r.error_action},
            {"error_msg", r.error_msg},
            {"compile_s", r.compile_s},
            {"timing", to_json(r.timing)},
            {"target", r.target}};
}

WorkerReply worker_reply_from_json(const json &j) {
    WorkerReply r;
    r.id = j.at("id").get<int64_t>();
    r.error = error_kind_from_name(j.at("error_kind").get<std::string>());
    r.error_action = j.at("error_action").get<int>();
    r.error_msg = j.at("error_msg").get<std::string>();
    r.compile_s = j.at("compile_s").get<double>();
    r.timing = timing_stats_from_json(j.at("timing"));
    r.target = j.at("target").get<std::string>();
    return r;
}

bool write_all(int fd, const std::string &text) {
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK) n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

bool LineBuffer::next_line(std::string &line) {
    const size_t newline = buffer_.find('\n');
    if (newline == std::string::npos) return false;
    line = buffer_.substr(0, newline);
    buffer_.erase(0, newline + 1);
    return true;
}

}  // namespace worldtune
