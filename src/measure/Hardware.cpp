#include "measure/Hardware.h"

#include "Halide.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
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
        const char *number_field = key == "cpu family" ? "cpu_family" : key == "model" ? "cpu_model_number" : key == "stepping" ? "cpu_stepping" : nullptr;
        if (number_field && !hw.contains(number_field)) {
            try {
                hw[number_field] = std::stoi(value);
            } catch (...) {
            }
        } else if (!have_model && key == "model name") {
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

std::string cache_key(int level, int type) { return "l" + std::to_string(level) + (type == 1 ? "d" : "") + "_bytes"; }

/// The caches the CPU's own descriptors list (virtual machines often have no sysfs cache directory).
nlohmann::json cpuid_caches() {
    nlohmann::json caches = nlohmann::json::object();
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return caches;
    const bool amd = ebx == 0x68747541u || ebx == 0x6f677948u;  // "Auth"enticAMD, "Hygo"nGenuine
    unsigned leaf = 4;
    if (amd) {
        leaf = 0x8000001Du;
        if (__get_cpuid_max(0x80000000u, nullptr) < leaf) return caches;
    } else if (eax < leaf) {
        return caches;
    }
    for (unsigned sub = 0; sub < 16; sub++) {
        __cpuid_count(leaf, sub, eax, ebx, ecx, edx);
        const CpuidCache c = decode_cpuid_cache(eax, ebx, ecx);
        if (c.type == 0) break;
        if (c.type != 2 && c.bytes > 0) caches[cache_key(c.level, c.type)] = c.bytes;
    }
    if (caches.empty() && amd && __get_cpuid_max(0x80000000u, nullptr) >= 0x80000006u) {
        // Some hypervisors leave 0x8000001D empty but fill AMD's older cache leaves.
        unsigned l1_ecx = 0, l2_ecx = 0, l3_edx = 0;
        __cpuid(0x80000005u, eax, ebx, l1_ecx, edx);
        __cpuid(0x80000006u, eax, ebx, l2_ecx, l3_edx);
        for (const CpuidCache &c : decode_amd_legacy_caches(l1_ecx, l2_ecx, l3_edx))
            if (c.bytes > 0) caches[cache_key(c.level, c.type)] = c.bytes;
    }
#endif
    return caches;
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
        caches[cache_key(std::atoi(level.c_str()), type == "Data" ? 1 : 3)] = size;
    }
    if (caches.empty()) caches = cpuid_caches();
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

CpuidCache decode_cpuid_cache(uint32_t eax, uint32_t ebx, uint32_t ecx) {
    CpuidCache c;
    c.type = int(eax & 0x1f);
    c.level = int((eax >> 5) & 0x7);
    const int64_t line = (ebx & 0xfff) + 1, partitions = ((ebx >> 12) & 0x3ff) + 1, ways = ((ebx >> 22) & 0x3ff) + 1;
    c.bytes = ways * partitions * line * (int64_t(ecx) + 1);
    return c;
}

std::vector<CpuidCache> decode_amd_legacy_caches(uint32_t l1_ecx, uint32_t l2_ecx, uint32_t l3_edx) {
    return {{1, 1, int64_t(l1_ecx >> 24) << 10}, {2, 3, int64_t(l2_ecx >> 16) << 10}, {3, 3, int64_t(l3_edx >> 18) << 19}};
}

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

namespace {

void write_cpu(const nlohmann::json &hw, std::ostream &out) {
    out << hw.value("cpu_model", std::string("unknown CPU"));
    if (hw.contains("cpu_family") && hw.contains("cpu_model_number"))
        out << " (family " << hw["cpu_family"].get<int>() << " model " << hw["cpu_model_number"].get<int>() << ")";
}

/// "L1d 48K L2 1M L3 508M" (the sizes it has); empty without caches.
std::string cache_sizes(const nlohmann::json &hw) {
    if (!hw.contains("cache") || !hw["cache"].is_object()) return "";
    const auto &c = hw["cache"];
    std::string out;
    for (const char *k : {"l1d_bytes", "l2_bytes", "l3_bytes"})
        if (c.contains(k) && c[k].is_number_integer())
            out += std::string(out.empty() ? "" : " ") + (k[1] == '1' ? "L1d " : k[1] == '2' ? "L2 " : "L3 ") + human_bytes(c[k].get<int64_t>());
    return out;
}

}  // namespace

std::string machine_name(const nlohmann::json &hw) {
    if (!hw.is_object()) return "unknown CPU";
    std::ostringstream out;
    write_cpu(hw, out);
    const std::string caches = cache_sizes(hw);
    if (!caches.empty()) out << " with " << caches;
    return out.str();
}

std::string hardware_summary() {
    const nlohmann::json &hw = hardware_json();
    std::ostringstream out;
    write_cpu(hw, out);
    out << ", " << hw.value("logical_cores", 0) << " cores";
    if (hw.contains("isa")) {
        const auto &isa = hw["isa"];
        auto has = [&](const char *f) { return std::find(isa.begin(), isa.end(), f) != isa.end(); };
        out << ", " << (has("avx512f") ? "avx512f" : has("avx2") ? "avx2" : has("avx") ? "avx" : "no avx");
    }
    const std::string caches = cache_sizes(hw);
    if (!caches.empty()) out << ", " << caches;
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
    for (const char *key : {"cpu_family", "cpu_model_number"})
        if (a.contains(key) && b.contains(key) && a[key] != b[key]) return false;
    return true;
}

}  // namespace worldtune
