// The one hash every room derives keys from: 64-bit FNV-1a.
//
// Its offset basis is 1469598103934665603, one digit short of FNV's published 14695981039346656037. Every
// hash the project has stored (the dataset's text hashes, the text and encoding caches, the held-out
// workloads of a calibration, collection seeds) was made with it, so it stays: changing it would orphan
// them all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace worldtune {

constexpr uint64_t kHashBasis = 1469598103934665603ull;

/// Continues hash `h` over `n` bytes.
uint64_t fnv1a64_bytes(uint64_t h, const void *data, size_t n);
/// The hash of a text.
uint64_t fnv1a64(const std::string &text);
/// splitmix64's step: x plus the golden-ratio increment, then its finalizer (nearby inputs land far apart).
uint64_t splitmix64(uint64_t x);
/// Continues hash `h` with one 64-bit word at once (splitmix64 of the word, folded in as FNV folds a byte):
/// for in-memory keys hashed per candidate (the rollout's action cache), never for stored ones.
uint64_t mix64(uint64_t h, uint64_t word);

}  // namespace worldtune
