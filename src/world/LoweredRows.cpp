#include "world/LoweredRows.h"

#include "common/OnThreads.h"
#include "features/StaticFeatures.h"

namespace worldtune {

std::vector<const std::vector<float> *> LoweredRows::rows(const WorkloadSpec &spec, const std::vector<const ActionList *> &candidates) {
    if (cache_.size() + candidates.size() > kCacheLimit) cache_.clear();
    const std::string task = spec.canonical() + "\n";
    std::vector<std::string> keys;
    std::vector<size_t> misses;  // the first candidate of each key not cached
    for (size_t i = 0; i < candidates.size(); i++) {
        keys.push_back(task + actions_to_json(*candidates[i]).dump());
        if (cache_.emplace(keys.back(), nullptr).second) misses.push_back(i);
    }
    std::vector<std::unique_ptr<std::vector<float>>> fresh(misses.size());
    for_each_on_threads(misses.size(), threads_, [&](size_t m) {
        try {
            auto row = std::make_unique<std::vector<float>>();
            append_pooled(extract_features(spec, *candidates[misses[m]]), *row);
            fresh[m] = std::move(row);
        } catch (...) {
            // ScheduleError: Halide refuses the state; anything else leaves it unscorable too.
        }
    });
    for (size_t m = 0; m < misses.size(); m++) cache_[keys[misses[m]]] = std::move(fresh[m]);
    std::vector<const std::vector<float> *> out;
    for (const std::string &k : keys) out.push_back(cache_.at(k).get());
    return out;
}

}  // namespace worldtune
