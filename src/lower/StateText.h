// The text of a program state: Halide's lowered statement for a workload under an action prefix,
// stripped of buffer-unpacking boilerplate and with process-dependent names made canonical, so that
// one state always gives one byte-identical text.
#pragma once

#include "schedule/Action.h"
#include "workload/Spec.h"

#include "Halide.h"

#include <string>

namespace worldtune {

/// The target states are lowered for: the host, without asserts or bounds queries (less boilerplate).
Halide::Target text_target();

/// The text of the state (spec, first `prefix` actions); prefix -1 means all of them.
/// Throws ScheduleError (with the failing action's index) when Halide refuses the prefix.
std::string state_text(const WorkloadSpec &spec, const ActionList &actions, int prefix = -1);

/// The lowered statement itself (the IR the text prints), for feature extraction.
/// Throws ScheduleError like state_text.
Halide::Internal::Stmt state_stmt(const WorkloadSpec &spec, const ActionList &actions);

/// The texts of every prefix 0..T of the action list (T+1 texts), s_0 first.
std::vector<std::string> trajectory_texts(const WorkloadSpec &spec, const ActionList &actions);

/// Renames process-dependent names (temporaries `t123` in order of first use, counters `name$4` dropped),
/// and drops the argument-unpacking lines before the first loop nest.
std::string canonicalize_stmt(const std::string &raw);

/// Checks that the whole action list applies and lowers; on failure throws ScheduleError naming the
/// first failing action (found by lowering prefixes when only the whole list fails).
void validate_actions(const WorkloadSpec &spec, const ActionList &actions);

}  // namespace worldtune
