// The cost model interface the search talks to, small and batched (in the spirit of Halide's CostModel):
// set the task, score a batch of candidates, learn from measurements. The search knows nothing else.
//
// How to add a model: subclass CostModel in src/model/<Name>Model.{h,cpp}, add it to make_cost_model()
// (CostModel.cpp) and to cost_model_names(), and give it a test in tests/ModelTest.cpp.
#pragma once

#include "measure/Measurer.h"
#include "schedule/Action.h"
#include "workload/Spec.h"

#include <memory>
#include <string>
#include <vector>

namespace worldtune {

class CostModel {
public:
    virtual ~CostModel() = default;
    virtual std::string name() const = 0;

    /// The workload whose candidates the next predict() calls score.
    virtual void set_task(const WorkloadSpec &spec) = 0;
    /// One score per candidate of the current task: higher means predicted faster. Scores rank candidates
    /// within the task; they are not latencies. A candidate the model cannot score gets -infinity.
    virtual std::vector<double> predict(const std::vector<ActionList> &candidates) = 0;
    /// Learns from measured results (any tasks; failed ones included, as the model sees fit).
    virtual void update(const std::vector<MeasureResult> &results) = 0;
    /// Whether the model ranks a task's candidates before measuring any of it (a prior learned offline):
    /// the search then evolves for fewer generations (EvolutionParams::prior_generations).
    virtual bool has_prior() const { return false; }
};

/// Every knob of the models, with defaults; the command line fills it.
struct CostModelParams {
    uint64_t seed = 1;
    int threads = 2;                 ///< threads for training and feature extraction
    int xgb_rounds = 100;            ///< boosting rounds per (re)training
    int xgb_max_depth = 6;           ///< tree depth (Ansor uses 10 on its larger per-statement data)
    double xgb_eta = 0.2;            ///< Ansor's learning rate
    int retrain_every = 1;           ///< retrain after this many update() calls with new data
    std::string world_bundle;        ///< world-model bundle directory ("": WorldBundle::locate's default)
};

/// The models the search can use.
std::vector<std::string> cost_model_names();
/// Builds a model by name; throws std::invalid_argument naming the known models.
std::unique_ptr<CostModel> make_cost_model(const std::string &name, const CostModelParams &params = {});

}  // namespace worldtune
