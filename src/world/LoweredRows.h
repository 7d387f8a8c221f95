// The lowered statements' pooled static features (StaticFeatures.h: append_pooled) of candidate schedules,
// cached per (workload, actions): what the booster online correction reads with
// WorldConfig::online_lowered_features. Lowering costs milliseconds a candidate, so the world model lowers
// only the candidates a run measured and each batch's shortlist (WorldModel.h), never a whole population.
#pragma once

#include "schedule/Action.h"
#include "workload/Spec.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace worldtune {

class LoweredRows {
public:
    static constexpr size_t kCacheLimit = 20000;  ///< states kept; the cache starts over beyond it

    explicit LoweredRows(int threads) : threads_(threads) {}

    /// The pooled row (kPooledLength floats) of each candidate of `spec`, lowering the ones not cached on
    /// the threads; a state Halide refuses gets a null pointer. Pointers stay valid until the next call.
    std::vector<const std::vector<float> *> rows(const WorkloadSpec &spec, const std::vector<const ActionList *> &candidates);

private:
    int threads_;
    /// key (canonical spec + action-list JSON) -> pooled row; null when the state cannot be lowered
    std::unordered_map<std::string, std::unique_ptr<std::vector<float>>> cache_;
};

}  // namespace worldtune
