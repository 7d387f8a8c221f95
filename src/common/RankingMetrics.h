// How well scores rank candidates of one workload, by the metrics the field uses (TenSet, TLP):
//   top-k score  best latency of the group / best latency among the k highest-scored candidates, in (0, 1]
//                (1: the model's top k contain the fastest candidate);
//   pairwise     the share of pairs with different latencies that the scores order correctly (ties in
//                score count half);
//   NDCG@k       normalized discounted cumulative gain of the score order, with each candidate's gain its
//                normalized throughput (best latency / its latency).
// Failed candidates take part with throughput 0 (latency +infinity). Ties in score are scored by their
// expected value under a uniformly random tie-break (top-k, NDCG exactly; pairwise counts a tie half), so a
// model that scores everything alike earns what random picking earns.
#pragma once

#include <vector>

namespace worldtune {

struct RankingMetrics {
    double top1 = 0, top5 = 0, pairwise = 0, ndcg10 = 0;
    int groups = 0;  ///< groups averaged (groups with fewer than two candidates or no success are skipped)
};

/// The metrics of one group: `latencies` in seconds (<= 0 or infinite: failed), `scores` higher = faster.
RankingMetrics group_ranking_metrics(const std::vector<double> &latencies, const std::vector<double> &scores);

/// Accumulates groups and reports their unweighted mean.
class RankingMetricsMean {
public:
    void add(const std::vector<double> &latencies, const std::vector<double> &scores);
    RankingMetrics mean() const;

private:
    RankingMetrics sum_;
};

}  // namespace worldtune
