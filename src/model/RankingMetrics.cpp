#include "model/RankingMetrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace worldtune {

namespace {

double throughput_of(double latency, double best) {
    return latency > 0 && std::isfinite(latency) ? best / latency : 0.0;
}

double dcg(const std::vector<double> &gains, const std::vector<size_t> &order, size_t k) {
    double sum = 0;
    for (size_t r = 0; r < std::min(k, order.size()); r++) sum += gains[order[r]] / std::log2(double(r) + 2);
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
    std::vector<double> gain(n);
    for (size_t i = 0; i < n; i++) gain[i] = throughput_of(latencies[i], best);

    std::vector<size_t> by_score(n), by_gain(n);
    std::iota(by_score.begin(), by_score.end(), 0);
    std::iota(by_gain.begin(), by_gain.end(), 0);
    // Ties in score are broken against the model (worst candidate first), so a constant model earns nothing.
    std::sort(by_score.begin(), by_score.end(), [&](size_t a, size_t b) {
        if (scores[a] != scores[b]) return scores[a] > scores[b];
        return gain[a] < gain[b];
    });
    std::sort(by_gain.begin(), by_gain.end(), [&](size_t a, size_t b) { return gain[a] > gain[b]; });
    auto top_k = [&](size_t k) {
        double best_in = 0;
        for (size_t r = 0; r < std::min(k, n); r++) best_in = std::max(best_in, gain[by_score[r]]);
        return best_in;
    };
    m.top1 = top_k(1);
    m.top5 = top_k(5);

    double right = 0, pairs = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (gain[i] == gain[j]) continue;
            pairs++;
            const bool i_faster = gain[i] > gain[j];
            if (scores[i] == scores[j])
                right += 0.5;
            else if ((scores[i] > scores[j]) == i_faster)
                right += 1;
        }
    m.pairwise = pairs > 0 ? right / pairs : 0.5;
    const double ideal = dcg(gain, by_gain, 10);
    m.ndcg10 = ideal > 0 ? dcg(gain, by_score, 10) / ideal : 0;
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
