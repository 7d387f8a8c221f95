#include "measure/BlasCore.h"

#include "measure/Hardware.h"

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>

namespace worldtune {

namespace {

/// OpenBLAS's x86 core names (as openblas_get_corename() prints them, lower case) by vector width.
const std::map<std::string, int> &core_widths() {
    static const std::map<std::string, int> widths = {
        {"prescott", 128}, {"core2", 128}, {"penryn", 128}, {"dunnington", 128}, {"nehalem", 128},
        {"atom", 128}, {"barcelona", 128}, {"bobcat", 128}, {"opteron", 128},
        {"sandybridge", 256}, {"bulldozer", 256}, {"piledriver", 256}, {"steamroller", 256}, {"excavator", 256},
        {"haswell", 256}, {"zen", 256},
        {"skylakex", 512}, {"cooperlake", 512}, {"sapphirerapids", 512}};
    return widths;
}

}  // namespace

int openblas_core_width(const std::string &core) {
    std::string lower = core;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const auto it = core_widths().find(lower);
    return it == core_widths().end() ? 0 : it->second;
}

std::string openblas_core_for(const std::string &detected, int isa_width) {
    const int have = openblas_core_width(detected);
    if (have == 0 || isa_width <= have) return "";
    if (isa_width >= 512) return "SkylakeX";  // the AVX-512 kernels every release since 0.3.0 carries
    if (isa_width >= 256) return "Haswell";   // AVX2 + FMA
    return "";
}

int machine_vector_width() {
    const nlohmann::json &hw = hardware_json();
    if (!hw.contains("isa")) return 128;
    const auto &isa = hw["isa"];
    auto has = [&](const char *f) { return std::find(isa.begin(), isa.end(), f) != isa.end(); };
    return has("avx512f") ? 512 : has("avx2") && has("fma") ? 256 : 128;
}

void use_full_width_openblas(char **argv) {
    if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;  // the user's choice, or already restarted
    const char *detected = openblas_get_corename();
    const std::string core = openblas_core_for(detected ? detected : "", machine_vector_width());
    if (core.empty()) return;
    setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
    execv("/proc/self/exe", argv);  // returns only on failure: carry on with the core OpenBLAS chose
}

}  // namespace worldtune
