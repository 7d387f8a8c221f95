// What the sketch rules (SketchSampler.cpp, SketchAlgorithm.cpp) share: the names of the loops a split
// creates, and the tail a split gets.
#pragma once

#include "schedule/Action.h"

#include <string>
#include <vector>

namespace worldtune::sketch {

/// The innermost loop of `dim` split `level` times.
inline std::string inner_name(const std::string &dim, int level) {
    return Action::split("", dim, std::vector<int64_t>(size_t(level), 1)).split_names().back();
}

/// Loop `index` (0: the outermost) of `dim` split `levels` times.
inline std::string split_name(const std::string &dim, int levels, int index) {
    return Action::split("", dim, std::vector<int64_t>(size_t(levels), 1)).split_names()[size_t(index)];
}

/// A tail that never makes a stage compute (and so read) beyond the region its consumers need: Halide's
/// default rounds up pure definitions of intermediate Funcs, which reads past the inputs' ends.
inline TailKind tail_for(bool update_stage, int64_t product, int64_t extent) {
    if (extent % product == 0) return TailKind::Auto;
    if (!update_stage && product <= extent) return TailKind::ShiftInwards;
    return TailKind::GuardWithIf;
}

}  // namespace worldtune::sketch
