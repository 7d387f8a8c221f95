#include "world/Windows.h"

#include "common/Hash.h"

#include <algorithm>

namespace worldtune {

std::vector<std::vector<int32_t>> make_windows(const std::vector<int32_t> &ids, int window, int stride, int max_windows) {
    const int body = std::max(1, window - 1);
    std::vector<std::vector<int32_t>> windows;
    const int n = int(ids.size());
    for (int start = 0; int(windows.size()) < std::max(1, max_windows); start += std::max(1, stride)) {
        std::vector<int32_t> w;
        w.reserve(size_t(window));
        w.push_back(Tokenizer::kCls);
        const int end = std::min(n, start + body);
        for (int i = start; i < end; i++) w.push_back(ids[size_t(i)]);
        windows.push_back(std::move(w));
        if (end >= n) break;
    }
    return windows;
}

std::string action_text(const Action &a) {
    std::string text = a.tag();
    text += " " + a.stage;
    for (const std::string &d : a.dims) text += " " + d;
    for (int64_t f : a.factors) text += " " + std::to_string(f);
    if (!a.consumer.empty()) text += " " + a.consumer;
    switch (a.kind) {
    case ActionKind::Split: text += std::string(" ") + tail_name(a.tail); break;
    case ActionKind::Annotate: text += std::string(" ") + annotation_name(a.annotation); break;
    default: break;
    }
    return text;
}

uint64_t action_hash(const Action &a) {
    uint64_t h = kHashBasis;
    auto mix_text = [&](const std::string &s) {
        h = fnv1a64_bytes(h, s.data(), s.size());
        h = mix64(h, s.size());  // the length separates ("ab", "c") from ("a", "bc")
    };
    h = mix64(h, uint64_t(a.kind));
    mix_text(a.stage);
    h = mix64(h, a.dims.size());
    for (const std::string &d : a.dims) mix_text(d);
    h = mix64(h, a.factors.size());
    for (int64_t f : a.factors) h = mix64(h, uint64_t(f));
    mix_text(a.consumer);
    h = mix64(h, uint64_t(a.tail));
    return mix64(h, uint64_t(a.annotation));
}

std::vector<int32_t> action_ids(const Tokenizer &tokenizer, const Action &action, int max_tokens) {
    std::vector<int32_t> ids = tokenizer.encode(action_text(action));
    if (int(ids.size()) > max_tokens) ids.resize(size_t(std::max(0, max_tokens)));
    return ids;
}

}  // namespace worldtune
