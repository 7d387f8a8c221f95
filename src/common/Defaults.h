// Defaults shared by several rooms, each documented once here.
#pragma once

namespace worldtune {

/// Threads for measuring (HL_NUM_THREADS of the worker), training, lowering and scoring when no option says
/// otherwise: the two cores of the machines this project is developed on. Every `--threads` option
/// overrides it; set it explicitly when measuring.
constexpr int kDefaultThreads = 2;

}  // namespace worldtune
