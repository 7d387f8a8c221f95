// Which of the best-scored candidates to measure together.
//
// A cost model's top candidates tend to be near copies of one schedule (one tile size apart), so the best
// of a batch of its top-B is little better than its top-1, and the run learns little from the batch. The
// batch is instead picked by maximal marginal relevance among a shortlist of the best-scored: each next
// pick maximizes (1 - diversity) x its rank quality - diversity x its largest similarity to the picks so
// far. Similarity is the Jaccard overlap of two candidates' action sets (two schedules one split factor
// apart share all but one action). The first pick is always the best-scored one.
//
// The weight 0.5 was chosen by `worldtune replay --db bench.db --models world,static --runs 6 --after 0,16,48
// --pool 200 --diversity W` on the widened-space bench's records (72 runs): the best of the world model's
// first batch rose from 0.592 of the pool's best (W = 0) to 0.613 (0.3) and 0.654 (0.5); after 16 and 48
// measurements both models' batch best stayed within 0.01, and the batch mean fell (less exploitation).
#pragma once

#include "schedule/Action.h"

#include <cstddef>
#include <vector>

namespace worldtune {

/// The knobs of the batch pick (one home: EvolutionParams holds them for the search).
struct BatchDiversity {
    double weight = 0.5;      ///< 0: the top-scored in order; 1: only dissimilarity counts after the first
    double shortlist = 4.0;   ///< picks come from the best count x shortlist candidates by score
};

/// How many of the best-scored candidates a batch of `count` is picked among (`count` itself when the
/// pick is by score alone).
size_t shortlist_size(size_t count, const BatchDiversity &diversity);

/// Jaccard similarity of the two candidates' action sets (actions compared by their JSON form), in [0, 1].
double action_similarity(const ActionList &a, const ActionList &b);

/// Indices into `candidates` (scores: higher is better, -inf for refused ones, which are never picked) of
/// up to `count` candidates in pick order.
std::vector<size_t> pick_batch(const std::vector<double> &scores, const std::vector<ActionList> &candidates, size_t count,
                               const BatchDiversity &diversity);

}  // namespace worldtune
