// The tuning loop for one workload: propose candidates, measure them, learn, keep the best.
// With the `random` model, proposals are fresh random sketch instances (random search). With a learned
// model, each round the evolutionary search picks the batch the model predicts fastest, the batch is
// measured, and the model learns from it. Every measured state is reported to a callback at once (the
// caller stores it); states measured before (resume) are never measured again.
#pragma once

#include "measure/CandidateMeasurer.h"
#include "measure/Measurer.h"
#include "search/CostModel.h"
#include "search/Evolution.h"
#include "search/SketchSampler.h"

#include <functional>
#include <optional>
#include <set>

namespace worldtune {

/// Every knob of a tuning run.
struct TuneParams {
    int trials = 64;                ///< candidates to measure in this run
    uint64_t seed = 1;              ///< sampler and search seed
    int measures_per_round = 16;    ///< batch measured between model updates (Ansor: 64; smaller batches
                                    ///< let the model learn within small budgets)
    SamplerParams sampler;
    EvolutionParams evolution;
    int max_duplicate_draws = 200;  ///< consecutive already-seen draws before the space counts as exhausted
    double time_budget_s = 0;       ///< wall seconds for the run (0: no limit): once spent, no new batch starts
                                    ///< (for a network, no new round); the batch under way finishes and is kept
};

struct TuneSummary {
    int measured = 0;                  ///< candidates measured in this run
    int failed = 0;                    ///< of which ended in an error
    std::optional<MeasureResult> best; ///< fastest correct candidate of this run
    double wall_seconds = 0;           ///< whole run
    double measure_seconds = 0;        ///< inside the measurer (compile + run + check + worker overhead)
    double propose_seconds = 0;        ///< sampling, evolution and validation, model scoring included
    double model_seconds = 0;          ///< of which model scoring, plus model training (update)
};

class Tuner {
public:
    /// `model` may be null: random search. The tuner calls model->set_task(spec) at the start of each run,
    /// so one model can serve the tuners of several tasks.
    Tuner(WorkloadSpec spec, TuneParams params, CandidateMeasurer &measurer, CostModel *model = nullptr);
    /// The same with one local worker.
    Tuner(WorkloadSpec spec, TuneParams params, Measurer &measurer, CostModel *model = nullptr);

    /// Marks a state as measured already (e.g. found in the records database): it is never proposed.
    void mark_seen(const ActionList &actions);
    /// Runs `trials` measurements, calling `on_measured(result, index)` after each one. Calling it again
    /// measures `trials` more (what was measured and learned stays).
    TuneSummary run(const std::function<void(const MeasureResult &, int)> &on_measured);
    /// The same for `trials` measurements instead of TuneParams::trials (a task scheduler's shorter round).
    TuneSummary run_trials(int trials, const std::function<void(const MeasureResult &, int)> &on_measured);

private:
    std::vector<SketchCandidate> propose(int count, TuneSummary &summary);

    WorkloadSpec spec_;
    TuneParams params_;
    std::unique_ptr<LocalMeasurer> local_;  ///< set when constructed with a Measurer
    CandidateMeasurer &measurer_;
    CostModel *model_;
    SketchSampler sampler_;
    std::set<std::string> seen_;
    std::vector<std::pair<double, DecisionTape>> best_tapes_;  ///< fastest measured of this run, by latency
};

}  // namespace worldtune
