// The study room as a library: resumable tuning runs, the side-by-side re-measurement, and bench and
// compare end to end on tiny workloads with a handful of trials (their reports' tables, geomeans, resume).
#include "dataset/DatasetFile.h"
#include "measure/Hardware.h"
#include "study/Bench.h"
#include "study/BenchReport.h"
#include "study/Compare.h"
#include "study/Remeasure.h"
#include "study/Replay.h"
#include "study/SideBySide.h"
#include "study/TuningRuns.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

using namespace worldtune;

namespace {

std::string temp_path(const std::string &name) { return testing::TempDir() + "/study_" + name; }

MeasureParams fast_measure() {
    MeasureParams m;
    m.threads = 1;
    m.timing.repeats = 1;
    m.timing.min_repeat_seconds = 0;
    m.worker_binary = WORLDTUNE_BINARY;
    return m;
}

int64_t record_count(const std::string &db) {
    RecordStore store(db);
    int64_t n = 0;
    store.for_each([&](const Record &) { n++; });
    return n;
}

Record measured(double latency, const ActionList &actions) {
    Record r;
    r.result.actions = actions_to_json(actions);
    r.result.timing.median_s = latency;
    r.result.error = latency > 0 ? ErrorKind::None : ErrorKind::Runtime;
    return r;
}

/// A dataset whose train split holds one workload, so a bench refuses that one and accepts others.
std::string tiny_dataset() {
    Dataset d;
    d.created_at = "2026-12-01T00:00:00Z";
    d.hardware = hardware_json();
    DatasetWorkload w;
    w.spec = WorkloadSpec::parse("matmul:M=8,N=8,K=8").canonical();
    w.split = SplitKind::Train;
    d.workloads.push_back(w);
    const std::string path = temp_path("dataset.jsonl");
    write_dataset(d, path);
    return path;
}

BenchParams tiny_bench(const std::string &name) {
    BenchParams p;
    p.dataset = tiny_dataset();
    p.specs = {"matmul:M=16,N=8,K=8", "softmax:M=4,N=8"};
    p.models = "random,static";
    p.ablations = "none";
    p.networks = "none";
    p.peers = "openblas";
    p.trials = 3;
    p.seeds = 2;
    p.rounds = 1;
    p.efficiency_count = 0;
    p.db = temp_path(name + ".db");
    p.out = temp_path(name + "_report");
    p.measure = fast_measure();
    std::remove(p.db.c_str());
    std::filesystem::remove_all(p.out);
    return p;
}

}  // namespace

TEST(Study, TuningRunResumesAndSeesOnlyItsOwnRecords) {
    const std::string db = temp_path("runs.db");
    std::remove(db.c_str());
    RecordStore store(db);
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=16,N=8,K=8");
    const TuningRun first = tune_run(store, spec, "random", 1, 3, fast_measure(), "study:random:seed1", CostModelParams{});
    ASSERT_EQ(first.records.size(), 3u);
    EXPECT_TRUE(first.fresh);
    EXPECT_EQ(first.measured, 3);
    EXPECT_EQ(first.total.trials, 3);
    const TuningRun longer = tune_run(store, spec, "random", 1, 5, fast_measure(), "study:random:seed1", CostModelParams{});
    ASSERT_EQ(longer.records.size(), 5u);
    EXPECT_EQ(longer.measured, 2) << "the three stored trials are not measured again";
    EXPECT_EQ(longer.total.trials, 5) << "the time of the earlier part is kept in the database";
    for (size_t i = 0; i < 3; i++) EXPECT_EQ(longer.records[i].id, first.records[i].id);
    std::set<std::string> distinct;
    for (const Record &r : longer.records) distinct.insert(r.result.actions.dump());
    EXPECT_EQ(distinct.size(), 5u) << "a run never measures a state twice";
    const TuningRun again = tune_run(store, spec, "random", 1, 5, fast_measure(), "study:random:seed1", CostModelParams{});
    EXPECT_FALSE(again.fresh);
    EXPECT_EQ(again.records.size(), 5u);
    const TuningRun other = tune_run(store, spec, "random", 2, 1, fast_measure(), "study:random:seed2", CostModelParams{});
    EXPECT_EQ(other.records.size(), 1u) << "another source starts from nothing";
}

TEST(Study, BestWithinABudgetAndCurves) {
    const ActionList a = {Action::compute_root("out")}, b = {}, c = {Action::compute_inline("out")};
    const std::vector<Record> run = {measured(3e-3, a), measured(0, b), measured(1e-3, c), measured(0.5e-3, b)};
    ASSERT_TRUE(best_within(run, 3).has_value());
    EXPECT_EQ(actions_to_json(*best_within(run, 3)), actions_to_json(c));
    EXPECT_EQ(actions_to_json(*best_within(run, 10)), actions_to_json(b)) << "a budget past the run reads all of it";
    EXPECT_FALSE(best_within({measured(0, a)}, 1).has_value()) << "a failed trial is never the best";
    EXPECT_EQ(best_so_far(run, 4), (std::vector<double>{3e-3, 3e-3, 1e-3, 0.5e-3}));
    EXPECT_EQ(best_so_far({measured(0, a), measured(2e-3, b)}, 2), (std::vector<double>{0, 2e-3}));
    EXPECT_EQ(workload_table_header({"a@4", "peer"}), "| workload | a@4 | peer |\n|---|---:|---:|\n");
    EXPECT_EQ(gflops_cell(2e9, {1.0, 2.0, 0.5}), "2.0 (1–4)");
    EXPECT_EQ(gflops_cell(2e9, {}), "err");
}

TEST(Study, SideBySideMeasuresEveryEntryAndPeerEachRound) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=16,N=8,K=8");
    const ActionList plain = {}, again = {};  // two runs' schedules (the same one here: only the bookkeeping is tested)
    std::vector<SideBySideEntry> entries = {{"A", 0, &plain}, {"A", 1, &again}, {"B", 0, &plain}};
    SideBySideParams params{2, {"openblas"}, peer_params(fast_measure(), 60), WORLDTUNE_BINARY};
    Measurer measurer(fast_measure());
    std::mt19937_64 rng(7);
    SideBySide out;
    remeasure_side_by_side(spec, entries, params, measurer, rng, out);
    EXPECT_EQ(out.latency["A"].size(), 4u);
    EXPECT_EQ(out.latency["B"].size(), 2u);
    ASSERT_EQ(out.seed_latency["A"].size(), 2u);
    EXPECT_EQ(out.seed_latency["A"][1].size(), 2u);
    EXPECT_EQ(out.latency["openblas"].size(), 2u) << (out.peer_note.count("openblas") ? out.peer_note["openblas"] : "");

    SideBySide softmax;
    remeasure_side_by_side(WorkloadSpec::parse("softmax:M=4,N=8"), {}, params, measurer, rng, softmax);
    ASSERT_TRUE(softmax.peer_note.count("openblas"));
    EXPECT_TRUE(peer_not_applicable(softmax.peer_note["openblas"])) << softmax.peer_note["openblas"];
    EXPECT_FALSE(peer_not_applicable("output check failed"));
}

TEST(Study, SideBySideShufflesPeersAmongTheSchedules) {
    std::mt19937_64 rng(11);
    int peer_not_last = 0;  // rounds where some schedule runs after a peer
    for (int round = 0; round < 20; round++) {
        const std::vector<SideBySideItem> items = side_by_side_round(3, {"onednn", "libtorch"}, rng);
        ASSERT_EQ(items.size(), 5u);
        std::multiset<std::string> seen;
        for (const SideBySideItem &item : items) seen.insert(item.peer.empty() ? "schedule " + std::to_string(item.schedule) : item.peer);
        EXPECT_EQ(seen, (std::multiset<std::string>{"libtorch", "onednn", "schedule 0", "schedule 1", "schedule 2"}));
        if (items[3].peer.empty() || items[4].peer.empty()) peer_not_last++;  // the two peers are not the last two
    }
    EXPECT_GT(peer_not_last, 10) << "the peers run among the schedules, not after them";
}

TEST(Study, RoundsWarmSchedulesUpAsLongAsThePeers) {
    MeasureParams tuning;
    tuning.threads = 2;
    tuning.timing.repeats = 7;
    const BaselineParams peers = peer_params(tuning, 0);
    ASSERT_GT(peers.warmup_seconds, 0) << "the peers warm up for a minimum time";
    const MeasureParams rounds = side_by_side_measure(tuning, peers);
    EXPECT_EQ(rounds.timing.warmup_min_seconds, peers.warmup_seconds) << "a schedule in the rounds warms up as a peer does";
    EXPECT_EQ(rounds.timing.repeats, 7);
    EXPECT_EQ(rounds.threads, 2);
    EXPECT_EQ(tuning.timing.warmup_min_seconds, 0) << "tuning keeps its one warm-up run";
}

TEST(Study, BenchReportsAndResumesWithoutMeasuringAgain) {
    const BenchParams p = tiny_bench("bench");
    const BenchResults results = run_bench(p);
    ASSERT_EQ(results.workloads.size(), 2u);
    EXPECT_EQ(results.workloads[0].curves.at("random").size(), 2u) << "one curve per seed";
    EXPECT_EQ(results.times.at("static").trials, 12);
    const int64_t stored = record_count(p.db);
    EXPECT_EQ(stored, 2 * 2 * 2 * 3);  // workloads x models x seeds x trials
    const std::string md = write_bench_report(results, p);
    for (const char *expected : {"| workload | random@3 | static@3 | openblas |", "| geomean speedup of random@3 over it",
                                 "**random@3 over static@3**", "## Tuning time", "Produced by `worldtune bench"})
        EXPECT_NE(md.find(expected), std::string::npos) << expected << "\n" << md;
    EXPECT_NE(md.find("| `softmax:M=4,N=8` |"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(p.out + "/report.md"));

    const BenchResults resumed = run_bench(p);
    EXPECT_EQ(record_count(p.db), stored) << "a resumed bench measures only what is missing";
    EXPECT_EQ(resumed.times.at("static").trials, 12) << "the time of the earlier invocation is kept";
}

TEST(Study, BenchRefusesWhatItCannotRun) {
    BenchParams p = tiny_bench("refused");
    p.specs = {"matmul:M=8,N=8,K=8"};
    EXPECT_THROW(plan_bench(p), StudyError) << "a train-split workload is never benchmarked";
    p = tiny_bench("refused");
    p.models = "nosuch";
    EXPECT_THROW(plan_bench(p), StudyError);
    p = tiny_bench("refused");
    p.networks = "nosuchnet";
    EXPECT_THROW(plan_bench(p), StudyError);
    p = tiny_bench("refused");
    RecordStore store(p.db);
    MeasureResult elsewhere;
    elsewhere.spec = "matmul:M=16,N=8,K=8";
    elsewhere.hardware = {{"cpu_model", "Some Other CPU"}, {"logical_cores", 64}};
    store.add(elsewhere, "import");
    EXPECT_THROW(refuse_other_machines(store), StudyError);
}

TEST(Study, CompareTablesEveryBudgetAndPeer) {
    CompareParams p;
    p.specs = {"matmul:M=16,N=8,K=8"};
    p.models = "random";
    p.trials = "4,2";
    p.peers = "none";
    p.db = temp_path("compare.db");
    std::remove(p.db.c_str());
    p.measure = fast_measure();
    const CompareResults results = run_compare(p);
    ASSERT_EQ(results.columns.size(), 2u);
    EXPECT_EQ(results.columns[0].name(), "random@2") << "budgets sorted";
    EXPECT_EQ(record_count(p.db), 4) << "one run tuned to the largest budget serves both columns";
    const std::string md = compare_report(results, p);
    for (const char *expected : {"| workload | random@2 | random@4 |", "| geomean speedup over random@2", "Produced by `worldtune compare"})
        EXPECT_NE(md.find(expected), std::string::npos) << expected << "\n" << md;
    p.trials = "0";
    EXPECT_THROW(run_compare(p), StudyError);
}

TEST(Study, ReplayScoresEveryModelAfterEachPrefix) {
    const std::string db = temp_path("replay.db");
    std::remove(db.c_str());
    {
        RecordStore store(db);
        const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=16,N=8,K=8");
        for (uint64_t seed = 1; seed <= 2; seed++)
            tune_run(store, spec, "random", seed, 6, fast_measure(), "study:random:seed" + std::to_string(seed), CostModelParams{});
    }
    ReplayParams p;
    p.db = db;
    p.models = "random";
    p.after = "0,2";
    p.batch = 2;
    p.threads = 1;
    const ReplayResults results = run_replay(p);
    for (int n : {0, 2}) {
        const auto it = results.scores.find({"random", n});
        ASSERT_NE(it, results.scores.end()) << n;
        ASSERT_FALSE(it->second.top1.empty()) << n;
        for (double r : it->second.top1) EXPECT_TRUE(r > 0 && r <= 1.0) << "a pick is never faster than the pool's best";
        for (size_t i = 0; i < it->second.top1.size(); i++) EXPECT_GE(it->second.top_batch[i], it->second.top1[i]);
    }
    EXPECT_NE(replay_table(results, p).find("top-2"), std::string::npos);
    p.after = "2";
    p.near = 1e-6;  // no schedule is within a millionth of the incumbent: no pool, no score
    EXPECT_TRUE(run_replay(p).scores.empty());
    p.near = 0;
    p.db = db + "," + db;  // two databases: a run is a source of one database, so the runs double
    EXPECT_EQ(run_replay(p).scores.at({"random", 2}).top1.size(), 2 * results.scores.at({"random", 2}).top1.size());
    p.db = db;
    p.after = "2,x";
    EXPECT_THROW(run_replay(p), StudyError);
    p.after = "0";
    p.db = temp_path("no_such.db");
    EXPECT_THROW(run_replay(p), StudyError);
}

// Each run's best within the budget (or its own, PATH@N) is re-measured once per round, named by its
// database; a run with too few records is left out; a missing database, a bad budget or two runs of one
// name are refused; the lines resume.
TEST(Study, RemeasureTakesEachRunsBestSideBySide) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=16,N=8,K=8");
    RemeasureParams p;
    for (int run = 1; run <= 3; run++) {
        const std::string db = temp_path("remeasure_run" + std::to_string(run) + ".db");
        std::remove(db.c_str());
        RecordStore store(db);
        tune_run(store, spec, "random", uint64_t(run), run == 3 ? 2 : 4, fast_measure(), "tune:random", CostModelParams{});
        p.dbs.push_back(db);
    }
    p.specs = {spec.canonical()};
    p.trials = 4;
    p.rounds = 2;
    p.measure = fast_measure();
    std::vector<RemeasuredBest> got;
    remeasure_bests(p, {}, [&](const std::vector<RemeasuredBest> &bests) { got = bests; });
    ASSERT_EQ(got.size(), 2u) << "run 3 has 2 records of the 4 asked for";
    EXPECT_EQ(got[0].run, "study_remeasure_run1");
    EXPECT_EQ(got[1].run, "study_remeasure_run2");
    for (const RemeasuredBest &b : got) {
        EXPECT_EQ(b.remeasured_s.size(), 2u);
        EXPECT_GT(b.tuning_s, 0);
        RecordStore store(p.dbs[b.run == "study_remeasure_run1" ? 0 : 1]);
        for (const Record &r : store.records_for(spec.canonical(), true)) EXPECT_GE(r.result.timing.median_s, b.tuning_s);
    }
    RemeasureParams budgets = p;  // one run at two budgets, and a short run at its own length
    budgets.dbs = {p.dbs[0], p.dbs[0] + "@2", p.dbs[2] + "@2"};
    std::vector<RemeasuredBest> at;
    remeasure_bests(budgets, {}, [&](const std::vector<RemeasuredBest> &bests) { at = bests; });
    ASSERT_EQ(at.size(), 3u);
    EXPECT_EQ(at[1].run, "study_remeasure_run1@2");
    EXPECT_EQ(at[2].run, "study_remeasure_run3@2");
    EXPECT_GE(at[1].tuning_s, at[0].tuning_s) << "the best of the first 2 is no faster than the best of 4";
    budgets.dbs = {p.dbs[0] + "@0"};
    EXPECT_THROW(remeasure_bests(budgets, {}, [](const std::vector<RemeasuredBest> &) {}), StudyError);
    const std::string tsv = temp_path("remeasured.tsv");
    {
        std::ofstream out(tsv);
        out << remeasured_tsv_header() << remeasured_tsv_line(got[0]);
    }
    EXPECT_EQ(remeasured_specs(tsv), std::set<std::string>{spec.canonical()});
    int calls = 0;
    remeasure_bests(p, remeasured_specs(tsv), [&](const std::vector<RemeasuredBest> &) { calls++; });
    EXPECT_EQ(calls, 0) << "a workload already written is skipped";
    p.dbs.push_back(temp_path("no_such_run.db"));
    EXPECT_THROW(remeasure_bests(p, {}, [](const std::vector<RemeasuredBest> &) {}), StudyError);
    p.dbs = {p.dbs[0], p.dbs[0]};
    EXPECT_THROW(remeasure_bests(p, {}, [](const std::vector<RemeasuredBest> &) {}), StudyError);
}
