// A description of the machine measurements run on, stored with every record so that timings from
// different machines are never compared by mistake.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace worldtune {

/// This machine as JSON (read once per process, then cached):
///   cpu_model, cpu_family, cpu_model_number, cpu_stepping (/proc/cpuinfo's "cpu family", "model",
///   "stepping": tells apart CPUs a hypervisor names alike, such as AMD EPYC Zen 4 and Zen 5),
///   logical_cores, isa (the flags that matter for codegen: sse4_2 avx avx2 fma f16c avx512*),
///   cache {l1d_bytes, l2_bytes, l3_bytes} (from sysfs, or where a virtual machine has none there, from the
///   CPU's own cache descriptors: CPUID leaf 4, or 0x8000001D on AMD, else AMD's 0x80000005/6), memory_bytes, halide_target (the host
///   target string), os (pretty name), kernel.
/// Fields that cannot be read are left out rather than guessed.
const nlohmann::json &hardware_json();

/// One line: "AMD EPYC (family 25 model 17), 2 cores, avx512f, L1d 32K L2 1M L3 32M, 23.5 GiB, x86-64-linux-avx-avx2-...".
std::string hardware_summary();

/// A machine description in a few words, to tell machines apart in prose: "AMD EPYC (family 26 model 2)
/// with L1d 48K L2 1M L3 508M" (the parts it has).
std::string machine_name(const nlohmann::json &hardware);

/// Whether two hardware_json() descriptions name the same machine type (CPU model, cores, ISA, caches,
/// Halide target, and the CPU family and model numbers where both have them (records older than those
/// fields lack them); not the kernel or memory size). Timings are compared only within one machine type.
bool same_machine(const nlohmann::json &a, const nlohmann::json &b);

/// One cache as a CPUID cache descriptor (leaf 4 on Intel, 0x8000001D on AMD) describes it: level, type
/// (1 data, 2 instruction, 3 unified; 0 ends the list) and size in bytes (ways x partitions x line x sets).
struct CpuidCache {
    int level = 0;
    int type = 0;
    int64_t bytes = 0;
};
CpuidCache decode_cpuid_cache(uint32_t eax, uint32_t ebx, uint32_t ecx);
/// The L1d, L2 and L3 that AMD's older cache leaves give: ECX of 0x80000005 (L1d KiB in bits 31:24), ECX of
/// 0x80000006 (L2 KiB in 31:16) and EDX of 0x80000006 (L3 in 512 KiB units in 31:18); 0 bytes: not reported.
std::vector<CpuidCache> decode_amd_legacy_caches(uint32_t l1_ecx, uint32_t l2_ecx, uint32_t l3_edx);

/// The Halide host target as Halide prints it ("x86-64-linux-avx-avx2-f16c-fma-sse41").
std::string host_target_string();

}  // namespace worldtune
