#include "workload/Spec.h"

#include "workload/OpRegistry.h"

#include <cctype>
#include <sstream>

namespace worldtune {

namespace {

constexpr int64_t kMaxValue = 1 << 24;  ///< no shape key beyond this: Halide indexes buffers with 32 bits

std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(" \t\n\r");
    size_t e = s.find_last_not_of(" \t\n\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool parse_integer(const std::string &s, int64_t &out) {
    if (s.empty() || s.size() > 12) return false;
    size_t start = (s[0] == '-') ? 1 : 0;
    if (start == s.size()) return false;
    for (size_t i = start; i < s.size(); i++)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    out = std::stoll(s);
    return true;
}

std::string known_ops_list() {
    std::string names;
    for (const OpDef *op : all_ops()) names += (names.empty() ? "" : ", ") + op->name;
    return names;
}

}  // namespace

WorkloadSpec WorkloadSpec::parse(const std::string &raw) {
    const std::string text = trim(raw);
    if (text.empty()) throw SpecError("empty workload spec (expected OP:KEY=VALUE,...)");
    size_t colon = text.find(':');
    WorkloadSpec spec;
    spec.op_ = trim(text.substr(0, colon));
    const OpDef *op = find_op(spec.op_);
    if (!op) throw SpecError("unknown op '" + spec.op_ + "' in spec '" + text + "' (known: " + known_ops_list() + ")");
    spec.keys_ = op->keys;

    std::map<std::string, std::string> given;
    if (colon != std::string::npos) {
        std::stringstream items(text.substr(colon + 1));
        std::string item;
        while (std::getline(items, item, ',')) {
            item = trim(item);
            if (item.empty()) continue;
            size_t eq = item.find('=');
            if (eq == std::string::npos)
                throw SpecError("spec item '" + item + "' is not KEY=VALUE in '" + text + "'");
            std::string key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
            bool known = false;
            for (const SpecKey &k : spec.keys_) known = known || k.name == key;
            if (!known) {
                std::string names;
                for (const SpecKey &k : spec.keys_) names += (names.empty() ? "" : ", ") + k.name;
                throw SpecError("unknown key '" + key + "' for op " + spec.op_ + " (keys: " + names + ")");
            }
            if (given.count(key)) throw SpecError("key '" + key + "' given twice in '" + text + "'");
            given[key] = value;
        }
    }
    for (const SpecKey &k : spec.keys_) {
        auto it = given.find(k.name);
        if (it == given.end()) {
            if (k.required) throw SpecError("missing key '" + k.name + "' for op " + spec.op_ + " in '" + text + "'");
            spec.values_[k.name] = k.default_value;
            continue;
        }
        const std::string &value = it->second;
        if (!k.choices.empty()) {
            bool ok = false;
            std::string options;
            for (const std::string &c : k.choices) {
                ok = ok || c == value;
                options += (options.empty() ? "" : "|") + c;
            }
            if (!ok) throw SpecError("key '" + k.name + "' of op " + spec.op_ + " must be one of " + options + ", got '" + value + "'");
        } else {
            int64_t v = 0;
            if (!parse_integer(value, v)) throw SpecError("key '" + k.name + "' of op " + spec.op_ + " must be an integer, got '" + value + "'");
            if (v > kMaxValue)
                throw SpecError("key '" + k.name + "' of op " + spec.op_ + " must be at most " + std::to_string(kMaxValue) + ", got " + value);
            if (v < 0 || (v == 0 && !k.allow_zero))
                throw SpecError("key '" + k.name + "' of op " + spec.op_ + " must be " + (k.allow_zero ? "non-negative" : "positive") + ", got " + value);
        }
        spec.values_[k.name] = value;
    }
    op->validate(spec);
    return spec;
}

int64_t WorkloadSpec::integer(const std::string &key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw SpecError("spec " + canonical() + " has no key '" + key + "'");
    return std::stoll(it->second);
}

const std::string &WorkloadSpec::text(const std::string &key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw SpecError("spec " + canonical() + " has no key '" + key + "'");
    return it->second;
}

std::string WorkloadSpec::canonical() const {
    std::string out = op_ + ":";
    bool first = true;
    for (const SpecKey &k : keys_) {
        const std::string &v = values_.at(k.name);
        if (!k.required && v == k.default_value) continue;
        out += (first ? "" : ",") + k.name + "=" + v;
        first = false;
    }
    return out;
}

}  // namespace worldtune
