// Prints an action list as Halide C++ scheduling code a user can paste after defining the pipeline.
#pragma once

#include "schedule/Action.h"
#include "workload/Workload.h"

#include <string>

namespace worldtune {

/// Halide C++ statements for `actions` on the workload `w` (Funcs named as in the pipeline; loops
/// named by string, `Var("n_0")` / `RVar("k$x")`, so no declarations are needed).
std::string print_halide(const Workload &w, const ActionList &actions);

}  // namespace worldtune
