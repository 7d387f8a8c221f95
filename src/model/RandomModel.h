// The `random` cost model: uniform random scores, learning nothing. With it the search is random search.
#pragma once

#include "search/CostModel.h"

#include <random>

namespace worldtune {

class RandomModel : public CostModel {
public:
    explicit RandomModel(uint64_t seed) : rng_(seed) {}
    std::string name() const override { return "random"; }
    void set_task(const WorkloadSpec &) override {}
    std::vector<double> predict(const std::vector<ActionList> &candidates) override {
        std::uniform_real_distribution<double> unit(0, 1);
        std::vector<double> scores;
        for (size_t i = 0; i < candidates.size(); i++) scores.push_back(unit(rng_));
        return scores;
    }
    void update(const std::vector<MeasureResult> &) override {}

private:
    std::mt19937_64 rng_;
};

}  // namespace worldtune
