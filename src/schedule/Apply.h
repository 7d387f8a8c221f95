// Applies an action list to a workload's Funcs, turning Halide's errors into a typed ScheduleError.
#pragma once

#include "schedule/Action.h"
#include "workload/Workload.h"

#include <stdexcept>

namespace worldtune {

/// An action list Halide refuses. `action_index` is the failing action (-1: found only when lowering
/// the whole list); the message carries Halide's own words on one line.
struct ScheduleError : std::runtime_error {
    ScheduleError(int index, const std::string &message);
    int action_index;
    std::string halide_message;
};

/// Applies `actions` in order to `w` (whose Funcs it mutates; build a fresh Workload per state).
/// Funcs created by RF and CH actions are added to `w.funcs` under Action::created_func().
void apply_actions(Workload &w, const ActionList &actions);

/// Halide's error text folded onto one line.
std::string one_line(const std::string &text);

}  // namespace worldtune
