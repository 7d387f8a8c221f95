#include "common/RankingMetrics.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

namespace worldtune {

namespace {

double throughput_of(double latency, double best) {
    return latency > 0 && std::isfinite(latency) ? best / latency : 0.0;
}

/// Candidates grouped into blocks of equal score, best score first; each block lists its gains.
std::vector<std::vector<double>> tie_blocks(const std::vector<double> &gains, const std::vector<double> &scores) {
    std::vector<size_t> order(gains.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    std::vector<std::vector<double>> blocks;
    for (size_t r = 0; r < order.size(); r++) {
        if (r == 0 || scores[order[r]] != scores[order[r - 1]]) blocks.emplace_back();
        blocks.back().push_back(gains[order[r]]);
    }
    return blocks;
}

/// E[max(floor, max of `take` gains drawn without replacement from `block`)].
double expected_max_of_draw(std::vector<double> block, size_t take, double floor) {
    if (take == 0) return floor;
    std::sort(block.begin(), block.end(), std::greater<double>());
    const size_t m = block.size();
    // P(the best drawn is the j-th best) = C(m-1-j, take-1) / C(m, take), j from 0; built as a running ratio.
    double p = double(take) / double(m), expected = 0;
    for (size_t j = 0; j + take <= m; j++) {
        expected += p * std::max(floor, block[j]);
        const double left = double(m - 1 - j);  // candidates after j
        if (left <= 0) break;
        p *= (left - double(take - 1)) / left;
    }
    return expected;
}

/// The expected top-k score when ties in score are broken uniformly at random.
double expected_top_k(const std::vector<std::vector<double>> &blocks, size_t k) {
    double best = 0;
    size_t taken = 0;
    for (const std::vector<double> &block : blocks) {
        if (taken + block.size() <= k) {
            for (double g : block) best = std::max(best, g);
            taken += block.size();
            if (taken == k) return best;
            continue;
        }
        return expected_max_of_draw(block, k - taken, best);
    }
    return best;
}

/// The expected DCG@k under random tie-breaking: every position of a tie block holds the block's mean gain.
double expected_dcg(const std::vector<std::vector<double>> &blocks, size_t k) {
    double sum = 0;
    size_t rank = 0;
    for (const std::vector<double> &block : blocks) {
        double mean = 0;
        for (double g : block) mean += g;
        mean /= double(block.size());
        for (size_t i = 0; i < block.size() && rank < k; i++, rank++) sum += mean / std::log2(double(rank) + 2);
        if (rank >= k) break;
    }
    return sum;
}

}  // namespace

RankingMetrics group_ranking_metrics(const std::vector<double> &latencies, const std::vector<double> &scores) {
    RankingMetrics m;
    const size_t n = std::min(latencies.size(), scores.size());
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; i++)
        if (latencies[i] > 0 && std::isfinite(latencies[i])) best = std::min(best, latencies[i]);
    if (n < 2 || !std::isfinite(best)) return m;
    std::vector<double> gain(n), score(scores.begin(), scores.begin() + long(n));
    for (size_t i = 0; i < n; i++) gain[i] = throughput_of(latencies[i], best);

    // Ties in score are scored by their expected value under a random tie-break: a constant model earns
    // what random picking earns, no more and no less.
    const std::vector<std::vector<double>> blocks = tie_blocks(gain, score);
    m.top1 = expected_top_k(blocks, 1);
    m.top5 = expected_top_k(blocks, 5);

    double right = 0, pairs = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (gain[i] == gain[j]) continue;
            pairs++;
            const bool i_faster = gain[i] > gain[j];
            if (score[i] == score[j])
                right += 0.5;
            else if ((score[i] > score[j]) == i_faster)
                right += 1;
        }
    m.pairwise = pairs > 0 ? right / pairs : 0.5;
    std::vector<double> ideal_order = gain;
    std::sort(ideal_order.begin(), ideal_order.end(), std::greater<double>());
    double ideal = 0;
    for (size_t r = 0; r < std::min<size_t>(10, n); r++) ideal += ideal_order[r] / std::log2(double(r) + 2);
    m.ndcg10 = ideal > 0 ? expected_dcg(blocks, 10) / ideal : 0;
    m.groups = 1;
    return m;
}

void RankingMetricsMean::add(const std::vector<double> &latencies, const std::vector<double> &scores) {
    const RankingMetrics g = group_ranking_metrics(latencies, scores);
    if (g.groups == 0) return;
    sum_.top1 += g.top1;
    sum_.top5 += g.top5;
    sum_.pairwise += g.pairwise;
    sum_.ndcg10 += g.ndcg10;
    sum_.groups++;
}

RankingMetrics RankingMetricsMean::mean() const {
    RankingMetrics m = sum_;
    if (m.groups == 0) return m;
    m.top1 /= m.groups;
    m.top5 /= m.groups;
    m.pairwise /= m.groups;
    m.ndcg10 /= m.groups;
    return m;
}

}  // namespace worldtune
