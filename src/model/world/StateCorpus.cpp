#include "model/world/StateCorpus.h"

#include "lower/StateText.h"
#include "workload/Spec.h"

#include <filesystem>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
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

nlohmann::json prefix_actions(const Dataset &dataset, const StateKey &key) {
    if (key.trajectory < 0) return nlohmann::json::array();
    const nlohmann::json &all = dataset.workloads[size_t(key.workload)].trajectories[size_t(key.trajectory)].actions;
    nlohmann::json prefix = nlohmann::json::array();
    for (int i = 0; i < key.prefix && i < int(all.size()); i++) prefix.push_back(all[size_t(i)]);
    return prefix;
}

StateCorpus build_state_corpus(const Dataset &dataset, const CorpusOptions &options, TextCache &cache,
                               const std::function<void(const std::string &)> &log) {
    StateCorpus corpus;
    std::mt19937_64 rng(options.seed);
    auto wanted = [&](SplitKind s) { return std::find(options.splits.begin(), options.splits.end(), s) != options.splits.end(); };

    // Candidates for intermediate states: every successful trajectory of the wanted splits.
    std::vector<std::pair<int, int>> successful;
    for (size_t w = 0; w < dataset.workloads.size(); w++) {
        const DatasetWorkload &wl = dataset.workloads[w];
        corpus.initial[int(w)] = int(corpus.keys.size());
        corpus.keys.push_back({int(w), -1, 0});
        if (!wanted(wl.split)) continue;
        std::vector<int> ok;
        for (size_t t = 0; t < wl.trajectories.size(); t++)
            if (wl.trajectories[t].error == ErrorKind::None) ok.push_back(int(t));
        if (options.finals_per_workload > 0 && int(ok.size()) > options.finals_per_workload) {
            std::shuffle(ok.begin(), ok.end(), rng);
            ok.resize(size_t(options.finals_per_workload));
            std::sort(ok.begin(), ok.end());
        }
        for (int t : ok) successful.emplace_back(int(w), t);
    }
    std::vector<size_t> order(successful.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<bool> with_intermediates(successful.size(), false);
    for (size_t i = 0; i < order.size() && int(i) < options.intermediate_trajectories; i++) with_intermediates[order[i]] = true;

    for (size_t i = 0; i < successful.size(); i++) {
        const auto [w, t] = successful[i];
        const int T = int(dataset.workloads[size_t(w)].trajectories[size_t(t)].length());
        std::vector<int> path(size_t(T) + 1, -1);
        path[0] = corpus.initial[w];
        for (int p = 1; p <= T; p++) {
            if (p < T && !with_intermediates[i]) continue;
            path[size_t(p)] = int(corpus.keys.size());
            corpus.keys.push_back({w, t, p});
        }
        corpus.path[{w, t}] = std::move(path);
    }

    std::vector<std::pair<std::string, nlohmann::json>> states;
    states.reserve(corpus.keys.size());
    for (const StateKey &k : corpus.keys) states.emplace_back(dataset.workloads[size_t(k.workload)].spec, prefix_actions(dataset, k));
    log("states: " + std::to_string(corpus.keys.size()) + " (" + std::to_string(dataset.workloads.size()) + " initial, " +
        std::to_string(successful.size()) + " trajectories, " + std::to_string(std::min<size_t>(successful.size(), size_t(std::max(0, options.intermediate_trajectories)))) +
        " with every intermediate state)");
    size_t last_report = 0;
    corpus.texts = cache.texts(states, options.threads, [&](size_t done, size_t total) {
        if (done == total || done >= last_report + 5000) {
            last_report = done;
            log("  lowered " + std::to_string(done) + " / " + std::to_string(total) + " new states");
        }
    });
    return corpus;
}

}  // namespace worldtune
