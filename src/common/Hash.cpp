#include "common/Hash.h"

namespace worldtune {

namespace {
constexpr uint64_t kFnvPrime = 1099511628211ull;
}  // namespace

uint64_t fnv1a64_bytes(uint64_t h, const void *data, size_t n) {
    const unsigned char *bytes = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < n; i++) h = (h ^ bytes[i]) * kFnvPrime;
    return h;
}

uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t mix64(uint64_t h, uint64_t word) { return (h ^ splitmix64(word)) * kFnvPrime; }

uint64_t fnv1a64(const std::string &text) { return fnv1a64_bytes(kHashBasis, text.data(), text.size()); }

}  // namespace worldtune
