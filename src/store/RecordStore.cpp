#include "store/RecordStore.h"

#include "common/TextFile.h"
#include "schedule/Action.h"

#include <sqlite3.h>

namespace worldtune {

using nlohmann::json;

namespace {

constexpr const char *kColumns =
    "id, spec, actions, latency_median_s, latency_min_s, latency_max_s, latency_stddev_s, repeats, "
    "runs_per_repeat, gflops, compile_s, error_kind, error_action, error_msg, hardware, target, threads, version, "
    "source, created_at";

constexpr const char *kCreateSchema = R"SQL(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    spec TEXT NOT NULL,
    actions TEXT NOT NULL,
    latency_median_s REAL NOT NULL DEFAULT 0,
    latency_min_s REAL NOT NULL DEFAULT 0,
    latency_max_s REAL NOT NULL DEFAULT 0,
    latency_stddev_s REAL NOT NULL DEFAULT 0,
    repeats INTEGER NOT NULL DEFAULT 0,
    runs_per_repeat INTEGER NOT NULL DEFAULT 0,
    gflops REAL NOT NULL DEFAULT 0,
    compile_s REAL NOT NULL DEFAULT 0,
    error_kind TEXT NOT NULL,
    error_action INTEGER NOT NULL DEFAULT -1,
    error_msg TEXT NOT NULL DEFAULT '',
    hardware TEXT NOT NULL DEFAULT '{}',
    target TEXT NOT NULL DEFAULT '',
    threads INTEGER NOT NULL DEFAULT 0,
    version TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE INDEX records_by_spec ON records (spec, created_at);
)SQL";

std::string dump(const json &j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

/// A prepared statement, finalized on scope exit.
class Statement {
public:
    Statement(sqlite3 *db, const std::string &sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
            throw StoreError(std::string("SQL error: ") + sqlite3_errmsg(db) + " in: " + sql);
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    void bind(int i, const std::string &v) { check(sqlite3_bind_text(stmt_, i, v.c_str(), int(v.size()), SQLITE_TRANSIENT)); }
    void bind(int i, double v) { check(sqlite3_bind_double(stmt_, i, v)); }
    void bind(int i, int64_t v) { check(sqlite3_bind_int64(stmt_, i, v)); }
    void bind(int i, int v) { check(sqlite3_bind_int64(stmt_, i, v)); }

    /// True while a row is available.
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw StoreError(std::string("SQLite: ") + sqlite3_errmsg(db_));
    }
    double real(int i) const { return sqlite3_column_double(stmt_, i); }
    int64_t integer(int i) const { return sqlite3_column_int64(stmt_, i); }
    std::string text(int i) const {
        const unsigned char *t = sqlite3_column_text(stmt_, i);
        return t ? reinterpret_cast<const char *>(t) : "";
    }

private:
    void check(int rc) {
        if (rc != SQLITE_OK) throw StoreError(std::string("SQLite bind: ") + sqlite3_errmsg(db_));
    }
    sqlite3 *db_;
    sqlite3_stmt *stmt_ = nullptr;
};

Record record_from_row(const Statement &s) {
    Record rec;
    MeasureResult &r = rec.result;
    rec.id = s.integer(0);
    r.spec = s.text(1);
    r.actions = json::parse(s.text(2), nullptr, false);
    r.timing.median_s = s.real(3);
    r.timing.min_s = s.real(4);
    r.timing.max_s = s.real(5);
    r.timing.stddev_s = s.real(6);
    r.timing.mean_s = r.timing.median_s;
    r.timing.repeats = int(s.integer(7));
    r.timing.runs_per_repeat = int(s.integer(8));
    r.gflops = s.real(9);
    r.compile_seconds = s.real(10);
    try {
        r.error = error_kind_from_name(s.text(11));
    } catch (const std::invalid_argument &) {
        r.error = ErrorKind::Crash;  // written by a newer worldtune: at least never count it as a success
    }
    r.error_action = int(s.integer(12));
    r.error_msg = s.text(13);
    r.hardware = json::parse(s.text(14), nullptr, false);
    r.target = s.text(15);
    r.threads = int(s.integer(16));
    r.version = s.text(17);
    rec.source = s.text(18);
    r.timestamp = s.text(19);
    return rec;
}

/// A JSONL field: absent or null gives the fallback; a value of the wrong type is refused by name.
template <typename T>
T field(const json &j, const char *name, const T &fallback, bool required = false) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) {
        if (required) throw StoreError(std::string("missing field '") + name + "'");
        return fallback;
    }
    try {
        if constexpr (std::is_arithmetic_v<T>) {
            if (!it->is_number()) throw StoreError("");
        } else {
            if (!it->is_string()) throw StoreError("");
        }
        return it->get<T>();
    } catch (const std::exception &) {
        throw StoreError(std::string("field '") + name + "' has the wrong type (" + it->type_name() + ")");
    }
}

}  // namespace

RecordStore::RecordStore(const std::string &path) : path_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        throw StoreError(path + ": cannot open records database: " + message);
    }
    try {
        sqlite3_busy_timeout(db_, 10000);
        exec("PRAGMA journal_mode=WAL");
        exec("PRAGMA synchronous=FULL");
        create_or_check_schema();
    } catch (const StoreError &e) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError(path + ": " + e.what());
    }
}

RecordStore::~RecordStore() { sqlite3_close(db_); }

void RecordStore::exec(const std::string &sql) const {
    char *error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : sqlite3_errmsg(db_);
        sqlite3_free(error);
        throw StoreError(message == "file is not a database" ? "not a SQLite database" : "SQLite: " + message);
    }
}

void RecordStore::create_or_check_schema() {
    // IMMEDIATE: two processes opening a new file at once must not both create the tables.
    exec("BEGIN IMMEDIATE");
    try {
        auto has_table = [&](const char *name) {
            Statement s(db_, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?");
            s.bind(1, std::string(name));
            return s.step();
        };
        if (!has_table("meta")) {
            Statement any(db_, "SELECT count(*) FROM sqlite_master WHERE type='table'");
            any.step();
            if (any.integer(0) > 0) throw StoreError("not a worldtune records database (it has tables but no 'meta')");
            exec(kCreateSchema);
            Statement put(db_, "INSERT INTO meta (key, value) VALUES ('schema_version', ?)");
            put.bind(1, std::to_string(kSchemaVersion));
            put.step();
        } else {
            Statement get(db_, "SELECT value FROM meta WHERE key='schema_version'");
            if (!get.step()) throw StoreError("records database without a schema version");
            const std::string version = get.text(0);
            if (version != std::to_string(kSchemaVersion))
                throw StoreError("records database has schema version " + version + "; this worldtune (" +
                                 WORLDTUNE_VERSION + ") reads only version " + std::to_string(kSchemaVersion));
        }
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

void RecordStore::set_note(const std::string &key, const std::string &value) {
    Statement s(db_, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    s.bind(1, "note:" + key);
    s.bind(2, value);
    s.step();
}

std::optional<std::string> RecordStore::note(const std::string &key) const {
    Statement s(db_, "SELECT value FROM meta WHERE key=?");
    s.bind(1, "note:" + key);
    if (!s.step()) return std::nullopt;
    return s.text(0);
}

std::vector<std::pair<std::string, std::string>> RecordStore::notes(const std::string &prefix) const {
    // substr rather than LIKE: keys hold specs, whose characters LIKE would read as patterns.
    Statement s(db_, "SELECT key, value FROM meta WHERE substr(key, 1, ?) = ? ORDER BY key");
    const std::string full = "note:" + prefix;
    s.bind(1, int64_t(full.size()));
    s.bind(2, full);
    std::vector<std::pair<std::string, std::string>> out;
    while (s.step()) out.emplace_back(s.text(0).substr(5), s.text(1));
    return out;
}

int64_t RecordStore::insert(const Record &rec) {
    const MeasureResult &r = rec.result;
    Statement s(db_,
                "INSERT INTO records (spec, actions, latency_median_s, latency_min_s, latency_max_s, latency_stddev_s, "
                "repeats, runs_per_repeat, gflops, compile_s, error_kind, error_action, error_msg, hardware, target, "
                "threads, version, source, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    s.bind(1, r.spec);
    s.bind(2, dump(r.actions));
    s.bind(3, r.timing.median_s);
    s.bind(4, r.timing.min_s);
    s.bind(5, r.timing.max_s);
    s.bind(6, r.timing.stddev_s);
    s.bind(7, r.timing.repeats);
    s.bind(8, r.timing.runs_per_repeat);
    s.bind(9, r.gflops);
    s.bind(10, r.compile_seconds);
    s.bind(11, std::string(error_kind_name(r.error)));
    s.bind(12, r.error_action);
    s.bind(13, r.error_msg);
    s.bind(14, dump(r.hardware.is_null() ? json::object() : r.hardware));
    s.bind(15, r.target);
    s.bind(16, r.threads);
    s.bind(17, r.version);
    s.bind(18, rec.source);
    s.bind(19, r.timestamp.empty() ? utc_timestamp() : r.timestamp);
    s.step();
    return sqlite3_last_insert_rowid(db_);
}

int64_t RecordStore::add(const MeasureResult &result, const std::string &source) {
    Record rec;
    rec.result = result;
    rec.source = source;
    return insert(rec);  // autocommit: durable when this returns
}

bool RecordStore::exists(const Record &rec) const {
    Statement s(db_, "SELECT 1 FROM records WHERE spec=? AND created_at=? AND actions=? LIMIT 1");
    s.bind(1, rec.result.spec);
    s.bind(2, rec.result.timestamp);
    s.bind(3, dump(rec.result.actions));
    return s.step();
}

void RecordStore::query(const std::string &where, const std::vector<std::string> &args,
                        const std::function<void(const Record &)> &visit) const {
    Statement s(db_, std::string("SELECT ") + kColumns + " FROM records " + where);
    for (size_t i = 0; i < args.size(); i++) s.bind(int(i) + 1, args[i]);
    while (s.step()) visit(record_from_row(s));
}

std::vector<Record> RecordStore::records_for(const std::string &spec, bool only_ok) const {
    std::vector<Record> out;
    query(std::string("WHERE spec=?") + (only_ok ? " AND error_kind='none'" : "") + " ORDER BY id", {spec},
          [&](const Record &r) { out.push_back(r); });
    return out;
}

std::optional<Record> RecordStore::best_for(const std::string &spec) const {
    std::optional<Record> best;
    query("WHERE spec=? AND error_kind='none' AND latency_median_s > 0 ORDER BY latency_median_s, id LIMIT 1", {spec},
          [&](const Record &r) { best = r; });
    return best;
}

int64_t RecordStore::count() const {
    Statement s(db_, "SELECT count(*) FROM records");
    s.step();
    return s.integer(0);
}

void RecordStore::for_each(const std::function<void(const Record &)> &visit, const std::string &spec) const {
    if (spec.empty()) query("ORDER BY id", {}, visit);
    else query("WHERE spec=? ORDER BY id", {spec}, visit);
}

json RecordStore::record_to_json(const Record &rec) {
    const MeasureResult &r = rec.result;
    return {{"format", kJsonlFormat},
            {"spec", r.spec},
            {"actions", r.actions},
            {"latency_median_s", r.timing.median_s},
            {"latency_min_s", r.timing.min_s},
            {"latency_max_s", r.timing.max_s},
            {"latency_stddev_s", r.timing.stddev_s},
            {"repeats", r.timing.repeats},
            {"runs_per_repeat", r.timing.runs_per_repeat},
            {"gflops", r.gflops},
            {"compile_s", r.compile_seconds},
            {"error_kind", error_kind_name(r.error)},
            {"error_action", r.error_action},
            {"error_msg", r.error_msg},
            {"hardware", r.hardware.is_null() ? json::object() : r.hardware},
            {"target", r.target},
            {"threads", r.threads},
            {"version", r.version},
            {"source", rec.source},
            {"created_at", r.timestamp}};
}

Record RecordStore::record_from_json(const json &j) {
    if (!j.is_object()) throw StoreError("not a JSON object");
    const int format = field<int>(j, "format", 0, true);
    if (format != kJsonlFormat)
        throw StoreError("record format " + std::to_string(format) + "; this worldtune reads format " +
                         std::to_string(kJsonlFormat));
    Record rec;
    MeasureResult &r = rec.result;
    r.spec = field<std::string>(j, "spec", "", true);
    if (r.spec.empty()) throw StoreError("field 'spec' is empty");
    if (!j.contains("actions")) throw StoreError("missing field 'actions'");
    try {
        r.actions = actions_to_json(actions_from_json(j.at("actions")));
    } catch (const ActionFormatError &e) {
        throw StoreError(std::string("field 'actions': ") + e.what());
    }
    r.timing.median_s = field<double>(j, "latency_median_s", 0);
    r.timing.mean_s = r.timing.median_s;
    r.timing.min_s = field<double>(j, "latency_min_s", 0);
    r.timing.max_s = field<double>(j, "latency_max_s", 0);
    r.timing.stddev_s = field<double>(j, "latency_stddev_s", 0);
    r.timing.repeats = field<int>(j, "repeats", 0);
    r.timing.runs_per_repeat = field<int>(j, "runs_per_repeat", 0);
    r.gflops = field<double>(j, "gflops", 0);
    r.compile_seconds = field<double>(j, "compile_s", 0);
    const std::string kind = field<std::string>(j, "error_kind", "", true);
    try {
        r.error = error_kind_from_name(kind);
    } catch (const std::invalid_argument &e) {
        throw StoreError(std::string("field 'error_kind': ") + e.what());
    }
    r.error_action = field<int>(j, "error_action", -1);
    r.error_msg = field<std::string>(j, "error_msg", "");
    if (j.contains("hardware") && !j["hardware"].is_null()) {
        if (!j["hardware"].is_object()) throw StoreError("field 'hardware' must be an object");
        r.hardware = j["hardware"];
    } else {
        r.hardware = json::object();
    }
    r.target = field<std::string>(j, "target", "");
    r.threads = field<int>(j, "threads", 0);
    r.version = field<std::string>(j, "version", "");
    rec.source = field<std::string>(j, "source", "");
    r.timestamp = field<std::string>(j, "created_at", "", true);
    if (r.timestamp.empty()) throw StoreError("field 'created_at' is empty");
    return rec;
}

int64_t RecordStore::export_jsonl(const std::string &path) const {
    std::string text;
    int64_t n = 0;
    for_each([&](const Record &r) {
        text += dump(record_to_json(r)) + "\n";
        n++;
    });
    const std::string failed = write_text_file(path, text);
    if (!failed.empty()) throw StoreError(failed);
    return n;
}

ImportStats RecordStore::import_jsonl(const std::string &path) {
    GzLines in(path);
    if (!in.open()) throw StoreError(path + ": cannot read");
    // Validate every line before adding any: a bad file changes nothing.
    std::vector<Record> records;
    std::string line;
    for (int64_t number = 1; in.next(line); number++) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            json j;
            try {
                j = json::parse(line);
            } catch (const json::parse_error &e) {
                throw StoreError(std::string("not valid JSON (") + e.what() + ")");
            }
            records.push_back(record_from_json(j));
        } catch (const StoreError &e) {
            throw StoreError(path + ":" + std::to_string(number) + ": " + e.what());
        }
    }
    ImportStats stats;
    exec("BEGIN IMMEDIATE");
    try {
        for (const Record &r : records) {
            if (exists(r)) {
                stats.skipped++;
                continue;
            }
            insert(r);
            stats.added++;
        }
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
    return stats;
}

}  // namespace worldtune
