// The world model: tokenizer, windows and masked pooling, the plain-C++ rollout (an empty action list
// returns z_0; the training path's rollout is compared with it inside the tiny recipe's ranker), a few training steps lower each loss, save/load round trips
// give identical scores, and the whole recipe on a tiny dataset yields a bundle that scores candidates,
// evaluates, and refuses a broken bundle with one clear line.
#include "dataset/DatasetFile.h"
#include "dataset/TransitionCorpus.h"
#include "lower/StateText.h"
#include "measure/Hardware.h"
#include "train/Calibration.h"
#include "train/EncoderTrainer.h"
#include "train/EncodingCache.h"
#include "train/StateCorpus.h"
#include "world/Nets.h"
#include "world/Ranker.h"
#include "world/LatentCorrection.h"
#include "world/Rollout.h"
#include "world/Tokenizer.h"
#include "train/Training.h"
#include "train/TransitionTrainer.h"
#include "world/Windows.h"
#include "world/WorldModel.h"
#include "search/SketchSampler.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

using namespace worldtune;

namespace {

std::string temp_path(const std::string &name) {
    const std::string path = ::testing::TempDir() + "worldtune_world_" + std::to_string(getpid()) + "_" + name;
    std::filesystem::remove_all(path);
    return path;
}

/// A configuration small enough to train in seconds.
WorldConfig tiny_config() {
    WorldConfig c;
    c.d_model = 32;
    c.layers = 1;
    c.heads = 2;
    c.ffn = 64;
    c.window = 32;
    c.stride = 24;
    c.max_windows = 6;
    c.dropout = 0.0;
    c.mlm_steps = 40;
    c.mlm_batch = 8;
    c.contrastive_steps = 12;
    c.contrastive_workloads = 3;
    c.contrastive_per_workload = 2;
    c.contrastive_max_windows = 2;
    c.action_dim = 16;
    c.action_hidden = 32;
    c.transition_epochs = 3;
    c.transition_batch = 8;
    c.intermediate_trajectories = 6;
    c.ranker_rounds = 20;
    c.online_rounds = 20;
    c.checkpoint_every = 20;
    c.threads = 1;
    return c;
}

const std::vector<std::string> kTinySpecs = {
    "matmul:M=16,N=16,K=8",  "matmul:M=17,N=16,K=8",  "matmul:M=32,N=8,K=8", "softmax:M=8,N=16",
    "softmax:M=9,N=16",      "dense:M=4,N=16,K=8",     "matmul:M=24,N=24,K=4", "softmax:M=12,N=8"};

/// A dataset of sampled schedules with synthetic latencies (longer action lists run slower), six
/// workloads in train, one in val, one in test.
const std::string &tiny_dataset() {
    static const std::string path = [] {
        Dataset d;
        d.created_at = "2026-01-01T00:00:00Z";
        d.worldtune_version = "test";
        d.hardware = {{"cpu_model", "Test CPU"}, {"logical_cores", 2}, {"isa", "avx2 fma"}};
        for (size_t w = 0; w < kTinySpecs.size(); w++) {
            DatasetWorkload wl;
            wl.spec = WorkloadSpec::parse(kTinySpecs[w]).canonical();
            wl.split = w < 6 ? SplitKind::Train : w == 6 ? SplitKind::Val : SplitKind::Test;
            SketchSampler sampler(WorkloadSpec::parse(wl.spec), SamplerParams{}, 11 + w);
            for (int i = 0; i < 6; i++) {
                DatasetTrajectory t;
                const ActionList actions = sampler.sample_valid();
                t.actions = actions_to_json(actions);
                t.latency_s = 1e-6 * double(5 + actions.size() + (i % 3));
                t.min_s = t.latency_s;
                t.gflops = 1;
                wl.trajectories.push_back(std::move(t));
            }
            d.workloads.push_back(std::move(wl));
        }
        std::sort(d.workloads.begin(), d.workloads.end(), [](const auto &a, const auto &b) { return a.spec < b.spec; });
        const std::string p = temp_path("tiny.jsonl");
        write_dataset(d, p);
        return p;
    }();
    return path;
}

/// Measurements of the first `count` candidates, each slower than the one before.
std::vector<MeasureResult> measured_in_order(const WorkloadSpec &spec, const std::vector<ActionList> &candidates, size_t count) {
    std::vector<MeasureResult> measured;
    for (size_t i = 0; i < count; i++) {
        MeasureResult r;
        r.spec = spec.canonical();
        r.actions = actions_to_json(candidates[i]);
        r.timing.median_s = 1e-6 * double(1 + i);
        measured.push_back(r);
    }
    return measured;
}

/// The bundle trained from the tiny dataset (once per test process).
const std::string &tiny_bundle() {
    static const std::string dir = [] {
        const std::string out = temp_path("bundle");
        TrainOptions o;
        o.datasets = {tiny_dataset()};
        o.out = out;
        o.config = tiny_config();
        train_world_model(o, [](const std::string &line) { std::printf("%s\n", line.c_str()); });
        return out;
    }();
    return dir;
}

RankerParams one_thread_params(int rounds, double eta) {
    RankerParams p;
    p.rounds = rounds;
    p.eta = eta;
    p.threads = 1;
    return p;
}

Ranker trained_ranker(const RankingData &data, int state_dim, const RankerParams &params) {
    Ranker ranker("world", state_dim);
    ranker.train(data, nullptr, params);
    return ranker;
}

/// Ranking data of `groups` groups of `per_group` rows, the first `varying` columns uniform in [0, 1) and
/// the rest 0; a row's latency is 1 + 3 × its first column + noise × uniform.
RankingData random_ranking_data(unsigned seed, int groups, int per_group, int width, int varying, double noise) {
    RankingData data;
    data.width = width;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int g = 0; g < groups; g++) {
        std::vector<std::vector<float>> rows;
        std::vector<double> latencies;
        for (int i = 0; i < per_group; i++) {
            std::vector<float> row(static_cast<size_t>(width), 0.0f);
            for (int k = 0; k < varying; k++) row[size_t(k)] = u(rng);
            latencies.push_back(1.0 + 3.0 * row[0] + noise * u(rng));
            rows.push_back(row);
        }
        data.add_group(rows, latencies);
    }
    return data;
}

}  // namespace

TEST(WorldModel, TokenizerKeepsNumbersMeaningful) {
    const std::vector<std::string> words = Tokenizer::lex("for (out.s0.x.x_1, 0, 1023) {\n  out[t137] = x16(0.500000f) <= b\n}");
    const std::vector<std::string> expected = {"for", "(", "out.s0.x.x_1", ",", "0", ",", "1023", ")", "{", "out", "[",
                                               "t137", "]", "=", "x16", "(", "0.500000f", ")", "<=", "b", "}"};
    EXPECT_EQ(words, expected);
    const Tokenizer t = Tokenizer::train({"for (out.s0.x, 0, 1024) { out[t1] = 2.0f }", "for (out.s0.y, 0, 1023) {}"}, 512, 1);
    const std::vector<int32_t> a = t.encode("1023"), b = t.encode("1024");
    ASSERT_EQ(a.size(), 5u);  // <n4> and four digits
    ASSERT_EQ(b.size(), 5u);
    EXPECT_EQ(t.word(a[0]), "<n4>");
    int differ = 0;
    for (size_t i = 0; i < a.size(); i++) differ += a[i] != b[i];
    EXPECT_EQ(differ, 1) << "1023 and 1024 differ in their last digit only";
    EXPECT_EQ(t.encode("17").size(), 1u);
    // A name splits at dots and before trailing digits: out . s 0 . x
    const std::vector<int32_t> name = t.encode("out.s0.x");
    ASSERT_EQ(name.size(), 6u);
    EXPECT_EQ(t.word(name[0]), "out");
    EXPECT_EQ(t.word(name[1]), ".");
    EXPECT_EQ(t.word(name[3]), "0");
    EXPECT_EQ(t.encode("zzz_unseen_word")[0], Tokenizer::kUnk);

    const std::string path = temp_path("tok.json");
    t.save(path);
    EXPECT_EQ(Tokenizer::load(path), t);
    std::ofstream(path) << "{\"format\": \"something-else\"}";
    EXPECT_THROW(Tokenizer::load(path), TokenizerError);
    EXPECT_THROW(Tokenizer::load(temp_path("missing.json")), TokenizerError);
}

// New action kinds (a wider search space) add words the transition must learn; the encoder keeps the
// vocabulary it was trained with and reads the appended words as <unk>.
TEST(WorldModel, TokenizerGrowsForNewActionsAndTheEncoderKeepsItsWords) {
    const Tokenizer t = Tokenizer::train({"SP out x 16 auto\nAN out x_1 vectorize", "SP out y 8 auto"}, 512, 1);
    EXPECT_EQ(t.encoder_words(), t.vocab_size());
    const Tokenizer g = t.extended({"CH W_in_out\nSO W_in_out x y", "CH W_in_out\nRF out_rf u", "SP out x 16 auto"}, 512, 2);
    EXPECT_EQ(g.vocab_size(), t.vocab_size() + 2) << "CH and W_in_out are seen twice; SO, RF once (below min_count)";
    EXPECT_EQ(g.encoder_words(), t.vocab_size());
    for (int id = 0; id < t.vocab_size(); id++) EXPECT_EQ(g.word(id), t.word(id)) << "old ids keep their words";
    EXPECT_GE(g.encode("CH")[0], t.vocab_size());
    EXPECT_EQ(g.encode("SO")[0], Tokenizer::kUnk);
    EXPECT_EQ(g.extended({"SO x", "SO y"}, 512, 2).encoder_words(), t.vocab_size()) << "growing again keeps the encoder's words";
    EXPECT_EQ(g.extended({"SO x", "SO y"}, g.vocab_size(), 1).vocab_size(), g.vocab_size()) << "max_vocab holds";

    const std::string path = temp_path("tok_grown.json");
    g.save(path);
    EXPECT_EQ(Tokenizer::load(path), g);
    EXPECT_EQ(Tokenizer::load(path).encoder_words(), t.vocab_size());
    std::ofstream(path) << "{\"format\": \"worldtune-tokenizer\", \"version\": 1, \"encoder_words\": 9999, "
                           "\"words\": [\"<pad>\", \"<unk>\", \"<cls>\", \"<mask>\", \"x\"]}";
    EXPECT_THROW(Tokenizer::load(path), TokenizerError);

    WorldConfig c = tiny_config();
    EncoderTrainer enc(c, 300);
    const auto appended = enc.encode({{50, 400, 60}}), unknown = enc.encode({{50, Tokenizer::kUnk, 60}});
    for (int d = 0; d < c.d_model; d++) EXPECT_EQ(appended[0][size_t(d)], unknown[0][size_t(d)]);
}

// Which trajectories keep their intermediate states depends on each trajectory alone: a dataset that
// grows keeps its old choice, except where a new trajectory takes a place.
TEST(WorldModel, IntermediateChoiceSurvivesAGrowingDataset) {
    auto trajectory = [](int i) {
        DatasetTrajectory t;
        t.actions = nlohmann::json::array({nlohmann::json{{"kind", "SP"}, {"factor", i}}});
        return t;
    };
    Dataset d;
    for (int w = 0; w < 4; w++) {
        DatasetWorkload wl;
        wl.spec = "matmul:M=" + std::to_string(8 + w) + ",N=8,K=8";
        for (int i = 0; i < 10; i++) wl.trajectories.push_back(trajectory(i));
        d.workloads.push_back(wl);
    }
    std::vector<std::pair<int, int>> all;
    for (int w = 0; w < 4; w++)
        for (int i = 0; i < 10; i++) all.emplace_back(w, i);
    const size_t keep = 8;
    auto chosen = [&](const Dataset &data, const std::vector<std::pair<int, int>> &ts, uint64_t seed) {
        const std::vector<size_t> order = intermediate_order(data, ts, seed);
        EXPECT_EQ(order.size(), ts.size());
        std::set<std::pair<std::string, int>> out;
        for (size_t i = 0; i < keep; i++) out.insert({data.workloads[size_t(ts[order[i]].first)].spec, ts[order[i]].second});
        return out;
    };
    const auto before = chosen(d, all, 1);
    EXPECT_EQ(before, chosen(d, all, 1)) << "deterministic";
    EXPECT_NE(before, chosen(d, all, 2)) << "the seed matters";

    // Another machine's workload joins in front (files are concatenated, indices shift).
    Dataset grown;
    DatasetWorkload extra;
    extra.spec = "dense:M=4,N=8,K=8";
    for (int i = 0; i < 3; i++) extra.trajectories.push_back(trajectory(100 + i));
    grown.workloads.push_back(extra);
    for (const DatasetWorkload &wl : d.workloads) grown.workloads.push_back(wl);
    std::vector<std::pair<int, int>> grown_all = {{0, 0}, {0, 1}, {0, 2}};
    for (const auto &[w, i] : all) grown_all.emplace_back(w + 1, i);
    const auto after = chosen(grown, grown_all, 1);
    size_t newcomers = 0, kept = 0;
    for (const auto &[spec, i] : after) newcomers += spec == extra.spec;
    for (const auto &key : before) kept += after.count(key);
    EXPECT_EQ(kept + newcomers, keep) << "an old trajectory leaves the choice only for a new one";
}

TEST(WorldModel, WindowsOverlapAndPoolingMasksPadding) {
    std::vector<int32_t> ids(70);
    for (int i = 0; i < 70; i++) ids[size_t(i)] = 100 + i;
    const auto windows = make_windows(ids, 32, 24, 10);
    ASSERT_EQ(windows.size(), 3u);  // starts 0, 24, 48; the last reaches the end
    for (const auto &w : windows) EXPECT_EQ(w[0], Tokenizer::kCls);
    EXPECT_EQ(windows[1][1], 124);
    EXPECT_EQ(windows[2].back(), 169);
    EXPECT_EQ(make_windows(ids, 32, 24, 2).size(), 2u);
    EXPECT_EQ(make_windows({}, 32, 24, 4).size(), 1u);

    // Padding never changes the pooled vector, whatever it holds.
    torch::manual_seed(3);
    const torch::Tensor x = torch::randn({2, 5, 4});
    const torch::Tensor keep = torch::tensor({1, 1, 1, 0, 0, 1, 0, 0, 0, 0}, torch::kBool).view({2, 5});
    const torch::Tensor pooled = masked_mean(x, keep);
    torch::Tensor changed = x.clone();
    changed.index_put_({0, 3}, 1000.0);
    changed.index_put_({1, 4}, -1000.0);
    EXPECT_TRUE(torch::allclose(masked_mean(changed, keep), pooled));
    EXPECT_TRUE(torch::allclose(pooled[0], x[0].slice(0, 0, 3).mean(0)));
    EXPECT_TRUE(torch::allclose(pooled[1], x[1][0]));
    EXPECT_TRUE(torch::allclose(masked_mean(x, torch::zeros({2, 5}, torch::kBool)), torch::zeros({2, 4})));

    // The encoder's pooled vector of a text does not depend on how its windows were padded in a batch.
    WorldConfig c = tiny_config();
    EncoderTrainer enc(c, 300);
    std::vector<int32_t> short_text(10, 50), long_text(90, 60);
    const auto alone = enc.encode({short_text});
    const auto together = enc.encode({short_text, long_text});
    for (int d = 0; d < c.d_model; d++) EXPECT_NEAR(alone[0][size_t(d)], together[0][size_t(d)], 1e-4);
}

TEST(WorldModel, EncodingCacheReusesRowsOfTheSameEncoderOnly) {
    const std::string dir = temp_path("encoding_cache");
    std::filesystem::create_directories(dir);
    const std::string bin = dir + "/states.bin", keys = dir + "/states.keys";
    const TokenTexts first = {{1, 2, 3}, {4, 5}, {6}};
    const std::vector<std::vector<float>> rows = {{1, 1}, {2, 2}, {3, 3}};
    std::vector<size_t> missing;
    EXPECT_EQ(EncodingCache(bin, keys, 7, 2).lookup(first, missing).size(), 3u);
    EXPECT_EQ(missing, (std::vector<size_t>{0, 1, 2})) << "an empty cache holds nothing";
    EncodingCache(bin, keys, 7, 2).save(first, rows);

    // A grown corpus in another order: the known states come back, the new one is missing.
    const TokenTexts grown = {{6}, {9, 9}, {1, 2, 3}, {4, 5}};
    const std::vector<std::vector<float>> got = EncodingCache(bin, keys, 7, 2).lookup(grown, missing);
    EXPECT_EQ(missing, (std::vector<size_t>{1}));
    EXPECT_EQ(got[0], rows[2]);
    EXPECT_EQ(got[2], rows[0]);
    EXPECT_EQ(got[3], rows[1]);

    // Another encoder (fingerprint) or another width makes every row stale.
    EncodingCache(bin, keys, 8, 2).lookup(grown, missing);
    EXPECT_EQ(missing.size(), grown.size());
    EncodingCache(bin, keys, 7, 3).lookup(grown, missing);
    EXPECT_EQ(missing.size(), grown.size());

    // A damaged keys file is ignored, not trusted.
    std::filesystem::resize_file(keys, 20);
    EncodingCache(bin, keys, 7, 2).lookup(first, missing);
    EXPECT_EQ(missing.size(), first.size());
    EXPECT_NE(file_fingerprint(bin), 0u);
    EXPECT_EQ(file_fingerprint(dir + "/absent"), 0u);
    EXPECT_NE(token_hash({1, 2}), token_hash({2, 1}));
}

TEST(WorldModel, RolloutOfNoActionIsZ0AndTablesRoundTrip) {
    const Tokenizer tok = Tokenizer::train({"SP out x 16 auto\nAN out x_1 vectorize\nRE out x_1 y x_0\nCR acc"}, 256, 1);
    WorldConfig c = tiny_config();
    TransitionTrainer trainer(c, tok.vocab_size());
    Rollout rollout(trainer.tables(), tok);
    ASSERT_GT(rollout.state_rank(), 0);
    std::vector<float> z0(size_t(c.d_model));
    for (int i = 0; i < c.d_model; i++) z0[size_t(i)] = std::sin(float(i));
    std::vector<float> out;
    rollout.run(z0, {}, {}, out);
    EXPECT_EQ(out, z0);

    const Action a = Action::split("out", "x", {16});
    const ActionContext split_of_1024 = {10.0f, 4.1f, 1, 0, 6.0f, 1, 1, 1}, split_of_1023 = {9.99f, 4.1f, 0, 0.001f, 6.0f, 0, 0, 1};
    const ActionContext plain = {5.0f, 0, 1, 0, 0, 1, 1, 1};
    const RolloutTables tables = trainer.tables();
    const std::string path = temp_path("tables.bin");
    tables.save(path);
    Rollout reloaded(RolloutTables::load(path), tok);
    std::vector<float> again;
    reloaded.run(z0, {a, Action::annotate("out", "x_1", AnnotationKind::Vectorize)}, {split_of_1024, plain}, again);
    std::vector<float> first;
    rollout.run(z0, {a, Action::annotate("out", "x_1", AnnotationKind::Vectorize)}, {split_of_1024, plain}, first);
    EXPECT_EQ(first, again);
    EXPECT_NE(first, z0);
    EXPECT_EQ(rollout.trajectory(z0, {a, a}, {}).size(), 2u);
    // The same action on a loop that its factor does not divide is another step.
    std::vector<float> odd;
    rollout.run(z0, {a}, {split_of_1023}, odd);
    rollout.run(z0, {a}, {split_of_1024}, first);
    EXPECT_NE(odd, first);

    // The plain-C++ rollout and the torch rollout used in training agree.
    const ActionList list = {a, Action::annotate("out", "x_1", AnnotationKind::Vectorize), Action::compute_root("acc")};
    const std::vector<ActionContext> contexts = {split_of_1023, plain, plain};
    TrajectorySample sample;
    for (const Action &x : list) sample.actions.push_back(action_ids(tok, x, c.action_max_tokens));
    sample.contexts = contexts;
    sample.states = {0, -1, -1, 0};
    const std::vector<float> torch_final = trainer.predict_finals({sample}, {z0})[0];
    rollout.run(z0, list, contexts, out);
    ASSERT_EQ(out.size(), torch_final.size());
    for (size_t i = 0; i < out.size(); i++) EXPECT_NEAR(out[i], torch_final[i], 1e-4) << i;
    // ... and so do their performance probes: the world ranker's features are z_T and the probe's score.
    std::vector<float> features;
    rollout.features(z0, list, contexts, features);
    ASSERT_EQ(int(features.size()), rollout.feature_dim());
    EXPECT_NEAR(features.back(), trainer.probe_scores({torch_final})[0], 1e-4);
    EXPECT_EQ(std::vector<float>(features.begin(), features.end() - 1), out);
    std::ofstream(path, std::ios::binary) << "garbage";
    EXPECT_THROW(RolloutTables::load(path), std::runtime_error);
}

// A block of candidates is rolled out as a prefix tree, four steps of a depth at a time: each candidate
// gets exactly what it gets rolled out alone, whatever is beside it (shared prefixes, the same list twice,
// another context on a shared action, no action at all, a block of one).
TEST(WorldModel, RolloutBlocksShareStepsWithoutChangingTheResult) {
    const Tokenizer tok = Tokenizer::train({"SP out x 16 auto\nAN out x_1 vectorize\nRE out x_1 y x_0\nCR acc"}, 256, 1);
    TransitionTrainer trainer(tiny_config(), tok.vocab_size());
    Rollout block(trainer.tables(), tok), alone(trainer.tables(), tok);
    const std::vector<Action> alphabet = {Action::split("out", "x", {16}), Action::annotate("out", "x_1", AnnotationKind::Vectorize),
                                          Action::compute_root("acc")};
    const std::vector<ActionContext> context_kinds = {
        {10.0f, 4.1f, 1, 0, 6.0f, 1, 1, 1}, {5.0f, 0, 1, 0, 0, 1, 1, 1}, {9.99f, 4.1f, 0, 0.001f, 6.0f, 0, 0, 1}};
    std::vector<float> z0(size_t(tiny_config().d_model));
    for (size_t i = 0; i < z0.size(); i++) z0[i] = std::sin(float(i));
    std::mt19937 rng(3);
    std::vector<ActionList> lists;
    std::vector<std::vector<ActionContext>> contexts;
    for (int k = 0; k < 40; k++) {
        if (k % 7 == 3) {  // the previous candidate again, or a prefix of it
            lists.push_back(ActionList(lists.back().begin(), lists.back().begin() + long(lists.back().size() - k % 2 * (lists.back().empty() ? 0 : 1))));
            contexts.push_back(std::vector<ActionContext>(contexts.back().begin(), contexts.back().begin() + long(lists.back().size())));
            continue;
        }
        ActionList list;
        std::vector<ActionContext> context;
        const int length = int(rng() % 6);
        for (int t = 0; t < length; t++) {
            list.push_back(alphabet[rng() % alphabet.size()]);
            context.push_back(context_kinds[rng() % context_kinds.size()]);
        }
        lists.push_back(list);
        contexts.push_back(context);
    }
    std::vector<RolloutInput> inputs;
    for (size_t k = 0; k < lists.size(); k++) inputs.push_back({&lists[k], &contexts[k], nullptr});
    std::vector<std::vector<float>> together;
    block.features_block(z0, inputs, together);
    ASSERT_EQ(together.size(), lists.size());
    for (size_t k = 0; k < lists.size(); k++) {
        std::vector<float> single;
        alone.forget();
        alone.features(z0, lists[k], contexts[k], single);
        EXPECT_EQ(together[k], single) << "candidate " << k;
        std::vector<uint64_t> hashes;
        for (const Action &x : lists[k]) hashes.push_back(action_hash(x));
        std::vector<float> hashed;
        block.features(z0, lists[k], contexts[k], hashed, &hashes);
        EXPECT_EQ(hashed, single) << "candidate " << k << " with the hashes given";
        if (!lists[k].empty()) {
            std::vector<float> z;
            alone.run(z0, lists[k], contexts[k], z);
            EXPECT_EQ(alone.trajectory(z0, lists[k], contexts[k]).back(), z) << k;
        }
    }
}

TEST(WorldModel, AFewStepsLowerTheLosses) {
    // Masked-token pretraining on a tiny repetitive corpus.
    std::vector<std::string> corpus;
    for (int i = 0; i < 20; i++) corpus.push_back("for (out.s0.x, 0, " + std::to_string(8 + i) + ") { out[x] = a[x] * b[x] + c }");
    const Tokenizer tok = Tokenizer::train(corpus, 256, 1);
    TokenTexts texts;
    for (const std::string &t : corpus) texts.push_back(tok.encode(t));
    WorldConfig c = tiny_config();
    c.mlm_steps = 60;
    EncoderTrainer enc(c, tok.vocab_size());
    const double before = enc.mlm_loss(texts, 64, 5);
    const std::string checkpoint = temp_path("mlm.ckpt");
    const StageReport r = enc.train_mlm(texts, checkpoint, [](const std::string &) {});
    const double after = enc.mlm_loss(texts, 64, 5);
    std::printf("mlm loss %.3f -> %.3f\n", before, after);
    EXPECT_EQ(r.steps, 60);
    EXPECT_LT(after, before * 0.8);

    // Resuming a finished stage runs no step and restores the trained weights.
    EncoderTrainer resumed(c, tok.vocab_size());
    const StageReport again = resumed.train_mlm(texts, checkpoint, [](const std::string &) {});
    EXPECT_EQ(again.steps, 0);
    EXPECT_EQ(again.resumed_from, 60);
    EXPECT_NEAR(resumed.mlm_loss(texts, 64, 5), after, 1e-6);
    // Weights saved and loaded encode identically.
    const std::string weights = temp_path("enc.pt");
    enc.save(weights);
    EncoderTrainer loaded(c, tok.vocab_size());
    loaded.load(weights);
    EXPECT_EQ(loaded.encode(texts), enc.encode(texts));

    // Transition on synthetic trajectories: the state after an action is a fixed function of it.
    std::vector<std::vector<float>> states;
    std::vector<TrajectorySample> samples;
    for (int s = 0; s < 24; s++) {
        TrajectorySample t;
        t.group = s % 3;
        std::vector<float> z(size_t(c.d_model), 0.0f);
        z[size_t(s % c.d_model)] = 1.0f;
        t.states.push_back(int(states.size()));
        states.push_back(z);
        for (int k = 0; k < 3; k++) {
            const int word = 4 + (s + k) % 5;
            t.actions.push_back({word});
            z[size_t(word)] += 0.5f;
            t.states.push_back(k == 2 ? int(states.size()) : -1);
            if (k == 2) states.push_back(z);
        }
        samples.push_back(std::move(t));
    }
    c.transition_epochs = 15;
    c.transition_lr = 3e-3;
    TransitionTrainer trainer(c, 16);
    const TransitionQuality q0 = trainer.evaluate(samples, states);
    const StageReport tr = trainer.train(samples, {}, states, [](const std::string &) {});
    const TransitionQuality q1 = trainer.evaluate(samples, states);
    std::printf("transition loss %.4f -> %.4f, final mse %.4f -> %.4f\n", tr.first_loss, tr.last_loss, q0.final_mse, q1.final_mse);
    EXPECT_LT(tr.last_loss, tr.first_loss);
    EXPECT_LT(q1.final_mse, q0.final_mse);

    // Epoch checkpoints: a run killed after epoch 2 resumes there; a finished one trains no epoch and
    // restores the kept weights; other data starts over.
    const std::vector<TrajectorySample> val(samples.begin(), samples.begin() + 6);
    const std::string tck = temp_path("transition.ckpt");
    c.transition_epochs = 2;
    TransitionTrainer first(c, 16);
    const StageReport two = first.train(samples, val, states, [](const std::string &) {}, tck);
    c.transition_epochs = 4;
    nlohmann::json meta = nlohmann::json::parse(std::ifstream(tck + ".json"));
    meta["inputs"]["epochs"] = 4;  // as if a 4-epoch run had been killed after its second epoch
    std::ofstream(tck + ".json") << meta.dump();
    TransitionTrainer second(c, 16);
    std::vector<std::string> lines;
    const StageReport rest = second.train(samples, val, states, [&](const std::string &l) { lines.push_back(l); }, tck);
    EXPECT_EQ(rest.resumed_from, 2);
    EXPECT_EQ(rest.steps, two.steps) << "two epochs left, as many steps as the first two";
    TransitionTrainer finished(c, 16);
    const StageReport none = finished.train(samples, val, states, [](const std::string &) {}, tck);
    EXPECT_EQ(none.steps, 0);
    EXPECT_EQ(finished.tables().tokens, second.tables().tokens) << "the kept epoch's weights come back";
    EXPECT_EQ(finished.tables().w_w, second.tables().w_w);
    TransitionTrainer other(c, 16);
    const std::vector<TrajectorySample> fewer(samples.begin(), samples.begin() + 20);
    EXPECT_EQ(other.train(fewer, val, states, [](const std::string &) {}, tck).resumed_from, 0);
}

TEST(WorldModel, TinyRecipeGivesABundleThatScoresAndRoundTrips) {
    const std::string &dir = tiny_bundle();
    for (const char *f : {"manifest.json", "config.json", "tokenizer.json", "encoder.pt", "transition.pt", "transition.bin",
                          "ranker_world.ubj", "ranker_initial.ubj", "ranker_final.ubj", "ranker_actions.ubj"})
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;

    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=20,N=12,K=8");  // a workload the model never saw
    SketchSampler sampler(spec, SamplerParams{}, 3);
    std::vector<ActionList> candidates;
    for (int i = 0; i < 12; i++) candidates.push_back(sampler.sample_valid());
    WorldModel a(dir, WorldVariant::World, 1), b(dir, WorldVariant::World, 1);
    a.set_task(spec);
    b.set_task(spec);
    const std::vector<double> sa = a.predict(candidates), sb = b.predict(candidates);
    EXPECT_EQ(sa, sb) << "two loads of one bundle score alike";
    for (double s : sa) EXPECT_TRUE(std::isfinite(s));

    // Online update: a run's measurements change the scores toward what was measured.
    a.update(measured_in_order(spec, candidates, 8));
    const std::vector<double> updated = a.predict(candidates);
    EXPECT_NE(updated, sa);
    EXPECT_GT(updated[0], updated[7]) << "the measured-fastest candidate ranks above the measured-slowest";

    for (WorldVariant v : {WorldVariant::Initial, WorldVariant::Final, WorldVariant::Actions}) {
        WorldModel m(dir, v, 1);
        m.set_task(spec);
        const std::vector<double> s = m.predict(candidates);
        ASSERT_EQ(s.size(), candidates.size());
    }

    // Resuming a complete bundle trains nothing and keeps its files.
    const auto stamp = std::filesystem::last_write_time(dir + "/encoder.pt");
    TrainOptions o;
    o.datasets = {tiny_dataset()};
    o.out = dir;
    train_world_model(o, [](const std::string &) {});
    EXPECT_EQ(std::filesystem::last_write_time(dir + "/encoder.pt"), stamp);
}

// The ranker stage retrains the chosen rankers only: the others keep their files, and without the final
// ranker only the initial states are encoded (new measured data reaches the search's ranker cheaply).
TEST(WorldModel, RankerStageRetrainsTheChosenRankersOnly) {
    const std::string dir = temp_path("rankers_only");
    std::filesystem::remove_all(dir);
    std::filesystem::copy(tiny_bundle(), dir, std::filesystem::copy_options::recursive);
    for (const char *f : {"/cache/states.bin", "/cache/states.keys"}) std::filesystem::remove(dir + f);
    const auto final_stamp = std::filesystem::last_write_time(dir + "/ranker_final.ubj");
    const auto world_stamp = std::filesystem::last_write_time(dir + "/ranker_world.ubj");
    std::vector<std::string> lines;
    TrainOptions o;
    o.datasets = {tiny_dataset()};
    o.out = dir;
    o.stage = "ranker";
    o.restart = true;
    o.rankers = {"world"};
    train_world_model(o, [&](const std::string &line) { lines.push_back(line); });
    EXPECT_EQ(std::filesystem::last_write_time(dir + "/ranker_final.ubj"), final_stamp);
    EXPECT_NE(std::filesystem::last_write_time(dir + "/ranker_world.ubj"), world_stamp);
    int encoded = -1, states = -1;
    for (const std::string &l : lines) std::sscanf(l.c_str(), "encoding %d of %d states", &encoded, &states);
    EXPECT_GT(encoded, 0);
    EXPECT_LT(encoded, states) << "only the initial states are encoded";
    EXPECT_TRUE(std::filesystem::exists(dir + "/manifest.json"));
    WorldModel m(dir, WorldVariant::World, 1);
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=20,N=12,K=8");
    m.set_task(spec);
    SketchSampler sampler(spec, SamplerParams{}, 3);
    for (double score : m.predict({sampler.sample_valid(), sampler.sample_valid()})) EXPECT_TRUE(std::isfinite(score));

    std::string out;
    EXPECT_EQ(test::run_worldtune("train --dataset " + tiny_dataset() + " --out " + dir + " --stage ranker --rankers world,nonsense", out), 1) << out;
    EXPECT_EQ(test::count_lines(out), 1) << out;
    EXPECT_NE(out.find("unknown ranker 'nonsense'"), std::string::npos) << out;
}

// A transition corpus's unmeasured trajectories join the transition's training (every state, no
// performance pairs) and leave the rankers alone.
TEST(WorldModel, TransitionTrainsOnAnUnmeasuredCorpus) {
    const std::string corpus = temp_path("corpus");
    std::filesystem::remove_all(corpus);
    TransitionCorpusParams cp;
    cp.generated_per_op = 0;
    cp.schedules = 2;
    cp.max_workloads = 2;  // two training-split preset subgraphs
    cp.threads = 1;
    const TransitionCorpusReport made = generate_transition_corpus(corpus, cp, [](const std::string &) {});
    ASSERT_GT(made.trajectories, 0);
    ASSERT_EQ(corpus_workloads(corpus, 0, 1).size(), 2u);
    EXPECT_EQ(corpus_workloads(corpus, 1, 1)[0].trajectories.size(), 1u) << "a seeded sample of one";

    std::vector<std::string> lines;
    TrainOptions o;
    o.datasets = {tiny_dataset()};
    o.corpus = corpus;
    o.out = temp_path("bundle_with_corpus");
    std::filesystem::remove_all(o.out);
    o.config = tiny_config();
    train_world_model(o, [&](const std::string &line) { lines.push_back(line); });
    auto line_with = [&](const std::string &what) {
        for (const std::string &l : lines)
            if (l.find(what) != std::string::npos) return l;
        return std::string();
    };
    EXPECT_NE(line_with(std::to_string(made.trajectories) + " unmeasured train-split trajectories"), "");
    EXPECT_NE(line_with(std::to_string(made.trajectories) + " unmeasured corpus trajectories, all with every state"), "");
    // The transition saw the corpus's trajectories beside the dataset's; the world ranker did not.
    const std::string with = line_with("transition: ");
    int trained = 0;
    std::sscanf(with.c_str(), "transition: %d training", &trained);
    EXPECT_GE(trained, made.trajectories + 1) << with;
    WorldModel m(o.out, WorldVariant::World, 1);
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=20,N=12,K=8");
    m.set_task(spec);
    SketchSampler sampler(spec, SamplerParams{}, 3);
    for (double score : m.predict({sampler.sample_valid(), sampler.sample_valid()})) EXPECT_TRUE(std::isfinite(score));
}

TEST(WorldModel, CommandsTrainEvalAndRefuseBrokenBundles) {
    const std::string &dir = tiny_bundle();
    std::string out;
    ASSERT_EQ(test::run_worldtune("eval --bundle " + dir + " --dataset " + tiny_dataset() + " --threads 1", out), 0) << out;
    EXPECT_NE(out.find("(a) world model"), std::string::npos) << out;
    EXPECT_NE(out.find("(b) static-feature model"), std::string::npos) << out;
    EXPECT_NE(out.find("Divisibility noise"), std::string::npos) << out;
    EXPECT_NE(out.find("candidates/s"), std::string::npos) << out;

    ASSERT_EQ(test::run_worldtune("tune matmul:M=16,N=12,K=8 --trials 3 --model world --bundle " + dir + " --db " +
                                      temp_path("tune.db") + " --threads 1 --repeats 1 --quiet", out), 0) << out;
    EXPECT_NE(out.find("model world"), std::string::npos) << out;

    const std::string broken = temp_path("broken");
    std::filesystem::copy(dir, broken, std::filesystem::copy_options::recursive);
    std::filesystem::remove(broken + "/ranker_world.ubj");
    EXPECT_EQ(test::run_worldtune("tune matmul:M=16,N=12,K=8 --trials 1 --model world --bundle " + broken, out), 1) << out;
    EXPECT_EQ(test::count_lines(out), 1) << out;
    EXPECT_NE(out.find("lacks ranker_world.ubj"), std::string::npos) << out;
    std::ofstream(broken + "/manifest.json") << "{\"format\": \"worldtune-world-model\", \"version\": 99}";
    EXPECT_EQ(test::run_worldtune("eval --bundle " + broken + " --dataset " + tiny_dataset(), out), 1) << out;
    EXPECT_NE(out.find("bundle version 99"), std::string::npos) << out;
    EXPECT_EQ(test::run_worldtune("train --dataset " + tiny_dataset() + " --out " + temp_path("x") + " --stage nonsense", out), 1) << out;
    EXPECT_NE(out.find("unknown stage 'nonsense'"), std::string::npos) << out;
}

// Calibration to this machine: records measured "here" that contradict the tiny bundle's training data
// (there longer action lists ran slower; here they run faster) give a correction that helps on held-out
// workloads, that a WorldModel applies on this machine only, and records of another machine are skipped.
TEST(WorldModel, CalibrationFitsThisMachineAndOnlyThisMachine) {
    const std::string dir = temp_path("calibrated");
    std::filesystem::copy(tiny_bundle(), dir, std::filesystem::copy_options::recursive);
    const std::string db = temp_path("calibration.db");
    std::vector<std::string> specs;
    {
        RecordStore store(db);
        for (int w = 0; w < 12; w++) {
            const WorkloadSpec spec = WorkloadSpec::parse(w % 2 ? "matmul:M=" + std::to_string(8 + 4 * w) + ",N=16,K=8"
                                                                : "softmax:M=" + std::to_string(6 + 2 * w) + ",N=16");
            specs.push_back(spec.canonical());
            SketchSampler sampler(spec, SamplerParams{}, 100 + uint64_t(w));
            for (int i = 0; i < 10; i++) {
                MeasureResult r;
                r.spec = spec.canonical();
                const ActionList actions = sampler.sample_valid();
                r.actions = actions_to_json(actions);
                r.timing.median_s = 1e-6 * (40.0 - double(actions.size()));
                r.hardware = hardware_json();
                store.add(r, "test");
            }
            MeasureResult elsewhere;
            elsewhere.spec = spec.canonical();
            elsewhere.actions = actions_to_json(sampler.sample_valid());
            elsewhere.timing.median_s = 1e-6;
            elsewhere.hardware = {{"cpu_model", "Another CPU"}};
            store.add(elsewhere, "test");
        }
    }
    CalibrationParams params;
    params.variants = {"world", "actions"};
    params.holdout = 0.34;
    params.threads = 1;
    const RecordStore store(db);
    const CalibrationReport r = calibrate_bundle(dir, store, [](const std::string &) { return true; }, params, [](const std::string &) {});
    EXPECT_EQ(r.workloads, 12);
    EXPECT_EQ(r.records, 120);
    EXPECT_EQ(r.other_machines, 12);
    ASSERT_EQ(r.variants.size(), 2u);
    for (const CalibratedVariant &v : r.variants) {
        EXPECT_GT(v.rounds, 0) << v.variant;
        EXPECT_GT(v.after.pairwise, v.before.pairwise) << v.variant;
    }
    EXPECT_TRUE(std::filesystem::exists(dir + "/calibration.json"));
    EXPECT_NE(calibration_summary(dir).find("is calibrated to this machine on 120 records of 12"), std::string::npos)
        << calibration_summary(dir);

    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=20,N=12,K=8");
    SketchSampler sampler(spec, SamplerParams{}, 5);
    std::vector<ActionList> candidates;
    for (int i = 0; i < 16; i++) candidates.push_back(sampler.sample_valid());
    WorldModel calibrated(dir, WorldVariant::World, 1), shipped(dir, WorldVariant::World, 1, false);
    EXPECT_TRUE(calibrated.calibrated());
    EXPECT_FALSE(shipped.calibrated());
    calibrated.set_task(spec);
    shipped.set_task(spec);
    EXPECT_NE(calibrated.predict(candidates), shipped.predict(candidates));
    // The correction reads the parallelism features after the shipped ranker's row.
    std::string header;
    std::getline(std::ifstream(dir + "/calibration_world.ubj", std::ios::binary), header);
    EXPECT_EQ(nlohmann::json::parse(header).value("feature_length", 0), calibrated.row_width());
    EXPECT_EQ(calibrated.feature_rows(candidates).size(), candidates.size() * size_t(calibrated.row_width()));
    EXPECT_FALSE(WorldModel(dir, WorldVariant::Final, 1).calibrated()) << "a variant left out stays as shipped";

    // The same bundle on another machine ranks as shipped.
    nlohmann::json about = nlohmann::json::parse(std::ifstream(dir + "/calibration.json"));
    about["hardware"]["cpu_model"] = "Another CPU";
    std::ofstream(dir + "/calibration.json") << about.dump();
    EXPECT_FALSE(WorldModel(dir, WorldVariant::World, 1).calibrated());
    EXPECT_NE(calibration_summary(dir).find("not calibrated"), std::string::npos);

    // Too little to learn from: one clear error; and the command refuses a missing database in one line.
    EXPECT_THROW(calibrate_bundle(dir, store, [&](const std::string &s) { return s == specs[0]; }, params, [](const std::string &) {}),
                 std::runtime_error);
    std::string out;
    EXPECT_EQ(test::run_worldtune("calibrate --db " + temp_path("none.db") + " --bundle " + dir, out), 1) << out;
    EXPECT_EQ(test::count_lines(out), 1) << out;
}

// An uncalibrated bundle names every machine its records came from, each once (one per dataset file).
TEST(WorldModel, CalibrationSummaryNamesEveryTrainingMachine) {
    const std::string dir = temp_path("machines");
    std::filesystem::create_directories(dir);
    const nlohmann::json manifest = {{"hardware", {{"cpu_model", "CPU A"}}},
                                     {"machines", {{{"cpu_model", "CPU A"}}, {{"cpu_model", "CPU B"}}, {{"cpu_model", "CPU B"}}}}};
    std::ofstream(dir + "/manifest.json") << manifest.dump();
    EXPECT_NE(calibration_summary(dir).find("records come from CPU A and CPU B; this machine's type not among them)"), std::string::npos)
        << calibration_summary(dir);
    std::ofstream(dir + "/manifest.json") << nlohmann::json({{"hardware", {{"cpu_model", "CPU A"}}}}).dump();
    EXPECT_NE(calibration_summary(dir).find("records come from CPU A; this machine"), std::string::npos) << calibration_summary(dir);
    // Two machines a hypervisor names alike are told apart by their family and caches; this one is found.
    const nlohmann::json zen4 = {{"cpu_model", "CPU A"}, {"cache", {{"l1d_bytes", 32768}}}};
    const nlohmann::json zen5 = {{"cpu_model", "CPU A"}, {"cpu_family", 26}, {"cpu_model_number", 2}, {"cache", {{"l1d_bytes", 49152}}}};
    std::ofstream(dir + "/manifest.json") << nlohmann::json({{"machines", {zen4, zen5, hardware_json()}}}).dump();
    EXPECT_NE(calibration_summary(dir).find("CPU A with L1d 32K, CPU A (family 26 model 2) with L1d 48K and "), std::string::npos)
        << calibration_summary(dir);
    EXPECT_NE(calibration_summary(dir).find("; this machine's type among them)"), std::string::npos) << calibration_summary(dir);
}

// The online correction keeps its early settings up to online_late_after measurements and takes the late
// ones after (never when it is 0), with the depth capped by the ranker's; the late settings survive the
// bundle's config file, and a negative one is refused.
TEST(WorldModel, OnlineCorrectionTakesItsLateSettingsPastTheThreshold) {
    WorldConfig c;
    c.online_late_after = 64;
    c.online_late_depth = 9;
    const RankerParams early = online_booster_params(c, 64), late = online_booster_params(c, 65);
    EXPECT_EQ(early.rounds, c.online_rounds);
    EXPECT_EQ(early.depth, c.online_depth);
    EXPECT_DOUBLE_EQ(early.eta, c.online_eta);
    EXPECT_EQ(late.rounds, c.online_late_rounds);
    EXPECT_EQ(late.depth, c.ranker_depth);
    EXPECT_DOUBLE_EQ(late.eta, c.online_late_eta);
    EXPECT_EQ(late.threads, 1);
    c.online_late_after = 0;
    EXPECT_EQ(online_booster_params(c, 100000).rounds, c.online_rounds);
    c.online_late_after = 32;
    const WorldConfig back = WorldConfig::from_json(c.to_json());
    EXPECT_EQ(back.online_late_after, 32);
    EXPECT_EQ(back.online_late_rounds, c.online_late_rounds);
    nlohmann::json bad = c.to_json();
    bad["online_late_rounds"] = -1;
    EXPECT_THROW(WorldConfig::from_json(bad), std::invalid_argument);
}

// An online correction scores on top of its base, the base's margins scaled by the weight it was trained
// with: a correction that learns nothing (eta 0) ranks as the base at weight 1, flat at weight 0, and with
// twice the base's spread at weight 2.
TEST(WorldModel, OnlineCorrectionScalesItsBaseByThePriorWeight) {
    const int state_dim = 3, width = state_dim + kActionStatFeatures + kHardwareFeatures;
    const RankingData data = random_ranking_data(5, 4, 12, width, width, 0.1);
    const RankerParams params = one_thread_params(20, RankerParams().eta);
    const Ranker base = trained_ranker(data, state_dim, params);
    const std::vector<double> prior = base.predict(data.rows, data.size());
    RankerParams idle = params;
    idle.rounds = 1;
    idle.eta = 0.0;
    auto corrected = [&](double weight) {
        Ranker correction("world", state_dim);
        correction.train_on_top(base, data, idle, weight);
        return correction.predict(data.rows, data.size());
    };
    const std::vector<double> one = corrected(1.0), none = corrected(0.0), two = corrected(2.0);
    ASSERT_NE(prior.front(), prior.back());
    for (size_t i = 1; i < prior.size(); i++) {
        EXPECT_NEAR(one[i] - one[0], prior[i] - prior[0], 1e-4) << i;
        EXPECT_NEAR(none[i], none[0], 1e-6) << i;
        EXPECT_NEAR(two[i] - two[0], 2.0 * (prior[i] - prior[0]), 1e-4) << i;
    }
}

TEST(WorldModel, OnlineCorrectionNeverSplitsOnItsHiddenColumns) {
    // Only the state columns vary, and latency follows the first: a correction that reads them learns it,
    // one blind to them (online_reads_latent false) has nothing to split on.
    const int state_dim = 3, width = state_dim + kActionStatFeatures + kHardwareFeatures;
    const RankingData data = random_ranking_data(7, 3, 10, width, state_dim, 0.0);
    const RankerParams params = one_thread_params(10, 0.3);
    const Ranker base = trained_ranker(data, state_dim, params);
    auto spread = [&](size_t hidden) {
        Ranker correction("world", state_dim);
        correction.train_on_top(base, data, params, 0.0, hidden);
        const std::vector<double> scores = correction.predict(data.rows, data.size());
        return *std::max_element(scores.begin(), scores.end()) - *std::min_element(scores.begin(), scores.end());
    };
    EXPECT_GT(spread(0), 0.1);
    EXPECT_NEAR(spread(size_t(state_dim)), 0.0, 1e-9);
}

// Online learning goes through the world model itself: "latent" corrects the prior on the rolled-out
// latents, "booster" with a correction on top of the prior's margins, "none" keeps the prior.
TEST(WorldModel, OnlineModesCorrectThePriorOrKeepIt) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=20,N=12,K=8");
    SketchSampler sampler(spec, SamplerParams{}, 7);
    std::vector<ActionList> candidates;
    for (int i = 0; i < 16; i++) candidates.push_back(sampler.sample_valid());
    const std::vector<MeasureResult> measured = measured_in_order(spec, candidates, 10);
    auto with_mode = [&](const std::string &mode, double l2) {
        const std::string dir = temp_path("online_" + mode + std::to_string(int(l2 * 1000)));
        std::filesystem::remove_all(dir);
        std::filesystem::copy(tiny_bundle(), dir, std::filesystem::copy_options::recursive);
        nlohmann::json config = nlohmann::json::parse(std::ifstream(dir + "/config.json"));
        config["online_mode"] = mode;
        config["online_l2"] = l2;
        std::ofstream(dir + "/config.json") << config.dump();
        return dir;
    };
    auto scores = [&](const std::string &dir, bool update) {
        WorldModel m(dir, WorldVariant::World, 1);
        m.set_task(spec);
        if (update) m.update(measured);
        return m.predict(candidates);
    };
    const std::string none = with_mode("none", 1.0), latent = with_mode("latent", 0.01), anchored = with_mode("latent", 1e6);
    const std::vector<double> prior = scores(none, false);
    EXPECT_EQ(scores(none, true), prior) << "no online learning";
    const std::vector<double> learned = scores(latent, true);
    EXPECT_NE(learned, prior);
    EXPECT_GT(learned[0], learned[9]) << "the measured-fastest ranks above the measured-slowest";
    // A correction held at the prior by a huge pull ranks as the prior does.
    const std::vector<double> held = scores(anchored, true);
    for (size_t i = 0; i < prior.size(); i++)
        for (size_t j = 0; j < prior.size(); j++)
            if (std::abs(prior[i] - prior[j]) > 1e-3) EXPECT_EQ(held[i] > held[j], prior[i] > prior[j]) << i << " " << j;
    const std::vector<double> boosted = scores(with_mode("booster", 1.0), true);
    EXPECT_NE(boosted, prior);
    EXPECT_GT(boosted[0], boosted[9]);
    // The trust guard: the task's fastest measured candidates (its anchors) keep their corrected scores,
    // every other candidate loses by its latent distance to them.
    const std::string trust = temp_path("online_trust");
    std::filesystem::remove_all(trust);
    std::filesystem::copy(latent, trust, std::filesystem::copy_options::recursive);
    nlohmann::json config = nlohmann::json::parse(std::ifstream(trust + "/config.json"));
    config["online_trust"] = 1.0;
    config["online_trust_top"] = 1;
    std::ofstream(trust + "/config.json") << config.dump();
    const std::vector<double> guarded = scores(trust, true);
    EXPECT_NEAR(guarded[0], learned[0], 1e-9) << "the fastest measured candidate is the anchor";
    for (size_t i = 1; i < guarded.size(); i++)
        if (candidates[i] != candidates[0]) EXPECT_LE(guarded[i], learned[i] + 1e-9) << i;
    EXPECT_LT(std::accumulate(guarded.begin(), guarded.end(), 0.0), std::accumulate(learned.begin(), learned.end(), 0.0));
}

// online_lowered_features, a cascade: the prior ranks the batch without lowering; once the booster has
// trained, the prior's best unmeasured candidates (the shortlist) are lowered and ranked by the correction,
// on top of every other candidate, which keeps its prior score.
TEST(WorldModel, LoweredCascadeRanksThePriorsShortlistOnTop) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=20,N=12,K=8");
    SketchSampler sampler(spec, SamplerParams{}, 11);
    std::vector<ActionList> candidates;
    for (int i = 0; i < 40; i++) candidates.push_back(sampler.sample_valid());
    const size_t measured_count = 10, shortlist = 8;
    const std::string dir = temp_path("online_lowered");
    std::filesystem::remove_all(dir);
    std::filesystem::copy(tiny_bundle(), dir, std::filesystem::copy_options::recursive);
    nlohmann::json config = nlohmann::json::parse(std::ifstream(dir + "/config.json"));
    config["online_mode"] = "booster";
    config["online_lowered_features"] = true;
    config["online_lowered_shortlist"] = shortlist;
    std::ofstream(dir + "/config.json") << config.dump();

    WorldModel m(dir, WorldVariant::World, 2);
    m.set_task(spec);
    const std::vector<double> prior = m.predict(candidates);
    m.update(measured_in_order(spec, candidates, measured_count));
    const std::vector<double> cascade = m.predict(candidates);

    // The shortlist: the prior's best candidates that were not measured (and not a repeat of one).
    std::set<std::string> measured_keys;
    for (size_t i = 0; i < measured_count; i++) measured_keys.insert(actions_to_json(candidates[i]).dump());
    std::vector<size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return prior[a] > prior[b]; });
    std::set<std::string> listed_keys;
    for (size_t i : order) {
        const std::string key = actions_to_json(candidates[i]).dump();
        if (listed_keys.size() < shortlist && !measured_keys.count(key)) listed_keys.insert(key);
    }
    std::vector<bool> listed(candidates.size(), false);  // repeats of a listed candidate are listed too
    for (size_t i = 0; i < candidates.size(); i++) listed[i] = listed_keys.count(actions_to_json(candidates[i]).dump()) > 0;
    ASSERT_EQ(listed_keys.size(), shortlist);
    double lowest_listed = INFINITY, highest_other = -INFINITY;
    for (size_t i = 0; i < candidates.size(); i++) {
        if (listed[i]) {
            ASSERT_TRUE(std::isfinite(cascade[i])) << i;
            lowest_listed = std::min(lowest_listed, cascade[i]);
        } else {
            EXPECT_EQ(cascade[i], prior[i]) << "candidate " << i << " keeps the prior's score";
            highest_other = std::max(highest_other, cascade[i]);
        }
    }
    EXPECT_GT(lowest_listed, highest_other) << "the shortlist sits on top";
    // The shortlist alone is ranked in the same order (the correction's, not the batch's).
    std::vector<ActionList> alone;
    std::vector<double> in_batch;
    for (size_t i = 0; i < candidates.size(); i++)
        if (listed[i] && std::count(alone.begin(), alone.end(), candidates[i]) == 0) {
            alone.push_back(candidates[i]);
            in_batch.push_back(cascade[i]);
        }
    const std::vector<double> alone_scores = m.predict(alone);
    for (size_t a = 0; a < alone.size(); a++)
        for (size_t b = 0; b < alone.size(); b++)
            if (std::abs(in_batch[a] - in_batch[b]) > 1e-9) EXPECT_EQ(alone_scores[a] > alone_scores[b], in_batch[a] > in_batch[b]) << a << " " << b;
}

TEST(WorldModel, LatentCorrectionLearnsWhatThePriorMissesAndStaysAnchored) {
    // Two tasks measured on a machine where the prior is backwards: it scores a higher feature 0 as faster,
    // but the latency grows with feature 0. Feature 1 is noise.
    std::vector<CorrectionGroup> groups(2);
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < 12; i++) {
            const float f0 = float((i * 7 + g) % 12), noise = float((i * 5) % 12);
            groups[size_t(g)].prior.push_back(f0);
            groups[size_t(g)].features.push_back(f0);
            groups[size_t(g)].features.push_back(noise);
            groups[size_t(g)].latencies.push_back(i == 11 ? 0.0 : 1.0 + f0);  // one failed run: the slowest
        }
    LatentCorrection loose, tight;
    ASSERT_TRUE(loose.fit(groups, 2, 1e-2));
    ASSERT_TRUE(tight.fit(groups, 2, 1e6));
    const std::vector<double> prior = {0, 11, 5};
    const std::vector<float> rows = {0, 3, 11, 3, 5, 3};
    const std::vector<double> a = loose.score(prior, rows), b = tight.score(prior, rows);
    EXPECT_GT(a[0], a[1]) << "the run's measurements override a prior they contradict";
    EXPECT_GT(a[2], a[1]);
    EXPECT_LT(b[0], b[1]) << "a strong pull keeps the prior's order";
    EXPECT_NEAR(tight.prior_weight(), 1.0, 1e-3);
    LatentCorrection empty;
    EXPECT_FALSE(empty.fit({}, 2, 1.0));
    EXPECT_EQ(empty.score(prior, rows), prior);
}

TEST(WorldModel, LatentCorrectionGuardsKeepItWhereItHasData) {
    // One task whose latency grows with feature 0 (measured over 0..11); the prior is flat.
    std::vector<CorrectionGroup> groups(1);
    for (int i = 0; i < 12; i++) {
        groups[0].prior.push_back(0.0);
        groups[0].features.push_back(float(i));
        groups[0].features.push_back(float((i * 5) % 12));
        groups[0].latencies.push_back(1.0 + i);
    }
    LatentCorrection plain, clamped, trusted;
    ASSERT_TRUE(plain.fit(groups, 2, 1e-2));
    ASSERT_TRUE(clamped.fit(groups, 2, 1e-2, CorrectionGuard{true, 0}));
    ASSERT_TRUE(trusted.fit(groups, 2, 1e-2, CorrectionGuard{false, 10.0}));
    const std::vector<double> prior = {0, 0, 0};
    const std::vector<float> rows = {0, 5, -100, 5, 11, 5};  // the measured best edge, far beyond it, the worst
    const std::vector<double> p = plain.score(prior, rows), c = clamped.score(prior, rows);
    EXPECT_GT(p[1], p[0] + 1) << "without the guard the correction extrapolates";
    EXPECT_NEAR(c[1], c[0], 1e-9) << "clamped, a candidate beyond the measured range scores as its edge";
    EXPECT_GT(c[0], c[2]);
    // The trust region: the anchor (the fastest measured row) itself is at distance 0, a far one is not.
    const std::vector<float> anchor = {0, 0};
    const std::vector<double> far = trusted.distances(rows, anchor);
    EXPECT_NEAR(trusted.distances(anchor, anchor)[0], 0.0, 1e-12);
    EXPECT_GT(far[1], far[0]);
    const std::vector<double> free = trusted.score(prior, rows), held = trusted.score(prior, rows, anchor);
    EXPECT_EQ(free, p) << "no anchors: no penalty";
    for (size_t i = 0; i < 3; i++) EXPECT_LT(held[i], free[i]);
    EXPECT_GT(held[0], held[1]) << "a strong enough trust guard takes the far candidate's extrapolated lead away";
    EXPECT_EQ(trusted.distances(rows, {}), std::vector<double>(3, 0.0));
}

// `worldtune bench` end to end on the tiny bundle: tunes each model and ablation, re-measures, writes the
// report with its plots, and refuses a workload of the train split.
TEST(WorldModel, BenchWritesTheReportAndPlots) {
    const std::string &dir = tiny_bundle();
    const std::string out = temp_path("bench_out"), db = temp_path("bench.db");
    const std::string common = "bench --dataset " + tiny_dataset() + " --bundle " + dir + " --db " + db +
                               " --out " + out + " --threads 1 --repeats 1 --min-time 0 --peers none --seeds 1 --rounds 1";
    std::string text;
    const std::string first = common + " --specs matmul:M=20,N=12,K=8 --models world,world+static,static,random --ablations world-initial"
                                       " --trials 4 --efficiency 8 --efficiency-count 1 --networks none";
    ASSERT_EQ(test::run_worldtune(first, text), 0) << text;
    EXPECT_NE(text.find("| **world@4 over static@4** | "), std::string::npos) << text;
    EXPECT_NE(text.find("| world@4 over world+static@4 | "), std::string::npos) << text;
    EXPECT_NE(text.find("| world@4 over static@8 | "), std::string::npos) << text;
    EXPECT_NE(text.find("95% interval"), std::string::npos) << text;
    EXPECT_NE(text.find("## Ablations"), std::string::npos) << text;
    EXPECT_NE(text.find("## Sample efficiency"), std::string::npos) << text;
    EXPECT_TRUE(std::filesystem::exists(out + "/report.md"));
    for (const char *f : {"curves.dat", "speedups.dat", "efficiency.dat"}) EXPECT_TRUE(std::filesystem::exists(out + "/" + f)) << f;
    if (std::system("which gnuplot > /dev/null 2>&1") == 0) EXPECT_TRUE(std::filesystem::exists(out + "/curves.png"));

    // Resumed from its database (nothing left to measure), the report still has the runs' tuning time.
    ASSERT_EQ(test::run_worldtune(first, text), 0) << text;
    EXPECT_NE(text.find("| static | 1 | 8 | "), std::string::npos) << text;
    EXPECT_NE(text.find("| world | 1 | 4 | "), std::string::npos) << text;

    // A database holding another machine's records is refused, not resumed from.
    const std::string exported = temp_path("bench_records.jsonl"), foreign = temp_path("bench_foreign.jsonl");
    const std::string foreign_db = temp_path("bench_foreign.db");
    std::remove(foreign_db.c_str());
    ASSERT_EQ(test::run_worldtune("records export --db " + db + " --out " + exported, text), 0) << text;
    {
        std::ifstream in(exported);
        std::ofstream outf(foreign);
        const std::string here = "\"cpu_model\":" + hardware_json()["cpu_model"].dump();
        for (std::string line; std::getline(in, line);) {
            const size_t at = line.find(here);
            ASSERT_NE(at, std::string::npos) << line;
            outf << line.replace(at, here.size(), "\"cpu_model\":\"Imaginary CPU\"") << "\n";
        }
    }
    ASSERT_EQ(test::run_worldtune("records import " + foreign + " --db " + foreign_db, text), 0) << text;
    std::string foreign_first = first;
    foreign_first.replace(foreign_first.find(db), db.size(), foreign_db);
    EXPECT_EQ(test::run_worldtune(foreign_first, text), 1) << text;
    EXPECT_NE(text.find("another machine (Imaginary CPU)"), std::string::npos) << text;

    // The ablations run on the first --ablation-count workloads only; the others show "–", not an error.
    const std::string subset = "bench --dataset " + tiny_dataset() + " --bundle " + dir + " --db " + temp_path("bench_subset.db") +
                               " --out " + out + " --threads 1 --repeats 1 --min-time 0 --peers none --seeds 1 --rounds 1";
    ASSERT_EQ(test::run_worldtune(subset + " --specs matmul:M=20,N=12,K=8 softmax:M=6,N=10 --models world --ablations world-initial"
                                           " --ablation-count 1 --trials 2 --networks none", text), 0) << text;
    EXPECT_EQ(text.find("efficiency.png"), std::string::npos) << text;  // no stale plot of the earlier run in the folder
    EXPECT_NE(text.find("| world-initial | 1 | 2 | "), std::string::npos) << text;  // tuning time: one run
    EXPECT_NE(text.find("`softmax:M=6,N=10` | "), std::string::npos) << text;
    EXPECT_EQ(text.find("err"), std::string::npos) << text;
    EXPECT_NE(text.find("| world-initial | "), std::string::npos) << text;
    EXPECT_NE(text.find("On the first 1 workloads"), std::string::npos) << text;

    // The end-to-end estimate of a network: every subgraph tuned (resuming), beside libtorch.
    ASSERT_EQ(test::run_worldtune(common + " --specs matmul:M=20,N=12,K=8 --models world --ablations none --trials 1"
                                           " --networks bert_base --network-trials 1", text), 0) << text;
    EXPECT_NE(text.find("## End-to-end network estimate"), std::string::npos) << text;
    EXPECT_NE(text.find("| bert_base | 8 / 8 |"), std::string::npos) << text;
    EXPECT_EQ(test::run_worldtune(common + " --specs matmul:M=20,N=12,K=8 --networks nonet", text), 1) << text;
    EXPECT_NE(text.find("unknown network 'nonet'"), std::string::npos) << text;

    // A workload of the train split is refused.
    const Dataset d = load_dataset(tiny_dataset());
    std::string train_spec;
    for (const DatasetWorkload &w : d.workloads)
        if (w.split == SplitKind::Train) train_spec = w.spec;
    EXPECT_EQ(test::run_worldtune(common + " --specs " + train_spec, text), 1) << text;
    EXPECT_NE(text.find("is in the dataset's train split"), std::string::npos) << text;

    // `worldtune replay` ranks the bench's measured schedules with each model after 0 and 2 of a run's
    // measurements: one row per model and count, every ratio in (0, 1].
    const std::string replay = "replay --db " + db + " --bundle " + dir + " --threads 1 --batch 2";
    ASSERT_EQ(test::run_worldtune(replay + " --models world,static --after 0,2 --pool 6 --runs 2", text), 0) << text;
    for (const char *row : {"world                 0", "world                 2", "static                2"}) {
        const size_t at = text.find(row);
        ASSERT_NE(at, std::string::npos) << row << "\n" << text;
        std::istringstream line(text.substr(at + std::strlen(row)));
        int runs = 0;
        double top1 = 0, top_batch = 0, mean_batch = 0;
        line >> runs >> top1 >> top_batch >> mean_batch;
        EXPECT_GT(runs, 0) << text;
        for (double v : {top1, top_batch, mean_batch}) EXPECT_TRUE(v > 0 && v <= 1.0) << row << ": " << v;
        EXPECT_GE(top_batch, top1) << row;  // the best of the top 2 is at least as fast as the top 1
        EXPECT_GE(top_batch, mean_batch) << row;
    }
    EXPECT_EQ(test::run_worldtune(replay + " --after 2,x", text), 1) << text;
    EXPECT_NE(text.find("--after takes counts"), std::string::npos) << text;
    EXPECT_EQ(test::run_worldtune("replay --db " + temp_path("no_such.db"), text), 1) << text;
    EXPECT_NE(text.find("no records database"), std::string::npos) << text;
}

// The shipped bundle (models/world) opens and ranks candidates of an unseen workload without lowering
// them: finite, deterministic scores that are not all equal.
TEST(WorldModel, ShippedBundleRanksCandidates) {
    const std::string dir = std::string(WORLDTUNE_SOURCE_DIR) + "/models/world";
    WorldModel model(dir, WorldVariant::World, 2);
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=96,N=80,K=72");
    SketchSampler sampler(spec, SamplerParams{}, 3);
    std::vector<ActionList> candidates;
    for (int i = 0; i < 64; i++) candidates.push_back(sampler.draw());
    model.set_task(spec);
    const std::vector<double> scores = model.predict(candidates);
    ASSERT_EQ(scores.size(), candidates.size());
    for (double s : scores) EXPECT_TRUE(std::isfinite(s));
    EXPECT_GT(*std::max_element(scores.begin(), scores.end()), *std::min_element(scores.begin(), scores.end()));
    EXPECT_EQ(model.predict(candidates), scores);
    // A batch large enough to be sorted and split over the threads scores each candidate as it scores alone,
    // in any order.
    std::vector<ActionList> batch;
    for (int i = 0; i < 400; i++) batch.push_back(sampler.draw());
    const std::vector<double> together = model.predict(batch);
    std::vector<ActionList> reversed(batch.rbegin(), batch.rend());
    const std::vector<double> backwards = model.predict(reversed);
    for (size_t i = 0; i < batch.size(); i += 7) EXPECT_EQ(model.predict({batch[i]})[0], together[i]) << i;
    for (size_t i = 0; i < batch.size(); i++) EXPECT_EQ(backwards[batch.size() - 1 - i], together[i]) << i;
}
