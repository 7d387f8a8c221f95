// The records database: every measured candidate, one SQLite row each, committed the moment it is added
// (WAL, synchronous=FULL), so a killed tuner loses nothing it already recorded. Records move between
// machines as JSON Lines (export_jsonl / import_jsonl).
//
// Schema (version kSchemaVersion, kept in table `meta` under key 'schema_version'):
//   records(id, spec, actions, latency_median_s, latency_min_s, latency_max_s, latency_stddev_s, repeats,
//           runs_per_repeat, gflops, compile_s, error_kind, error_action, error_msg, hardware, target,
//           threads, version, source, created_at)
// A database with another (or no) schema version is refused with a clear message.
//
// JSONL: one object per line, {"format": kJsonlFormat, "spec": ..., "actions": [...], ...} with the
// columns above (hardware as an object, actions as an array) except id.
#pragma once

#include "common/OneLineError.h"
#include "measure/Measurer.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace worldtune {

constexpr int kSchemaVersion = 1;
constexpr int kJsonlFormat = 1;

/// A problem with the database or a JSONL file: one line naming it (file, line number, field).
struct StoreError : OneLineError {
    using OneLineError::OneLineError;
};

/// One stored record. `result.timestamp` is the record's created_at; timing samples are not stored.
struct Record {
    int64_t id = 0;
    MeasureResult result;
    std::string source;  ///< who measured it, free text: "measure", "tune:random", "import", ...
};

struct ImportStats {
    int64_t added = 0;
    int64_t skipped = 0;  ///< already present: same spec, actions and created_at
};

class RecordStore {
public:
    static constexpr const char *kDefaultPath = "worldtune.db";

    /// Opens (creating if absent) the database at `path`. Throws StoreError for an unreadable file or a
    /// schema this build does not know.
    explicit RecordStore(const std::string &path = kDefaultPath);
    ~RecordStore();
    RecordStore(const RecordStore &) = delete;
    RecordStore &operator=(const RecordStore &) = delete;

    /// Stores one result (committed before returning); returns its id.
    int64_t add(const MeasureResult &result, const std::string &source);

    /// Records of a spec (canonical text), oldest first; only those without error when `only_ok`.
    std::vector<Record> records_for(const std::string &spec, bool only_ok = false) const;
    /// The fastest error-free record of a spec.
    std::optional<Record> best_for(const std::string &spec) const;
    int64_t count() const;
    /// Calls `visit` for every record in id order (all specs when `spec` is empty).
    void for_each(const std::function<void(const Record &)> &visit, const std::string &spec = "") const;

    /// Writes every record to `path` as JSON Lines (gzip-compressed when it ends in ".gz"), whole or not at
    /// all; returns how many.
    int64_t export_jsonl(const std::string &path) const;
    /// Adds the records of a JSONL file (plain or gzip-compressed) in one transaction: a bad line refuses the whole file with an error
    /// naming the line number; records already present are skipped.
    ImportStats import_jsonl(const std::string &path);

    const std::string &path() const { return path_; }

    /// Free-form notes kept with the records (table `meta`, keys prefixed "note:"), e.g. the workloads a
    /// collection skipped and why. set_note commits at once; note() is empty when the key is absent.
    void set_note(const std::string &key, const std::string &value);
    std::optional<std::string> note(const std::string &key) const;
    /// Every note whose key starts with `prefix`, as (key, value), sorted by key.
    std::vector<std::pair<std::string, std::string>> notes(const std::string &prefix = "") const;

    /// A record as one JSONL object (with the "format" field), and back (throws StoreError naming the field).
    static nlohmann::json record_to_json(const Record &record);
    static Record record_from_json(const nlohmann::json &j);

private:
    void exec(const std::string &sql) const;
    void create_or_check_schema();
    int64_t insert(const Record &record);
    bool exists(const Record &record) const;
    void query(const std::string &where, const std::vector<std::string> &args,
               const std::function<void(const Record &)> &visit) const;

    std::string path_;
    sqlite3 *db_ = nullptr;
};

}  // namespace worldtune
