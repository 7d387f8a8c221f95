// What a tuning loop needs from whatever measures its candidates: a batch in, one result per candidate out,
// each handed over the moment it exists. A Measurer (one local worker) is one; the measurement farm's
// rank 0 (farm/Farm.h), which spreads a batch over the measurer ranks of an MPI job, is another.
#pragma once

#include "measure/Measurer.h"

#include <functional>
#include <memory>
#include <vector>

namespace worldtune {

class CandidateMeasurer {
public:
    virtual ~CandidateMeasurer() = default;
    /// Measures every candidate exactly once and calls `on_result(index, result)` for each as it arrives
    /// (in any order). Returns when all have been handed over.
    virtual void measure_batch(const WorkloadSpec &spec, const std::vector<ActionList> &candidates,
                               const std::function<void(size_t, MeasureResult)> &on_result) = 0;
};

/// The local measurer as a CandidateMeasurer: candidates in order, one at a time.
class LocalMeasurer : public CandidateMeasurer {
public:
    explicit LocalMeasurer(Measurer &measurer) : measurer_(&measurer) {}
    explicit LocalMeasurer(const MeasureParams &params) : owned_(std::make_unique<Measurer>(params)), measurer_(owned_.get()) {}
    void measure_batch(const WorkloadSpec &spec, const std::vector<ActionList> &candidates,
                       const std::function<void(size_t, MeasureResult)> &on_result) override {
        for (size_t i = 0; i < candidates.size(); i++) on_result(i, measurer_->measure_one(spec, candidates[i]));
    }

private:
    std::unique_ptr<Measurer> owned_;
    Measurer *measurer_;
};

}  // namespace worldtune
