#include "study/SideBySide.h"

#include "common/Text.h"

#include <algorithm>
#include <cstdio>

namespace worldtune {

namespace {

constexpr const char *kNotApplicable = "n/a: ";  ///< how a peer note starts when the peer does not apply

void measure_schedules(const WorkloadSpec &spec, std::vector<SideBySideEntry> &entries, Measurer &measurer,
                       std::mt19937_64 &order_rng, SideBySide &out) {
    std::shuffle(entries.begin(), entries.end(), order_rng);
    for (const SideBySideEntry &e : entries) {
        const MeasureResult r = measurer.measure_one(spec, *e.actions);
        if (!r.ok()) continue;
        out.latency[e.column].push_back(r.timing.median_s);
        SeedSamples &seeds = out.seed_latency[e.column];
        if (seeds.size() <= e.seed) seeds.resize(e.seed + 1);
        seeds[e.seed].push_back(r.timing.median_s);
    }
}

void run_peer(const WorkloadSpec &spec, const std::string &peer, const SideBySideParams &params, SideBySide &out) {
    const std::string reason = baseline_unavailable_reason(peer, spec);
    if (!reason.empty()) {
        out.peer_note[peer] = kNotApplicable + reason;
        return;
    }
    const std::string binary = params.worker_binary.empty() ? current_executable() : params.worker_binary;
    const BaselineResult r = run_baseline_subprocess(binary, peer, spec, params.baseline);
    std::fprintf(stderr, "  %-14s %s\n", peer.c_str(), r.ok() ? (fixed(r.gflops, 1) + " GFLOP/s").c_str() : ("error: " + r.error).c_str());
    if (r.ok()) {
        out.latency[peer].push_back(r.timing.median_s);
        out.seed_latency[peer].resize(1);
        out.seed_latency[peer][0].push_back(r.timing.median_s);
    } else {
        out.peer_note[peer] = r.error.empty() ? "output check failed" : r.error;
    }
    out.peer_search_seconds[peer] = std::max(out.peer_search_seconds[peer], r.schedule_seconds);
}

}  // namespace

void remeasure_side_by_side(const WorkloadSpec &spec, std::vector<SideBySideEntry> entries, const SideBySideParams &params,
                            Measurer &measurer, std::mt19937_64 &order_rng, SideBySide &out) {
    for (int round = 0; round < params.rounds; round++) {
        measure_schedules(spec, entries, measurer, order_rng, out);
        for (const std::string &peer : params.peers) run_peer(spec, peer, params, out);
    }
}

bool peer_not_applicable(const std::string &note) { return note.rfind("n/a", 0) == 0; }

std::string peer_note_reason(const std::string &note) {
    return note.rfind(kNotApplicable, 0) == 0 ? note.substr(std::string(kNotApplicable).size()) : note;
}

}  // namespace worldtune
