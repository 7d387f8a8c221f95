// The messages between a Measurer and its worker process: JSON Lines over a socket, one request line per
// candidate and one reply line back. After it starts (and has warmed up), the worker sends one hello line.
//
//   hello   {"hello":"worldtune-worker","protocol":1,"pid":123,"target":"x86-64-linux-..."}
//   request {"id":7,"candidate":0,"spec":"matmul:M=64,N=64,K=64","actions":[...],"timing":{...},
//            "check":true,"rtol":1e-3,"atol":1e-3,"seed":1}
//   reply   {"id":7,"error_kind":"none","error_action":-1,"error_msg":"","compile_s":0.12,
//            "timing":{...},"target":"x86-64-linux-..."}
#pragma once

#include "measure/Measurer.h"
#include "measure/Timing.h"

#include <nlohmann/json.hpp>

#include <string>

namespace worldtune {

constexpr int kWorkerProtocolVersion = 1;

struct WorkerRequest {
    int64_t id = 0;
    int candidate = 0;            ///< index in the caller's batch (used only by test fault injection)
    std::string spec;             ///< canonical spec text
    nlohmann::json actions = nlohmann::json::array();
    TimingParams timing;
    bool check = true;
    double rtol = 1e-3, atol = 1e-3;
    uint64_t seed = 1;
};

struct WorkerReply {
    int64_t id = 0;
    ErrorKind error = ErrorKind::None;
    int error_action = -1;
    std::string error_msg;
    double compile_s = 0;
    TimingStats timing;
    std::string target;
};

nlohmann::json to_json(const TimingParams &p);
TimingParams timing_params_from_json(const nlohmann::json &j);
nlohmann::json to_json(const TimingStats &s);
TimingStats timing_stats_from_json(const nlohmann::json &j);

nlohmann::json to_json(const WorkerRequest &r);
WorkerRequest worker_request_from_json(const nlohmann::json &j);  ///< throws nlohmann::json::exception
nlohmann::json to_json(const WorkerReply &r);
WorkerReply worker_reply_from_json(const nlohmann::json &j);      ///< throws nlohmann::json::exception

/// Writes all of `text` to `fd` (a socket: no SIGPIPE), retrying on EINTR. False when the peer is gone.
bool write_all(int fd, const std::string &text);

/// Splits bytes read from a descriptor into lines.
class LineBuffer {
public:
    void feed(const char *data, size_t n) { buffer_.append(data, n); }
    /// Takes the next complete line (without its '\n'); false when none is complete yet.
    bool next_line(std::string &line);

private:
    std::string buffer_;
};

}  // namespace worldtune
