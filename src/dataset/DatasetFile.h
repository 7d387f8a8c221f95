// The trajectory dataset file: measured action lists grouped by workload, split into train / validation /
// test by workload, in a compact, versioned JSON Lines format. State texts are not stored: they are
// regenerated from (spec, actions) with state_text / trajectory_texts; a sample of final-state text hashes
// taken at export lets a reader check that its regeneration matches.
//
// Format "worldtune-dataset", version kDatasetVersion (1). UTF-8 JSON Lines, one object per line; a file
// whose name ends in ".gz" is written gzip-compressed, and readers accept compressed and plain files alike.
//   Line 1, the header:
//     {"format": "worldtune-dataset", "version": 1,
//      "created_at": ISO 8601 UTC, "worldtune_version": "0.1.0",
//      "hardware": {...hardware_json() of the measuring machine; only its records are exported},
//      "seed": split seed (integer), "val_fraction": F, "test_fraction": F,
//      "splits": {"train": workloads, "val": workloads, "test": workloads},
//      "workloads": number of workload lines, "trajectories": total trajectories,
//      "text_hash": "fnv1a64(state_text(spec, actions)) as 16 lowercase hex digits",
//      "prefix_hash": "fnv1a64 of trajectory_texts(spec, actions) joined by \n\x1e\n, 16 hex digits"}
//   Lines 2..: one per workload, each spec at most once in the file:
//     {"spec": canonical spec, "split": "train" | "val" | "test",
//      "trajectories": [{"actions": [action JSON, as actions_to_json writes it],
//                        "error": error_kind_name ("none", "schedule", ...),
//                        "latency_s": median seconds (0 on error), "min_s": ..., "stddev_s": ...,
//                        "gflops": ... (0 on error),
//                        "error_action": index (only for schedule errors with a known action),
//                        "text_hash": "..." (only for the sampled trajectories),
//                        "prefix_hash": "..." (every intermediate state s_0..s_T; a smaller sample)}, ...]}
// The trajectory length is the number of actions. A workload's split is a pure function of its spec and the
// seed (split_for), so adding workloads never moves an existing one between splits.
// Readers refuse another format name or version, a line that is not valid JSON or misses a field (the
// message names the line), a spec given twice, and counts that disagree with the header (truncation).
#pragma once

#include "common/OneLineError.h"
#include "store/RecordStore.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace worldtune {

constexpr const char *kDatasetFormat = "worldtune-dataset";
constexpr int kDatasetVersion = 1;

/// A dataset file that cannot be read: one line naming the file, the line number and the problem.
struct DatasetError : OneLineError {
    using OneLineError::OneLineError;
};

enum class SplitKind { Train, Val, Test };
const char *split_name(SplitKind split);
/// Inverse of split_name; throws std::invalid_argument for an unknown name.
SplitKind split_from_name(const std::string &name);

/// One measured candidate: the action list and its measurement.
struct DatasetTrajectory {
    nlohmann::json actions = nlohmann::json::array();
    ErrorKind error = ErrorKind::None;
    int error_action = -1;
    double latency_s = 0;  ///< median seconds of one run; 0 on error
    double min_s = 0;
    double stddev_s = 0;
    double gflops = 0;
    std::optional<uint64_t> text_hash;    ///< fnv1a64 of the final state text, on a sample
    std::optional<uint64_t> prefix_hash;  ///< fnv1a64 of all prefix texts (prefix_texts_hash), on a sample

    size_t length() const { return actions.size(); }
    bool operator==(const DatasetTrajectory &o) const;
};

/// DatasetWorkload::machine of trajectories that were generated and lowered but never measured (a
/// transition corpus, TransitionCorpus.h): they teach the dynamics, not speed.
constexpr int kUnmeasuredMachine = -1;

struct DatasetWorkload {
    std::string spec;  ///< canonical
    SplitKind split = SplitKind::Train;
    int machine = 0;   ///< index into Dataset::machines: the file it came from (not stored in the file);
                       ///< kUnmeasuredMachine for a transition corpus's trajectories
    bool measured() const { return machine != kUnmeasuredMachine; }
    std::vector<DatasetTrajectory> trajectories;

    bool operator==(const DatasetWorkload &o) const;
};

struct Dataset {
    int version = kDatasetVersion;
    std::string created_at;
    std::string worldtune_version;
    nlohmann::json hardware = nlohmann::json::object();
    uint64_t seed = 1;
    double val_fraction = 0.1;
    double test_fraction = 0.1;
    std::vector<DatasetWorkload> workloads;  ///< sorted by spec (within each machine's file)
    /// The hardware of each machine whose file is part of this dataset (load_datasets); one file: {hardware}.
    std::vector<nlohmann::json> machines;

    /// The hardware a workload's trajectories were measured on.
    const nlohmann::json &hardware_of(const DatasetWorkload &w) const;
    int64_t trajectory_count() const;
    int split_count(SplitKind split) const;
};

/// Every knob of an export, with its default.
struct ExportOptions {
    uint64_t seed = 1;            ///< split seed
    double val_fraction = 0.1;    ///< expected share of workloads in the validation split
    double test_fraction = 0.1;   ///< expected share of workloads in the test split
    int text_check_sample = 200;  ///< trajectories given a text hash (spread evenly; 0: none, -1: all)
    int prefix_check_sample = 20; ///< trajectories given a hash of every intermediate state (T+1 lowerings each)
    /// Only records measured on this hardware; null: the hardware most records were measured on.
    nlohmann::json hardware;
};

struct ExportStats {
    int64_t workloads = 0;
    int64_t trajectories = 0;
    int64_t skipped_other_hardware = 0;  ///< records of other machines, left out
    int64_t text_hashes = 0;
    int64_t prefix_hashes = 0;
};

/// fnv1a64 of trajectory_texts(spec, actions) joined by "\n\x1e\n"; throws like state_text.
uint64_t prefix_texts_hash(const std::string &spec, const nlohmann::json &actions);
/// The split of a workload: a hash of (seed, spec) mapped to [0, 1), test below test_fraction, then val.
SplitKind split_for(const std::string &spec, uint64_t seed, double val_fraction, double test_fraction);

/// Groups the store's records by spec into a Dataset (records of one hardware, oldest first), assigns
/// splits and computes the sampled text hashes (lowering each sampled state: ~10-30 ms each).
Dataset build_dataset(const RecordStore &store, const ExportOptions &options, ExportStats *stats = nullptr);
void write_dataset(const Dataset &dataset, const std::string &path);
/// build_dataset then write_dataset.
ExportStats export_dataset(const RecordStore &store, const std::string &path, const ExportOptions &options = {});

/// Reads and validates a dataset file; throws DatasetError (file, line, problem) for anything wrong.
Dataset load_dataset(const std::string &path);
/// Several dataset files, one per machine, as one dataset: every file's workloads, each tagged with its
/// file's machine (a spec measured on two machines is two workloads). The files must split by the same
/// seed and fractions, so a spec is in one split everywhere; throws DatasetError otherwise.
Dataset load_datasets(const std::vector<std::string> &paths);

/// The outcome of regenerating state texts and comparing them with stored hashes.
struct TextCheck {
    int checked = 0;
    int mismatched = 0;
    std::vector<std::string> problems;  ///< one line per mismatch (the first few)
    bool ok() const { return mismatched == 0; }
};

/// Regenerates the texts of up to `sample` trajectories that carry a hash (all when sample < 0), spread
/// evenly over the file, and compares hashes: the final state's, and every prefix's where a prefix_hash is
/// stored. A state that no longer lowers counts as a mismatch.
TextCheck verify_texts(const Dataset &dataset, int sample = -1);

}  // namespace worldtune
