// Cutting a token sequence into the encoder's overlapping windows, and serializing an action into the
// text the tokenizer reads. Torch-free, so the search and the tests can use them cheaply.
#pragma once

#include "world/Tokenizer.h"
#include "schedule/Action.h"

#include <cstdint>
#include <string>
#include <vector>

namespace worldtune {

/// Windows of `window` tokens: each starts with <cls> and holds window - 1 tokens of `ids`; window k
/// starts at token k * stride, the last one reaches the end of the text (a short text gives one window,
/// padded later by the encoder), and at most `max_windows` are kept (the first ones). An empty text gives
/// one window holding only <cls>.
std::vector<std::vector<int32_t>> make_windows(const std::vector<int32_t> &ids, int window, int stride, int max_windows);

/// An action as words for the tokenizer: tag, stage, dims, factors, consumer, tail or annotation kind,
/// e.g. "SP out x 16 auto", "AN out x_1 vectorize", "CA acc x_0 out".
std::string action_text(const Action &action);

/// A 64-bit hash of every field of an action, computed without allocating (the rollout's cache key).
uint64_t action_hash(const Action &action);

/// The action's token ids, at most `max_tokens` of them.
std::vector<int32_t> action_ids(const Tokenizer &tokenizer, const Action &action, int max_tokens);

}  // namespace worldtune
