#include "model/BlendModel.h"

#include "model/StaticModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace worldtune {

BlendModel::BlendModel(std::unique_ptr<CostModel> world, std::unique_ptr<StaticModel> static_model)
    : world_(std::move(world)), static_(std::move(static_model)) {}

BlendModel::~BlendModel() = default;

void BlendModel::set_task(const WorkloadSpec &spec) {
    world_->set_task(spec);
    static_->set_task(spec);
}

std::vector<double> normalized_ranks(const std::vector<double> &scores) {
    std::vector<size_t> finite;
    for (size_t i = 0; i < scores.size(); i++)
        if (std::isfinite(scores[i])) finite.push_back(i);
    std::sort(finite.begin(), finite.end(), [&](size_t a, size_t b) { return scores[a] < scores[b]; });
    std::vector<double> ranks(scores.size(), -std::numeric_limits<double>::infinity());
    const double top = finite.size() > 1 ? double(finite.size() - 1) : 1.0;
    for (size_t lo = 0; lo < finite.size();) {
        size_t hi = lo;
        while (hi + 1 < finite.size() && scores[finite[hi + 1]] == scores[finite[lo]]) hi++;
        const double mean_rank = 0.5 * double(lo + hi) / top;
        for (size_t k = lo; k <= hi; k++) ranks[finite[k]] = mean_rank;
        lo = hi + 1;
    }
    return ranks;
}

std::vector<double> BlendModel::predict(const std::vector<ActionList> &candidates) {
    const std::vector<double> world = world_->predict(candidates);
    if (!static_->trained()) return world;
    const std::vector<double> a = normalized_ranks(world), b = normalized_ranks(static_->predict(candidates));
    std::vector<double> blended(candidates.size());
    for (size_t i = 0; i < blended.size(); i++) blended[i] = 0.5 * (a[i] + b[i]);  // -inf when either refuses it
    return blended;
}

void BlendModel::update(const std::vector<MeasureResult> &results) {
    world_->update(results);
    static_->update(results);
}

}  // namespace worldtune
