#include "measure/Timing.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace worldtune {

double now_seconds() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

TimingStats time_callable(const std::function<void()> &run, const TimingParams &params) {
    const double start = now_seconds();
    double one_run = 0;
    for (int i = 0; i < std::max(1, params.warmup_runs) || now_seconds() - start < params.warmup_min_seconds; i++) {
        double t0 = now_seconds();
        run();
        const double took = now_seconds() - t0;
        one_run = i == 0 ? took : std::min(one_run, took);
    }
    // Runs per repeat, from the fastest warm-up: enough to pass min_repeat_seconds.
    int runs = 1;
    if (one_run > 0 && one_run < params.min_repeat_seconds)
        runs = int(std::min(1e6, std::ceil(params.min_repeat_seconds / one_run)));

    TimingStats stats;
    stats.runs_per_repeat = runs;
    for (int r = 0; r < std::max(1, params.repeats); r++) {
        double t0 = now_seconds();
        for (int i = 0; i < runs; i++) run();
        stats.samples_s.push_back((now_seconds() - t0) / runs);
        if (now_seconds() - start > params.max_total_seconds) break;
    }
    std::vector<double> sorted = stats.samples_s;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    stats.repeats = int(n);
    stats.median_s = median_of(sorted);
    stats.min_s = sorted.front();
    stats.max_s = sorted.back();
    double sum = 0, sq = 0;
    for (double s : sorted) sum += s;
    stats.mean_s = sum / n;
    for (double s : sorted) sq += (s - stats.mean_s) * (s - stats.mean_s);
    stats.stddev_s = n > 1 ? std::sqrt(sq / (n - 1)) : 0;
    return stats;
}

void use_timing_allocator() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

}  // namespace worldtune
