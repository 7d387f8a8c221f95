#pragma once
// Encoded states E(s) kept between training runs, so that retraining on a grown dataset encodes only the
// states it has not seen. Rows are keyed by a hash of the state's token ids (which covers the text and the
// tokenizer) and tagged with a fingerprint of the encoder weights that produced them: a new encoder makes
// every row stale.
//
// On disk, in a bundle's cache folder: `states.bin` (u64 rows, u64 dim, then rows x dim float32) and
// `states.keys` ("WTENC01\0", u64 encoder fingerprint, u64 rows, then one u64 token hash per row).

#include "train/EncoderTrainer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace worldtune {

/// FNV-1a over a file's bytes (0 when it cannot be read).
uint64_t file_fingerprint(const std::string &path);

/// FNV-1a over a state's token ids.
uint64_t token_hash(const std::vector<int32_t> &ids);

class EncodingCache {
public:
    EncodingCache(std::string matrix_path, std::string keys_path, uint64_t encoder_fingerprint, int dim);

    /// Rows for `ids` (zeros where not cached); `missing` receives the indices still to encode. A legacy
    /// `states.bin` without keys is trusted only when its row count equals `ids.size()`.
    std::vector<std::vector<float>> lookup(const TokenTexts &ids, std::vector<size_t> &missing) const;

    /// Replaces the cache with exactly these rows (written to temporary files, then renamed).
    void save(const TokenTexts &ids, const std::vector<std::vector<float>> &rows) const;

private:
    std::string matrix_path_, keys_path_;
    uint64_t fingerprint_;
    int dim_;
};

}  // namespace worldtune
