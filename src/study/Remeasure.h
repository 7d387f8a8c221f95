// `worldtune remeasure`: the best schedule of each tuning run within its first N trials, measured again
// side by side (SideBySide.h: shuffled rounds, one harness, one machine state).
//
// Runs tuned minutes apart on a shared 2-core machine are not measured under the same conditions: on the
// Zen 5 the same schedule measured in two val runs differed by 5% in the median and by 29% at the 90th
// percentile, with whole runs shifted by up to 24% (docs/results/neighbourhood-val-zen5). Comparing search
// settings by the latencies their runs measured while tuning carries that noise into every choice;
// re-measuring the runs' bests together removes the part that is the run's and not the schedule's.
// One run is one records database (scripts/val_search_knobs.sh keeps one per config and seed).
#pragma once

#include "measure/Measurer.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace worldtune {

/// Every knob of a re-measurement.
struct RemeasureParams {
    std::vector<std::string> dbs;    ///< one tuning run per records database; `PATH@N` takes that run's best
                                     ///< among its first N records instead of `trials` (one run at several
                                     ///< budgets, side by side)
    std::vector<std::string> specs;  ///< workloads, each re-measured in its own rounds
    int trials = 64;                 ///< a run's best among its first `trials` records of the workload
    int rounds = 3;                  ///< rounds of the side-by-side re-measurement
    uint64_t seed = 1;               ///< of the rounds' shuffled order
    MeasureParams measure;
};

/// One run's best on one workload, as the run measured it and as re-measured.
struct RemeasuredBest {
    std::string spec;
    std::string run;                  ///< the database's file name without its directory and ".db", and its
                                      ///< "@N" when one was given
    double tuning_s = 0;              ///< its latency when the run measured it
    std::vector<double> remeasured_s; ///< one per round that measured it correctly
};

/// Re-measures every workload of `p.specs` not in `skip`, calling `on_workload` with its runs' bests once
/// its rounds are done (the caller stores them: a killed re-measurement resumes by skipping those). A run
/// with fewer than `p.trials` records of a workload, or no correct one, is left out of it with a note on
/// stderr. Throws StudyError for a database that does not exist or a bad setting.
void remeasure_bests(const RemeasureParams &p, const std::set<std::string> &skip,
                     const std::function<void(const std::vector<RemeasuredBest> &)> &on_workload);

/// The tab-separated lines `remeasure` writes: a header, and one line per run and workload
/// (spec, run, tuning latency in us, median re-measured latency in us, rounds measured).
std::string remeasured_tsv_header();
std::string remeasured_tsv_line(const RemeasuredBest &b);
/// The specs already in a file of such lines (empty when the file does not exist).
std::set<std::string> remeasured_specs(const std::string &path);

}  // namespace worldtune
