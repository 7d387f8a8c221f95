// Counting a dataset's contents; token counts come from regenerated state texts.
#include "dataset/DatasetStats.h"

#include "lower/StateText.h"
#include "schedule/Action.h"
#include "workload/Spec.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace worldtune {

namespace {

int64_t count_tokens(const std::string &text) {
    std::istringstream in(text);
    std::string token;
    int64_t n = 0;
    while (in >> token) n++;
    return n;
}

std::string spread_line(const Spread &s, int digits) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "min %.*f, median %.*f, max %.*f, mean %.*f (n=%lld)", digits, s.min, digits, s.median,
                  digits, s.max, digits, s.mean, (long long)s.count);
    return buf;
}

}  // namespace

Spread Spread::of(std::vector<double> values) {
    Spread s;
    s.count = int64_t(values.size());
    if (values.empty()) return s;
    s.min = *std::min_element(values.begin(), values.end());
    s.max = *std::max_element(values.begin(), values.end());
    double sum = 0;
    for (double v : values) sum += v;
    s.mean = sum / double(values.size());
    s.median = median_of(std::move(values));
    return s;
}

DatasetStats dataset_stats(const Dataset &dataset, int token_sample) {
    DatasetStats s;
    std::vector<double> lengths, ratios;
    std::vector<std::pair<const DatasetWorkload *, const DatasetTrajectory *>> lowerable;
    for (const DatasetWorkload &w : dataset.workloads) {
        s.workloads++;
        s.workloads_per_op[w.spec.substr(0, w.spec.find(':'))]++;
        s.workloads_per_split[split_name(w.split)]++;
        std::vector<double> latencies;
        for (const DatasetTrajectory &t : w.trajectories) {
            s.trajectories++;
            s.trajectories_per_split[split_name(w.split)]++;
            s.errors[error_kind_name(t.error)]++;
            lengths.push_back(double(t.length()));
            if (t.error == ErrorKind::None && t.latency_s > 0) latencies.push_back(t.latency_s);
            if (t.error != ErrorKind::Schedule) lowerable.emplace_back(&w, &t);
        }
        if (latencies.size() >= 2)
            ratios.push_back(*std::min_element(latencies.begin(), latencies.end()) / median_of(latencies));
    }
    s.length = Spread::of(lengths);
    s.best_over_median = Spread::of(ratios);

    std::vector<double> tokens;
    const size_t n = lowerable.size();
    const size_t take = token_sample < 0 ? n : std::min(n, size_t(token_sample));
    for (size_t j = 0; j < take; j++) {
        const auto &[w, t] = lowerable[j * n / take];
        try {
            tokens.push_back(double(count_tokens(state_text(WorkloadSpec::parse(w->spec), actions_from_json(t->actions)))));
        } catch (const std::exception &) {
            s.token_states_failed++;
        }
    }
    s.tokens = Spread::of(tokens);
    return s;
}

std::string format_stats(const DatasetStats &s) {
    std::ostringstream out;
    out << "workloads: " << s.workloads << "\n";
    out << "  per op:";
    for (const auto &[op, n] : s.workloads_per_op) out << " " << op << " " << n;
    out << "\n  per split:";
    for (const char *split : {"train", "val", "test"}) {
        const auto it = s.workloads_per_split.find(split);
        out << " " << split << " " << (it == s.workloads_per_split.end() ? 0 : it->second);
    }
    out << "\ntrajectories (one measurement each): " << s.trajectories << "\n  per split:";
    for (const char *split : {"train", "val", "test"}) {
        const auto it = s.trajectories_per_split.find(split);
        out << " " << split << " " << (it == s.trajectories_per_split.end() ? 0 : it->second);
    }
    out << "\nerrors:";
    for (const auto &[kind, n] : s.errors) {
        char rate[64];
        std::snprintf(rate, sizeof rate, " %s %lld (%.1f%%)", kind.c_str(), (long long)n,
                      s.trajectories ? 100.0 * double(n) / double(s.trajectories) : 0.0);
        out << rate;
    }
    out << "\ntrajectory length (actions): " << spread_line(s.length, 1) << "\n";
    out << "best/median latency per workload: " << spread_line(s.best_over_median, 3) << "\n";
    out << "state text tokens (final state, whitespace-split, sampled): " << spread_line(s.tokens, 0);
    if (s.token_states_failed) out << ", " << s.token_states_failed << " sampled states did not lower";
    out << "\n";
    return out.str();
}

}  // namespace worldtune
