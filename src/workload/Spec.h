// A workload spec: the text `OP:KEY=VALUE,...` that names one tensor program, parsed and validated.
#pragma once

#include "common/OneLineError.h"
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace worldtune {

/// A malformed spec: the message is one line naming the problem (control characters of the quoted input
/// are escaped, so a newline in a spec cannot break it; found by fuzzing).
struct SpecError : OneLineError {
    using OneLineError::OneLineError;
};

/// One key an op accepts. Integer keys must be positive unless `allow_zero`; enum keys take one of `choices`.
struct SpecKey {
    std::string name;
    bool required = true;
    std::string default_value;         ///< used when an optional key is absent
    std::vector<std::string> choices;  ///< non-empty: an enum key
    bool allow_zero = false;           ///< integer keys such as `pad` may be 0
};

/// A parsed spec: the op name and every key's value (defaults filled in), in the op's key order.
class WorkloadSpec {
public:
    /// Parses and validates `text` against the op's keys; throws SpecError with one clear line.
    static WorkloadSpec parse(const std::string &text);

    const std::string &op() const { return op_; }
    int64_t integer(const std::string &key) const;
    const std::string &text(const std::string &key) const;
    bool has(const std::string &key) const { return values_.count(key) > 0; }

    /// The canonical text: op keys in declared order, optional keys left out when they hold the default.
    /// Two specs of the same program have the same canonical text.
    std::string canonical() const;

    bool operator==(const WorkloadSpec &other) const { return canonical() == other.canonical(); }

private:
    std::string op_;
    std::vector<SpecKey> keys_;
    std::map<std::string, std::string> values_;
};

}  // namespace worldtune
