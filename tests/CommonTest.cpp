// The shared statistics: median, geometric mean, the median over seeds and the bootstrap interval of a
// geometric-mean speedup; work spread over threads.
#include "common/Booster.h"
#include "common/FlatForest.h"
#include "common/OnThreads.h"
#include "common/Statistics.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>
#include <random>
#include <vector>

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

TEST(CommonTest, ForEachOnThreadsVisitsEveryItemOnceAndPassesTheFirstErrorOn) {
    std::vector<std::atomic<int>> visits(100);
    for_each_on_threads(visits.size(), 3, [&](size_t i) { visits[i]++; });
    for (size_t i = 0; i < visits.size(); i++) EXPECT_EQ(visits[i].load(), 1) << "item " << i;
    for_each_on_threads(0, 4, [](size_t) { FAIL() << "no item, no call"; });
    std::atomic<int> started{0};
    EXPECT_THROW(for_each_on_threads(1000, 2, [&](size_t i) {
        started++;
        if (i == 5) throw std::runtime_error("item 5");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }), std::runtime_error);
    EXPECT_LT(started.load(), 100) << "no new item starts once the error is known";
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

// The flat forest scores rows exactly as XGBoost's own predictor does (missing values included), and
// refuses what it cannot read.
TEST(FlatForest, GivesXGBoostsMarginsExactly) {
    const size_t count = 300, width = 6;
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> rows(count * width), labels(count);
    for (size_t i = 0; i < count; i++) {
        for (size_t f = 0; f < width; f++) rows[i * width + f] = (i + f) % 17 == 0 ? std::numeric_limits<float>::quiet_NaN() : u(rng);
        auto value = [&](size_t f) { return std::isnan(rows[i * width + f]) ? 0.5f : rows[i * width + f]; };
        labels[i] = std::sin(3.0f * value(0)) + value(1);
    }
    XgbMatrix train(rows, count, width);
    train.set_labels(labels);
    train.set_groups({100, 100, 100});
    Booster booster(train, {{"objective", "rank:pairwise"}, {"max_depth", "5"}, {"eta", "0.3"}, {"nthread", "1"}, {"verbosity", "0"}});
    for (int round = 0; round < 25; round++) booster.boost(round, train);
    const FlatForest forest = FlatForest::from_json(booster.to_json());
    EXPECT_EQ(forest.trees(), 25u);
    const std::vector<float> expected = booster.margins_dense(rows.data(), count, width);
    EXPECT_EQ(forest.margins(rows.data(), count, width), expected);
    float spread = 0;
    for (float m : expected) spread = std::max(spread, std::abs(m - expected[0]));
    EXPECT_GT(spread, 0.1f) << "the trees split on something";
    EXPECT_THROW(FlatForest::from_json("{}"), std::runtime_error);
    EXPECT_THROW(FlatForest::from_json("not json"), std::runtime_error);
}

}  // namespace
}  // namespace worldtune
