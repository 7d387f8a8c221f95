// Cost models: static features are deterministic and see the schedule; the static (Ansor) model learns a
// ranking from measured results, refuses invalid states, saves and loads; the factory knows every model.
#include "lower/StateText.h"
#include "model/BlendModel.h"
#include "model/ModelFactory.h"
#include "common/RankingMetrics.h"
#include "features/ScheduleFeatures.h"
#include "features/StaticFeatures.h"
#include "model/StaticModel.h"
#include "world/WorldBundle.h"
#include "schedule/Apply.h"
#include "search/SketchSampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <unistd.h>

using namespace worldtune;

namespace {

const char *kSmallMatmul = "matmul:M=128,N=128,K=128";

ActionList parse(const std::string &json_text) { return actions_from_json(nlohmann::json::parse(json_text)); }

/// The row of the statement that stores to the pipeline's output.
const std::vector<float> *output_row(const FeatureRows &rows) {
    for (const std::vector<float> &r : rows)
        if (r[kStoredIsOutput] == 1.0f) return &r;
    return nullptr;
}

/// The test's "hardware": faster with more unrolled loops and wider vectors. Latency in seconds.
double synthetic_latency(const ActionList &actions) {
    std::map<std::string, int64_t> factor;  // "stage/loop" -> extent the split gave it
    double unrolled = 0, vector_bits = 0;
    for (const Action &a : actions) {
        if (a.kind == ActionKind::Split) {
            const std::vector<std::string> names = a.split_names();
            for (size_t i = 1; i < names.size(); i++) factor[a.stage + "/" + names[i]] = a.factors[i - 1];
        }
        if (a.kind == ActionKind::Annotate && a.annotation == AnnotationKind::Unroll) unrolled += 1;
        if (a.kind == ActionKind::Annotate && a.annotation == AnnotationKind::Vectorize) {
            auto it = factor.find(a.stage + "/" + a.dims[0]);
            if (it != factor.end()) vector_bits += std::log2(double(it->second));
        }
    }
    return 1e-3 / (1.0 + unrolled + vector_bits);
}

MeasureResult synthetic_result(const WorkloadSpec &spec, const ActionList &actions) {
    MeasureResult r;
    r.spec = spec.canonical();
    r.actions = actions_to_json(actions);
    r.timing.median_s = synthetic_latency(actions);
    r.gflops = 1;
    return r;
}

std::vector<ActionList> sample_valid(const WorkloadSpec &spec, int count, uint64_t seed) {
    SketchSampler sampler(spec, SamplerParams{}, seed);
    std::vector<ActionList> out;
    for (int i = 0; i < count; i++) out.push_back(sampler.sample_valid());
    return out;
}

/// Share of pairs with different latencies that the scores order correctly (higher score = faster).
double pairwise_accuracy(const std::vector<double> &scores, const std::vector<double> &latencies) {
    int right = 0, pairs = 0;
    for (size_t i = 0; i < scores.size(); i++) {
        for (size_t j = i + 1; j < scores.size(); j++) {
            if (std::abs(latencies[i] - latencies[j]) < 1e-12) continue;
            pairs++;
            const bool faster_i = latencies[i] < latencies[j];
            right += faster_i ? scores[i] > scores[j] : scores[j] > scores[i];
        }
    }
    return pairs ? double(right) / pairs : 1.0;
}

}  // namespace

TEST(ModelTest, FeaturesAreDeterministic) {
    const WorkloadSpec spec = WorkloadSpec::parse(kSmallMatmul);
    const uint64_t seed = 11;
    std::cout << "seed " << seed << "\n";
    for (const ActionList &actions : sample_valid(spec, 4, seed)) {
        const FeatureRows a = extract_features(spec, actions);
        const FeatureRows b = extract_features(spec, actions);
        const FeatureRows c = extract_features(state_stmt(spec, actions));
        ASSERT_FALSE(a.empty());
        for (const std::vector<float> &row : a) ASSERT_EQ(int(row.size()), StaticFeatures::length());
        EXPECT_EQ(a, b) << actions_to_json(actions).dump();
        EXPECT_EQ(a, c) << actions_to_json(actions).dump();
        for (const std::vector<float> &row : a)
            for (float v : row) ASSERT_TRUE(std::isfinite(v));
    }
    // Extraction on several threads at once (the model's cache filling) gives the same rows.
    const std::vector<ActionList> many = sample_valid(spec, 12, seed + 1);
    CostModelParams params;
    params.threads = 3;
    StaticModel model(params);
    model.set_task(spec);
    std::vector<bool> valid;
    const std::vector<const FeatureRows *> parallel = model.features(many, &valid);
    for (size_t i = 0; i < many.size(); i++) {
        ASSERT_TRUE(valid[i] && parallel[i]);
        EXPECT_EQ(*parallel[i], extract_features(spec, many[i])) << actions_to_json(many[i]).dump();
    }
    EXPECT_EQ(StaticFeatures::name(kFloatMul), "float_mul");
    EXPECT_EQ(StaticFeatures::name(kBufferBase + kBufferFeatures + kBufTotalBytes), "buf1.total_bytes");
}

TEST(ModelTest, FeaturesSeeVectorization) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=64,N=64,K=64");
    const FeatureRows vec = extract_features(spec, parse(R"([["SP","out","n",[16],"auto"],["AN","out","n_1","vectorize"]])"));
    const FeatureRows scalar = extract_features(spec, parse(R"([["SP","out","n",[16],"auto"]])"));
    const std::vector<float> *v = output_row(vec), *s = output_row(scalar);
    ASSERT_TRUE(v && s);
    EXPECT_EQ((*v)[kIsVectorized], 1.0f);
    EXPECT_EQ((*s)[kIsVectorized], 0.0f);
    EXPECT_FLOAT_EQ((*v)[kVectorLanes], float(std::log2(17.0)));
    EXPECT_FLOAT_EQ((*s)[kVectorLanes], 1.0f);
    // The vectorized loop is gone from the nest, and the output's access is a dense vector.
    EXPECT_LT((*v)[kDepth], (*s)[kDepth]);
    bool dense_output = false;
    for (int slot = 0; slot < kBufferSlots; slot++) {
        const float *g = v->data() + kBufferBase + slot * kBufferFeatures;
        if (g[kBufIsStored] == 1.0f) dense_output = g[kBufLaneDense] == 1.0f;
    }
    EXPECT_TRUE(dense_output);
    // Same arithmetic in total.
    EXPECT_FLOAT_EQ((*v)[kStoreElems], (*s)[kStoreElems]);
}

TEST(ModelTest, FeaturesSeeUnrollingAndParallelism) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=64,N=64,K=64");
    const FeatureRows unrolled = extract_features(spec, parse(
        R"([["SP","out","n",[4],"auto"],["AN","out","n_1","unroll"],["AN","out","m","parallel"]])"));
    const std::vector<float> *u = output_row(unrolled);
    ASSERT_TRUE(u);
    EXPECT_EQ((*u)[kIsUnrolled], 1.0f);
    EXPECT_FLOAT_EQ((*u)[kUnrollCopies], float(std::log2(5.0)));
    EXPECT_EQ((*u)[kInParallel], 1.0f);
    EXPECT_FLOAT_EQ((*u)[kOuterParallelExtent], float(std::log2(65.0)));
}

TEST(ModelTest, InvalidStatesAreRefused) {
    const WorkloadSpec spec = WorkloadSpec::parse(kSmallMatmul);
    const ActionList invalid = parse(R"([["SP","out","nope",[4],"auto"]])");
    EXPECT_THROW(extract_features(spec, invalid), ScheduleError);

    StaticModel model;
    model.set_task(spec);
    // Untrained, the model lowers nothing: every candidate gets a small random score.
    std::vector<double> scores = model.predict({invalid, {}});
    ASSERT_EQ(scores.size(), 2u);
    EXPECT_TRUE(std::isfinite(scores[0]) && std::isfinite(scores[1]));
    // Trained, it lowers each candidate and refuses the invalid one.
    std::vector<MeasureResult> measured;
    const std::vector<ActionList> some = sample_valid(spec, 12, 3);
    for (size_t i = 0; i < some.size(); i++) {
        MeasureResult r;
        r.spec = spec.canonical();
        r.actions = actions_to_json(some[i]);
        r.timing.median_s = 1e-4 * double(1 + i);
        measured.push_back(r);
    }
    model.update(measured);
    ASSERT_TRUE(model.trained());
    scores = model.predict({invalid, {}});
    EXPECT_TRUE(std::isinf(scores[0]) && scores[0] < 0);
    EXPECT_TRUE(std::isfinite(scores[1]));
}

TEST(ModelTest, StaticModelLearnsARanking) {
    const WorkloadSpec spec = WorkloadSpec::parse(kSmallMatmul);
    const uint64_t seed = 5;
    std::cout << "seed " << seed << "\n";
    const std::vector<ActionList> candidates = sample_valid(spec, 70, seed);
    const std::vector<ActionList> train(candidates.begin(), candidates.begin() + 45);
    const std::vector<ActionList> held_out(candidates.begin() + 45, candidates.end());

    CostModelParams params;
    params.seed = seed;
    StaticModel model(params);
    model.set_task(spec);
    EXPECT_FALSE(model.trained());
    // Too few measurements: no training yet.
    std::vector<MeasureResult> results;
    for (size_t i = 0; i < 4; i++) results.push_back(synthetic_result(spec, train[i]));
    model.update(results);
    EXPECT_FALSE(model.trained());
    results.clear();
    for (size_t i = 4; i < train.size(); i++) results.push_back(synthetic_result(spec, train[i]));
    MeasureResult failed = synthetic_result(spec, train[0]);
    failed.error = ErrorKind::Timeout;
    results.push_back(failed);
    model.update(results);
    ASSERT_TRUE(model.trained());
    EXPECT_EQ(model.samples(), train.size() + 1);
    EXPECT_GT(model.rounds(), 0);

    std::vector<double> latencies;
    for (const ActionList &a : held_out) latencies.push_back(synthetic_latency(a));
    const std::vector<double> scores = model.predict(held_out);
    const double accuracy = pairwise_accuracy(scores, latencies);
    std::cout << "pairwise accuracy on " << held_out.size() << " held-out candidates: " << accuracy << "\n";
    EXPECT_GT(accuracy, 0.7);

    // Trained, an invalid candidate still gets -infinity.
    const std::vector<double> invalid = model.predict({parse(R"([["AN","out","nope","parallel"]])")});
    EXPECT_TRUE(std::isinf(invalid[0]) && invalid[0] < 0);

    // Save and load give the same scores; other files are refused.
    const std::string path = ::testing::TempDir() + "static_model_" + std::to_string(getpid()) + ".bin";
    model.save(path);
    StaticModel loaded(params);
    loaded.load(path);
    loaded.set_task(spec);
    const std::vector<double> again = loaded.predict(held_out);
    ASSERT_EQ(again.size(), scores.size());
    for (size_t i = 0; i < scores.size(); i++) EXPECT_NEAR(again[i], scores[i], 1e-5);
    {
        std::FILE *f = std::fopen(path.c_str(), "w");
        std::fputs("{\"format\": \"worldtune-static-model\", \"version\": 1, \"feature_version\": -3}\n", f);
        std::fclose(f);
    }
    EXPECT_THROW(loaded.load(path), ModelError);
    std::remove(path.c_str());
    StaticModel untrained;
    EXPECT_THROW(untrained.save(path), ModelError);
}

TEST(ModelTest, ScheduleFeaturesFollowTheLoopNest) {
    const std::vector<FuncInfo> funcs = build_workload("matmul:M=40,N=48,K=36")->func_infos;
    const ActionList actions = actions_from_json(nlohmann::json::parse(R"([
        ["SP","out","n",[16],"auto"],["SP","out","m",[4],"auto"],["RE","out",["n_1","m_1","n_0","m_0"]],
        ["FU","out","n_0","m_0","t"],["AN","out","t","parallel"],["AN","out","n_1","vectorize"],
        ["AN","out","zz","unroll"],["CA","acc","out","t"],["SO","acc",["m","n"]],
        ["SP","acc.u0","m",[4],"auto"],["AN","acc.u0","m_1","unroll"]])"));
    std::map<std::string, float> f;
    for (const auto &[key, value] : schedule_features(funcs, actions)) f[key] = value;
    EXPECT_EQ(f["out|vec"], 16);
    EXPECT_EQ(f["out|vec=n"], 1);
    EXPECT_EQ(f["out|par"], 3 * 10) << "48/16 times 40/4 tiles, fused";
    EXPECT_EQ(f["out|unroll"], 1) << "the unknown loop is skipped";
    EXPECT_EQ(f["out|in|m"], 4);
    EXPECT_EQ(f["out|pos|m"], 1);
    EXPECT_EQ(f["out|inner=n"], 1);
    EXPECT_EQ(f["acc|loc"], 2);
    EXPECT_EQ(f["acc|at=t"], 1);
    EXPECT_EQ(f["acc|instances"], 30);
    EXPECT_EQ(f["acc|store=m"], 1);
    EXPECT_EQ(f["acc.u0|unroll"], 4);
    EXPECT_EQ(f["acc.u0|out|m"], 10);
    EXPECT_EQ(f["acc.u0|pos|k$x"], 0) << "the reduction innermost, Halide's default";
    EXPECT_EQ(f["acc.u0|pos|m"], 2);

    // Unscheduled: acc is inlined (Halide's default), nothing vectorized.
    std::map<std::string, float> plain;
    for (const auto &[key, value] : schedule_features(funcs, {})) plain[key] = value;
    EXPECT_EQ(plain["acc|loc"], 0);
    EXPECT_EQ(plain["out|vec"], 0);

    // Columns in first-seen order; a key a row lacks reads 0; the width cuts later columns.
    FeatureColumns columns;
    columns.add_keys({{"a", 1}, {"b", 2}});
    columns.add_keys({{"c", 3}, {"a", 4}});
    EXPECT_EQ(columns.size(), 3u);
    std::vector<float> row = {9};
    columns.append_row({{"c", 5}, {"a", 6}, {"new", 7}}, 3, row);
    EXPECT_EQ(row, (std::vector<float>{9, 6, 0, 5}));
    columns.append_row({{"c", 5}, {"a", 6}}, 2, row);
    EXPECT_EQ(row, (std::vector<float>{9, 6, 0, 5, 6, 0}));
}

// matmul's update acc(n, m) += A(k, m) * B(n, k): how its loops walk A, B and the store, and the bytes the
// innermost loops touch, with and without a vectorized n innermost.
TEST(ModelTest, AccessFeaturesFollowTheReads) {
    const std::vector<FuncInfo> funcs = build_workload("matmul:M=40,N=48,K=36")->func_infos;
    auto features = [&](const std::string &actions, bool with_access) {
        std::map<std::string, float> f;
        for (const auto &[key, value] : schedule_features(funcs, actions_from_json(nlohmann::json::parse(actions)), with_access)) f[key] = value;
        return f;
    };
    std::map<std::string, float> plain = features("[]", true);
    EXPECT_EQ(plain.count("acc.u0|vec_contig"), 0u) << "nothing vectorized";
    EXPECT_EQ(plain["acc.u0|in_contig"], 1) << "k walks A's rows";
    EXPECT_EQ(plain["acc.u0|in_strided"], 1) << "and B's columns";
    EXPECT_EQ(plain["acc.u0|in_bcast"], 0);
    EXPECT_EQ(plain["acc.u0|in_store"], 0) << "the store stays on one element";
    EXPECT_FLOAT_EQ(plain["acc.u0|fp1"], std::log2(1.0f + 4 * (36 + 36 + 1)));
    EXPECT_FLOAT_EQ(plain["acc.u0|fp2"], std::log2(1.0f + 4 * (36 + 48 * 36 + 48)));
    EXPECT_FLOAT_EQ(plain["acc.u0|fp3"], std::log2(1.0f + 4 * (36 * 40 + 48 * 36 + 48 * 40)));
    EXPECT_FLOAT_EQ(plain["acc.u0|fp_task"], plain["acc.u0|fp3"]) << "no parallel loop: the whole nest";
    EXPECT_EQ(plain.count("acc.u0|fp4"), 0u) << "three loops";

    std::map<std::string, float> vec = features(R"([["SP","acc.u0","n",[16],"auto"],["RE","acc.u0",["n_1","k$x"]],
        ["AN","acc.u0","n_1","vectorize"],["AN","acc.u0","m","parallel"]])", true);
    EXPECT_EQ(vec["acc.u0|vec_bcast"], 1) << "A does not depend on n";
    EXPECT_EQ(vec["acc.u0|vec_contig"], 1) << "B's rows";
    EXPECT_EQ(vec["acc.u0|vec_strided"], 0);
    EXPECT_EQ(vec["acc.u0|vec_store"], 1) << "a vector store";
    EXPECT_EQ(vec["acc.u0|in_contig"], 1) << "the innermost loop is the vectorized one";
    EXPECT_FLOAT_EQ(vec["acc.u0|fp1"], std::log2(1.0f + 4 * (1 + 16 + 16)));
    EXPECT_FLOAT_EQ(vec["acc.u0|fp2"], std::log2(1.0f + 4 * (36 + 16 * 36 + 16)));
    EXPECT_FLOAT_EQ(vec["acc.u0|fp_task"], std::log2(1.0f + 4 * (36 + 48 * 36 + 48))) << "inside the parallel m";
    EXPECT_EQ(features("[]", false).count("acc.u0|fp1"), 0u) << "only with_access";
}

TEST(ModelTest, ParallelismFeaturesCountLaunchesAndTasks) {
    auto features = [](const std::string &spec, const std::string &actions) {
        const auto workload = build_workload(spec);
        std::vector<float> row = {7};
        append_parallelism_features(workload->func_infos, actions_from_json(nlohmann::json::parse(actions)), workload->flops, row);
        EXPECT_EQ(row.size(), size_t(1 + kParallelismFeatures));
        EXPECT_FLOAT_EQ(row[0], 7) << "appended, not overwritten";
        EXPECT_FLOAT_EQ(row[1], float(std::log2(1 + workload->flops)));
        return row;
    };
    // The fused tiles of out start once (30 tasks); acc, computed inside them, starts its parallel loop in
    // each of its 30 instances (10 tasks each).
    const std::vector<float> nested = features("matmul:M=40,N=48,K=36", R"([
        ["SP","out","n",[16],"auto"],["SP","out","m",[4],"auto"],["RE","out",["n_1","m_1","n_0","m_0"]],
        ["FU","out","n_0","m_0","t"],["AN","out","t","parallel"],["CA","acc","out","t"],
        ["SP","acc.u0","m",[4],"auto"],["AN","acc.u0","m_0","parallel"]])");
    EXPECT_FLOAT_EQ(nested[2], float(std::log2(1 + 31.0)));
    EXPECT_FLOAT_EQ(nested[3], float(std::log2(1 + 30.0 + 300.0)));
    EXPECT_FLOAT_EQ(nested[4], float(std::log2(1 + 2.0 * 40 * 48 * 36 / 31)));
    // A parallel loop of extent 1 runs serially: no launch, as with no annotation at all.
    const std::string pool = "pool2d:N=1,C=16,H=4,W=4,R=4,S=4,kind=avg";
    EXPECT_EQ(features(pool, R"([["AN","out","n","parallel"]])"), features(pool, "[]"));
    EXPECT_FLOAT_EQ(features(pool, "[]")[2], 0);
    const std::vector<float> channels = features(pool, R"([["AN","out","c","parallel"]])");
    EXPECT_FLOAT_EQ(channels[2], 1);
    EXPECT_FLOAT_EQ(channels[3], float(std::log2(1 + 16.0)));
}

TEST(ModelTest, ActionContextsReadTheExtentsActedOn) {
    const ActionList actions = actions_from_json(nlohmann::json::parse(R"([
        ["SP","out","n",[16],"auto"],["SP","out","m",[4],"auto"],["RE","out",["n_1","m_1","n_0","m_0"]],
        ["FU","out","n_0","m_0","t"],["AN","out","t","parallel"],["AN","out","n_1","vectorize"],
        ["CA","acc","out","t"],["CR","acc"],["AN","out","zz","unroll"]])"));
    const std::vector<ActionContext> even = action_contexts(build_workload("matmul:M=40,N=48,K=36")->func_infos, actions);
    const std::vector<ActionContext> odd = action_contexts(build_workload("matmul:M=40,N=47,K=36")->func_infos, actions);
    ASSERT_EQ(even.size(), actions.size());
    // Split n (48, or 47) by 16: the extent, the factor, whether it divides, the waste past the end.
    EXPECT_FLOAT_EQ(even[0][0], std::log2(49.0f));
    EXPECT_FLOAT_EQ(even[0][1], std::log2(17.0f));
    EXPECT_EQ(even[0][2], 1);
    EXPECT_EQ(even[0][3], 0);
    EXPECT_FLOAT_EQ(even[0][4], std::log2(4.0f)) << "3 outer tiles";
    EXPECT_EQ(even[0][5], 1);
    EXPECT_EQ(even[0][6], 1);
    EXPECT_EQ(odd[0][2], 0) << "16 does not divide 47";
    EXPECT_FLOAT_EQ(odd[0][3], 1.0f / 48.0f);
    EXPECT_EQ(odd[0][5], 0);
    // Fuse n_0 (3 tiles) and m_0 (10): the fused extent, the inner and outer extents.
    EXPECT_FLOAT_EQ(even[3][0], std::log2(31.0f));
    EXPECT_FLOAT_EQ(even[3][1], std::log2(4.0f));
    EXPECT_FLOAT_EQ(even[3][4], std::log2(11.0f));
    // Parallel t (30) at position 2; vectorize n_1 (16) innermost.
    EXPECT_FLOAT_EQ(even[4][0], std::log2(31.0f));
    EXPECT_EQ(even[4][4], 2);
    EXPECT_FLOAT_EQ(even[5][0], std::log2(17.0f));
    EXPECT_EQ(even[5][4], 0);
    // compute_at t: acc computed once per fused tile (30 times); compute_root: acc's 40 x 48 points.
    EXPECT_FLOAT_EQ(even[6][1], std::log2(31.0f));
    EXPECT_FLOAT_EQ(even[7][0], std::log2(1.0f + 40 * 48));
    // An unknown loop is flagged as such.
    EXPECT_EQ(even[8][7], 0);
    EXPECT_EQ(even[5][7], 1);
    // One simulation gives both the contexts and the parallelism features.
    const auto workload = build_workload("matmul:M=40,N=48,K=36");
    std::vector<ActionContext> contexts;
    std::vector<float> together = {1}, apart = {1};
    read_schedule(workload->func_infos, actions, workload->flops, contexts, together);
    append_parallelism_features(workload->func_infos, actions, workload->flops, apart);
    EXPECT_EQ(contexts, even);
    EXPECT_EQ(together, apart);
}

TEST(ModelTest, ScheduleReaderResetsBetweenCandidates) {
    // One reader over many sampled candidates gives what a fresh simulation of each gives: nothing of one
    // candidate's loop nest (splits, fusions, placements) leaks into the next. In space 9 some candidates are
    // Winograd ones: they are read over the Winograd program's stages, the others over the direct program's.
    const WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=16,H=14,W=14,K=32,R=3,S=3,pad=1,bias=1,act=relu");
    const TaskPrograms programs(spec);
    EXPECT_EQ(programs.flops(), build_workload(spec)->flops);
    SketchSampler sampler(spec, sampler_params_for_space("v9"), 7);
    ScheduleReader reader(programs);
    int winograd = 0;
    for (int i = 0; i < 60; i++) {
        const ActionList actions = sampler.draw();
        const std::vector<FuncInfo> &funcs = programs.funcs_for(actions);
        const bool wino = winograd_tile_of(actions) > 0;
        winograd += wino;
        ASSERT_EQ(wino, std::any_of(funcs.begin(), funcs.end(), [](const FuncInfo &f) { return f.name == "wino_in"; }));
        std::vector<ActionContext> reused, fresh;
        std::vector<float> reused_par, fresh_par;
        reader.read(actions, programs.flops(), reused, reused_par);
        read_schedule(funcs, actions, programs.flops(), fresh, fresh_par);
        ASSERT_EQ(reused, fresh) << "candidate " << i;
        ASSERT_EQ(reused_par, fresh_par) << "candidate " << i;
        ASSERT_EQ(fresh, action_contexts(funcs, actions)) << "candidate " << i;
    }
    EXPECT_GE(winograd, 10);
    EXPECT_LE(winograd, 50);
}

TEST(ModelTest, ScheduleReaderBlockSharesPrefixesExactly) {
    // A block read with its common prefixes simulated once gives every candidate what a fresh simulation of
    // it gives: sampled candidates (Winograd ones among them) sorted by their actions, each also followed by
    // a copy and by its prefixes, so some share everything, some are a prefix of the one before or after.
    const WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=16,H=14,W=14,K=32,R=3,S=3,pad=1,bias=1,act=relu");
    const TaskPrograms programs(spec);
    SketchSampler sampler(spec, sampler_params_for_space("v9"), 11);
    std::vector<ActionList> candidates;
    for (int i = 0; i < 40; i++) {
        const ActionList actions = sampler.draw();
        candidates.push_back(actions);
        candidates.push_back(actions);
        candidates.emplace_back(actions.begin(), actions.begin() + long(actions.size() / 2));
        candidates.emplace_back(actions.begin(), actions.begin() + long(actions.size() - 1));
    }
    auto texts = [](const ActionList &actions) {
        std::vector<std::string> out;
        for (const Action &a : actions) out.push_back(a.to_string());
        return out;
    };
    std::sort(candidates.begin(), candidates.end(), [&](const ActionList &a, const ActionList &b) { return texts(a) < texts(b); });
    std::vector<const ActionList *> lists;
    std::vector<size_t> shared;
    for (size_t j = 0; j < candidates.size(); j++) {
        lists.push_back(&candidates[j]);
        size_t n = 0;
        if (j > 0)
            while (n < candidates[j].size() && n < candidates[j - 1].size() && candidates[j][n].to_string() == candidates[j - 1][n].to_string()) n++;
        shared.push_back(n);
    }
    ASSERT_GT(std::count_if(shared.begin(), shared.end(), [](size_t n) { return n > 3; }), 60);
    ScheduleReader reader(programs);
    for (int pass = 0; pass < 2; pass++) {  // the second pass reuses the reader's saved states' storage
        std::vector<std::vector<ActionContext>> contexts(lists.size(), std::vector<ActionContext>(2));
        std::vector<std::vector<float>> parallelism(lists.size());
        reader.read_block(lists, shared, programs.flops(), contexts, parallelism);
        for (size_t j = 0; j < lists.size(); j++) {
            std::vector<ActionContext> fresh;
            std::vector<float> fresh_par;
            read_schedule(programs.funcs_for(candidates[j]), candidates[j], programs.flops(), fresh, fresh_par);
            ASSERT_EQ(contexts[j], fresh) << "candidate " << j << ", pass " << pass;
            ASSERT_EQ(parallelism[j], fresh_par) << "candidate " << j << ", pass " << pass;
        }
    }
}

TEST(ModelTest, RankingMetricsScoreTiesByExpectedValue) {
    // A constant model earns what random picking earns: the mean gain for top-1, half the pairs.
    const RankingMetrics flat = group_ranking_metrics({1, 2, 4}, {0, 0, 0});
    EXPECT_NEAR(flat.top1, (1 + 0.5 + 0.25) / 3, 1e-12);
    EXPECT_NEAR(flat.top5, 1.0, 1e-12);
    EXPECT_NEAR(flat.pairwise, 0.5, 1e-12);
    const RankingMetrics perfect = group_ranking_metrics({1, 2, 4}, {3, 2, 1});
    EXPECT_EQ(perfect.top1, 1.0);
    EXPECT_EQ(perfect.pairwise, 1.0);
    EXPECT_NEAR(perfect.ndcg10, 1.0, 1e-12);
    // Top-5 of six tied candidates holds the best with probability 5/6; else the second best.
    const RankingMetrics six = group_ranking_metrics({1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 0, 0});
    EXPECT_NEAR(six.top5, 5.0 / 6 + 1.0 / 6 * 0.5, 1e-12);
    // A tie below a clear first pick: top-1 is that pick; NDCG spreads the tied gains evenly.
    const RankingMetrics head = group_ranking_metrics({2, 1, 4}, {5, 1, 1});
    EXPECT_NEAR(head.top1, 0.5, 1e-12);
    const double ideal = 1 + 0.5 / std::log2(3.0) + 0.25 / 2;
    EXPECT_NEAR(head.ndcg10, (0.5 + 0.625 / std::log2(3.0) + 0.625 / 2) / ideal, 1e-12);
    // Reversed order of the same scores: the expected value does not depend on the candidates' order.
    const RankingMetrics reversed = group_ranking_metrics({4, 1, 2}, {1, 1, 5});
    EXPECT_NEAR(reversed.ndcg10, head.ndcg10, 1e-12);
    EXPECT_NEAR(reversed.top5, head.top5, 1e-12);
}

TEST(ModelTest, NormalizedRanksShareTiesAndKeepRefusals) {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> r = normalized_ranks({3.0, -inf, 1.0, 3.0, 2.0});
    ASSERT_EQ(r.size(), 5u);
    EXPECT_DOUBLE_EQ(r[2], 0.0);
    EXPECT_DOUBLE_EQ(r[4], 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(r[0], 2.5 / 3.0);
    EXPECT_DOUBLE_EQ(r[3], 2.5 / 3.0);
    EXPECT_TRUE(std::isinf(r[1]) && r[1] < 0);
    EXPECT_EQ(normalized_ranks({}).size(), 0u);
}

// world+static: the world model alone until the static model has trained, then the mean of the two
// models' normalized ranks (each model fed the same measurements).
TEST(ModelTest, BlendIsTheWorldModelThenTheMeanOfBothRanks) {
    CostModelParams params;
    params.seed = 5;
    params.threads = 1;
    params.world_bundle = std::string(WORLDTUNE_SOURCE_DIR) + "/models/world";
    const WorkloadSpec spec = WorkloadSpec::parse(kSmallMatmul);
    const std::vector<ActionList> candidates = sample_valid(spec, 60, 5);
    const std::vector<ActionList> train(candidates.begin(), candidates.begin() + 40);
    const std::vector<ActionList> held_out(candidates.begin() + 40, candidates.end());
    std::unique_ptr<CostModel> blend = make_cost_model("world+static", params);
    std::unique_ptr<CostModel> world = make_cost_model("world", params);
    StaticModel alone(params);
    EXPECT_EQ(blend->name(), "world+static");
    for (CostModel *m : {blend.get(), world.get(), static_cast<CostModel *>(&alone)}) m->set_task(spec);
    EXPECT_EQ(blend->predict(held_out), world->predict(held_out));

    std::vector<MeasureResult> results;
    for (const ActionList &a : train) results.push_back(synthetic_result(spec, a));
    for (CostModel *m : {blend.get(), world.get(), static_cast<CostModel *>(&alone)}) m->update(results);
    ASSERT_TRUE(alone.trained());
    const std::vector<double> scores = blend->predict(held_out);
    const std::vector<double> a = normalized_ranks(world->predict(held_out)), b = normalized_ranks(alone.predict(held_out));
    ASSERT_EQ(scores.size(), held_out.size());
    for (size_t i = 0; i < scores.size(); i++) {
        EXPECT_GE(scores[i], 0.0);
        EXPECT_LE(scores[i], 1.0);
        EXPECT_NEAR(scores[i], 0.5 * (a[i] + b[i]), 1e-9) << i;
    }
    EXPECT_GT(*std::max_element(scores.begin(), scores.end()), *std::min_element(scores.begin(), scores.end()));
}

TEST(ModelTest, FactoryKnowsEveryModel) {
    CostModelParams no_bundle;
    no_bundle.world_bundle = "/nonexistent/worldtune/bundle";
    for (const std::string &name : cost_model_names()) {
        if (name.rfind("world", 0) == 0) {
            // World models need a trained bundle (WorldModelTest trains a tiny one); without it, one clear error.
            EXPECT_THROW(make_cost_model(name, no_bundle), BundleError) << name;
            continue;
        }
        std::unique_ptr<CostModel> m = make_cost_model(name);
        ASSERT_TRUE(m);
        EXPECT_EQ(m->name(), name);
        m->set_task(WorkloadSpec::parse(kSmallMatmul));
        EXPECT_EQ(m->predict({{}, {}}).size(), 2u);
    }
    EXPECT_NO_THROW(make_cost_model("static"));
    EXPECT_NO_THROW(make_cost_model("random"));
    EXPECT_THROW(make_cost_model("oracle"), std::invalid_argument);
}

TEST(ModelTest, ScoringThroughputOnLargeMatmul) {
    // A model trained on the small matmul scores a population of the 1024^3 one.
    const WorkloadSpec small = WorkloadSpec::parse(kSmallMatmul);
    CostModelParams params;
    StaticModel model(params);
    model.set_task(small);
    std::vector<MeasureResult> results;
    for (const ActionList &a : sample_valid(small, 16, 3)) results.push_back(synthetic_result(small, a));
    model.update(results);
    ASSERT_TRUE(model.trained());

    const WorkloadSpec big = WorkloadSpec::parse("matmul:M=1024,N=1024,K=1024");
    SketchSampler sampler(big, SamplerParams{}, 17);
    std::vector<ActionList> population;
    for (int i = 0; i < 256; i++) population.push_back(sampler.draw());
    const ScoringThroughput t = measure_scoring_throughput(model, big, population);
    std::cout << "static model, " << big.canonical() << ", " << t.candidates << " candidates (" << t.invalid
              << " invalid), " << params.threads << " threads: " << t.candidates_per_second
              << " candidates/s with feature extraction, " << t.cached_candidates_per_second
              << " candidates/s cached; feature vector length " << StaticFeatures::length() << "\n";
    EXPECT_GT(t.candidates_per_second, 0);
    EXPECT_GT(t.cached_candidates_per_second, t.candidates_per_second);
}
