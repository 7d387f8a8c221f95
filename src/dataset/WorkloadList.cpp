// How the collection list is drawn: preset subgraphs first, then per op a seeded stream of shapes, each
// size drawn as a typical layer size, a multiple of 16, an odd or a prime number; for matmul-like ops and
// convs, about half the draws come as a pair that differs only in one size, divisible (a multiple of 32
// for matrix sizes, of 8 for images) against that size minus one.
#include "dataset/WorkloadList.h"

#include "common/Hash.h"
#include "workload/OpRegistry.h"
#include "workload/Presets.h"
#include "workload/Spec.h"
#include "workload/Workload.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>

namespace worldtune {

namespace {

/// Integer draws defined here (std distributions differ between standard libraries).
struct Draw {
    std::mt19937_64 rng;
    uint64_t below(uint64_t n) { return rng() % n; }
    int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(below(uint64_t(hi - lo + 1))); }
    bool coin(double p) { return double(rng() >> 11) * 0x1.0p-53 < p; }
    template <typename T>
    const T &pick(const std::vector<T> &items) { return items[below(items.size())]; }
};

bool is_prime(int64_t v) {
    if (v < 2) return false;
    for (int64_t d = 2; d * d <= v; d++)
        if (v % d == 0) return false;
    return true;
}

/// A size in [lo, hi]: a typical layer size, a multiple of 16, an odd number or a prime, equally likely.
int64_t draw_size(Draw &d, int64_t lo, int64_t hi) {
    static const std::vector<int64_t> typical = {1,   3,   7,   8,   14,  16,  24,  28,   32,   48,   56,
                                                 64,  96,  112, 128, 144, 192, 196, 256,  384,  512,  576,
                                                 768, 960, 1024, 1280, 1536, 2048, 3072, 4096};
    switch (d.below(4)) {
    case 0: {
        std::vector<int64_t> in_range;
        for (int64_t v : typical)
            if (v >= lo && v <= hi) in_range.push_back(v);
        if (!in_range.empty()) return d.pick(in_range);
        return d.range(lo, hi);
    }
    case 1: {
        const int64_t first = (lo + 15) / 16, last = hi / 16;
        return first <= last ? 16 * d.range(first, last) : d.range(lo, hi);
    }
    case 2: {
        int64_t v = d.range(lo, hi) | 1;
        if (v > hi) v -= 2;
        return v < lo ? lo : v;
    }
    default: {
        const int64_t start = d.range(lo, hi);
        for (int64_t v = start; v <= hi; v++)
            if (is_prime(v)) return v;
        for (int64_t v = start; v >= lo; v--)
            if (is_prime(v)) return v;
        return start;
    }
    }
}

/// A shape being drawn: key values, and the keys a divisibility pair varies together (empty: no pairs).
struct Shape {
    std::vector<std::pair<std::string, std::string>> values;
    std::vector<std::string> pair_keys;
    int64_t pair_multiple = 32;

    void set(const std::string &key, int64_t v) { set(key, std::to_string(v)); }
    void set(const std::string &key, const std::string &v) {
        for (auto &kv : values)
            if (kv.first == key) {
                kv.second = v;
                return;
            }
        values.emplace_back(key, v);
    }
    int64_t get(const std::string &key) const {
        for (const auto &kv : values)
            if (kv.first == key) return std::stoll(kv.second);
        throw std::logic_error("no key " + key);
    }
    std::string text(const std::string &op) const {
        std::string t = op + ":";
        for (size_t i = 0; i < values.size(); i++) t += (i ? "," : "") + values[i].first + "=" + values[i].second;
        return t;
    }
};

Shape draw_shape(const std::string &op, Draw &d) {
    static const std::vector<std::string> acts = {"none", "relu", "gelu"};
    Shape s;
    if (op == "matmul") {
        for (const char *k : {"M", "N", "K"}) s.set(k, draw_size(d, 16, 1024));
        s.pair_keys = {d.pick(std::vector<std::string>{"M", "N", "K"})};
    } else if (op == "batch_matmul") {
        s.set("B", d.pick(std::vector<int64_t>{1, 2, 4, 8, 12, 16}));
        s.set("M", draw_size(d, 16, 512));
        s.set("N", draw_size(d, 16, 512));
        s.set("K", draw_size(d, 16, 256));
        if (d.coin(0.5)) s.set("trans_b", "1");
        s.pair_keys = {d.pick(std::vector<std::string>{"M", "N", "K"})};
    } else if (op == "dense") {
        s.set("M", d.coin(0.3) ? d.pick(std::vector<int64_t>{1, 8, 16, 32, 128, 196}) : draw_size(d, 1, 512));
        s.set("N", draw_size(d, 64, 4096));
        s.set("K", draw_size(d, 64, 4096));
        if (d.coin(0.7)) s.set("bias", "1");
        s.set("act", d.pick(acts));
        s.pair_keys = {d.pick(std::vector<std::string>{"N", "K"})};
    } else if (op == "conv2d") {
        const int64_t R = d.pick(std::vector<int64_t>{1, 1, 3, 3, 3, 5, 7});
        const bool depthwise = R > 1 && d.coin(0.2);
        const int64_t C = depthwise ? draw_size(d, 16, 576) : draw_size(d, 3, 512);
        const int64_t H = draw_size(d, 7, 112);
        s.set("N", 1);
        s.set("C", C);
        s.set("H", H);
        s.set("W", d.coin(0.2) ? draw_size(d, 7, 112) : H);
        s.set("K", depthwise ? C : draw_size(d, 16, 512));
        s.set("R", R);
        s.set("S", R);
        s.set("stride", d.coin(0.3) ? 2 : 1);
        s.set("pad", d.coin(0.15) ? 0 : R / 2);
        if (depthwise) s.set("groups", C);
        if (d.coin(0.8)) s.set("bias", "1");
        s.set("act", d.pick(acts));
        if (d.coin(0.25)) s.set("layout", "NHWC");
        s.pair_keys = {"H", "W"};
        s.pair_multiple = 8;
    } else if (op == "pool2d") {
        const int64_t H = draw_size(d, 7, 112);
        const bool global = d.coin(0.15);
        const int64_t R = global ? H : d.pick(std::vector<int64_t>{2, 3, 3, 5, 7});
        s.set("N", 1);
        s.set("C", draw_size(d, 16, 512));
        s.set("H", H);
        s.set("W", H);
        s.set("R", R);
        s.set("S", R);
        if (!global) {
            s.set("stride", d.pick(std::vector<int64_t>{1, 2, 2}));
            s.set("pad", d.coin(0.5) ? R / 2 : 0);
        }
        s.set("kind", d.coin(0.6) ? "max" : "avg");
    } else if (op == "softmax") {
        s.set("M", draw_size(d, 1, 2048));
        s.set("N", draw_size(d, 16, 4096));
    } else if (op == "layernorm") {
        s.set("M", draw_size(d, 1, 1024));
        s.set("N", draw_size(d, 64, 4096));
    } else {
        throw std::logic_error("collection_workloads: no shape generator for op '" + op +
                               "' (add one to draw_shape in src/dataset/WorkloadList.cpp)");
    }
    return s;
}

/// The canonical spec of `text` when it parses, builds and fits the size cap; "" otherwise.
std::string accept(const std::string &text) {
    try {
        const WorkloadSpec spec = WorkloadSpec::parse(text);
        if (find_op(spec.op())->flops(spec) > kMaxGeneratedFlops) return "";
        build_workload(spec);
        return spec.canonical();
    } catch (const std::exception &) {  // SpecError, or Halide refusing the shape
        return "";
    }
}

}  // namespace

std::vector<std::string> preset_workloads() {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const std::string &network : preset_names())
        for (const PresetEntry &e : preset(network)) {
            const std::string spec = WorkloadSpec::parse(e.spec).canonical();
            if (seen.insert(spec).second) out.push_back(spec);
        }
    return out;
}

std::vector<std::string> collection_workloads(uint64_t seed, int generated_per_op) {
    std::vector<std::string> out = preset_workloads();
    std::set<std::string> seen(out.begin(), out.end());
    for (const OpDef *op : all_ops()) {
        Draw d{std::mt19937_64(seed * 0x9e3779b97f4a7c15ull ^ fnv1a64(op->name))};
        int made = 0;
        for (int tries = 0; made < generated_per_op; tries++) {
            if (tries > 1000 * generated_per_op)
                throw std::runtime_error("collection_workloads: could not draw " + std::to_string(generated_per_op) +
                                         " distinct " + op->name + " workloads");
            Shape s = draw_shape(op->name, d);
            std::vector<std::string> texts;
            if (!s.pair_keys.empty() && made + 2 <= generated_per_op && d.coin(0.5)) {
                const int64_t m = s.pair_multiple;
                const int64_t base = std::max<int64_t>(m, (s.get(s.pair_keys[0]) + m - 1) / m * m);
                for (const std::string &k : s.pair_keys) s.set(k, base);
                texts.push_back(s.text(op->name));
                for (const std::string &k : s.pair_keys) s.set(k, base - 1);
                texts.push_back(s.text(op->name));
            } else {
                texts.push_back(s.text(op->name));
            }
            std::vector<std::string> specs;
            for (const std::string &t : texts) {
                const std::string spec = accept(t);
                if (spec.empty() || seen.count(spec)) break;
                specs.push_back(spec);
            }
            if (specs.size() != texts.size() || (specs.size() == 2 && specs[0] == specs[1])) continue;
            for (const std::string &spec : specs) {
                seen.insert(spec);
                out.push_back(spec);
                made++;
            }
        }
    }
    return out;
}

std::vector<std::string> read_workload_list(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read workload list " + path);
    std::vector<std::string> out;
    std::string line;
    for (int number = 1; std::getline(in, line); number++) {
        const size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos || line[b] == '#') continue;
        const size_t e = line.find_last_not_of(" \t\r");
        try {
            out.push_back(WorkloadSpec::parse(line.substr(b, e - b + 1)).canonical());
        } catch (const SpecError &err) {
            throw std::runtime_error(path + ":" + std::to_string(number) + ": " + err.what());
        }
    }
    return out;
}

}  // namespace worldtune
