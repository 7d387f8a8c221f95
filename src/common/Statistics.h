// The statistics every room uses: median, geometric mean, and bootstrap intervals for geometric means of
// ratios measured over seeds and workloads.
#pragma once

#include <cstdint>
#include <vector>

namespace worldtune {

/// The median of some values (0 for none).
double median_of(std::vector<double> values);
/// The geometric mean of positive values (0 for none).
double geomean(const std::vector<double> &values);

/// The measurements of one quantity on one workload: one list of repeated measurements per seed.
using SeedSamples = std::vector<std::vector<double>>;
/// The value of a workload: the median over seeds of each seed's median (0 for none).
double median_over_seeds(const SeedSamples &seeds);

/// One workload of a comparison: A's and B's measurements (lower is better, e.g. latencies).
struct PairedWorkload {
    SeedSamples a, b;
};

struct Interval {
    double point = 0;  ///< the statistic on the data as measured
    double low = 0, high = 0;  ///< the bootstrap percentile interval
    int workloads = 0;
};

/// The geometric mean over workloads of median_over_seeds(b) / median_over_seeds(a) (A's speedup over B),
/// with a percentile bootstrap interval at `confidence` (e.g. 0.95): each of `replicates` replicates draws
/// the workloads with replacement and, within each drawn workload, each side's seeds with replacement, so
/// the interval covers both the choice of workloads and the spread between seeds. Workloads where either
/// side has no measurement are left out. Deterministic for a seed.
Interval bootstrap_geomean_speedup(const std::vector<PairedWorkload> &workloads, double confidence = 0.95,
                                   int replicates = 2000, uint64_t seed = 1);

}  // namespace worldtune
