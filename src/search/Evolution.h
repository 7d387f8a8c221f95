// Ansor's evolutionary search over sketch instances, steered by a cost model.
//
// A population of decision tapes (see SketchSampler) evolves for a few generations: parents are drawn by
// predicted score, children come from mutation (one decision of one kind redrawn: tile size, parallel
// grain, compute location, unrolling, structure) or crossover (one tape's head, the other's tail). The
// best-scored unmeasured candidates over all generations form the batch to measure (picked for diversity
// among the best, see BatchSelection.h), with an epsilon-greedy share of fresh random ones so the model
// keeps seeing what it does not predict.
#pragma once

#include "search/CostModel.h"
#include "search/BatchSelection.h"
#include "search/SketchSampler.h"

#include <random>
#include <set>

namespace worldtune {

/// Every knob of the evolutionary search. Ansor's defaults where they fit: its population of 2048 assumes
/// a cost model that scores in microseconds; a model that lowers each candidate (static features) scores
/// ~100 candidates per second on 2 cores, so the population here is smaller.
struct EvolutionParams {
    int population = 256;          ///< candidates per generation
    int generations = 4;           ///< Ansor: 4
    int prior_generations = 1;     ///< for a model with a prior (CostModel::has_prior, the world model): more
                                   ///< generations only exploit the prior's errors (docs/results.md)
    double mutation_prob = 0.85;   ///< Ansor: 0.85; otherwise crossover
    double eps_greedy = 0.05;      ///< Ansor: 0.05, the share of each batch drawn at random
    double seed_from_best = 0.2;   ///< share of the first generation grown from the best measured tapes
    /// Once a run has measured `late_after` candidates (0: never), a model with a prior searches with
    /// `late_generations` and `late_seed_from_best` instead: its online correction has seen the task by then.
    int late_after = 0;
    int late_generations = 1;
    double late_seed_from_best = 0.2;
    /// A model with a prior also scores every one-decision neighbour (one_decision_neighbours) of the
    /// `neighbourhood_tapes` fastest measured tapes each batch (0: none), and takes `neighbourhood_share` of
    /// the batch's greedy part from them, best-scored first: the late search exploits the incumbents'
    /// neighbourhoods, where a 640-trial static run finds what a 64-trial run misses
    /// (docs/results/v4-bench-zen5/efficiency).
    int neighbourhood_tapes = 0;
    double neighbourhood_share = 0.5;
    BatchDiversity batch;          ///< how the greedy share of a batch is picked among the best-scored
};

class EvolutionarySearch {
public:
    EvolutionarySearch(SketchSampler &sampler, CostModel &model, EvolutionParams params, uint64_t seed);

    /// Up to `count` valid candidates not in `measured` (action-list JSON keys), the best predicted first.
    /// `best_tapes` are the tapes of the fastest measured candidates, fastest first.
    std::vector<SketchCandidate> next_batch(int count, const std::set<std::string> &measured,
                                            const std::vector<DecisionTape> &best_tapes);

    /// Seconds spent in model.predict() during the last next_batch().
    double last_predict_seconds() const { return predict_seconds_; }

private:
    /// The unmeasured valid one-decision neighbours of the best tapes, best-scored first.
    std::vector<std::pair<double, SketchCandidate>> scored_neighbours(const std::set<std::string> &measured,
                                                                      const std::vector<DecisionTape> &best_tapes);
    bool valid(const ActionList &actions) const;
    DecisionTape mutate(const DecisionTape &tape);
    DecisionTape crossover(const DecisionTape &a, const DecisionTape &b);

    SketchSampler &sampler_;
    CostModel &model_;
    EvolutionParams params_;
    std::mt19937_64 rng_;
    double predict_seconds_ = 0;
};

}  // namespace worldtune
