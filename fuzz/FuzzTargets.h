// The parsers of outside input, each as one fuzz target: bytes in, and either a parsed value that
// survives a round trip or an exception with a one-line message (what the command line prints after
// "worldtune: " before exiting 1). Anything else (a crash, a hang, a multi-line message, a round trip
// that changes the value) is a finding: it aborts, and libFuzzer saves the input. scripts/fuzz.sh runs them under libFuzzer (clang); tests/FuzzRegressionTest.cpp
// replays the seed corpus and every past finding (fuzz/corpus/<target>/, fuzz/regressions/<target>/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace worldtune::fuzz {

int fuzz_spec(const uint8_t *data, size_t size);         ///< workload specs (WorkloadSpec::parse)
int fuzz_actions(const uint8_t *data, size_t size);      ///< action-list JSON (actions_from_json)
int fuzz_record_line(const uint8_t *data, size_t size);  ///< one records JSON Lines line (record_from_json)
int fuzz_dataset(const uint8_t *data, size_t size);      ///< a dataset file (load_dataset)
int fuzz_bundle_json(const uint8_t *data, size_t size);  ///< a bundle's config.json and tokenizer.json

/// The targets by name, for the regression test and the script.
struct FuzzTarget {
    const char *name;
    int (*run)(const uint8_t *, size_t);
};
const std::vector<FuzzTarget> &fuzz_targets();

}  // namespace worldtune::fuzz
