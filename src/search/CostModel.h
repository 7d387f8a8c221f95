// The cost model interface the search talks to, small and batched (in the spirit of Halide's CostModel):
// set the task, score a batch of candidates, learn from measurements. The search knows nothing else.
// The models themselves live above the search (src/model, src/world); model/ModelFactory.h builds one by
// name.
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

}  // namespace worldtune
