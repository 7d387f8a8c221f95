// Writing, reading and checking the dataset file (the format is documented in DatasetFile.h).
#include "dataset/DatasetFile.h"

#include "common/Hash.h"
#include "common/TextFile.h"
#include "lower/StateText.h"
#include "schedule/Action.h"
#include "workload/Spec.h"

#include <cstdio>
#include <map>
#include <set>

namespace worldtune {

namespace {

std::string hex64(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
    return buf;
}

std::optional<uint64_t> parse_hex64(const std::string &s) {
    if (s.size() != 16) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        int digit;
        if (c >= '0' && c <= '9') digit = c - '0';
        else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
        else return std::nullopt;
        v = v << 4 | uint64_t(digit);
    }
    return v;
}

/// The final state text's hash, or nothing when the state does not lower.
std::optional<uint64_t> final_text_hash(const std::string &spec, const nlohmann::json &actions) {
    try {
        return fnv1a64(state_text(WorkloadSpec::parse(spec), actions_from_json(actions)));
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

std::optional<uint64_t> prefix_hash_or_none(const std::string &spec, const nlohmann::json &actions) {
    try {
        return prefix_texts_hash(spec, actions);
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

/// `count` indices spread evenly over [0, n) (all of them when count < 0 or count >= n).
std::vector<size_t> spread(size_t n, int count) {
    std::vector<size_t> out;
    if (count < 0 || size_t(count) >= n) {
        for (size_t i = 0; i < n; i++) out.push_back(i);
        return out;
    }
    for (size_t j = 0; j < size_t(count); j++) out.push_back(j * n / size_t(count));
    return out;
}

nlohmann::json trajectory_to_json(const DatasetTrajectory &t) {
    nlohmann::json j = {{"actions", t.actions}, {"error", error_kind_name(t.error)}, {"latency_s", t.latency_s},
                        {"min_s", t.min_s}, {"stddev_s", t.stddev_s}, {"gflops", t.gflops}};
    if (t.error_action >= 0) j["error_action"] = t.error_action;
    if (t.text_hash) j["text_hash"] = hex64(*t.text_hash);
    if (t.prefix_hash) j["prefix_hash"] = hex64(*t.prefix_hash);
    return j;
}

/// Reads one line's fields; every failure names the file and line.
class LineReader {
public:
    LineReader(const std::string &path, int line) : where_(path + ":" + std::to_string(line)) {}

    [[noreturn]] void fail(const std::string &what) const { throw DatasetError(where_ + ": " + what); }

    const nlohmann::json &field(const nlohmann::json &j, const char *key) const {
        if (!j.is_object() || !j.contains(key)) fail(std::string("missing field '") + key + "'");
        return j.at(key);
    }
    std::string text(const nlohmann::json &j, const char *key) const {
        const nlohmann::json &v = field(j, key);
        if (!v.is_string()) fail(std::string("field '") + key + "' must be a string");
        return v.get<std::string>();
    }
    double number(const nlohmann::json &j, const char *key) const {
        const nlohmann::json &v = field(j, key);
        if (!v.is_number()) fail(std::string("field '") + key + "' must be a number");
        return v.get<double>();
    }
    int64_t integer(const nlohmann::json &j, const char *key) const {
        const nlohmann::json &v = field(j, key);
        if (!v.is_number_integer()) fail(std::string("field '") + key + "' must be an integer");
        return v.get<int64_t>();
    }

private:
    std::string where_;
};

nlohmann::json parse_line(const std::string &text, const LineReader &reader) {
    if (text.empty()) reader.fail("empty line");
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) reader.fail("not valid JSON (corrupted or truncated line)");
    if (!j.is_object()) reader.fail("not a JSON object");
    return j;
}

DatasetTrajectory trajectory_from_json(const nlohmann::json &j, const LineReader &r, size_t index) {
    const std::string at = "trajectory " + std::to_string(index) + ": ";
    DatasetTrajectory t;
    t.actions = r.field(j, "actions");
    try {
        actions_from_json(t.actions);
    } catch (const std::exception &e) {
        r.fail(at + "bad actions: " + e.what());
    }
    try {
        t.error = error_kind_from_name(r.text(j, "error"));
    } catch (const std::invalid_argument &e) {
        r.fail(at + e.what());
    }
    t.latency_s = r.number(j, "latency_s");
    t.min_s = r.number(j, "min_s");
    t.stddev_s = r.number(j, "stddev_s");
    t.gflops = r.number(j, "gflops");
    if (j.contains("error_action")) t.error_action = int(r.integer(j, "error_action"));
    if (j.contains("text_hash")) {
        t.text_hash = parse_hex64(r.text(j, "text_hash"));
        if (!t.text_hash) r.fail(at + "text_hash must be 16 lowercase hex digits");
    }
    if (j.contains("prefix_hash")) {
        t.prefix_hash = parse_hex64(r.text(j, "prefix_hash"));
        if (!t.prefix_hash) r.fail(at + "prefix_hash must be 16 lowercase hex digits");
    }
    return t;
}

}  // namespace

const char *split_name(SplitKind split) {
    switch (split) {
    case SplitKind::Train: return "train";
    case SplitKind::Val: return "val";
    case SplitKind::Test: return "test";
    }
    return "unknown";
}

SplitKind split_from_name(const std::string &name) {
    for (SplitKind s : {SplitKind::Train, SplitKind::Val, SplitKind::Test})
        if (name == split_name(s)) return s;
    throw std::invalid_argument("unknown split '" + name + "' (train, val or test)");
}

bool DatasetTrajectory::operator==(const DatasetTrajectory &o) const {
    return actions == o.actions && error == o.error && error_action == o.error_action && latency_s == o.latency_s &&
           min_s == o.min_s && stddev_s == o.stddev_s && gflops == o.gflops &&
           text_hash == o.text_hash && prefix_hash == o.prefix_hash;
}

bool DatasetWorkload::operator==(const DatasetWorkload &o) const {
    return spec == o.spec && split == o.split && trajectories == o.trajectories;
}

int64_t Dataset::trajectory_count() const {
    int64_t n = 0;
    for (const DatasetWorkload &w : workloads) n += int64_t(w.trajectories.size());
    return n;
}

int Dataset::split_count(SplitKind split) const {
    int n = 0;
    for (const DatasetWorkload &w : workloads) n += w.split == split;
    return n;
}

uint64_t prefix_texts_hash(const std::string &spec, const nlohmann::json &actions) {
    std::string joined;
    for (const std::string &text : trajectory_texts(WorkloadSpec::parse(spec), actions_from_json(actions)))
        joined += text + "\n\x1e\n";
    return fnv1a64(joined);
}

SplitKind split_for(const std::string &spec, uint64_t seed, double val_fraction, double test_fraction) {
    // Finish the FNV hash with splitmix64 so that nearby specs land far apart.
    const uint64_t z = splitmix64(fnv1a64(std::to_string(seed) + "|" + spec));
    const double u = double(z >> 11) * 0x1.0p-53;
    if (u < test_fraction) return SplitKind::Test;
    if (u < test_fraction + val_fraction) return SplitKind::Val;
    return SplitKind::Train;
}

Dataset build_dataset(const RecordStore &store, const ExportOptions &options, ExportStats *stats) {
    if (options.val_fraction < 0 || options.test_fraction < 0 || options.val_fraction + options.test_fraction > 1)
        throw DatasetError("split fractions must be non-negative and sum to at most 1");
    nlohmann::json hardware = options.hardware;
    if (hardware.is_null()) {
        std::map<std::string, int64_t> counts;
        store.for_each([&](const Record &r) { counts[r.result.hardware.dump()]++; });
        int64_t most = -1;
        for (const auto &[dump, n] : counts)
            if (n > most) {
                most = n;
                hardware = nlohmann::json::parse(dump);
            }
    }
    ExportStats local;
    ExportStats &s = stats ? *stats : local;
    s = ExportStats{};

    std::map<std::string, DatasetWorkload> by_spec;
    store.for_each([&](const Record &rec) {
        const MeasureResult &r = rec.result;
        if (r.hardware != hardware) {
            s.skipped_other_hardware++;
            return;
        }
        DatasetWorkload &w = by_spec[r.spec];
        w.spec = r.spec;
        DatasetTrajectory t;
        t.actions = r.actions;
        t.error = r.error;
        t.error_action = r.error == ErrorKind::Schedule ? r.error_action : -1;
        if (r.ok()) {
            t.latency_s = r.timing.median_s;
            t.min_s = r.timing.min_s;
            t.stddev_s = r.timing.stddev_s;
            t.gflops = r.gflops;
        }
        w.trajectories.push_back(std::move(t));
    });

    Dataset d;
    d.created_at = utc_timestamp();
    d.worldtune_version = WORLDTUNE_VERSION;
    d.hardware = hardware.is_null() ? nlohmann::json::object() : hardware;
    d.seed = options.seed;
    d.val_fraction = options.val_fraction;
    d.test_fraction = options.test_fraction;
    for (auto &[spec, w] : by_spec) {
        w.split = split_for(spec, options.seed, options.val_fraction, options.test_fraction);
        d.workloads.push_back(std::move(w));
    }

    // Text hashes on an even spread of the trajectories that can lower (not refused schedules).
    std::vector<DatasetTrajectory *> eligible;
    for (DatasetWorkload &w : d.workloads)
        for (DatasetTrajectory &t : w.trajectories)
            if (t.error != ErrorKind::Schedule) eligible.push_back(&t);
    std::vector<std::string> owner;
    for (DatasetWorkload &w : d.workloads)
        for (DatasetTrajectory &t : w.trajectories)
            if (t.error != ErrorKind::Schedule) owner.push_back(w.spec);
    for (size_t i : spread(eligible.size(), options.text_check_sample)) {
        eligible[i]->text_hash = final_text_hash(owner[i], eligible[i]->actions);
        if (eligible[i]->text_hash) s.text_hashes++;
    }
    for (size_t i : spread(eligible.size(), options.prefix_check_sample)) {
        eligible[i]->prefix_hash = prefix_hash_or_none(owner[i], eligible[i]->actions);
        if (eligible[i]->prefix_hash) s.prefix_hashes++;
    }
    s.workloads = int64_t(d.workloads.size());
    s.trajectories = d.trajectory_count();
    return d;
}

void write_dataset(const Dataset &d, const std::string &path) {
    const nlohmann::json header = {
        {"format", kDatasetFormat},
        {"version", d.version},
        {"created_at", d.created_at},
        {"worldtune_version", d.worldtune_version},
        {"hardware", d.hardware},
        {"seed", d.seed},
        {"val_fraction", d.val_fraction},
        {"test_fraction", d.test_fraction},
        {"splits",
         {{"train", d.split_count(SplitKind::Train)}, {"val", d.split_count(SplitKind::Val)}, {"test", d.split_count(SplitKind::Test)}}},
        {"workloads", d.workloads.size()},
        {"trajectories", d.trajectory_count()},
        {"text_hash", "fnv1a64(state_text(spec, actions)) as 16 lowercase hex digits"},
        {"prefix_hash", "fnv1a64 of trajectory_texts(spec, actions) joined by \\n\\x1e\\n, 16 hex digits"},
    };
    std::string text = header.dump() + "\n";
    for (const DatasetWorkload &w : d.workloads) {
        nlohmann::json trajectories = nlohmann::json::array();
        for (const DatasetTrajectory &t : w.trajectories) trajectories.push_back(trajectory_to_json(t));
        const nlohmann::json line = {{"spec", w.spec}, {"split", split_name(w.split)}, {"trajectories", trajectories}};
        text += line.dump() + "\n";
    }
    const std::string failed = write_text_file(path, text);
    if (!failed.empty()) throw DatasetError(failed);
}

ExportStats export_dataset(const RecordStore &store, const std::string &path, const ExportOptions &options) {
    ExportStats stats;
    write_dataset(build_dataset(store, options, &stats), path);
    return stats;
}

Dataset load_dataset(const std::string &path) {
    GzLines in(path);
    if (!in.open()) throw DatasetError("cannot read dataset file " + path);
    std::string text;
    if (!in.next(text)) throw DatasetError(path + ": empty file, not a worldtune dataset");

    const LineReader hr(path, 1);
    nlohmann::json header = nlohmann::json::parse(text, nullptr, false);
    if (header.is_discarded() || !header.is_object() || !header.contains("format") || header["format"] != kDatasetFormat)
        throw DatasetError(path + ": not a worldtune dataset (line 1 must be a header with \"format\": \"" +
                           kDatasetFormat + "\")");
    Dataset d;
    d.version = int(hr.integer(header, "version"));
    if (d.version != kDatasetVersion)
        throw DatasetError(path + ": dataset format version " + std::to_string(d.version) +
                           " is not supported (this build reads version " + std::to_string(kDatasetVersion) +
                           "); re-export it with a matching worldtune");
    d.created_at = hr.text(header, "created_at");
    d.worldtune_version = hr.text(header, "worldtune_version");
    d.hardware = hr.field(header, "hardware");
    const nlohmann::json &seed = hr.field(header, "seed");
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<int64_t>() >= 0))
        hr.fail("field 'seed' must be a non-negative integer");
    d.seed = seed.get<uint64_t>();
    d.val_fraction = hr.number(header, "val_fraction");
    d.test_fraction = hr.number(header, "test_fraction");
    const nlohmann::json &splits = hr.field(header, "splits");
    const int64_t n_workloads = hr.integer(header, "workloads");
    const int64_t n_trajectories = hr.integer(header, "trajectories");

    std::set<std::string> seen;
    int number = 1;
    while (in.next(text)) {
        number++;
        const LineReader r(path, number);
        const nlohmann::json j = parse_line(text, r);
        DatasetWorkload w;
        w.spec = r.text(j, "spec");
        try {
            if (WorkloadSpec::parse(w.spec).canonical() != w.spec) r.fail("spec '" + w.spec + "' is not canonical");
        } catch (const SpecError &e) {
            r.fail(e.what());
        }
        if (!seen.insert(w.spec).second) r.fail("workload '" + w.spec + "' appears twice (a workload belongs to one split)");
        try {
            w.split = split_from_name(r.text(j, "split"));
        } catch (const std::invalid_argument &e) {
            r.fail(e.what());
        }
        const nlohmann::json &trajectories = r.field(j, "trajectories");
        if (!trajectories.is_array()) r.fail("field 'trajectories' must be an array");
        for (size_t i = 0; i < trajectories.size(); i++) w.trajectories.push_back(trajectory_from_json(trajectories[i], r, i));
        d.workloads.push_back(std::move(w));
    }

    const auto mismatch = [&](const std::string &what, int64_t header_value, int64_t file_value) {
        throw DatasetError(path + ": the header counts " + std::to_string(header_value) + " " + what + " but the file holds " +
                           std::to_string(file_value) + " (truncated or edited file)");
    };
    if (int64_t(d.workloads.size()) != n_workloads) mismatch("workloads", n_workloads, int64_t(d.workloads.size()));
    if (d.trajectory_count() != n_trajectories) mismatch("trajectories", n_trajectories, d.trajectory_count());
    d.machines = {d.hardware};
    for (SplitKind s : {SplitKind::Train, SplitKind::Val, SplitKind::Test})
        if (hr.integer(splits, split_name(s)) != d.split_count(s))
            mismatch(std::string(split_name(s)) + " workloads", hr.integer(splits, split_name(s)), d.split_count(s));
    return d;
}

const nlohmann::json &Dataset::hardware_of(const DatasetWorkload &w) const {
    return w.machine >= 0 && size_t(w.machine) < machines.size() ? machines[size_t(w.machine)] : hardware;
}

Dataset load_datasets(const std::vector<std::string> &paths) {
    if (paths.empty()) throw DatasetError("no dataset file given");
    Dataset merged = load_dataset(paths[0]);
    for (size_t i = 1; i < paths.size(); i++) {
        Dataset d = load_dataset(paths[i]);
        if (d.seed != merged.seed || d.val_fraction != merged.val_fraction || d.test_fraction != merged.test_fraction)
            throw DatasetError(paths[i] + ": split by seed " + std::to_string(d.seed) + " and other fractions than " + paths[0] +
                               "; datasets merged for training must split alike");
        for (DatasetWorkload &w : d.workloads) {
            w.machine = int(merged.machines.size());
            merged.workloads.push_back(std::move(w));
        }
        merged.machines.push_back(d.hardware);
    }
    return merged;
}

TextCheck verify_texts(const Dataset &dataset, int sample) {
    std::vector<std::pair<const DatasetWorkload *, size_t>> hashed;
    for (const DatasetWorkload &w : dataset.workloads)
        for (size_t i = 0; i < w.trajectories.size(); i++)
            if (w.trajectories[i].text_hash || w.trajectories[i].prefix_hash) hashed.emplace_back(&w, i);
    TextCheck check;
    for (size_t k : spread(hashed.size(), sample)) {
        const DatasetWorkload *w = hashed[k].first;  // not a structured binding: the lambda below captures it
        const size_t i = hashed[k].second;
        const DatasetTrajectory &t = w->trajectories[i];
        check.checked++;
        std::string problem;
        const auto compare = [&](const char *what, const std::optional<uint64_t> &stored, const std::optional<uint64_t> &now) {
            if (!stored || now == stored || !problem.empty()) return;
            problem = w->spec + ", trajectory " + std::to_string(i) + ": stored " + what + " " + hex64(*stored) +
                      ", regenerated " + (now ? hex64(*now) : std::string("none (the state no longer lowers)"));
        };
        if (t.text_hash) compare("text hash", t.text_hash, final_text_hash(w->spec, t.actions));
        if (t.prefix_hash) compare("prefix hash", t.prefix_hash, prefix_hash_or_none(w->spec, t.actions));
        if (problem.empty()) continue;
        check.mismatched++;
        if (check.problems.size() < 10) check.problems.push_back(problem);
    }
    return check;
}

}  // namespace worldtune
