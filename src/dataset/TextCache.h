// Texts of program states, lowered once and kept in a SQLite file (key: fnv1a64 of spec + action prefix
// JSON), so that training, evaluation and the transition corpus lower each state once, on several threads.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace worldtune {

/// Texts of states, lowered once and cached on disk (key: fnv1a64 of spec + action prefix JSON).
class TextCache {
public:
    explicit TextCache(const std::string &path);  ///< throws std::runtime_error naming the file
    ~TextCache();
    TextCache(const TextCache &) = delete;
    TextCache &operator=(const TextCache &) = delete;

    /// Texts of (spec, action-prefix) pairs, lowering the missing ones on `threads` threads (an
    /// unlowerable state gets an empty text). `progress(done, total)` is called now and then.
    std::vector<std::string> texts(const std::vector<std::pair<std::string, nlohmann::json>> &states, int threads,
                                   const std::function<void(size_t, size_t)> &progress = {});

    /// Copies in every text of another cache file (e.g. a transition corpus's texts.db) not here yet;
    /// returns how many rows it now holds. Throws std::runtime_error naming the file.
    long long import_from(const std::string &path);

private:
    sqlite3 *db_ = nullptr;
};

}  // namespace worldtune
