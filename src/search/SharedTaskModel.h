// One task's view of a cost model that the searches of several tasks share while they run at once (a
// network's subgraphs tuned concurrently on a measurement farm's rank 0): each call holds the shared
// model's lock and first makes this view's task the model's current one. Searches then take turns at the
// model but not at the measurers.
#pragma once

#include "search/CostModel.h"

#include <mutex>

namespace worldtune {

class SharedTaskModel : public CostModel {
public:
    SharedTaskModel(CostModel &shared, std::mutex &mutex) : shared_(shared), mutex_(mutex) {}

    std::string name() const override { return shared_.name(); }
    void set_task(const WorkloadSpec &spec) override { task_ = spec; }
    std::vector<double> predict(const std::vector<ActionList> &candidates) override {
        std::lock_guard<std::mutex> lock(mutex_);
        shared_.set_task(task_);
        return shared_.predict(candidates);
    }
    void update(const std::vector<MeasureResult> &results) override {
        std::lock_guard<std::mutex> lock(mutex_);
        shared_.set_task(task_);
        shared_.update(results);
    }
    bool has_prior() const override { return shared_.has_prior(); }

private:
    CostModel &shared_;
    std::mutex &mutex_;
    WorkloadSpec task_;
};

}  // namespace worldtune
