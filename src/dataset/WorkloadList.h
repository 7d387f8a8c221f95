// The list of workloads a trajectory dataset is collected over: every distinct subgraph of the network
// presets plus seeded random shapes of every op kind (odd and prime sizes, and pairs that differ only by
// divisibility such as N=1024 vs N=1023), so the model sees the syntactic noise of non-dividing tiles.
//
// The committed list lives in data/collection_workloads.txt, written by
// `worldtune dataset workloads --seed <kDefaultCollectionSeed> --generated <kDefaultGeneratedPerOp>`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace worldtune {

constexpr uint64_t kDefaultCollectionSeed = 1;
constexpr int kDefaultGeneratedPerOp = 16;
/// Largest workload a generated shape may have, in floating-point operations of one run (preset
/// subgraphs are taken as they are): keeps one sampled candidate's run well under a second.
constexpr double kMaxGeneratedFlops = 1e9;

/// Every distinct preset subgraph (canonical specs, in preset order), then `generated_per_op` generated
/// workloads per op kind (in op order). All distinct, canonical and buildable. The generator uses its own
/// integer draws (not std distributions), so a seed gives the same list on every platform.
std::vector<std::string> collection_workloads(uint64_t seed, int generated_per_op);

/// The distinct subgraphs of all network presets, canonical, in preset order.
std::vector<std::string> preset_workloads();

/// Reads a workload list file: one spec per line; blank lines and lines starting with '#' are skipped.
/// Throws std::runtime_error naming the file and line for an unreadable file or a malformed spec.
std::vector<std::string> read_workload_list(const std::string &path);

}  // namespace worldtune
