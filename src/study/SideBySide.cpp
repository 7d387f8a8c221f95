#include "study/SideBySide.h"

#include "common/Text.h"

#include <algorithm>
#include <cstdio>

namespace worldtune {

namespace {

constexpr const char *kNotApplicable = "n/a: ";  ///< how a peer note starts when the peer does not apply

void measure_schedule(const WorkloadSpec &spec, const SideBySideEntry &e, Measurer &measurer, SideBySide &out) {
    const MeasureResult r = measurer.measure_one(spec, *e.actions);
    if (!r.ok()) return;
    out.latency[e.column].push_back(r.timing.median_s);
    SeedSamples &seeds = out.seed_latency[e.column];
    if (seeds.size() <= e.seed) seeds.resize(e.seed + 1);
    seeds[e.seed].push_back(r.timing.median_s);
}

void run_peer(const WorkloadSpec &spec, const std::string &peer, const SideBySideParams &params, SideBySide &out) {
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

std::vector<SideBySideItem> side_by_side_round(size_t schedules, const std::vector<std::string> &peers, std::mt19937_64 &order_rng) {
    std::vector<SideBySideItem> items;
    for (size_t i = 0; i < schedules; i++) items.push_back({i, ""});
    for (const std::string &peer : peers) items.push_back({0, peer});
    std::shuffle(items.begin(), items.end(), order_rng);
    return items;
}

void remeasure_side_by_side(const WorkloadSpec &spec, const std::vector<SideBySideEntry> &entries, const SideBySideParams &params,
                            Measurer &measurer, std::mt19937_64 &order_rng, SideBySide &out) {
    std::vector<std::string> peers;  // the peers that apply to this workload
    for (const std::string &peer : params.peers) {
        const std::string reason = baseline_unavailable_reason(peer, spec);
        if (reason.empty()) peers.push_back(peer);
        else out.peer_note[peer] = kNotApplicable + reason;
    }
    for (int round = 0; round < params.rounds; round++)
        for (const SideBySideItem &item : side_by_side_round(entries.size(), peers, order_rng)) {
            if (item.peer.empty()) measure_schedule(spec, entries[item.schedule], measurer, out);
            else run_peer(spec, item.peer, params, out);
        }
}

MeasureParams side_by_side_measure(const MeasureParams &measure, const BaselineParams &peers) {
    MeasureParams rounds = measure;
    rounds.timing.warmup_min_seconds = peers.warmup_seconds;
    return rounds;
}

bool peer_not_applicable(const std::string &note) { return note.rfind("n/a", 0) == 0; }

std::string peer_note_reason(const std::string &note) {
    return note.rfind(kNotApplicable, 0) == 0 ? note.substr(std::string(kNotApplicable).size()) : note;
}

}  // namespace worldtune
