#include "search/Evolution.h"

#include "lower/StateText.h"
#include "measure/Timing.h"
#include "schedule/Apply.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace worldtune {

EvolutionarySearch::EvolutionarySearch(SketchSampler &sampler, CostModel &model, EvolutionParams params, uint64_t seed)
    : sampler_(sampler), model_(model), params_(params), rng_(seed) {}

DecisionTape EvolutionarySearch::mutate(const DecisionTape &tape) {
    if (tape.empty()) return tape;
    // Pick a kind first (tile sizes most often, as they are most of the space), then one decision of it.
    static const double kKindWeight[kDecisionKinds] = {0.55, 0.15, 0.1, 0.1, 0.1};
    std::vector<size_t> of_kind[kDecisionKinds];
    for (size_t i = 0; i < tape.size(); i++) of_kind[int(tape[i].kind)].push_back(i);
    std::vector<double> weights(kDecisionKinds);
    for (int k = 0; k < kDecisionKinds; k++) weights[k] = of_kind[k].empty() ? 0 : kKindWeight[k];
    std::discrete_distribution<int> pick_kind(weights.begin(), weights.end());
    const std::vector<size_t> &positions = of_kind[pick_kind(rng_)];
    std::uniform_int_distribution<size_t> pick(0, positions.size() - 1);
    DecisionTape child = tape;
    child[positions[pick(rng_)]].value = uint32_t(rng_() & 0xffffffu);
    return child;
}

DecisionTape EvolutionarySearch::crossover(const DecisionTape &a, const DecisionTape &b) {
    const size_t n = std::min(a.size(), b.size());
    if (n < 2) return a;
    std::uniform_int_distribution<size_t> cut(1, n - 1);
    const size_t at = cut(rng_);
    DecisionTape child(a.begin(), a.begin() + at);
    child.insert(child.end(), b.begin() + at, b.end());
    return child;
}

bool EvolutionarySearch::valid(const ActionList &actions) const {
    try {
        validate_actions(sampler_.workload().spec, actions);
        return true;
    } catch (const ScheduleError &) {
        return false;
    }
}

std::vector<std::pair<double, SketchCandidate>> EvolutionarySearch::scored_neighbours(
    const std::set<std::string> &measured, const std::vector<DecisionTape> &best_tapes) {
    std::vector<SketchCandidate> candidates;
    std::set<std::string> keys;
    const size_t tapes = std::min(best_tapes.size(), size_t(std::max(0, params_.neighbourhood_tapes)));
    for (size_t t = 0; t < tapes; t++) {
        for (const DecisionTape &tape : one_decision_neighbours(best_tapes[t])) {
            SketchCandidate c = sampler_.replay(tape);
            const std::string key = actions_to_json(c.actions).dump();
            if (measured.count(key) || !keys.insert(key).second || !valid(c.actions)) continue;
            candidates.push_back(std::move(c));
        }
    }
    if (candidates.empty()) return {};
    std::vector<ActionList> lists;
    for (const SketchCandidate &c : candidates) lists.push_back(c.actions);
    const double t0 = now_seconds();
    const std::vector<double> scores = model_.predict(lists);
    predict_seconds_ += now_seconds() - t0;
    std::vector<std::pair<double, SketchCandidate>> scored;
    for (size_t i = 0; i < candidates.size(); i++)
        if (std::isfinite(scores[i])) scored.emplace_back(scores[i], std::move(candidates[i]));
    std::stable_sort(scored.begin(), scored.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    return scored;
}

std::vector<SketchCandidate> EvolutionarySearch::next_batch(int count, const std::set<std::string> &measured,
                                                            const std::vector<DecisionTape> &best_tapes) {
    predict_seconds_ = 0;
    const int pop_size = std::max(2, params_.population);
    const bool late = model_.has_prior() && params_.late_after > 0 && int(measured.size()) >= params_.late_after;
    // The first generation: grown from the best measured tapes, the rest fresh.
    std::vector<SketchCandidate> population;
    const double seed_share = late ? params_.late_seed_from_best : params_.seed_from_best;
    const int from_best = best_tapes.empty() ? 0 : int(seed_share * pop_size);
    for (int i = 0; i < from_best; i++)
        population.push_back(sampler_.replay(mutate(best_tapes[i % best_tapes.size()])));
    while (int(population.size()) < pop_size) population.push_back(sampler_.replay({}));

    // The best unmeasured candidates seen in any generation, by score.
    std::map<std::string, std::pair<double, SketchCandidate>> pool;
    std::uniform_real_distribution<double> unit(0, 1);
    const int generations =
        std::max(1, late ? params_.late_generations : model_.has_prior() ? params_.prior_generations : params_.generations);
    for (int g = 0; g < generations; g++) {
        std::vector<ActionList> lists;
        for (const SketchCandidate &c : population) lists.push_back(c.actions);
        const double t0 = now_seconds();
        std::vector<double> scores = model_.predict(lists);
        predict_seconds_ += now_seconds() - t0;
        for (size_t i = 0; i < population.size(); i++) {
            const std::string key = actions_to_json(population[i].actions).dump();
            if (measured.count(key) || !std::isfinite(scores[i])) continue;
            pool.emplace(key, std::make_pair(scores[i], population[i]));
        }
        if (g + 1 == generations) break;
        // Parents by rank (robust to any score scale): weight 1/(rank+1) for the finite ones.
        std::vector<size_t> order(population.size());
        for (size_t i = 0; i < order.size(); i++) order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
        std::vector<double> weights(order.size());
        for (size_t r = 0; r < order.size(); r++) weights[r] = std::isfinite(scores[order[r]]) ? 1.0 / double(r + 1) : 1e-6;
        std::discrete_distribution<size_t> parent(weights.begin(), weights.end());
        std::vector<SketchCandidate> next;
        while (int(next.size()) < pop_size) {
            const DecisionTape &a = population[order[parent(rng_)]].tape;
            DecisionTape child = unit(rng_) < params_.mutation_prob ? mutate(a) : crossover(a, population[order[parent(rng_)]].tape);
            next.push_back(sampler_.replay(child));
        }
        population = std::move(next);
    }

    std::vector<std::pair<double, SketchCandidate>> ranked;
    for (auto &entry : pool) ranked.push_back(std::move(entry.second));
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.first > b.first; });

    const int greedy = count - int(std::floor(params_.eps_greedy * count + unit(rng_)));
    std::vector<SketchCandidate> batch;
    std::set<std::string> taken;
    // The incumbents' neighbourhoods first (a model with a prior, once something is measured).
    if (model_.has_prior() && params_.neighbourhood_tapes > 0 && !best_tapes.empty()) {
        const int from_neighbours = int(std::lround(params_.neighbourhood_share * std::max(0, greedy)));
        for (auto &entry : scored_neighbours(measured, best_tapes)) {
            if (int(batch.size()) >= from_neighbours) break;
            taken.insert(actions_to_json(entry.second.actions).dump());
            batch.push_back(std::move(entry.second));
        }
    }
    // The shortlist: the best-scored valid unmeasured candidates, as many as the batch pick chooses among.
    const size_t rest = size_t(std::max(0, greedy - int(batch.size())));
    const size_t shortlist = shortlist_size(rest, params_.batch);
    std::vector<SketchCandidate> listed;
    std::vector<double> listed_scores;
    std::vector<ActionList> listed_actions;
    std::vector<std::string> listed_keys;
    for (auto &entry : ranked) {  // keys of the pool are distinct and unmeasured
        if (listed.size() >= shortlist) break;
        std::string key = actions_to_json(entry.second.actions).dump();
        if (taken.count(key) || !valid(entry.second.actions)) continue;
        listed_keys.push_back(std::move(key));
        listed_scores.push_back(entry.first);
        listed_actions.push_back(entry.second.actions);
        listed.push_back(std::move(entry.second));
    }
    for (size_t i : pick_batch(listed_scores, listed_actions, rest, params_.batch)) {
        taken.insert(listed_keys[i]);
        batch.push_back(std::move(listed[i]));
    }
    // The epsilon-greedy share: fresh random candidates.
    auto take = [&](SketchCandidate c) {
        const std::string key = actions_to_json(c.actions).dump();
        if (measured.count(key) || taken.count(key) || !valid(c.actions)) return;
        taken.insert(key);
        batch.push_back(std::move(c));
    };
    for (int tries = 0; int(batch.size()) < count && tries < 20 * count; tries++) take(sampler_.replay({}));
    return batch;
}

}  // namespace worldtune
