#include "common/Statistics.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace worldtune {

double median_of(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double geomean(const std::vector<double> &values) {
    if (values.empty()) return 0;
    double s = 0;
    for (double x : values) s += std::log(x);
    return std::exp(s / double(values.size()));
}

double median_over_seeds(const SeedSamples &seeds) {
    std::vector<double> per_seed;
    for (const std::vector<double> &s : seeds)
        if (!s.empty()) per_seed.push_back(median_of(s));
    return median_of(per_seed);
}

namespace {

SeedSamples resample(const SeedSamples &seeds, std::mt19937_64 &rng) {
    SeedSamples out;
    out.reserve(seeds.size());
    std::uniform_int_distribution<size_t> pick(0, seeds.size() - 1);
    for (size_t i = 0; i < seeds.size(); i++) out.push_back(seeds[pick(rng)]);
    return out;
}

bool usable(const PairedWorkload &w) { return median_over_seeds(w.a) > 0 && median_over_seeds(w.b) > 0; }

}  // namespace

Interval bootstrap_geomean_speedup(const std::vector<PairedWorkload> &workloads, double confidence, int replicates, uint64_t seed) {
    std::vector<PairedWorkload> kept;
    for (const PairedWorkload &w : workloads)
        if (usable(w)) kept.push_back(w);
    Interval out;
    out.workloads = int(kept.size());
    if (kept.empty()) return out;
    std::vector<double> ratios;
    for (const PairedWorkload &w : kept) ratios.push_back(median_over_seeds(w.b) / median_over_seeds(w.a));
    out.point = geomean(ratios);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<size_t> pick(0, kept.size() - 1);
    std::vector<double> stats;
    stats.reserve(size_t(std::max(1, replicates)));
    for (int r = 0; r < std::max(1, replicates); r++) {
        std::vector<double> draw;
        draw.reserve(kept.size());
        for (size_t i = 0; i < kept.size(); i++) {
            const PairedWorkload &w = kept[pick(rng)];
            const double a = median_over_seeds(resample(w.a, rng)), b = median_over_seeds(resample(w.b, rng));
            if (a > 0 && b > 0) draw.push_back(b / a);
        }
        if (!draw.empty()) stats.push_back(geomean(draw));
    }
    std::sort(stats.begin(), stats.end());
    const double tail = (1 - confidence) / 2;
    auto at = [&](double q) { return stats[std::min(stats.size() - 1, size_t(q * double(stats.size() - 1) + 0.5))]; };
    out.low = at(tail);
    out.high = at(1 - tail);
    return out;
}

}  // namespace worldtune
