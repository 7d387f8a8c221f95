#include "dataset/TextCache.h"

#include "common/Hash.h"
#include "dataset/DatasetFile.h"
#include "lower/StateText.h"
#include "workload/Spec.h"

#include <sqlite3.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace worldtune {

namespace {

std::string cache_key(const std::string &spec, const nlohmann::json &actions) {
    return std::to_string(fnv1a64(spec + "\n" + actions.dump()));
}

}  // namespace

TextCache::TextCache(const std::string &path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ignored;  // sqlite3_open reports a folder that cannot be made
    if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error("text cache " + path + ": " + why);
    }
    char *error = nullptr;
    if (sqlite3_exec(db_, "PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS texts (key TEXT PRIMARY KEY, text TEXT NOT NULL)",
                     nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string why = error ? error : "unknown error";
        sqlite3_free(error);
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error("text cache " + path + ": " + why);
    }
}

TextCache::~TextCache() { sqlite3_close(db_); }

long long TextCache::import_from(const std::string &path) {
    if (!std::filesystem::exists(path)) throw std::runtime_error("text cache " + path + " not found");
    sqlite3_stmt *attach = nullptr;
    sqlite3_prepare_v2(db_, "ATTACH DATABASE ? AS other", -1, &attach, nullptr);
    sqlite3_bind_text(attach, 1, path.c_str(), -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(attach);
    sqlite3_finalize(attach);
    if (rc != SQLITE_DONE) throw std::runtime_error("text cache " + path + ": " + sqlite3_errmsg(db_));
    char *error = nullptr;
    const int copied = sqlite3_exec(db_, "INSERT OR IGNORE INTO texts (key, text) SELECT key, text FROM other.texts", nullptr, nullptr, &error);
    const std::string why = error ? error : "";
    sqlite3_free(error);
    sqlite3_exec(db_, "DETACH DATABASE other", nullptr, nullptr, nullptr);
    if (copied != SQLITE_OK) throw std::runtime_error("text cache " + path + ": " + why);
    sqlite3_stmt *count = nullptr;
    sqlite3_prepare_v2(db_, "SELECT COUNT(*) FROM texts", -1, &count, nullptr);
    const long long rows = sqlite3_step(count) == SQLITE_ROW ? sqlite3_column_int64(count, 0) : 0;
    sqlite3_finalize(count);
    return rows;
}

std::vector<std::string> TextCache::texts(const std::vector<std::pair<std::string, nlohmann::json>> &states, int threads,
                                          const std::function<void(size_t, size_t)> &progress) {
    std::vector<std::string> out(states.size());
    std::vector<std::string> keys(states.size());
    std::vector<size_t> missing;
    {
        sqlite3_stmt *get = nullptr;
        sqlite3_prepare_v2(db_, "SELECT text FROM texts WHERE key=?", -1, &get, nullptr);
        for (size_t i = 0; i < states.size(); i++) {
            keys[i] = cache_key(states[i].first, states[i].second);
            sqlite3_reset(get);
            sqlite3_bind_text(get, 1, keys[i].c_str(), -1, SQLITE_TRANSIENT);
            if (sqlite3_step(get) == SQLITE_ROW) {
                const unsigned char *t = sqlite3_column_text(get, 0);
                out[i] = t ? reinterpret_cast<const char *>(t) : "";
            } else {
                missing.push_back(i);
            }
        }
        sqlite3_finalize(get);
    }
    if (missing.empty()) return out;

    std::mutex lock;  // guards the insert statement and progress
    sqlite3_stmt *put = nullptr;
    sqlite3_prepare_v2(db_, "INSERT OR REPLACE INTO texts (key, text) VALUES (?, ?)", -1, &put, nullptr);
    sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
    std::atomic<size_t> next{0};
    size_t done = 0;
    auto work = [&] {
        for (size_t m; (m = next++) < missing.size();) {
            const size_t i = missing[m];
            std::string text;
            try {
                text = state_text(WorkloadSpec::parse(states[i].first), actions_from_json(states[i].second));
            } catch (const std::exception &) {
                text.clear();  // Halide refuses it: the state has no text
            }
            std::lock_guard<std::mutex> g(lock);
            out[i] = text;
            sqlite3_reset(put);
            sqlite3_bind_text(put, 1, keys[i].c_str(), -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(put, 2, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
            sqlite3_step(put);
            if (++done % 500 == 0) {
                sqlite3_exec(db_, "COMMIT; BEGIN", nullptr, nullptr, nullptr);
                if (progress) progress(done, missing.size());
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::max(1, threads); t++) pool.emplace_back(work);
    work();
    for (std::thread &t : pool) t.join();
    sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_finalize(put);
    if (progress) progress(missing.size(), missing.size());
    return out;
}

}  // namespace worldtune
