// One measuring worker process seen from the parent: spawn it, talk lines over a socket with deadlines,
// notice when it dies and say how, kill it. POSIX only (posix_spawn, poll, waitpid).
#pragma once

#include "measure/WorkerProtocol.h"

#include <sys/types.h>

#include <string>

namespace worldtune {

class WorkerProcess {
public:
    /// Spawns `binary __worker --fd 3` with HL_NUM_THREADS=`threads` and waits up to `startup_timeout_s`
    /// for its hello line. Throws MeasureError when it cannot be started or does not say hello.
    WorkerProcess(const std::string &binary, int threads, double startup_timeout_s);
    /// Closes the socket (the worker exits at end of input); kills it if it lingers.
    ~WorkerProcess();
    WorkerProcess(const WorkerProcess &) = delete;
    WorkerProcess &operator=(const WorkerProcess &) = delete;

    enum class ReadKind { Line, Timeout, Exited };

    /// Sends one line (a '\n' is appended). False when the worker is gone.
    bool send_line(const std::string &line);
    /// Waits until a line arrives, the monotonic clock (now_seconds) passes `deadline_s`, or the worker exits.
    ReadKind read_line(double deadline_s, std::string &line);
    /// SIGKILLs the worker and reaps it.
    void kill_now();
    /// After ReadKind::Exited (or a failed send): reaps the worker and says how it ended, e.g.
    /// "worker killed by signal 6 (Aborted)"; the last line it wrote to stderr is appended when there is one.
    std::string reap_and_describe();

    /// What the worker wrote to stderr since the last clear (the last few KB).
    const std::string &stderr_tail() const { return stderr_tail_; }
    void clear_stderr_tail() { stderr_tail_.clear(); }
    pid_t pid() const { return pid_; }

    /// The worldtune binary of this process (/proc/self/exe resolved).
    static std::string self_binary();

private:
    /// Reads what is available on the stderr pipe into the tail; false at end of stream.
    bool drain_stderr();
    /// Waits up to `seconds` for the worker to exit; true when reaped.
    bool wait_exit(double seconds);

    pid_t pid_ = -1;
    int sock_ = -1;  ///< our end of the request/reply socket
    int err_ = -1;   ///< read end of the worker's stdout+stderr
    int status_ = 0;
    bool reaped_ = false;
    LineBuffer lines_;
    std::string stderr_tail_;
};

}  // namespace worldtune
