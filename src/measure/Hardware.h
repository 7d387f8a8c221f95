// A description of the machine measurements run on, stored with every record so that timings from
// different machines are never compared by mistake.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace worldtune {

/// This machine as JSON (read once per process, then cached):
///   cpu_model, logical_cores, isa (the flags that matter for codegen: sse4_2 avx avx2 fma f16c avx512*),
///   cache {l1d_bytes, l2_bytes, l3_bytes}, memory_bytes, halide_target (the host target string),
///   os (pretty name), kernel.
/// Fields that cannot be read are left out rather than guessed.
const nlohmann::json &hardware_json();

/// One line: "AMD EPYC, 2 cores, avx512f, L1d 32K L2 1M L3 32M, 23.5 GiB, x86-64-linux-avx-avx2-...".
std::string hardware_summary();

/// Whether two hardware_json() descriptions name the same machine type (CPU model, cores, ISA, caches,
/// Halide target; not the kernel or memory size). Timings are compared only within one machine type.
bool same_machine(const nlohmann::json &a, const nlohmann::json &b);

/// The Halide host target as Halide prints it ("x86-64-linux-avx-avx2-f16c-fma-sse41").
std::string host_target_string();

}  // namespace worldtune
