#include "FuzzTargets.h"

#include "dataset/DatasetFile.h"
#include "schedule/Action.h"
#include "store/RecordStore.h"
#include "workload/Spec.h"
#include "world/Tokenizer.h"
#include "world/WorldConfig.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace worldtune::fuzz {

namespace {

[[noreturn]] void finding(const std::string &what) {
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    std::abort();
}

/// A documented error must be one line (what the command line prints after "worldtune: ").
void one_line_error(const std::exception &e) {
    const std::string what = e.what();
    if (what.empty() || what.find('\n') != std::string::npos) finding("error message is not one line: " + what);
}

std::string text_of(const uint8_t *data, size_t size) { return std::string(reinterpret_cast<const char *>(data), size); }

/// Writes the input to a file of this process (the parsers under test read files).
std::string input_file(const uint8_t *data, size_t size, const char *suffix) {
    const std::string path = "/tmp/worldtune_fuzz_" + std::to_string(getpid()) + suffix;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
    return path;
}

}  // namespace

int fuzz_spec(const uint8_t *data, size_t size) {
    try {
        const WorkloadSpec spec = WorkloadSpec::parse(text_of(data, size));
        const std::string canonical = spec.canonical();
        if (WorkloadSpec::parse(canonical).canonical() != canonical) finding("canonical text does not round-trip: " + canonical);
    } catch (const std::exception &e) {  // the command line prints any error as one line
        one_line_error(e);
    }
    return 0;
}

int fuzz_actions(const uint8_t *data, size_t size) {
    const nlohmann::json j = nlohmann::json::parse(text_of(data, size), nullptr, false);
    if (j.is_discarded()) return 0;
    try {
        const ActionList actions = actions_from_json(j);
        const nlohmann::json again = actions_to_json(actions);
        if (actions_to_json(actions_from_json(again)) != again) finding("action JSON does not round-trip: " + again.dump());
    } catch (const std::exception &e) {
        one_line_error(e);
    }
    return 0;
}

int fuzz_record_line(const uint8_t *data, size_t size) {
    const nlohmann::json j = nlohmann::json::parse(text_of(data, size), nullptr, false);
    if (j.is_discarded()) return 0;
    try {
        const Record r = RecordStore::record_from_json(j);
        const nlohmann::json again = RecordStore::record_to_json(r);
        if (RecordStore::record_to_json(RecordStore::record_from_json(again)) != again) finding("record does not round-trip: " + again.dump());
    } catch (const std::exception &e) {
        one_line_error(e);
    }
    return 0;
}

int fuzz_dataset(const uint8_t *data, size_t size) {
    const std::string path = input_file(data, size, ".jsonl");
    try {
        load_dataset(path);
    } catch (const std::exception &e) {
        one_line_error(e);
    }
    std::remove(path.c_str());
    return 0;
}

int fuzz_bundle_json(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    // The first byte picks the file: even, config.json; odd, tokenizer.json.
    if (data[0] % 2 == 0) {
        const nlohmann::json j = nlohmann::json::parse(text_of(data + 1, size - 1), nullptr, false);
        if (j.is_discarded()) return 0;
        try {
            const WorldConfig c = WorldConfig::from_json(j);
            if (WorldConfig::from_json(c.to_json()).to_json() != c.to_json()) finding("config does not round-trip");
        } catch (const std::exception &e) {
            one_line_error(e);
        }
        return 0;
    }
    const std::string path = input_file(data + 1, size - 1, ".tokenizer.json");
    try {
        Tokenizer::load(path);
    } catch (const std::exception &e) {
        one_line_error(e);
    }
    std::remove(path.c_str());
    return 0;
}

const std::vector<FuzzTarget> &fuzz_targets() {
    static const std::vector<FuzzTarget> targets = {{"spec", fuzz_spec},
                                                    {"actions", fuzz_actions},
                                                    {"record_line", fuzz_record_line},
                                                    {"dataset", fuzz_dataset},
                                                    {"bundle_json", fuzz_bundle_json}};
    return targets;
}

}  // namespace worldtune::fuzz
