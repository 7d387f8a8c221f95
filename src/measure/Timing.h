// How worldtune times a piece of code: warm-up, then repeats of enough runs to pass a minimum time,
// reporting the median and spread of the per-run times. Candidates and baselines are timed alike, but a
// baseline warms up for a minimum time (BaselineParams::warmup_seconds): libraries set up over first calls.
#pragma once

#include "common/Statistics.h"  // median_of

#include <functional>
#include <vector>

namespace worldtune {

struct TimingParams {
    int warmup_runs = 1;                ///< untimed runs first (caches, page faults, thread pool start)
    double warmup_min_seconds = 0;      ///< and keep warming up until this long has passed (code that sets
                                        ///< itself up over its first calls); the fastest warm-up run sets
                                        ///< the runs per repeat
    int repeats = 5;                    ///< timed repeats; the median of their per-run times is the latency
    double min_repeat_seconds = 0.02;   ///< each repeat loops the code until at least this long
    double max_total_seconds = 10.0;    ///< stop repeating early once this much time was spent (at least 1 repeat)
};

struct TimingStats {
    double median_s = 0;  ///< median over repeats of the mean time of one run
    double min_s = 0;
    double max_s = 0;
    double mean_s = 0;
    double stddev_s = 0;
    int repeats = 0;
    int runs_per_repeat = 0;
    std::vector<double> samples_s;  ///< per-run time of each repeat
};

/// Times `run` (which must do one complete execution) under `params`.
TimingStats time_callable(const std::function<void()> &run, const TimingParams &params);

/// The allocator every timed process runs with (the measuring worker and every peer's process): large
/// temporaries (Halide's intermediate buffers, a library's outputs) stay on the heap instead of being
/// mapped and unmapped on every run, so no run times page faults. Without it the same Winograd schedule read
/// 0.42 ms in one worker and 2.5 ms in the next (docs/results/space-v9-winograd-zen5); the peers had it
/// since 2026-11-29, worldtune's worker only since 2026-12-07.
void use_timing_allocator();


/// Wall-clock seconds from a monotonic clock.
double now_seconds();

}  // namespace worldtune
