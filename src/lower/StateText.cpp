#include "lower/StateText.h"

#include "schedule/Apply.h"
#include "workload/Workload.h"

#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

namespace worldtune {

using namespace Halide;

Target text_target() {
    return get_host_target().with_feature(Target::NoAsserts).with_feature(Target::NoBoundsQuery);
}

namespace {

/// A lowering pass that changes nothing and keeps the text of the whole statement, as it stands after
/// every other pass but before parallel loops are outlined into closures.
class StmtCapture : public Internal::IRMutator {
public:
    Internal::Stmt stmt;
    using Internal::IRMutator::mutate;
    Internal::Stmt mutate(const Internal::Stmt &s) override {
        stmt = s;
        return s;
    }
};

/// Halide prints its warnings (e.g. a half-scheduled Func) to std::cerr; a state's text does not need them.
/// Thread-safe: std::cerr is silenced once while any thread lowers (swapping its buffer per call from
/// several threads would race), into a sink without state that threads may write to at once.
class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char *, std::streamsize n) override { return n; }
};

class SilenceStderr {
public:
    SilenceStderr() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (users_++ == 0) saved_ = std::cerr.rdbuf(&sink_);
    }
    ~SilenceStderr() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--users_ == 0) std::cerr.rdbuf(saved_);
    }

private:
    static inline std::mutex mutex_;
    static inline int users_ = 0;
    static inline NullBuffer sink_;
    static inline std::streambuf *saved_ = nullptr;
};

/// Halide names the temporaries of common-subexpression elimination t<N> from one process-wide counter, and
/// its simplifier orders some operands by name: "t8" and "t11" compare differently from "t108" and "t111",
/// so the text of a state could depend on what the process lowered before. Keeping the counter inside one
/// band of equal-length numbers (at least 10^6, never crossing a power of ten during a lowering) makes the
/// order follow creation order only, which is the same in every process.
void keep_temporaries_in_band() {
    constexpr int64_t kFloor = 1000000;
    constexpr int64_t kMargin = 200000;  // far more temporaries than one lowering creates
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    auto next = [] { return std::stoll(Internal::unique_name('t').substr(1)); };
    int64_t n = next();
    int64_t band = kFloor;
    while (band * 10 <= n) band *= 10;
    const int64_t target = n < kFloor ? kFloor : (n + kMargin >= band * 10 ? band * 10 : n);
    while (n < target) n = next();
}

Internal::Stmt lower_workload(Workload &w) {
    keep_temporaries_in_band();
    StmtCapture capture;
    Pipeline p = w.pipeline();
    p.add_custom_lowering_pass(&capture, nullptr);
    SilenceStderr quiet;
    p.compile_to_module(w.arguments(), "state", text_target());
    return capture.stmt;
}

/// Whether a lowered pipeline still produces anything: Halide replaces the whole body with `unreachable()`
/// when it proves that the schedule reads outside an input (a producer computed over a region its
/// consumers' guards would have kept in bounds).
class ProducesSomething : public Internal::IRVisitor {
public:
    bool found = false;

private:
    using IRVisitor::visit;
    void visit(const Internal::ProducerConsumer *) override { found = true; }
};

Internal::Stmt lower_prefix_stmt(const WorkloadSpec &spec, const ActionList &actions, size_t prefix) {
    std::unique_ptr<Workload> w = build_workload(spec);
    apply_actions(*w, ActionList(actions.begin(), actions.begin() + prefix));
    Internal::Stmt stmt = lower_workload(*w);
    ProducesSomething check;
    stmt.accept(&check);
    if (!check.found) throw ScheduleError(-1, "the schedule lowers to unreachable code (Halide proved a read outside an input)");
    return stmt;
}

std::string lower_prefix(const WorkloadSpec &spec, const ActionList &actions, size_t prefix) {
    std::ostringstream text;
    text << lower_prefix_stmt(spec, actions, prefix);
    return text.str();
}

/// Lowers; a Halide error at lowering time becomes a ScheduleError without an index.
std::string lower_or_throw(const WorkloadSpec &spec, const ActionList &actions, size_t prefix) {
    try {
        return lower_prefix(spec, actions, prefix);
    } catch (const ScheduleError &) {
        throw;
    } catch (const Halide::Error &e) {
        throw ScheduleError(-1, e.what());
    }
}

bool is_boilerplate(const std::string &line) {
    if (line.rfind("assert(", 0) == 0) return true;
    return line.find("_halide_buffer_get_") != std::string::npos;
}

}  // namespace

std::string canonicalize_stmt(const std::string &raw) {
    // Drop top-level argument unpacking (zero indentation) and asserts.
    std::istringstream in(raw);
    std::string line, kept;
    while (std::getline(in, line))
        if (!is_boilerplate(line)) kept += line + "\n";

    // Halide makes every Func name unique in the process ("acc", then "acc$1", ...): drop the counters.
    // Some derived names print the counter with '$' made '_' ("out_21.s0.x.x_1.epilogue"): a Func name
    // (worldtune's never end in digits) followed by _N and a stage ".sK.".
    static const std::regex counter(R"(\$\d+)");
    static const std::regex printed_counter(R"(\b([A-Za-z][A-Za-z0-9_]*[A-Za-z])_\d+(\.s\d+\.))");
    kept = std::regex_replace(kept, counter, "");
    kept = std::regex_replace(kept, printed_counter, "$1$2");
    // Temporaries: t123 -> t0, t1, ... in order of first appearance.
    static const std::regex temp(R"(\bt\d+\b)");
    std::map<std::string, std::string> temps;
    std::string out;
    size_t last = 0;
    for (auto it = std::sregex_iterator(kept.begin(), kept.end(), temp); it != std::sregex_iterator(); ++it) {
        out.append(kept, last, it->position() - last);
        auto found = temps.find(it->str());
        if (found == temps.end()) found = temps.emplace(it->str(), "t" + std::to_string(temps.size())).first;
        out += found->second;
        last = it->position() + it->length();
    }
    out.append(kept, last, std::string::npos);
    return out;
}

std::string state_text(const WorkloadSpec &spec, const ActionList &actions, int prefix) {
    size_t n = prefix < 0 ? actions.size() : std::min<size_t>(prefix, actions.size());
    try {
        return canonicalize_stmt(lower_or_throw(spec, actions, n));
    } catch (const ScheduleError &e) {
        if (e.action_index >= 0) throw;
        // Find the first prefix that fails to lower, to name the action responsible.
        size_t lo = 0, hi = n;  // prefix lo lowers (s_0 does), prefix hi fails
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            try {
                lower_prefix(spec, actions, mid);
                lo = mid;
            } catch (const std::exception &) {
                hi = mid;
            }
        }
        throw ScheduleError(n == 0 ? -1 : int(hi) - 1, e.halide_message);
    }
}

Internal::Stmt state_stmt(const WorkloadSpec &spec, const ActionList &actions) {
    try {
        return lower_prefix_stmt(spec, actions, actions.size());
    } catch (const ScheduleError &) {
        throw;
    } catch (const Halide::Error &e) {
        throw ScheduleError(-1, e.what());
    }
}

std::vector<std::string> trajectory_texts(const WorkloadSpec &spec, const ActionList &actions) {
    std::vector<std::string> texts;
    for (size_t t = 0; t <= actions.size(); t++) texts.push_back(state_text(spec, actions, int(t)));
    return texts;
}

void validate_actions(const WorkloadSpec &spec, const ActionList &actions) { state_text(spec, actions, -1); }

}  // namespace worldtune
