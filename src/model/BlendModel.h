// The world model's prior blended with the static model's task-specific learning ("world+static").
//
// Why: in tuning, the world model ranks a task's candidates best before any measurement of it (its prior
// was learned on the whole dataset), while the static model, trained from scratch on the run's own
// measurements, learns the task faster once it has a few dozen of them (see docs/results.md). The blend
// scores a candidate by the mean of its two normalized ranks within the batch: the world model's (with
// its online correction) and, once the static model has trained, the static model's. Before that it is
// the world model alone, so the first batches cost no lowering. After that it pays the static model's
// lowering cost per candidate.
#pragma once

#include "search/CostModel.h"

namespace worldtune {

class StaticModel;

class BlendModel : public CostModel {
public:
    BlendModel(std::unique_ptr<CostModel> world, std::unique_ptr<StaticModel> static_model);
    ~BlendModel() override;

    std::string name() const override { return "world+static"; }
    void set_task(const WorkloadSpec &spec) override;
    std::vector<double> predict(const std::vector<ActionList> &candidates) override;
    void update(const std::vector<MeasureResult> &results) override;

private:
    std::unique_ptr<CostModel> world_;
    std::unique_ptr<StaticModel> static_;
};

/// Each finite score replaced by its rank among the finite ones, scaled to [0, 1] (1: the highest);
/// -infinity stays. Ties share their mean rank.
std::vector<double> normalized_ranks(const std::vector<double> &scores);

}  // namespace worldtune
