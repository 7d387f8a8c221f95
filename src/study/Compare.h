// `worldtune compare SPEC... --models random,static --trials 64,256`: worldtune's search, per cost model
// and trial budget, against every peer, side by side in one run, as a markdown report.
// For each workload: tune each (model, seed) to the largest budget (resumable from the database); then the
// best schedule found within each budget is re-measured beside every peer (SideBySide.h).
#pragma once

#include "measure/Measurer.h"
#include "study/SideBySide.h"
#include "study/TuningRuns.h"

#include <map>
#include <string>
#include <vector>

namespace worldtune {

/// Every knob of a comparison, with the defaults of `worldtune compare`.
struct CompareParams {
    std::vector<std::string> specs;
    std::string trials = "64", models = "random", peers, db = "compare.db", bundle;
    int seeds = 1, rounds = 1;
    MeasureParams measure;
    double peer_timeout = 900;
};

/// One column of worldtune's side: a model at a trial budget.
struct CompareColumn {
    std::string model;
    int trials = 0;
    std::string name() const { return model + "@" + std::to_string(trials); }
};

/// What the comparison found for one workload.
struct CompareWorkload {
    std::string spec;
    double flops = 0;
    SideBySide measured;                                           ///< columns and peers, re-measured together
    std::map<std::string, std::vector<double>> seconds_per_trial;  ///< model -> per fresh run
    std::map<std::string, std::vector<double>> search_share;       ///< model -> search time / wall, per fresh run
    std::map<std::string, std::vector<double>> model_share;        ///< model -> model time / wall, per fresh run
    std::map<std::string, int> trials, failed;                     ///< model -> over all its seeds
};

struct CompareResults {
    std::vector<CompareColumn> columns;
    std::vector<std::string> peers;
    std::vector<CompareWorkload> workloads;
};

/// Tunes and re-measures; throws StudyError on parameters it cannot run.
CompareResults run_compare(const CompareParams &params);
/// The markdown report, ending with the command line that reproduces it.
std::string compare_report(const CompareResults &results, const CompareParams &params);

}  // namespace worldtune
