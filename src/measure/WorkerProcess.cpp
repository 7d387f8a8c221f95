#include "measure/WorkerProcess.h"

#include "measure/Timing.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

extern char **environ;

namespace worldtune {

namespace {

constexpr size_t kStderrTailBytes = 4096;
constexpr int kWorkerProtocolFd = 3;

/// A close-on-exec duplicate of `fd` numbered above the descriptors the child's dup2 targets (0..3), so
/// that dup2 never degenerates into a no-op that keeps close-on-exec set.
int high_fd(int fd) {
    const int dup = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    close(fd);
    return dup;
}

std::string errno_text(const char *what) { return std::string(what) + ": " + std::strerror(errno); }

std::string last_line(const std::string &text) {
    size_t end = text.find_last_not_of("\n\r ");
    if (end == std::string::npos) return "";
    size_t begin = text.rfind('\n', end);
    begin = begin == std::string::npos ? 0 : begin + 1;
    return text.substr(begin, end - begin + 1);
}

}  // namespace

std::string WorkerProcess::self_binary() {
    char path[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return "/proc/self/exe";
    return std::string(path, size_t(n));
}

WorkerProcess::WorkerProcess(const std::string &binary, int threads, double startup_timeout_s) {
    int socks[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, socks) != 0) throw MeasureError(errno_text("socketpair"));
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
        close(socks[0]);
        close(socks[1]);
        throw MeasureError(errno_text("pipe"));
    }
    sock_ = socks[0];
    err_ = pipe_fds[0];
    const int child_sock = high_fd(socks[1]);
    const int child_err = high_fd(pipe_fds[1]);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, child_err, 1);
    posix_spawn_file_actions_adddup2(&actions, child_err, 2);
    posix_spawn_file_actions_adddup2(&actions, child_sock, kWorkerProtocolFd);

    // The environment as it is, with Halide's thread count: read once, at the worker's first parallel run.
    std::vector<std::string> env_strings;
    for (char **e = environ; e && *e; e++)
        if (std::strncmp(*e, "HL_NUM_THREADS=", 15) != 0) env_strings.push_back(*e);
    env_strings.push_back("HL_NUM_THREADS=" + std::to_string(threads));
    std::vector<char *> envp;
    for (std::string &s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string arg0 = binary, arg1 = "__worker", arg2 = "--fd", arg3 = std::to_string(kWorkerProtocolFd);
    char *argv[] = {arg0.data(), arg1.data(), arg2.data(), arg3.data(), nullptr};

    const int rc = posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(child_sock);
    close(child_err);
    if (rc != 0) {
        close(sock_);
        close(err_);
        sock_ = err_ = -1;
        pid_ = -1;
        throw MeasureError("cannot start worker '" + binary + "': " + std::strerror(rc));
    }

    std::string hello;
    const ReadKind kind = read_line(now_seconds() + startup_timeout_s, hello);
    std::string problem;
    if (kind == ReadKind::Timeout) {
        kill_now();
        problem = "no hello within " + std::to_string(int(startup_timeout_s)) + " s";
    } else if (kind == ReadKind::Exited) {
        problem = reap_and_describe();
    } else {
        try {
            const nlohmann::json j = nlohmann::json::parse(hello);
            if (j.at("hello").get<std::string>() == "worldtune-worker" && j.at("protocol").get<int>() == kWorkerProtocolVersion)
                return;
            problem = "unexpected hello '" + hello + "'";
        } catch (const std::exception &) {
            problem = "unexpected first line '" + hello + "'";
        }
        kill_now();
    }
    const std::string tail = last_line(stderr_tail_);
    close(sock_);
    close(err_);
    sock_ = err_ = -1;
    throw MeasureError("worker '" + binary + "' did not start: " + problem +
                       (tail.empty() || problem.find(tail) != std::string::npos ? "" : " (stderr: " + tail + ")"));
}

WorkerProcess::~WorkerProcess() {
    if (sock_ >= 0) close(sock_);
    sock_ = -1;
    if (pid_ > 0 && !reaped_ && !wait_exit(0.5)) kill_now();
    if (err_ >= 0) close(err_);
}

bool WorkerProcess::send_line(const std::string &line) {
    return sock_ >= 0 && !reaped_ && write_all(sock_, line + "\n");
}

WorkerProcess::ReadKind WorkerProcess::read_line(double deadline_s, std::string &line) {
    if (lines_.next_line(line)) return ReadKind::Line;
    if (sock_ < 0 || reaped_) return ReadKind::Exited;
    char chunk[65536];
    for (;;) {
        const double left = deadline_s - now_seconds();
        if (left <= 0) return ReadKind::Timeout;
        pollfd fds[2] = {{sock_, POLLIN, 0}, {err_, POLLIN, 0}};
        const int n = poll(fds, err_ >= 0 ? 2 : 1, int(std::ceil(std::min(left, 3600.0) * 1000)));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return ReadKind::Exited;
        if (err_ >= 0 && fds[1].revents) drain_stderr();
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t got = read(sock_, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) return ReadKind::Exited;
            lines_.feed(chunk, size_t(got));
            if (lines_.next_line(line)) return ReadKind::Line;
        }
    }
}

bool WorkerProcess::drain_stderr() {
    char chunk[4096];
    const ssize_t got = read(err_, chunk, sizeof chunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) return true;
    if (got <= 0) {
        close(err_);
        err_ = -1;
        return false;
    }
    stderr_tail_.append(chunk, size_t(got));
    if (stderr_tail_.size() > kStderrTailBytes) stderr_tail_.erase(0, stderr_tail_.size() - kStderrTailBytes);
    return true;
}

bool WorkerProcess::wait_exit(double seconds) {
    if (reaped_ || pid_ <= 0) return true;
    const double deadline = now_seconds() + seconds;
    for (;;) {
        const pid_t r = waitpid(pid_, &status_, WNOHANG);
        if (r == pid_ || (r < 0 && errno == ECHILD)) {
            reaped_ = true;
            return true;
        }
        if (now_seconds() >= deadline) return false;
        usleep(2000);
    }
}

void WorkerProcess::kill_now() {
    if (pid_ <= 0 || reaped_) return;
    ::kill(pid_, SIGKILL);
    while (waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
}

std::string WorkerProcess::reap_and_describe() {
    // The socket closed: the worker is dying. Give it a moment, then make sure.
    if (!wait_exit(2.0)) kill_now();
    // Whatever it wrote last (an abort message, Halide's error) is already in the pipe.
    while (err_ >= 0) {
        pollfd fd = {err_, POLLIN, 0};
        if (poll(&fd, 1, 100) <= 0 || !drain_stderr()) break;
    }
    std::string text;
    if (WIFSIGNALED(status_))
        text = "worker killed by signal " + std::to_string(WTERMSIG(status_)) + " (" + strsignal(WTERMSIG(status_)) + ")";
    else if (WIFEXITED(status_))
        text = "worker exited with code " + std::to_string(WEXITSTATUS(status_));
    else
        text = "worker ended";
    const std::string tail = last_line(stderr_tail_);
    if (!tail.empty()) text += "; last stderr line: " + tail;
    return text;
}

}  // namespace worldtune
