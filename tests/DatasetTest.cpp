// The trajectory dataset: export/import round trip, splits by workload, regenerated state texts against
// stored hashes, refusal of corrupted and wrong-version files, the collection workload list, and the
// `worldtune dataset` commands end to end.
#include "dataset/DatasetFile.h"
#include "dataset/DatasetStats.h"
#include "dataset/TextCache.h"
#include "dataset/TransitionCorpus.h"
#include "dataset/WorkloadList.h"
#include "search/SketchSampler.h"
#include "workload/OpRegistry.h"
#include "workload/Workload.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace worldtune;

namespace {

const std::vector<std::string> kSpecs = {"matmul:M=32,N=24,K=16", "softmax:M=8,N=20",
                                         "conv2d:N=1,C=4,H=9,W=9,K=8,R=3,S=3,pad=1"};
const nlohmann::json kHardware = {{"cpu_model", "Test CPU"}, {"logical_cores", 2}};

std::string temp_path(const std::string &name) {
    const std::string path = ::testing::TempDir() + "worldtune_dataset_" + std::to_string(getpid()) + "_" + name;
    for (const char *suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
    return path;
}

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
}

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::stringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

std::string join_lines(const std::vector<std::string> &lines) {
    std::string text;
    for (const std::string &l : lines) text += l + "\n";
    return text;
}

/// A records database made with the project's own sampler: 4 valid sampled schedules per tiny workload with
/// synthetic latencies (one of them a wrong-output and one a refused schedule), plus 2 records from another
/// machine, which the export leaves out.
const std::string &records_db() {
    static const std::string path = [] {
        const std::string p = temp_path("records.db");
        RecordStore store(p);
        const uint64_t seed = 7;
        std::printf("sampler seed %llu\n", (unsigned long long)seed);
        for (size_t w = 0; w < kSpecs.size(); w++) {
            const WorkloadSpec spec = WorkloadSpec::parse(kSpecs[w]);
            SketchSampler sampler(spec, SamplerParams{}, seed + w);
            for (int i = 0; i < 4; i++) {
                MeasureResult r;
                r.spec = spec.canonical();
                r.actions = actions_to_json(sampler.sample_valid());
                r.hardware = kHardware;
                r.threads = 2;
                r.version = "0.0.test";
                r.timestamp = "2025-01-02T03:04:05.10" + std::to_string(i) + "Z";
                if (w == 0 && i == 3) {
                    r.error = ErrorKind::WrongOutput;
                    r.error_msg = "output differs";
                } else if (w == 1 && i == 3) {
                    r.error = ErrorKind::Schedule;
                    r.error_action = 0;
                    r.error_msg = "refused";
                } else {
                    r.timing.median_s = 1e-5 * (1 + i + 3 * w);
                    r.timing.min_s = r.timing.median_s * 0.9;
                    r.timing.stddev_s = r.timing.median_s * 0.05;
                    r.timing.repeats = 3;
                    r.gflops = 1.0 / r.timing.median_s * 1e-6;
                }
                store.add(r, "test");
                if (w == 2 && i < 2) {
                    r.hardware = {{"cpu_model", "Other CPU"}};
                    store.add(r, "test");
                }
            }
        }
        return p;
    }();
    return path;
}

/// The tiny dataset exported to a file, every lowerable trajectory hashed.
const std::string &exported_file() {
    static const std::string path = [] {
        const std::string p = temp_path("dataset.jsonl");
        RecordStore store(records_db());
        ExportOptions options;
        options.text_check_sample = -1;
        const ExportStats stats = export_dataset(store, p, options);
        EXPECT_EQ(stats.workloads, 3);
        EXPECT_EQ(stats.trajectories, 12);
        EXPECT_EQ(stats.skipped_other_hardware, 2);
        EXPECT_EQ(stats.text_hashes, 11);  // all but the refused schedule
        EXPECT_EQ(stats.prefix_hashes, 11);
        return p;
    }();
    return path;
}

std::string load_error(const std::string &text) {
    const std::string path = temp_path("bad.jsonl");
    write_text(path, text);
    try {
        load_dataset(path);
    } catch (const DatasetError &e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Dataset, ExportLoadRoundTrip) {
    RecordStore store(records_db());
    ExportOptions options;
    options.text_check_sample = -1;
    const Dataset built = build_dataset(store, options);
    const std::string path = temp_path("roundtrip.jsonl");
    write_dataset(built, path);
    const Dataset loaded = load_dataset(path);
    EXPECT_EQ(loaded.version, kDatasetVersion);
    EXPECT_EQ(loaded.created_at, built.created_at);
    EXPECT_EQ(loaded.worldtune_version, built.worldtune_version);
    EXPECT_EQ(loaded.hardware, kHardware);
    EXPECT_EQ(loaded.seed, built.seed);
    EXPECT_EQ(loaded.val_fraction, built.val_fraction);
    EXPECT_EQ(loaded.test_fraction, built.test_fraction);
    ASSERT_EQ(loaded.workloads.size(), 3u);
    EXPECT_TRUE(loaded.workloads == built.workloads);

    // Same content as the records: every record of the chosen machine, in order, actions untouched.
    std::map<std::string, std::vector<Record>> records;
    store.for_each([&](const Record &r) {
        if (r.result.hardware == kHardware) records[r.result.spec].push_back(r);
    });
    for (const DatasetWorkload &w : loaded.workloads) {
        const std::vector<Record> &rs = records.at(w.spec);
        ASSERT_EQ(w.trajectories.size(), rs.size()) << w.spec;
        for (size_t i = 0; i < rs.size(); i++) {
            EXPECT_EQ(w.trajectories[i].actions, rs[i].result.actions);
            EXPECT_EQ(w.trajectories[i].error, rs[i].result.error);
            EXPECT_EQ(w.trajectories[i].length(), rs[i].result.actions.size());
            EXPECT_DOUBLE_EQ(w.trajectories[i].latency_s, rs[i].result.ok() ? rs[i].result.timing.median_s : 0.0);
        }
    }
    // Writing what was loaded gives the same bytes.
    const std::string again = temp_path("roundtrip2.jsonl");
    write_dataset(loaded, again);
    EXPECT_EQ(read_text(again), read_text(path));
}

TEST(Dataset, SplitsNeverShareAWorkload) {
    const std::vector<std::string> specs = collection_workloads(3, 4);
    std::map<SplitKind, int> counts;
    for (const std::string &s : specs) {
        const SplitKind k = split_for(s, 11, 0.1, 0.1);
        EXPECT_EQ(k, split_for(s, 11, 0.1, 0.1)) << "split of " << s << " is not deterministic";
        counts[k]++;
    }
    // Roughly the asked fractions, every split used.
    EXPECT_GT(counts[SplitKind::Test], 0);
    EXPECT_GT(counts[SplitKind::Val], 0);
    EXPECT_GT(counts[SplitKind::Train], int(specs.size()) / 2);

    // In a file each workload is one line with one split, every workload of the records is there once.
    for (uint64_t seed : {1, 2, 3, 4, 5}) {
        RecordStore store(records_db());
        ExportOptions options;
        options.seed = seed;
        options.val_fraction = 0.34;
        options.test_fraction = 0.33;
        options.text_check_sample = 0;
        options.prefix_check_sample = 0;
        const std::string path = temp_path("splits.jsonl");
        export_dataset(store, path, options);
        const Dataset d = load_dataset(path);
        std::set<std::string> seen;
        for (const DatasetWorkload &w : d.workloads) {
            EXPECT_TRUE(seen.insert(w.spec).second) << w.spec << " in two lines";
            EXPECT_EQ(w.split, split_for(w.spec, seed, 0.34, 0.33));
        }
        EXPECT_EQ(seen, std::set<std::string>(kSpecs.begin(), kSpecs.end()));
        EXPECT_EQ(d.split_count(SplitKind::Train) + d.split_count(SplitKind::Val) + d.split_count(SplitKind::Test), 3);
    }

    // A file that puts one workload in two lines (two splits) is refused.
    std::vector<std::string> lines = lines_of(read_text(exported_file()));
    nlohmann::json copy = nlohmann::json::parse(lines[1]);
    copy["split"] = copy["split"] == "test" ? "train" : "test";
    lines.push_back(copy.dump());
    const std::string error = load_error(join_lines(lines));
    EXPECT_NE(error.find("appears twice"), std::string::npos) << error;
    EXPECT_NE(error.find(":5:"), std::string::npos) << error;
}

TEST(Dataset, RegeneratedTextsMatchStoredHashes) {
    const Dataset d = load_dataset(exported_file());
    const TextCheck all = verify_texts(d);
    EXPECT_TRUE(all.ok()) << (all.problems.empty() ? "" : all.problems[0]);
    EXPECT_EQ(all.checked, 11);
    const TextCheck some = verify_texts(d, 4);
    EXPECT_TRUE(some.ok());
    EXPECT_EQ(some.checked, 4);

    // Alter one stored hash in the file: the check fails and names the trajectory.
    std::string text = read_text(exported_file());
    const size_t at = text.find("\"text_hash\":\"", text.find('\n'));  // past the header
    ASSERT_NE(at, std::string::npos);
    const size_t digit = at + 13;
    text[digit] = text[digit] == '0' ? '1' : '0';
    const std::string altered = temp_path("altered.jsonl");
    write_text(altered, text);
    const TextCheck bad = verify_texts(load_dataset(altered));
    EXPECT_FALSE(bad.ok());
    EXPECT_EQ(bad.mismatched, 1);
    ASSERT_EQ(bad.problems.size(), 1u);
    EXPECT_NE(bad.problems[0].find("trajectory"), std::string::npos) << bad.problems[0];

    // Alter one intermediate-states hash: the check fails as well.
    text = read_text(exported_file());
    const size_t pat = text.find("\"prefix_hash\":\"", text.find('\n'));
    ASSERT_NE(pat, std::string::npos);
    text[pat + 15] = text[pat + 15] == '0' ? '1' : '0';
    write_text(altered, text);
    const TextCheck bad_prefix = verify_texts(load_dataset(altered));
    EXPECT_EQ(bad_prefix.mismatched, 1);
    ASSERT_EQ(bad_prefix.problems.size(), 1u);
    EXPECT_NE(bad_prefix.problems[0].find("prefix hash"), std::string::npos) << bad_prefix.problems[0];
}

TEST(Dataset, CorruptedOrWrongVersionFilesAreRefused) {
    const std::vector<std::string> lines = lines_of(read_text(exported_file()));
    ASSERT_EQ(lines.size(), 4u);

    // A truncated last line (the file cut mid-write).
    std::vector<std::string> cut = lines;
    cut[3] = cut[3].substr(0, cut[3].size() / 2);
    std::string error = load_error(join_lines(cut));
    EXPECT_NE(error.find(":4: not valid JSON"), std::string::npos) << error;

    // A garbled line in the middle.
    std::vector<std::string> garbled = lines;
    garbled[2] = "{\"spec\": ]garbage";
    error = load_error(join_lines(garbled));
    EXPECT_NE(error.find(":3:"), std::string::npos) << error;

    // A missing field.
    std::vector<std::string> missing = lines;
    nlohmann::json line = nlohmann::json::parse(missing[1]);
    line["trajectories"][0].erase("latency_s");
    missing[1] = line.dump();
    error = load_error(join_lines(missing));
    EXPECT_NE(error.find(":2: missing field 'latency_s'"), std::string::npos) << error;

    // A whole line lost: the header's counts disagree.
    std::vector<std::string> lost(lines.begin(), lines.end() - 1);
    error = load_error(join_lines(lost));
    EXPECT_NE(error.find("header counts 3 workloads but the file holds 2"), std::string::npos) << error;

    // Another version, another format.
    std::vector<std::string> versioned = lines;
    nlohmann::json header = nlohmann::json::parse(versioned[0]);
    header["version"] = kDatasetVersion + 1;
    versioned[0] = header.dump();
    error = load_error(join_lines(versioned));
    EXPECT_NE(error.find("version " + std::to_string(kDatasetVersion + 1) + " is not supported"), std::string::npos) << error;

    error = load_error(std::string("{\"format\": 1, \"spec\": \"matmul:M=1,N=1,K=1\"}\n"));
    EXPECT_NE(error.find("not a worldtune dataset"), std::string::npos) << error;
    error = load_error("");
    EXPECT_NE(error.find("empty file"), std::string::npos) << error;
}

TEST(Dataset, StatsCountTheFile) {
    const DatasetStats s = dataset_stats(load_dataset(exported_file()), 3);
    EXPECT_EQ(s.workloads, 3);
    EXPECT_EQ(s.trajectories, 12);
    EXPECT_EQ(s.errors.at("none"), 10);
    EXPECT_EQ(s.errors.at("wrong_output"), 1);
    EXPECT_EQ(s.errors.at("schedule"), 1);
    EXPECT_EQ(s.workloads_per_op.at("conv2d"), 1);
    EXPECT_EQ(s.tokens.count, 3);
    EXPECT_GT(s.tokens.min, 10);
    EXPECT_EQ(s.best_over_median.count, 3);
    EXPECT_GT(s.best_over_median.max, 0);
    EXPECT_LE(s.best_over_median.max, 1.0);
    EXPECT_GT(s.length.min, 0);
    EXPECT_FALSE(format_stats(s).empty());
}

TEST(Dataset, CollectionWorkloads) {
    const int per_op = 6;
    const std::vector<std::string> a = collection_workloads(kDefaultCollectionSeed, per_op);
    EXPECT_EQ(a, collection_workloads(kDefaultCollectionSeed, per_op)) << "not deterministic for a seed";
    EXPECT_NE(a, collection_workloads(kDefaultCollectionSeed + 1, per_op));
    const std::vector<std::string> presets = preset_workloads();
    ASSERT_EQ(a.size(), presets.size() + all_ops().size() * per_op);
    EXPECT_EQ(std::vector<std::string>(a.begin(), a.begin() + presets.size()), presets);
    EXPECT_EQ(std::set<std::string>(a.begin(), a.end()).size(), a.size()) << "duplicates";

    std::map<std::string, int> per_op_count;
    for (size_t i = 0; i < a.size(); i++) {
        const WorkloadSpec spec = WorkloadSpec::parse(a[i]);
        EXPECT_EQ(spec.canonical(), a[i]);
        EXPECT_NO_THROW(build_workload(spec)) << a[i];
        if (i >= presets.size()) {
            per_op_count[spec.op()]++;
            EXPECT_LE(find_op(spec.op())->flops(spec), kMaxGeneratedFlops) << a[i];
        }
    }
    for (const OpDef *op : all_ops()) EXPECT_EQ(per_op_count[op->name], per_op) << op->name;

    // At least one pair that differs only in one size, by one: divisible against not.
    const auto keys_of = [](const std::string &s) {
        std::map<std::string, std::string> kv;
        std::stringstream in(s.substr(s.find(':') + 1));
        std::string item;
        while (std::getline(in, item, ',')) kv[item.substr(0, item.find('='))] = item.substr(item.find('=') + 1);
        return kv;
    };
    int pairs = 0;
    for (size_t i = presets.size(); i < a.size(); i++)
        for (size_t j = i + 1; j < a.size(); j++) {
            if (a[i].substr(0, a[i].find(':')) != a[j].substr(0, a[j].find(':'))) continue;
            const auto x = keys_of(a[i]), y = keys_of(a[j]);
            if (x.size() != y.size()) continue;
            bool pair = true, differs = false;
            for (const auto &[k, v] : x) {
                if (!y.count(k)) pair = false;
                else if (y.at(k) != v) {
                    if (v.find_first_not_of("0123456789") != std::string::npos ||
                        y.at(k).find_first_not_of("0123456789") != std::string::npos) {
                        pair = false;
                        continue;
                    }
                    const long d = std::stol(v) - std::stol(y.at(k));
                    if (d != 1 && d != -1) pair = false;
                    differs = true;
                }
            }
            pairs += pair && differs;
        }
    EXPECT_GT(pairs, 0) << "no divisibility pair";

    // The committed list is the default one.
    const std::vector<std::string> committed =
        read_workload_list(std::string(WORLDTUNE_SOURCE_DIR) + "/data/collection_workloads.txt");
    EXPECT_EQ(committed, collection_workloads(kDefaultCollectionSeed, kDefaultGeneratedPerOp))
        << "data/collection_workloads.txt is stale: regenerate it with `worldtune dataset workloads`";
}

TEST(Dataset, CommandLine) {
    std::string out;
    ASSERT_EQ(test::run_worldtune("dataset workloads --generated 1", out), 0) << out;
    EXPECT_NE(out.find("# made by: worldtune dataset workloads --seed 1 --generated 1"), std::string::npos) << out;
    EXPECT_EQ(test::count_lines(out), int(preset_workloads().size() + all_ops().size() + 2));

    const std::string file = temp_path("cli.jsonl");
    ASSERT_EQ(test::run_worldtune("dataset export --db " + records_db() + " --out " + file + " --seed 5 --val 0.2 --test 0.2", out), 0) << out;
    EXPECT_NE(out.find("3 workloads, 12 trajectories"), std::string::npos) << out;
    EXPECT_NE(out.find("2 records of other machines left out"), std::string::npos) << out;
    ASSERT_EQ(test::run_worldtune("dataset stats " + file + " --sample 2", out), 0) << out;
    EXPECT_NE(out.find("workloads: 3"), std::string::npos) << out;
    EXPECT_NE(out.find("best/median latency per workload"), std::string::npos) << out;
    ASSERT_EQ(test::run_worldtune("dataset verify " + file, out), 0) << out;
    EXPECT_NE(out.find("ok: 3 workloads, 12 trajectories"), std::string::npos) << out;

    std::vector<std::string> lines = lines_of(read_text(file));
    nlohmann::json header = nlohmann::json::parse(lines[0]);
    header["version"] = 99;
    lines[0] = header.dump();
    write_text(file, join_lines(lines));
    EXPECT_EQ(test::run_worldtune("dataset verify " + file, out), 1) << out;
    EXPECT_NE(out.find("worldtune: " + file + ": dataset format version 99 is not supported"), std::string::npos) << out;
}

// `dataset collect` measures every workload with each model in passes, resumes without re-measuring, skips
// a workload whose candidates run longer than the bound (noting why), and refuses bad input in one line.
TEST(Dataset, CollectMeasuresResumesAndSkips) {
    const std::string db = temp_path("collect.db"), list = temp_path("collect_list.txt");
    write_text(list, "# two tiny workloads\nmatmul:M=24,N=16,K=8\n\nsoftmax:M=6,N=10\n");
    const std::string base = "dataset collect --list " + list + " --db " + db +
                             " --pass-trials 3 --per-round 3 --repeats 1 --min-time 0 --threads 1";
    const std::string common = base + " --trials 6";
    std::string out;
    ASSERT_EQ(test::run_worldtune(common, out), 0) << out;
    EXPECT_NE(out.find("[pass 2/2, 2/2] static softmax:M=6,N=10"), std::string::npos) << out;
    EXPECT_NE(out.find("2 of 2 workloads complete, 0 skipped"), std::string::npos) << out;
    {
        RecordStore store(db);
        std::map<std::string, int> per;
        store.for_each([&](const Record &r) { per[r.result.spec + " " + r.source]++; });
        EXPECT_EQ(per["matmul:M=24,N=16,K=8 collect:random"], 6);
        EXPECT_EQ(per["matmul:M=24,N=16,K=8 collect:static"], 6);
        EXPECT_EQ(per["softmax:M=6,N=10 collect:random"], 6);
        EXPECT_EQ(per["softmax:M=6,N=10 collect:static"], 6);
        std::set<std::string> distinct;
        store.for_each([&](const Record &r) { distinct.insert(r.result.spec + r.result.actions.dump()); });
        EXPECT_EQ(distinct.size(), 24u) << "a state was measured twice";
    }
    // Resuming a finished collection measures nothing; raising the budget measures only the difference.
    ASSERT_EQ(test::run_worldtune(common, out), 0) << out;
    EXPECT_NE(out.find("measured 0 candidates"), std::string::npos) << out;
    ASSERT_EQ(test::run_worldtune(base + " --models random --trials 8", out), 0) << out;
    EXPECT_NE(out.find("measured 4 candidates"), std::string::npos) << out;

    // A bound no candidate meets: the new workload is probed with one batch, then skipped with a note.
    write_text(list, "matmul:M=24,N=16,K=8\nmatmul:M=40,N=40,K=40\n");
    ASSERT_EQ(test::run_worldtune(common + " --max-run 1e-9", out), 0) << out;
    EXPECT_NE(out.find("skipped matmul:M=40,N=40,K=40: median candidate run"), std::string::npos) << out;
    EXPECT_NE(out.find("skipped matmul:M=24,N=16,K=8"), std::string::npos) << out;
    {
        RecordStore store(db);
        // Probed until the median is trusted (4 successful records), then skipped: far from the 12 a full
        // collection would measure.
        const size_t probed = store.records_for("matmul:M=40,N=40,K=40").size();
        EXPECT_GE(probed, 4u);
        EXPECT_LE(probed, 6u);
        EXPECT_TRUE(store.note("collect-skip:matmul:M=40,N=40,K=40").has_value());
    }

    write_text(list, "matmul:M=24,N=16\n");
    EXPECT_EQ(test::run_worldtune(common, out), 1) << out;
    EXPECT_EQ(test::count_lines(out), 1) << out;
    EXPECT_NE(out.find("worldtune: "), std::string::npos) << out;
    EXPECT_EQ(test::run_worldtune(common + " --models world", out), 1) << out;
    EXPECT_NE(out.find("collect uses the random and static models"), std::string::npos) << out;
}

// A ".gz" dataset is written compressed and reads back identical to the plain file.
TEST(Dataset, CompressedFileRoundTrip) {
    const Dataset plain = load_dataset(exported_file());
    const std::string gz = temp_path("dataset.jsonl.gz");
    write_dataset(plain, gz);
    const std::string bytes = read_text(gz);
    ASSERT_GE(bytes.size(), 2u);
    EXPECT_EQ((unsigned char)bytes[0], 0x1f);
    EXPECT_EQ((unsigned char)bytes[1], 0x8b);
    EXPECT_LT(bytes.size(), read_text(exported_file()).size());
    const Dataset again = load_dataset(gz);
    ASSERT_EQ(again.workloads.size(), plain.workloads.size());
    for (size_t i = 0; i < plain.workloads.size(); i++) EXPECT_TRUE(again.workloads[i] == plain.workloads[i]) << i;
    // A truncated compressed file is refused, not half-read.
    write_text(gz, bytes.substr(0, bytes.size() / 2));
    EXPECT_THROW(load_dataset(gz), DatasetError);
}

// The dataset shipped in the repository loads in seconds, covers every op kind, records its hardware,
// and its regenerated state texts match a sample of the stored hashes.
TEST(Dataset, ShippedDatasetLoads) {
    const std::string path = std::string(WORLDTUNE_SOURCE_DIR) + "/data/dataset.jsonl.gz";
    const auto t0 = std::chrono::steady_clock::now();
    const Dataset d = load_dataset(path);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %zu workloads, %lld trajectories, loaded in %.2f s\n", path.c_str(), d.workloads.size(),
                (long long)d.trajectory_count(), seconds);
    EXPECT_LT(seconds, 10.0);
    EXPECT_GE(d.workloads.size(), 150u);
    EXPECT_GE(d.trajectory_count(), 30000);
    std::set<std::string> ops;
    for (const DatasetWorkload &w : d.workloads) ops.insert(WorkloadSpec::parse(w.spec).op());
    EXPECT_EQ(ops.size(), all_ops().size());
    EXPECT_TRUE(d.hardware.contains("cpu_model"));
    EXPECT_TRUE(d.hardware.contains("isa"));
    for (SplitKind s : {SplitKind::Train, SplitKind::Val, SplitKind::Test}) EXPECT_GT(d.split_count(s), 0);
    const TextCheck check = verify_texts(d, 10);
    EXPECT_TRUE(check.ok()) << (check.problems.empty() ? "" : check.problems[0]);
    EXPECT_EQ(check.checked, 10);
}

// The transition corpus: seeded trajectories of the collection list, every state lowered into the folder's
// cache, one line per finished workload; a rerun resumes (adds nothing), other parameters are refused.
TEST(DatasetTest, TransitionCorpusIsSeededResumableAndLowered) {
    const std::string dir = testing::TempDir() + "/transition_corpus";
    std::filesystem::remove_all(dir);
    TransitionCorpusParams p;
    p.generated_per_op = 0;
    p.schedules = 2;
    p.max_workloads = 2;
    p.threads = 1;
    auto quiet = [](const std::string &) {};
    const TransitionCorpusReport first = generate_transition_corpus(dir, p, quiet);
    EXPECT_EQ(first.workloads, 2);
    EXPECT_TRUE(first.complete);
    EXPECT_GT(first.trajectories, 0);
    EXPECT_GT(first.transitions, int64_t(first.trajectories) * 3);
    std::ifstream in(dir + "/trajectories.jsonl");
    std::string line;
    std::vector<nlohmann::json> lines;
    while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(lines.size(), 2u);
    const std::vector<std::string> presets = preset_workloads();
    EXPECT_EQ(lines[0]["spec"], presets[0]);
    const nlohmann::json &actions = lines[0]["trajectories"][0];
    // Every prefix state is in the cache (a second lookup lowers nothing new and gives the same texts).
    TextCache cache(dir + "/texts.db");
    std::vector<std::pair<std::string, nlohmann::json>> states;
    for (size_t t = 0; t <= actions.size(); t++)
        states.emplace_back(presets[0], nlohmann::json(std::vector<nlohmann::json>(actions.begin(), actions.begin() + long(t))));
    for (const std::string &text : cache.texts(states, 1)) EXPECT_FALSE(text.empty());

    // A rerun resumes and adds nothing; a torn last line (a killed run) is dropped and redone.
    const TransitionCorpusReport again = generate_transition_corpus(dir, p, quiet);
    EXPECT_EQ(again.fresh_workloads, 0);
    EXPECT_EQ(again.trajectories, first.trajectories);
    const uintmax_t size = std::filesystem::file_size(dir + "/trajectories.jsonl");
    std::filesystem::resize_file(dir + "/trajectories.jsonl", size - 10);
    const TransitionCorpusReport redone = generate_transition_corpus(dir, p, quiet);
    EXPECT_EQ(redone.fresh_workloads, 1);
    EXPECT_EQ(redone.trajectories, first.trajectories) << "the same seed gives the same schedules";
    // Other parameters in the same folder are refused.
    p.schedules = 3;
    EXPECT_THROW(generate_transition_corpus(dir, p, quiet), std::runtime_error);
}

// Datasets of two machines merge into one: each workload tagged with its machine, the same spec in the
// same split on both; files split by another seed are refused.
TEST(DatasetTest, DatasetsOfSeveralMachinesMerge) {
    const std::string epyc = std::string(WORLDTUNE_SOURCE_DIR) + "/data/dataset.jsonl.gz";
    const std::string xeon = std::string(WORLDTUNE_SOURCE_DIR) + "/data/dataset-xeon.jsonl.gz";
    const Dataset a = load_dataset(epyc), b = load_dataset(xeon);
    const Dataset both = load_datasets({epyc, xeon});
    ASSERT_EQ(both.machines.size(), 2u);
    EXPECT_EQ(both.workloads.size(), a.workloads.size() + b.workloads.size());
    EXPECT_EQ(both.trajectory_count(), a.trajectory_count() + b.trajectory_count());
    EXPECT_NE(both.machines[0], both.machines[1]);
    std::map<std::string, SplitKind> split_on_a;
    for (const DatasetWorkload &w : both.workloads) {
        EXPECT_EQ(both.hardware_of(w), both.machines[size_t(w.machine)]);
        if (w.machine == 0) split_on_a[w.spec] = w.split;
        else if (split_on_a.count(w.spec)) EXPECT_EQ(split_on_a[w.spec], w.split) << w.spec;
    }
    EXPECT_EQ(load_dataset(xeon).machines.size(), 1u);
    EXPECT_THROW(load_datasets({}), DatasetError);
}
