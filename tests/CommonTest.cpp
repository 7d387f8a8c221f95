// The shared statistics: median, geometric mean, the median over seeds and the bootstrap interval of a
// geometric-mean speedup.
#include "common/Statistics.h"

#include <gtest/gtest.h>

namespace worldtune {
namespace {

TEST(CommonTest, MedianAndGeomean) {
    EXPECT_EQ(median_of({}), 0);
    EXPECT_EQ(median_of({3, 1, 2}), 2);
    EXPECT_EQ(median_of({4, 1, 2, 3}), 2.5);
    EXPECT_EQ(geomean({}), 0);
    EXPECT_NEAR(geomean({1, 4}), 2, 1e-12);
    EXPECT_EQ(median_over_seeds({{1, 9, 2}, {}, {5}, {7, 7}}), 5) << "the median of 2, 5 and 7";
}

TEST(CommonTest, BootstrapIntervalCoversTheSpreadOfSeedsAndWorkloads) {
    // A is 2x faster than B everywhere, with no noise: the interval collapses onto 2.
    std::vector<PairedWorkload> exact(5, PairedWorkload{{{1}, {1}, {1}}, {{2}, {2}, {2}}});
    const Interval tight = bootstrap_geomean_speedup(exact);
    EXPECT_NEAR(tight.point, 2, 1e-12);
    EXPECT_NEAR(tight.low, 2, 1e-12);
    EXPECT_NEAR(tight.high, 2, 1e-12);
    EXPECT_EQ(tight.workloads, 5);

    // Seeds that disagree widen it, and it still holds the point estimate.
    std::vector<PairedWorkload> noisy;
    for (int w = 0; w < 8; w++) noisy.push_back({{{1.0}, {1.6}, {0.7}, {1.2}, {0.9}}, {{2.0}, {1.1}, {2.5}, {1.4}, {1.9}}});
    const Interval wide = bootstrap_geomean_speedup(noisy, 0.95, 2000, 7);
    EXPECT_LT(wide.low, wide.point);
    EXPECT_GT(wide.high, wide.point);
    EXPECT_LT(wide.low, 1.5);
    EXPECT_EQ(bootstrap_geomean_speedup(noisy, 0.95, 2000, 7).low, wide.low) << "deterministic for a seed";

    // A workload missing one side is left out; none at all gives an empty interval.
    noisy.push_back({{}, {{3}}});
    EXPECT_EQ(bootstrap_geomean_speedup(noisy).workloads, 8);
    EXPECT_EQ(bootstrap_geomean_speedup({}).workloads, 0);
}

}  // namespace
}  // namespace worldtune
