#include "search/Tuner.h"

namespace worldtune {

Tuner::Tuner(WorkloadSpec spec, TuneParams params, Measurer &measurer)
    : spec_(std::move(spec)), params_(params), measurer_(measurer), sampler_(spec_, params.sampler, params.seed) {}

void Tuner::mark_seen(const ActionList &actions) { seen_.insert(actions_to_json(actions).dump()); }

TuneSummary Tuner::run(const std::function<void(const MeasureResult &, int)> &on_measured) {
    TuneSummary summary;
    const double start = now_seconds();
    int duplicates = 0;
    while (summary.measured < params_.trials) {
        const double t0 = now_seconds();
        ActionList candidate = sampler_.sample_valid();
        summary.propose_seconds += now_seconds() - t0;
        const std::string key = actions_to_json(candidate).dump();
        if (!seen_.insert(key).second) {
            if (++duplicates > params_.max_duplicate_draws) break;  // the space is exhausted
            continue;
        }
        duplicates = 0;
        const double t1 = now_seconds();
        MeasureResult result = measurer_.measure_one(spec_, candidate);
        summary.measure_seconds += now_seconds() - t1;
        if (result.ok()) {
            if (!summary.best || result.timing.median_s < summary.best->timing.median_s) summary.best = result;
        } else {
            summary.failed++;
        }
        on_measured(result, summary.measured);
        summary.measured++;
    }
    summary.wall_seconds = now_seconds() - start;
    return summary;
}

}  // namespace worldtune
