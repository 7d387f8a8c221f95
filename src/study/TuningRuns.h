// What the studies (`compare`, `bench`, the network estimate) share: the one resumable tuning run per
// (workload, model, seed), the best schedule within a budget, best-so-far curves, and report cells.
#pragma once

#include "common/OneLineError.h"
#include "baseline/Baseline.h"
#include "common/Statistics.h"
#include "measure/Measurer.h"
#include "model/ModelFactory.h"
#include "search/Tuner.h"
#include "store/RecordStore.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace worldtune {

/// A study (bench, compare, replay) that cannot run as asked: one line, what and why.
struct StudyError : OneLineError {
    using OneLineError::OneLineError;
};

/// Time a run spent tuning, summed over every call that measured part of it. Kept in the records
/// database (a note per run, see tune_run), so a resumed benchmark still reports the time of the parts
/// measured by earlier processes. A process killed in the middle of a run loses that part's time (its
/// records stay): `trials` counts only the timed trials.
struct RunTime {
    double wall_seconds = 0;   ///< whole tuning loop: search, model and measurement
    double model_seconds = 0;  ///< model scoring and training
    int trials = 0;            ///< trials these seconds cover
};

/// One tuning run's records and, for the part measured now, its timing.
struct TuningRun {
    std::vector<Record> records;  ///< the run's records in measuring order (resumed ones first)
    bool fresh = false;           ///< whether this call measured anything
    double wall_seconds = 0;      ///< of the fresh part
    double search_seconds = 0;    ///< sampling, evolution, validation, model scoring and training
    double model_seconds = 0;     ///< model scoring and training
    int measured = 0;             ///< fresh trials
    RunTime total;                ///< every timed part of the run, earlier processes included
};

/// Tunes (spec, model, seed) until the run has `trials` records under `source`, resuming from the
/// database (a run sees only its own records; its model first learns from them).
/// `search` holds the search's knobs (its seed and trials are set here).
TuningRun tune_run(RecordStore &store, const WorkloadSpec &spec, const std::string &model, uint64_t seed, int trials,
                   const MeasureParams &measure, const std::string &source, const CostModelParams &model_params,
                   const TuneParams &search = TuneParams());

/// The best correct record among the first `budget` records (null when none); it points into `run`.
const Record *best_record_within(const std::vector<Record> &run, int budget);
/// The best correct schedule among the first `budget` records.
std::optional<ActionList> best_within(const std::vector<Record> &run, int budget);
/// Best latency after each of the first `budget` trials (0 until one succeeded).
std::vector<double> best_so_far(const std::vector<Record> &run, int budget);

/// Peer settings that match the candidates' measurement (same threads and timing harness).
BaselineParams peer_params(const MeasureParams &measure, double timeout_seconds);

/// The header rows of a markdown table with a workload column and right-aligned `columns`.
std::string workload_table_header(const std::vector<std::string> &columns);
/// "median (min–max)" of GFLOP/s over latency samples; "err" when empty.
std::string gflops_cell(double flops, const std::vector<double> &latencies);

}  // namespace worldtune
