#include "measure/Hardware.h"

#include "Halide.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace worldtune {

namespace {

std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t\n\"");
    if (b == std::string::npos) return "";
    const size_t e = s.find_last_not_of(" \t\n\"");
    return s.substr(b, e - b + 1);
}

std::string read_first_line(const std::string &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return trim(line);
}

/// "32K" / "1024K" / "32M" (sysfs cache sizes) in bytes; 0 when unreadable.
int64_t parse_size(const std::string &text) {
    if (text.empty()) return 0;
    size_t used = 0;
    int64_t value = 0;
    try {
        value = std::stoll(text, &used);
    } catch (...) {
        return 0;
    }
    const std::string unit = text.substr(used);
    if (unit == "K") return value << 10;
    if (unit == "M") return value << 20;
    if (unit == "G") return value << 30;
    return value;
}

/// "cpu_model" and the ISA flags from the first processor block of /proc/cpuinfo.
void read_cpuinfo(nlohmann::json &hw) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    static const std::set<std::string> wanted = {"sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "bmi2", "avx512f",
                                                 "avx512bw", "avx512dq", "avx512vl", "avx512_vnni", "avx512_bf16",
                                                 "avx512_fp16", "amx_tile", "neon", "asimd", "sve"};
    bool have_model = false, have_flags = false;
    while (std::getline(in, line) && !(have_model && have_flags)) {
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
        if (!have_model && key == "model name") {
            hw["cpu_model"] = value;
            have_model = true;
        } else if (!have_flags && (key == "flags" || key == "Features")) {
            std::istringstream flags(value);
            std::vector<std::string> isa;
            for (std::string f; flags >> f;)
                if (wanted.count(f)) isa.push_back(f);
            hw["isa"] = isa;
            have_flags = true;
        }
    }
}

void read_caches(nlohmann::json &hw) {
    nlohmann::json caches = nlohmann::json::object();
    for (int i = 0; i < 8; i++) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        const std::string level = read_first_line(dir + "level");
        if (level.empty()) break;
        const std::string type = read_first_line(dir + "type");
        const int64_t size = parse_size(read_first_line(dir + "size"));
        if (type == "Instruction" || size == 0) continue;
        const std::string key = "l" + level + (type == "Data" ? "d" : "") + "_bytes";
        caches[key] = size;
    }
    if (!caches.empty()) hw["cache"] = caches;
}

void read_memory(nlohmann::json &hw) {
    std::ifstream in("/proc/meminfo");
    std::string key;
    int64_t kb = 0;
    std::string unit;
    while (in >> key >> kb >> unit)
        if (key == "MemTotal:") {
            hw["memory_bytes"] = kb * 1024;
            return;
        }
}

void read_os(nlohmann::json &hw) {
    std::ifstream in("/etc/os-release");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("PRETTY_NAME=", 0) == 0) hw["os"] = trim(line.substr(12));
    struct utsname u;
    if (uname(&u) == 0) hw["kernel"] = std::string(u.sysname) + " " + u.release;
}

std::string human_bytes(int64_t bytes) {
    if (bytes >= (int64_t(1) << 20) && bytes % (int64_t(1) << 20) == 0) return std::to_string(bytes >> 20) + "M";
    return std::to_string(bytes >> 10) + "K";
}

}  // namespace

std::string host_target_string() {
    static const std::string target = Halide::get_host_target().to_string();
    return target;
}

const nlohmann::json &hardware_json() {
    static const nlohmann::json hw = [] {
        nlohmann::json j = nlohmann::json::object();
        read_cpuinfo(j);
        j["logical_cores"] = sysconf(_SC_NPROCESSORS_ONLN);
        read_caches(j);
        read_memory(j);
        j["halide_target"] = host_target_string();
        read_os(j);
        return j;
    }();
    return hw;
}

std::string hardware_summary() {
    const nlohmann::json &hw = hardware_json();
    std::ostringstream out;
    out << hw.value("cpu_model", std::string("unknown CPU")) << ", " << hw.value("logical_cores", 0) << " cores";
    if (hw.contains("isa")) {
        const auto &isa = hw["isa"];
        auto has = [&](const char *f) { return std::find(isa.begin(), isa.end(), f) != isa.end(); };
        out << ", " << (has("avx512f") ? "avx512f" : has("avx2") ? "avx2" : has("avx") ? "avx" : "no avx");
    }
    if (hw.contains("cache")) {
        const auto &c = hw["cache"];
        out << ",";
        for (const char *k : {"l1d_bytes", "l2_bytes", "l3_bytes"})
            if (c.contains(k))
                out << " " << (k[1] == '1' ? "L1d" : k[1] == '2' ? "L2" : "L3") << " " << human_bytes(c[k].get<int64_t>());
    }
    if (hw.contains("memory_bytes")) {
        std::ostringstream gib;
        gib.precision(1);
        gib << std::fixed << hw["memory_bytes"].get<int64_t>() / double(int64_t(1) << 30);
        out << ", " << gib.str() << " GiB";
    }
    out << ", " << host_target_string();
    return out.str();
}

bool same_machine(const nlohmann::json &a, const nlohmann::json &b) {
    if (!a.is_object() || !b.is_object()) return false;
    for (const char *key : {"cpu_model", "logical_cores", "isa", "cache", "halide_target"})
        if (a.value(key, nlohmann::json()) != b.value(key, nlohmann::json())) return false;
    return true;
}

}  // namespace worldtune
