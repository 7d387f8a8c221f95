// The one re-measurement loop of every comparison (bench, compare, the network estimate): the best
// schedules a study found are measured again beside the peers, in rounds, with the same harness, thread
// count and machine state, so the numbers compared were taken together. In each round every schedule is
// measured once and every peer runs once, all in one shuffled order: a burst of load on the shared machine,
// or what one kernel leaves behind (a hot or throttled core, a polluted cache), then hits no column and no
// peer systematically. (Until 2026-12-04 the peers ran after the schedules in every round; until
// 2026-12-07, later, the schedules warmed up for one run where the peers warmed up for 0.25 s.)
#pragma once

#include "baseline/Baseline.h"
#include "common/Statistics.h"
#include "measure/Measurer.h"
#include "schedule/Action.h"
#include "workload/Spec.h"

#include <map>
#include <random>
#include <string>
#include <vector>

namespace worldtune {

/// A schedule to re-measure: the column it counts for and which of that column's runs (seeds) it is.
struct SideBySideEntry {
    std::string column;
    size_t seed = 0;
    const ActionList *actions = nullptr;
};

/// What the rounds measured on one workload.
struct SideBySide {
    std::map<std::string, std::vector<double>> latency;  ///< column or peer -> every re-measured latency (s)
    std::map<std::string, SeedSamples> seed_latency;     ///< column or peer -> latencies per seed (a peer: one)
    std::map<std::string, std::string> peer_note;        ///< peer -> "n/a: why" when it does not apply, or its error
    std::map<std::string, double> peer_search_seconds;   ///< peer -> its longest schedule search
};

struct SideBySideParams {
    int rounds = 3;
    std::vector<std::string> peers;
    BaselineParams baseline;  ///< peer_params(): the candidates' threads and timing harness
    std::string worker_binary;  ///< the worldtune binary that runs the peers ("": this process's)
};

/// One item of a round: a schedule (its index among the entries) or a peer (its name).
struct SideBySideItem {
    size_t schedule = 0;
    std::string peer;  ///< "" for a schedule
};

/// The order of one round: every schedule and every peer once, shuffled together.
std::vector<SideBySideItem> side_by_side_round(size_t schedules, const std::vector<std::string> &peers, std::mt19937_64 &order_rng);

/// The harness of the schedules in the rounds: `measure` with the peers' warm-up time
/// (BaselineParams::warmup_seconds), so a schedule and a peer timed side by side warm up alike. Tuning
/// keeps `measure`'s own (one warm-up run): the rounds are few, the trials many.
MeasureParams side_by_side_measure(const MeasureParams &measure, const BaselineParams &peers);

/// Runs `params.rounds` rounds on `spec`, adding what they measure to `out`. A failed re-measurement of a
/// schedule is left out; a peer's failure is noted (its earlier latencies stay).
void remeasure_side_by_side(const WorkloadSpec &spec, const std::vector<SideBySideEntry> &entries, const SideBySideParams &params,
                            Measurer &measurer, std::mt19937_64 &order_rng, SideBySide &out);

/// Whether a peer note says the peer does not apply to the workload (a "–" cell rather than "err").
bool peer_not_applicable(const std::string &note);
/// A note as a report prints it: the reason alone for "n/a: why", the error otherwise.
std::string peer_note_reason(const std::string &note);

}  // namespace worldtune
