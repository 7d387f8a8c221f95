// The farm over MPI (built when CMake finds MPI; farm/NoFarm.cpp otherwise). See farm/Farm.h.
#include "farm/Dispatcher.h"
#include "farm/Farm.h"
#include "measure/Hardware.h"
#include "measure/Timing.h"

#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace worldtune {

namespace {

struct Group {
    std::string name;
    nlohmann::json hardware;
    std::vector<int> ranks;
};

/// Where a measurer rank's process runs (its hello).
struct RankProcess {
    std::string host;
    int pid = 0;
};

/// Rank 0's view of the job.
struct Root {
    FarmParams params;
    std::vector<Group> groups;
    size_t selected = 0;
    std::unique_ptr<FarmTransport> transport;
    std::vector<std::unique_ptr<Dispatcher>> dispatchers;  ///< one per group, made when first used
    std::map<int, RankProcess> processes;                  ///< per measurer rank
};
Root *g_root = nullptr;
const char *const kSkipFinalize = "skip-finalize";  ///< Stop's text when a rank was lost
std::mutex g_mpi;  ///< measurer ranks call MPI from two threads (MPI_THREAD_SERIALIZED)

bool launched_by_mpirun(int argc, char **argv) {
    if (argc > 1 && std::string(argv[1]).rfind("__", 0) == 0) return false;  // worldtune's own worker processes
    return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}

void sleep_seconds(double s) { usleep(useconds_t(s * 1e6)); }

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "";
    return name;
}

/// Rank 0's wire: non-blocking sends whose buffers live until MPI has them, probes for any message.
class MpiTransport : public FarmTransport {
public:
    void send(int rank, FarmTag tag, const std::string &text) override {
        reap();
        sends_.push_back({text, MPI_REQUEST_NULL});
        auto &s = sends_.back();
        MPI_Isend(s.first.data(), int(s.first.size()), MPI_CHAR, rank, int(tag), MPI_COMM_WORLD, &s.second);
    }
    std::optional<FarmMessage> poll() override {
        reap();
        int flag = 0;
        MPI_Status status;
        if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status) != MPI_SUCCESS || !flag) return std::nullopt;
        int count = 0;
        MPI_Get_count(&status, MPI_CHAR, &count);
        FarmMessage m;
        m.rank = status.MPI_SOURCE;
        m.tag = FarmTag(status.MPI_TAG);
        m.text.resize(size_t(count));
        MPI_Recv(m.text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return m;
    }
    /// Waits up to `seconds` for the sends still in flight.
    void drain(double seconds) {
        const double end = now_seconds() + seconds;
        while (!sends_.empty() && now_seconds() < end) {
            reap();
            sleep_seconds(0.001);
        }
    }

private:
    void reap() {
        for (auto it = sends_.begin(); it != sends_.end();) {
            int done = 0;
            if (MPI_Test(&it->second, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done) it = sends_.erase(it);
            else ++it;
        }
    }
    std::list<std::pair<std::string, MPI_Request>> sends_;
};

/// Rank 0: every measurer's hello, within a minute; grouped by machine type. `processes` gets where each
/// rank runs.
std::vector<Group> gather_groups(int size, FarmTransport &transport, std::map<int, RankProcess> &processes) {
    std::vector<Group> groups;
    int heard = 0;
    const double end = now_seconds() + 60;
    while (heard < size - 1 && now_seconds() < end) {
        std::optional<FarmMessage> m = transport.poll();
        if (!m) {
            sleep_seconds(0.01);
            continue;
        }
        if (m->tag != FarmTag::Hello) continue;
        heard++;
        const nlohmann::json hello = nlohmann::json::parse(m->text);
        auto g = std::find_if(groups.begin(), groups.end(), [&](const Group &x) { return same_machine(x.hardware, hello.at("hardware")); });
        if (g == groups.end()) g = groups.insert(groups.end(), {hardware_group_of(hello), hello.at("hardware"), {}});
        g->ranks.push_back(m->rank);
        processes[m->rank] = {hello.value("host", ""), hello.value("pid", 0)};
    }
    if (heard < size - 1)
        std::cerr << "worldtune: " << (size - 1 - heard) << " measurer ranks did not say hello within 60 s; going on without them\n";
    // Hellos arrive in any order; rank order keeps the groups, their listing and the hand-out order stable.
    for (Group &g : groups) std::sort(g.ranks.begin(), g.ranks.end());
    std::sort(groups.begin(), groups.end(), [](const Group &a, const Group &b) { return a.ranks.front() < b.ranks.front(); });
    return groups;
}

/// A fault a test asks this rank for: WORLDTUNE_TEST_FARM_KILL="RANK@TASK" dies (SIGKILL) at its TASK-th
/// task (1-based), "RANK@TASK:stop" hangs there (SIGSTOP: alive, silent, never answering).
struct TestFault {
    int task = 0;  ///< 0: none
    int signal = SIGKILL;
};

TestFault test_fault(int rank) {
    const char *env = std::getenv("WORLDTUNE_TEST_FARM_KILL");
    if (!env) return {};
    const std::string s = env;
    const size_t at = s.find('@');
    if (at == std::string::npos || std::atoi(s.substr(0, at).c_str()) != rank) return {};
    return {std::atoi(s.c_str() + at + 1), s.find(":stop") != std::string::npos ? SIGSTOP : SIGKILL};
}

/// Rank 0, at the end: a lost measurer that is still alive on this host (hung, or stopped) would keep
/// mpirun waiting, and not even MPI_Abort ends it under --enable-recovery; rank 0 ends it. Lost ranks on
/// other hosts are left to mpirun (named in the log).
void end_lost_ranks(const Root &root) {
    const std::string here = host_name();
    for (const auto &d : root.dispatchers) {
        if (!d) continue;
        for (int rank : d->lost()) {
            const auto p = root.processes.find(rank);
            if (p == root.processes.end() || p->second.pid <= 0 || here.empty() || p->second.host != here) {
                std::cerr << "worldtune: lost measurer rank " << rank << " does not run on this host (or never said where); end it there if it still runs\n";
                continue;
            }
            if (kill(p->second.pid, SIGKILL) == 0)
                std::cerr << "worldtune: ended lost measurer rank " << rank << " (pid " << p->second.pid << ")\n";
        }
    }
}

/// Rank 0, at the end: how busy a group's measurers were (docs/scale.md reads this line).
void report_use(size_t group, const FarmUse &use) {
    if (use.results == 0) return;
    char line[256];
    std::snprintf(line, sizeof line, "worldtune: farm group %zu: %lld results in %.1f s; %d measurers idle %.1f%% of that time\n",
                  group, (long long)use.results, use.span_seconds, use.measurers, 100.0 * use.idle_share());
    std::cerr << line;
}

void send_locked(const std::string &text, FarmTag tag) {
    std::lock_guard<std::mutex> lock(g_mpi);
    MPI_Send(text.data(), int(text.size()), MPI_CHAR, 0, int(tag), MPI_COMM_WORLD);
}

/// Measurer ranks: one message from rank 0 if there is one.
std::optional<FarmMessage> receive_locked() {
    std::lock_guard<std::mutex> lock(g_mpi);
    int flag = 0;
    MPI_Status status;
    if (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status) != MPI_SUCCESS || !flag) return std::nullopt;
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    FarmMessage m;
    m.tag = FarmTag(status.MPI_TAG);
    m.text.resize(size_t(count));
    MPI_Recv(m.text.data(), count, MPI_CHAR, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return m;
}

class FarmMeasurer : public CandidateMeasurer {
public:
    FarmMeasurer(Dispatcher &dispatcher, MeasureParams params) : dispatcher_(dispatcher), params_(std::move(params)) {}
    void measure_batch(const WorkloadSpec &spec, const std::vector<ActionList> &candidates,
                       const std::function<void(size_t, MeasureResult)> &on_result) override {
        const std::vector<size_t> left = dispatcher_.run(spec, candidates, params_, on_result,
                                                         [](const std::string &line) { std::cerr << "worldtune: " << line << "\n"; });
        if (left.empty()) return;
        // Concurrent searches share this fallback: one local worker, one candidate at a time.
        std::lock_guard<std::mutex> lock(local_mutex_);
        if (!local_) {
            std::cerr << "worldtune: no measurer rank left; rank 0 measures the rest itself\n";
            local_ = std::make_unique<Measurer>(params_);
        }
        for (size_t i : left) on_result(i, local_->measure_one(spec, candidates[i]));
    }

private:
    Dispatcher &dispatcher_;
    MeasureParams params_;
    std::mutex local_mutex_;
    std::unique_ptr<Measurer> local_;
};

}  // namespace

FarmSession::FarmSession(int &argc, char **&argv, FarmParams params) : params_(params) {
    if (!launched_by_mpirun(argc, argv)) return;
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) return;
    joined_ = true;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank_ != 0 || size < 2) return;
    g_root = new Root;
    g_root->params = params_;
    g_root->transport = std::make_unique<MpiTransport>();
    g_root->groups = gather_groups(size, *g_root->transport, g_root->processes);
    for (size_t i = 0; i < g_root->groups.size(); i++)
        if (same_machine(g_root->groups[i].hardware, hardware_json())) g_root->selected = i;
    g_root->dispatchers.resize(g_root->groups.size());
}

FarmSession::~FarmSession() {
    if (!joined_) return;
    bool lost = false;  // MPI_Finalize waits for every rank, a dead one included: then nobody calls it
    if (g_root) {
        for (size_t i = 0; i < g_root->dispatchers.size(); i++)
            if (g_root->dispatchers[i]) report_use(i, g_root->dispatchers[i]->use());
        for (const auto &d : g_root->dispatchers) lost = lost || (d && !d->lost().empty());
        for (const Group &g : g_root->groups)
            for (int rank : g.ranks) g_root->transport->send(rank, FarmTag::Stop, lost ? kSkipFinalize : "");
        static_cast<MpiTransport &>(*g_root->transport).drain(5);
        if (lost) end_lost_ranks(*g_root);
        delete g_root;
        g_root = nullptr;
    }
    if (!lost && !skip_finalize_) MPI_Finalize();
}

int FarmSession::serve() {
    send_locked(nlohmann::json{{"hardware", hardware_json()}, {"host", host_name()}, {"pid", int(getpid())}}.dump(), FarmTag::Hello);
    std::atomic<bool> stop{false};
    std::thread heartbeat([&] {
        while (!stop) {
            sleep_seconds(params_.heartbeat_seconds);
            if (!stop) send_locked("", FarmTag::Heartbeat);
        }
    });
    const TestFault fault = test_fault(rank_);
    int tasks = 0;
    std::unique_ptr<Measurer> measurer;
    std::string measurer_params;
    double last_from_root = now_seconds();
    while (true) {
        std::optional<FarmMessage> m = receive_locked();
        if (!m) {
            if (now_seconds() - last_from_root > params_.orphan_seconds) break;
            sleep_seconds(params_.poll_seconds);
            continue;
        }
        last_from_root = now_seconds();
        if (m->tag == FarmTag::Stop) {
            skip_finalize_ = m->text == kSkipFinalize;
            break;
        }
        if (m->tag != FarmTag::Task) continue;
        if (++tasks == fault.task) raise(fault.signal);
        try {
            const FarmTask task = farm_task_from_text(m->text);
            const std::string params_text = measure_params_to_json(task.params).dump();
            if (!measurer || params_text != measurer_params) {
                measurer = std::make_unique<Measurer>(task.params);
                measurer_params = params_text;
            }
            const MeasureResult r = measurer->measure_one(WorkloadSpec::parse(task.spec), actions_from_json(task.actions));
            send_locked(farm_result_text(task.id, r), FarmTag::Result);
        } catch (const std::exception &e) {
            std::cerr << "worldtune measurer rank " << rank_ << ": bad task: " << e.what() << "\n";
        }
    }
    stop = true;
    heartbeat.join();
    return 0;
}

bool farm_active() { return g_root && !g_root->groups.empty(); }

std::vector<std::string> farm_groups() {
    std::vector<std::string> lines;
    if (!g_root) return lines;
    for (size_t i = 0; i < g_root->groups.size(); i++) {
        std::string line = "group " + std::to_string(i) + (i == g_root->selected ? " (measures)" : "") + ": " +
                           g_root->groups[i].name + ": ranks";
        for (int r : g_root->groups[i].ranks) line += " " + std::to_string(r);
        lines.push_back(line);
    }
    return lines;
}

void farm_select_hardware(const std::string &name_part) {
    if (name_part.empty()) return;
    if (!g_root) throw std::invalid_argument("--hardware needs measurer ranks: start worldtune with mpirun -np N (N >= 2)");
    std::string names;
    for (size_t i = 0; i < g_root->groups.size(); i++) {
        if (g_root->groups[i].name.find(name_part) != std::string::npos) {
            g_root->selected = i;
            return;
        }
        names += (names.empty() ? "" : "; ") + g_root->groups[i].name;
    }
    throw std::invalid_argument("no measurer group's hardware matches '" + name_part + "' (groups: " + names + ")");
}

size_t farm_group_count() { return g_root ? g_root->groups.size() : 0; }

int farm_concurrent_searches(int batch) {
    if (!farm_active()) return 1;
    const size_t measurers = g_root->groups[g_root->selected].ranks.size();
    const size_t per_batch = size_t(std::max(1, batch));
    return 1 + int((measurers * size_t(std::max(1, g_root->params.queue_depth)) + per_batch - 1) / per_batch);
}

nlohmann::json farm_select_group(size_t i) {
    g_root->selected = i;
    return g_root->groups.at(i).hardware;
}

std::unique_ptr<CandidateMeasurer> make_measurer(const MeasureParams &params) {
    if (!farm_active()) return std::make_unique<LocalMeasurer>(params);
    std::unique_ptr<Dispatcher> &d = g_root->dispatchers[g_root->selected];
    if (!d)
        d = std::make_unique<Dispatcher>(*g_root->transport, g_root->groups[g_root->selected].ranks, g_root->params,
                                         [] { return now_seconds(); }, [](double s) { sleep_seconds(s); });
    return std::make_unique<FarmMeasurer>(*d, params);
}

}  // namespace worldtune
