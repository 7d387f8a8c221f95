// The tuning loop for one workload: propose candidates, measure them, keep the best.
// Proposals come from the sketch sampler (the `random` model); every measured state is reported to a
// callback at once (the caller stores it), and states measured before (resume) are never measured again.
#pragma once

#include "measure/Measurer.h"
#include "search/SketchSampler.h"

#include <functional>
#include <optional>
#include <set>

namespace worldtune {

/// Every knob of a tuning run.
struct TuneParams {
    int trials = 64;            ///< candidates to measure in this run
    uint64_t seed = 1;          ///< sampler seed
    SamplerParams sampler;
    int max_duplicate_draws = 200;  ///< consecutive already-seen draws before the space counts as exhausted
};

struct TuneSummary {
    int measured = 0;                  ///< candidates measured in this run
    int failed = 0;                    ///< of which ended in an error
    std::optional<MeasureResult> best; ///< fastest correct candidate of this run
    double wall_seconds = 0;           ///< whole run
    double measure_seconds = 0;        ///< inside the measurer (compile + run + check + worker overhead)
    double propose_seconds = 0;        ///< sampling and validating candidates
};

class Tuner {
public:
    Tuner(WorkloadSpec spec, TuneParams params, Measurer &measurer);

    /// Marks a state as measured already (e.g. found in the records database): it is never proposed.
    void mark_seen(const ActionList &actions);
    /// Runs `trials` measurements, calling `on_measured(result, index)` after each one.
    TuneSummary run(const std::function<void(const MeasureResult &, int)> &on_measured);

private:
    WorkloadSpec spec_;
    TuneParams params_;
    Measurer &measurer_;
    SketchSampler sampler_;
    std::set<std::string> seen_;
};

}  // namespace worldtune
