// Replays every fuzz target (fuzz/FuzzTargets.h) on its seed corpus and on every input a fuzzing run ever
// found (fuzz/regressions/<target>/): a parser that crashes, prints a multi-line error or breaks a round
// trip on one of them fails here, in the ordinary build, without libFuzzer.
#include "FuzzTargets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs_of(const std::string &target) {
    std::vector<fs::path> out;
    for (const char *folder : {"corpus", "regressions"}) {
        const fs::path dir = fs::path(WORLDTUNE_SOURCE_DIR) / "fuzz" / folder / target;
        if (!fs::is_directory(dir)) continue;
        for (const auto &entry : fs::directory_iterator(dir))
            if (entry.is_regular_file()) out.push_back(entry.path());
    }
    return out;
}

}  // namespace

TEST(FuzzRegression, EveryTargetHasSeedsAndSurvivesThem) {
    for (const worldtune::fuzz::FuzzTarget &t : worldtune::fuzz::fuzz_targets()) {
        const std::vector<fs::path> inputs = inputs_of(t.name);
        EXPECT_FALSE(inputs.empty()) << "no seed corpus for " << t.name;
        for (const fs::path &p : inputs) {
            std::ifstream in(p, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            SCOPED_TRACE(p.string());
            EXPECT_EQ(t.run(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()), 0);
        }
    }
}
