#include "search/Tuner.h"

#include <algorithm>

namespace worldtune {

namespace {
constexpr size_t kBestTapesKept = 16;
}

Tuner::Tuner(WorkloadSpec spec, TuneParams params, CandidateMeasurer &measurer, CostModel *model)
    : spec_(std::move(spec)), params_(params), measurer_(measurer), model_(model), sampler_(spec_, params.sampler, params.seed) {}

Tuner::Tuner(WorkloadSpec spec, TuneParams params, Measurer &measurer, CostModel *model)
    : spec_(std::move(spec)), params_(params), local_(std::make_unique<LocalMeasurer>(measurer)), measurer_(*local_),
      model_(model), sampler_(spec_, params.sampler, params.seed) {}

void Tuner::mark_seen(const ActionList &actions) { seen_.insert(actions_to_json(actions).dump()); }

std::vector<SketchCandidate> Tuner::propose(int count, TuneSummary &summary) {
    const double t0 = now_seconds();
    std::vector<SketchCandidate> batch;
    if (!model_ || model_->name() == "random") {
        // Random search: fresh valid sketch instances not measured before.
        int duplicates = 0;
        while (int(batch.size()) < count && duplicates <= params_.max_duplicate_draws) {
            SketchCandidate c;
            c.actions = sampler_.sample_valid();
            const std::string key = actions_to_json(c.actions).dump();
            if (seen_.count(key)) {
                duplicates++;
                continue;
            }
            duplicates = 0;
            seen_.insert(key);
            batch.push_back(std::move(c));
        }
    } else {
        EvolutionarySearch search(sampler_, *model_, params_.evolution, params_.seed * 7919 + summary.measured);
        std::vector<DecisionTape> best;
        for (const auto &entry : best_tapes_) best.push_back(entry.second);
        batch = search.next_batch(count, seen_, best);
        summary.model_seconds += search.last_predict_seconds();
        for (const SketchCandidate &c : batch) seen_.insert(actions_to_json(c.actions).dump());
    }
    summary.propose_seconds += now_seconds() - t0;
    return batch;
}

TuneSummary Tuner::run(const std::function<void(const MeasureResult &, int)> &on_measured) {
    return run_trials(params_.trials, on_measured);
}

TuneSummary Tuner::run_trials(int trials, const std::function<void(const MeasureResult &, int)> &on_measured) {
    TuneSummary summary;
    const double start = now_seconds();
    if (model_) model_->set_task(spec_);  // a model may be shared by the tuners of several tasks
    while (summary.measured < trials) {
        if (params_.time_budget_s > 0 && now_seconds() - start >= params_.time_budget_s) break;
        const int count = std::min(std::max(1, params_.measures_per_round), trials - summary.measured);
        std::vector<SketchCandidate> batch = propose(count, summary);
        if (batch.empty()) break;  // the space is exhausted
        std::vector<MeasureResult> results;
        std::vector<ActionList> actions;
        for (const SketchCandidate &c : batch) actions.push_back(c.actions);
        const double t1 = now_seconds();
        measurer_.measure_batch(spec_, actions, [&](size_t i, MeasureResult result) {
            if (result.ok()) {
                if (!summary.best || result.timing.median_s < summary.best->timing.median_s) summary.best = result;
                best_tapes_.emplace_back(result.timing.median_s, std::move(batch[i].tape));
                std::sort(best_tapes_.begin(), best_tapes_.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
                if (best_tapes_.size() > kBestTapesKept) best_tapes_.resize(kBestTapesKept);
            } else {
                summary.failed++;
            }
            on_measured(result, summary.measured);
            summary.measured++;
            results.push_back(std::move(result));
        });
        summary.measure_seconds += now_seconds() - t1;
        if (model_) {
            const double t2 = now_seconds();
            model_->update(results);
            summary.model_seconds += now_seconds() - t2;
            summary.propose_seconds += now_seconds() - t2;
        }
    }
    summary.wall_seconds = now_seconds() - start;
    return summary;
}

}  // namespace worldtune
