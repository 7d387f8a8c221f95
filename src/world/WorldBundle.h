// The trained world model on disk: one directory holding every part and a manifest.
//   manifest.json   {"format": "worldtune-world-model", "version": kBundleVersion, "created_at",
//                    "dataset": {...header facts of the training dataset}, "hardware": {...},
//                    "stages": {stage: report}, "files": {...}}
//   config.json     WorldConfig (the configuration the parts were trained with)
//   tokenizer.json  Tokenizer
//   encoder.pt      StateEncoder weights (libtorch)
//   transition.pt   Transition weights (libtorch), and transition.bin: the same as plain tables (Rollout)
//   ranker_<variant>.ubj   one ranker per variant: world, initial, final, actions
// A bundle of another format or version, or with a missing part, is refused with one clear line.
#pragma once

#include "common/OneLineError.h"
#include "world/Tokenizer.h"
#include "world/WorldConfig.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace worldtune {

constexpr const char *kBundleFormat = "worldtune-world-model";
constexpr int kBundleVersion = 2;  ///< 2: action contexts, the state-reading transition, online_mode
/// Where `worldtune tune --model world` looks when no --bundle is given (relative to the repository root,
/// or the directory of WORLDTUNE_MODEL when set).
constexpr const char *kDefaultBundle = "models/world";

struct BundleError : OneLineError {
    using OneLineError::OneLineError;
};

/// The files of a bundle (and what is written beside it):
/// the current UTC time as "2026-01-31T12:00:00Z";
std::string utc_now_iso();
/// `j` written to `path` through a temporary file and a rename, so a kill never leaves half a file;
/// throws std::runtime_error when it cannot be written;
void write_json_file(const std::string &path, const nlohmann::json &j);
/// the JSON of `path`, or `fallback` when it is missing or not valid JSON.
nlohmann::json read_json_or(const std::string &path, nlohmann::json fallback);

struct WorldBundle {
    std::string dir;
    nlohmann::json manifest;
    WorldConfig config;
    Tokenizer tokenizer;

    std::string path(const std::string &file) const { return dir + "/" + file; }
    /// Reads manifest, config and tokenizer and checks every part is present; throws BundleError.
    static WorldBundle open(const std::string &dir);
    /// The bundle directory to use: `requested` if given, else $WORLDTUNE_MODEL, else kDefaultBundle found
    /// next to the running binary's source tree (walking up from the working directory).
    static std::string locate(const std::string &requested);
};

}  // namespace worldtune
