#include "search/BatchSelection.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace worldtune {

namespace {

/// A candidate's actions as sorted hashes of their JSON form (a multiset: a repeated action counts twice).
std::vector<size_t> action_hashes(const ActionList &actions) {
    std::vector<size_t> out;
    out.reserve(actions.size());
    for (const Action &a : actions) out.push_back(std::hash<std::string>()(a.to_json().dump()));
    std::sort(out.begin(), out.end());
    return out;
}

double jaccard(const std::vector<size_t> &a, const std::vector<size_t> &b) {
    if (a.empty() && b.empty()) return 1.0;
    size_t common = 0, i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i] == b[j]) {
            common++;
            i++;
            j++;
        } else if (a[i] < b[j]) {
            i++;
        } else {
            j++;
        }
    }
    return double(common) / double(a.size() + b.size() - common);
}

}  // namespace

size_t shortlist_size(size_t count, const BatchDiversity &diversity) {
    if (diversity.weight <= 0 || count <= 1) return count;
    return std::max(count, size_t(std::ceil(double(count) * diversity.shortlist)));
}

double action_similarity(const ActionList &a, const ActionList &b) { return jaccard(action_hashes(a), action_hashes(b)); }

std::vector<size_t> pick_batch(const std::vector<double> &scores, const std::vector<ActionList> &candidates, size_t count,
                               const BatchDiversity &diversity) {
    std::vector<size_t> order;
    for (size_t i = 0; i < scores.size() && i < candidates.size(); i++)
        if (std::isfinite(scores[i])) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    const size_t shortlist = std::min(order.size(), shortlist_size(count, diversity));
    order.resize(shortlist);
    if (diversity.weight <= 0 || count <= 1) return order;  // by score alone
    std::vector<std::vector<size_t>> hashes;
    hashes.reserve(shortlist);
    for (size_t i : order) hashes.push_back(action_hashes(candidates[i]));
    // quality: 1 for the best-scored, falling linearly with rank (robust to any score scale)
    std::vector<double> nearest(shortlist, 0.0);  ///< largest similarity to a pick so far
    std::vector<bool> picked(shortlist, false);
    std::vector<size_t> out;
    while (out.size() < std::min(count, shortlist)) {
        size_t best = shortlist;
        double best_value = -INFINITY;
        for (size_t r = 0; r < shortlist; r++) {
            if (picked[r]) continue;
            const double quality = 1.0 - double(r) / double(shortlist);
            const double value = (1.0 - diversity.weight) * quality - diversity.weight * nearest[r];
            if (value > best_value) {
                best_value = value;
                best = r;
            }
        }
        picked[best] = true;
        out.push_back(order[best]);
        for (size_t r = 0; r < shortlist; r++)
            if (!picked[r]) nearest[r] = std::max(nearest[r], jaccard(hashes[r], hashes[best]));
    }
    return out;
}

}  // namespace worldtune
