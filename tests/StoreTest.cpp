// The records database: round trips through SQLite and JSONL, refusal of bad input and unknown schemas,
// and durability: a process killed mid-run loses no record it had committed.
#include "store/RecordStore.h"

#include <gtest/gtest.h>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>

using namespace worldtune;

namespace {

std::string temp_path(const std::string &name) {
    const std::string path = ::testing::TempDir() + "worldtune_store_" + std::to_string(getpid()) + "_" + name;
    for (const char *suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
    return path;
}

/// A plausible measured result, distinct per `i`.
MeasureResult sample_result(int i, ErrorKind error = ErrorKind::None) {
    MeasureResult r;
    r.spec = i % 2 ? "matmul:M=64,N=64,K=64" : "matmul:M=32,N=32,K=32";
    r.actions = actions_to_json({Action::split("out", "n", {8}), Action::annotate("out", "n_1", AnnotationKind::Vectorize)});
    r.actions[0][3] = {2 + i};
    r.error = error;
    if (error == ErrorKind::None) {
        r.timing.median_s = 1e-4 * (10 - i % 10 + 1);
        r.timing.min_s = r.timing.median_s * 0.9;
        r.timing.max_s = r.timing.median_s * 1.2;
        r.timing.stddev_s = r.timing.median_s * 0.05;
        r.timing.repeats = 5;
        r.timing.runs_per_repeat = 40;
        r.gflops = 12.5 + i;
    } else {
        r.error_msg = "action 1: refused \"badly\"";
        r.error_action = 1;
    }
    r.compile_seconds = 0.1 + i * 0.01;
    r.hardware = {{"cpu_model", "Test CPU"}, {"logical_cores", 2}};
    r.target = "x86-64-linux-avx2";
    r.threads = 2;
    r.version = "0.0.test";
    r.timestamp = "2025-01-02T03:04:05." + std::to_string(100 + i) + "Z";
    return r;
}

void expect_same(const MeasureResult &a, const MeasureResult &b) {
    EXPECT_EQ(a.spec, b.spec);
    EXPECT_EQ(a.actions, b.actions);
    EXPECT_DOUBLE_EQ(a.timing.median_s, b.timing.median_s);
    EXPECT_DOUBLE_EQ(a.timing.min_s, b.timing.min_s);
    EXPECT_DOUBLE_EQ(a.timing.max_s, b.timing.max_s);
    EXPECT_DOUBLE_EQ(a.timing.stddev_s, b.timing.stddev_s);
    EXPECT_EQ(a.timing.repeats, b.timing.repeats);
    EXPECT_EQ(a.timing.runs_per_repeat, b.timing.runs_per_repeat);
    EXPECT_DOUBLE_EQ(a.gflops, b.gflops);
    EXPECT_DOUBLE_EQ(a.compile_seconds, b.compile_seconds);
    EXPECT_EQ(a.error, b.error);
    EXPECT_EQ(a.error_action, b.error_action);
    EXPECT_EQ(a.error_msg, b.error_msg);
    EXPECT_EQ(a.hardware, b.hardware);
    EXPECT_EQ(a.target, b.target);
    EXPECT_EQ(a.threads, b.threads);
    EXPECT_EQ(a.version, b.version);
    EXPECT_EQ(a.timestamp, b.timestamp);
}

TEST(Store, AddAndReadBack) {
    const std::string path = temp_path("add.db");
    RecordStore store(path);
    EXPECT_EQ(store.count(), 0);
    std::vector<int64_t> ids;
    for (int i = 0; i < 6; i++) ids.push_back(store.add(sample_result(i, i == 3 ? ErrorKind::Schedule : ErrorKind::None), "test"));
    EXPECT_EQ(store.count(), 6);

    const auto all = store.records_for("matmul:M=64,N=64,K=64");
    ASSERT_EQ(all.size(), 3u);  // i = 1, 3, 5
    EXPECT_EQ(all[0].id, ids[1]);
    EXPECT_EQ(all[0].source, "test");
    expect_same(all[0].result, sample_result(1));
    expect_same(all[1].result, sample_result(3, ErrorKind::Schedule));
    EXPECT_EQ(store.records_for("matmul:M=64,N=64,K=64", true).size(), 2u);

    const auto best = store.best_for("matmul:M=64,N=64,K=64");
    ASSERT_TRUE(best.has_value());
    EXPECT_EQ(best->id, ids[5]);  // the smallest median among i = 1, 5
    EXPECT_FALSE(store.best_for("matmul:M=1,N=1,K=1").has_value());

    int64_t visited = 0;
    store.for_each([&](const Record &) { visited++; });
    EXPECT_EQ(visited, 6);
}

TEST(Store, JsonlExportImportRoundTrip) {
    const std::string from = temp_path("from.db"), to = temp_path("to.db"), jsonl = temp_path("records.jsonl");
    RecordStore a(from);
    for (int i = 0; i < 5; i++) a.add(sample_result(i, i == 2 ? ErrorKind::Timeout : ErrorKind::None), "tune:random");
    EXPECT_EQ(a.export_jsonl(jsonl), 5);

    std::ifstream in(jsonl);
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(nlohmann::json::parse(first).at("format"), kJsonlFormat);

    RecordStore b(to);
    const ImportStats stats = b.import_jsonl(jsonl);
    EXPECT_EQ(stats.added, 5);
    EXPECT_EQ(stats.skipped, 0);
    std::vector<Record> ra, rb;
    a.for_each([&](const Record &r) { ra.push_back(r); });
    b.for_each([&](const Record &r) { rb.push_back(r); });
    ASSERT_EQ(ra.size(), rb.size());
    for (size_t i = 0; i < ra.size(); i++) {
        expect_same(ra[i].result, rb[i].result);
        EXPECT_EQ(ra[i].source, rb[i].source);
    }
    // Importing again adds nothing.
    const ImportStats again = b.import_jsonl(jsonl);
    EXPECT_EQ(again.added, 0);
    EXPECT_EQ(again.skipped, 5);
    EXPECT_EQ(b.count(), 5);
}

TEST(Store, GzipJsonlRoundTripsAndIsCompressed) {
    const std::string from = temp_path("gz-from.db"), to = temp_path("gz-to.db"), gz = temp_path("records.jsonl.gz");
    RecordStore a(from);
    for (int i = 0; i < 4; i++) a.add(sample_result(i, ErrorKind::None), "tune:random");
    EXPECT_EQ(a.export_jsonl(gz), 4);

    std::ifstream raw(gz, std::ios::binary);
    const int magic0 = raw.get(), magic1 = raw.get();
    EXPECT_EQ(magic0, 0x1f);  // the gzip magic: the ".gz" name asked for compression
    EXPECT_EQ(magic1, 0x8b);

    RecordStore b(to);
    const ImportStats stats = b.import_jsonl(gz);
    EXPECT_EQ(stats.added, 4);
    std::vector<Record> ra, rb;
    a.for_each([&](const Record &r) { ra.push_back(r); });
    b.for_each([&](const Record &r) { rb.push_back(r); });
    ASSERT_EQ(ra.size(), rb.size());
    for (size_t i = 0; i < ra.size(); i++) expect_same(ra[i].result, rb[i].result);
}

TEST(Store, MalformedJsonlLineIsRefusedWithItsNumber) {
    const std::string db = temp_path("bad.db"), jsonl = temp_path("bad.jsonl");
    const std::string good = RecordStore::record_to_json({0, sample_result(1), "x"}).dump();
    auto refuse = [&](const std::string &bad_line, const std::string &expected) {
        {
            std::ofstream out(jsonl);
            out << good << "\n\n" << bad_line << "\n" << good << "\n";
        }
        RecordStore store(db);
        try {
            store.import_jsonl(jsonl);
            ADD_FAILURE() << "accepted: " << bad_line;
        } catch (const StoreError &e) {
            const std::string message = e.what();
            EXPECT_NE(message.find(jsonl + ":3:"), std::string::npos) << message;
            EXPECT_NE(message.find(expected), std::string::npos) << message;
        }
        EXPECT_EQ(store.count(), 0) << "a refused file must add nothing";
    };
    refuse("{not json", "not valid JSON");
    nlohmann::json j = nlohmann::json::parse(good);
    j["latency_median_s"] = "fast";
    refuse(j.dump(), "latency_median_s");
    j = nlohmann::json::parse(good);
    j.erase("spec");
    refuse(j.dump(), "'spec'");
    j = nlohmann::json::parse(good);
    j["format"] = 99;
    refuse(j.dump(), "format 99");
    j = nlohmann::json::parse(good);
    j["actions"] = nlohmann::json::array({nlohmann::json::array({"XX", "out"})});
    refuse(j.dump(), "actions");
    j = nlohmann::json::parse(good);
    j["error_kind"] = "exploded";
    refuse(j.dump(), "error_kind");
}

TEST(Store, RecordsSurviveAKilledProcess) {
    const std::string path = temp_path("killed.db");
    int ids_pipe[2];
    ASSERT_EQ(pipe(ids_pipe), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(ids_pipe[0]);
        RecordStore store(path);
        for (int i = 0; i < 100; i++) {
            const int64_t id = store.add(sample_result(i), "killed");
            if (write(ids_pipe[1], &id, sizeof id) != sizeof id) _exit(3);
            if (i == 36) raise(SIGKILL);  // mid-run, with the store open
        }
        _exit(0);
    }
    close(ids_pipe[1]);
    std::vector<int64_t> committed;
    int64_t id = 0;
    while (read(ids_pipe[0], &id, sizeof id) == sizeof id) committed.push_back(id);
    close(ids_pipe[0]);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    ASSERT_EQ(committed.size(), 37u);
    RecordStore store(path);
    EXPECT_EQ(store.count(), 37);
    std::vector<int64_t> found;
    store.for_each([&](const Record &r) { found.push_back(r.id); });
    EXPECT_EQ(found, committed);
}

TEST(Store, UnknownSchemaIsRefused) {
    const std::string path = temp_path("schema.db");
    { RecordStore store(path); }
    sqlite3 *db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE meta SET value='99' WHERE key='schema_version'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    try {
        RecordStore store(path);
        ADD_FAILURE() << "opened a schema 99 database";
    } catch (const StoreError &e) {
        EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
    }

    // A database of something else, and a file that is no database at all.
    const std::string other = temp_path("other.db");
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t (x)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    EXPECT_THROW(RecordStore store(other), StoreError);
    const std::string text = temp_path("text.db");
    std::ofstream(text) << "this is not a database, just some text that is long enough to look like a header\n";
    EXPECT_THROW(RecordStore store(text), StoreError);
}

}  // namespace
