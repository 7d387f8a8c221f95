// Running one peer in a child process: thread counts in its environment, a timeout, its JSON line back.
#include "baseline/Baseline.h"

#include "baseline/Peer.h"
#include "measure/Timing.h"
#include "measure/WorkerProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

extern char **environ;

namespace worldtune {

namespace {

struct ChildOutcome {
    bool started = false;
    bool timed_out = false;
    int exit_code = -1;  ///< when it exited
    int signal = 0;      ///< when a signal ended it
    std::string out, err;
};

constexpr size_t kMaxCapture = 1 << 20;

/// Runs `argv` with `env` until it exits or `timeout_s` passes (then SIGKILL), capturing stdout and stderr.
ChildOutcome run_child(const std::vector<std::string> &argv, const std::vector<std::string> &env, double timeout_s) {
    ChildOutcome outcome;
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0) return outcome;
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        return outcome;
    }
    // Everything execve needs is built before fork: the child only calls async-signal-safe functions.
    std::vector<char *> c_argv, c_env;
    for (const std::string &a : argv) c_argv.push_back(const_cast<char *>(a.c_str()));
    c_argv.push_back(nullptr);
    for (const std::string &e : env) c_env.push_back(const_cast<char *>(e.c_str()));
    c_env.push_back(nullptr);
    const pid_t parent = getpid();

    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the parent
        if (getppid() != parent) _exit(126);
        dup2(out_pipe[1], STDOUT_FILENO);
        dup2(err_pipe[1], STDERR_FILENO);
        execve(c_argv[0], c_argv.data(), c_env.data());
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (pid < 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        return outcome;
    }
    outcome.started = true;

    const double deadline = now_seconds() + timeout_s;
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string *sinks[2] = {&outcome.out, &outcome.err};
    int open_fds = 2;
    char chunk[65536];
    while (open_fds > 0) {
        const double left = deadline - now_seconds();
        if (left <= 0) {
            outcome.timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        int ready = poll(fds, 2, int(std::min(left, 1.0) * 1000) + 1);
        if (ready < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, chunk, sizeof(chunk));
            if (n > 0) {
                sinks[i]->append(chunk, size_t(n));
                if (sinks[i]->size() > kMaxCapture) sinks[i]->erase(0, sinks[i]->size() - kMaxCapture);
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (pollfd &p : fds)
        if (p.fd >= 0) close(p.fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
    return outcome;
}

/// This process's environment with the thread-count variables set to `threads`, plus the peer's own
/// entries for keys this environment does not set.
std::vector<std::string> child_environment(int threads, const std::vector<std::string> &peer_entries) {
    const std::vector<std::string> thread_vars = {"HL_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"};
    auto key_of = [](const std::string &entry) { return entry.substr(0, entry.find('=')); };
    std::vector<std::string> env, keys;
    for (char **e = environ; *e; e++) {
        const std::string entry(*e), key = key_of(entry);
        keys.push_back(key);
        if (std::find(thread_vars.begin(), thread_vars.end(), key) == thread_vars.end()) env.push_back(entry);
    }
    for (const std::string &v : thread_vars) env.push_back(v + "=" + std::to_string(threads));
    for (const std::string &entry : peer_entries)
        if (std::find(keys.begin(), keys.end(), key_of(entry)) == keys.end()) env.push_back(entry);
    return env;
}

std::string last_line(const std::string &text) {
    size_t end = text.find_last_not_of("\r\n");
    if (end == std::string::npos) return "";
    size_t begin = text.find_last_of('\n', end);
    begin = begin == std::string::npos ? 0 : begin + 1;
    return text.substr(begin, end - begin + 1);
}

}  // namespace

std::string current_executable() { return WorkerProcess::self_binary(); }

BaselineResult run_baseline_subprocess(const std::string &worker_binary, const std::string &name,
                                       const WorkloadSpec &spec, const BaselineParams &params) {
    BaselineResult r;
    r.name = name;
    r.spec = spec.canonical();
    r.threads = params.threads;
    r.unavailable_reason = baseline_unavailable_reason(name, spec);
    if (!r.unavailable_reason.empty()) return r;
    r.available = true;

    std::vector<std::string> argv = {worker_binary};
    for (const std::string &a : baseline_worker_args(name, spec, params)) argv.push_back(a);
    const Peer *peer = find_peer(name);
    const std::vector<std::string> peer_env = peer->environment ? peer->environment(spec) : std::vector<std::string>{};
    ChildOutcome child = run_child(argv, child_environment(params.threads, peer_env), params.timeout_seconds);
    if (!child.started) {
        r.error = "cannot start worker " + worker_binary + ": " + std::strerror(errno);
        return r;
    }
    // The worker prints exactly one JSON line on stdout (libraries' chatter goes to stderr). Once printed,
    // the result stands even if the process then fails to exit cleanly.
    std::istringstream lines(child.out);
    std::string line, json_line;
    while (std::getline(lines, line))
        if (!line.empty() && line[0] == '{') json_line = line;
    if (!json_line.empty()) {
        try {
            return baseline_result_from_json(nlohmann::json::parse(json_line));
        } catch (const nlohmann::json::exception &e) {
            r.error = std::string("unreadable worker output: ") + e.what();
            return r;
        }
    }
    if (child.timed_out) {
        std::ostringstream msg;
        msg << "timed out after " << params.timeout_seconds << " s";
        r.error = msg.str();
        return r;
    }
    std::ostringstream msg;
    if (child.exit_code == 127 && child.out.empty() && child.err.empty()) {
        r.error = "cannot execute worker " + worker_binary;
        return r;
    }
    if (child.signal) msg << "worker killed by signal " << child.signal << " (" << strsignal(child.signal) << ")";
    else msg << "worker exited with code " << child.exit_code;
    const std::string tail = last_line(child.err);
    if (!tail.empty()) msg << ": " << tail;
    r.error = msg.str();
    return r;
}

}  // namespace worldtune
