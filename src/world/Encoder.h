// Running the state encoder E(s): token ids of a state's text in, z out (eval mode, no gradients); the
// network (world/Nets.h: StateEncoder) slides windows over the text and takes the masked mean of their
// vectors. train/EncoderTrainer trains the same network and saves the weights this loads.
#pragma once

#include "world/WorldConfig.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace worldtune {

using TokenTexts = std::vector<std::vector<int32_t>>;
/// Called with (texts done, texts in all) every few thousand texts while encoding.
using EncodeProgress = std::function<void(size_t, size_t)>;

class Encoder {
public:
    Encoder(const WorldConfig &config, int vocab_size);
    ~Encoder();
    Encoder(const Encoder &) = delete;
    Encoder &operator=(const Encoder &) = delete;

    /// z = E(s) for each text, each of config.d_model floats.
    std::vector<std::vector<float>> encode(const TokenTexts &texts, const EncodeProgress &progress = nullptr) const;
    void load(const std::string &path);  ///< throws std::runtime_error naming the file

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace worldtune
