#include "world/Encoder.h"

#include "world/Nets.h"
#include "world/Tokenizer.h"
#include "world/Windows.h"

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace worldtune {

namespace {
constexpr int kEncodeBatch = 64;               ///< windows per forward pass when encoding
constexpr size_t kEncodeProgressEvery = 5000;  ///< texts between progress calls when encoding

/// The run-time encoder's matrices are small (one state per task, width d_model), and a multithreaded BLAS
/// leaves its threads spinning for a while after each call, on the cores the search scores candidates on
/// right after encoding (docs/model.md, "Throughput", has the measurement). So the process's BLAS runs on
/// one thread once a run-time encoder exists, where the BLAS is OpenBLAS (looked up at run time: nothing
/// to do for another one).
void single_threaded_blas() {
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(1);
}

}  // namespace

WindowBatch to_window_batch(const std::vector<const std::vector<int32_t> *> &windows) {
    size_t L = 1;
    for (const auto *w : windows) L = std::max(L, w->size());
    std::vector<int64_t> ids(windows.size() * L, Tokenizer::kPad);
    std::vector<uint8_t> pad(windows.size() * L, 1);
    for (size_t b = 0; b < windows.size(); b++)
        for (size_t i = 0; i < windows[b]->size(); i++) {
            ids[b * L + i] = (*windows[b])[i];
            pad[b * L + i] = 0;
        }
    const int64_t B = int64_t(windows.size()), LL = int64_t(L);
    WindowBatch batch;
    batch.ids = torch::from_blob(ids.data(), {B, LL}, torch::kInt64).clone();
    batch.pad = torch::from_blob(pad.data(), {B, LL}, torch::kUInt8).clone().to(torch::kBool);
    return batch;
}

std::vector<std::vector<float>> encode_texts(StateEncoder &encoder, const WorldConfig &config, const TokenTexts &texts,
                                             const EncodeProgress &progress) {
    torch::NoGradGuard no_grad;
    encoder->eval();
    const int D = config.d_model;
    std::vector<std::vector<float>> out(texts.size(), std::vector<float>(size_t(D), 0.0f));
    std::vector<int> windows_of(texts.size(), 0);
    std::vector<std::vector<int32_t>> pending;
    std::vector<size_t> pending_owner;
    auto flush = [&] {
        if (pending.empty()) return;
        std::vector<const std::vector<int32_t> *> ptrs;
        for (const auto &w : pending) ptrs.push_back(&w);
        const WindowBatch b = to_window_batch(ptrs);
        const torch::Tensor wv = encoder->window_vectors(b.ids, b.pad).contiguous();
        const float *data = wv.data_ptr<float>();
        for (size_t i = 0; i < pending.size(); i++) {
            std::vector<float> &z = out[pending_owner[i]];
            for (int d = 0; d < D; d++) z[size_t(d)] += data[i * size_t(D) + size_t(d)];
            windows_of[pending_owner[i]]++;
        }
        pending.clear();
        pending_owner.clear();
    };
    for (size_t t = 0; t < texts.size(); t++) {
        for (std::vector<int32_t> &w : make_windows(texts[t], config.window, config.stride, config.max_windows)) {
            pending.push_back(std::move(w));
            pending_owner.push_back(t);
            if (int(pending.size()) >= kEncodeBatch) flush();
        }
        if (progress && (t + 1) % kEncodeProgressEvery == 0) progress(t + 1, texts.size());
    }
    flush();
    for (size_t t = 0; t < texts.size(); t++)
        for (float &v : out[t]) v /= float(std::max(1, windows_of[t]));
    return out;
}

void load_encoder_weights(StateEncoder &encoder, const std::string &path) {
    if (!std::filesystem::exists(path)) throw std::runtime_error("encoder weights " + path + " not found");
    try {
        torch::load(encoder, path);
    } catch (const std::exception &e) {
        // libtorch's message carries a C++ backtrace on the following lines: keep its first line only.
        const std::string what = e.what();
        throw std::runtime_error("encoder weights " + path + " cannot be read or do not fit this configuration: " +
                                 what.substr(0, std::min(what.find('\n'), size_t(200))));
    }
}

struct Encoder::Impl {
    WorldConfig config;
    mutable StateEncoder net;
    Impl(const WorldConfig &c, int vocab_size) : config(c), net(c, vocab_size) {
        torch::set_num_threads(std::max(1, c.threads));
        single_threaded_blas();
    }
};

Encoder::Encoder(const WorldConfig &config, int vocab_size) : impl_(std::make_unique<Impl>(config, vocab_size)) {}
Encoder::~Encoder() = default;

std::vector<std::vector<float>> Encoder::encode(const TokenTexts &texts, const EncodeProgress &progress) const {
    return encode_texts(impl_->net, impl_->config, texts, progress);
}

void Encoder::load(const std::string &path) { load_encoder_weights(impl_->net, path); }

}  // namespace worldtune
