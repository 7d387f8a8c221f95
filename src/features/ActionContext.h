// The context of one schedule action: the extents it acts on. Kept apart from ScheduleFeatures.h (which
// computes it) so the torch files that read its width need no Halide header.
#pragma once

#include <array>

namespace worldtune {

/// What one action acts on, read from the loop nest its prefix built (no lowering), so the transition
/// knows that "split by 16" meets a loop of 1023 rather than 1024. Columns:
///   0  log2(1 + e)        e: the extent of the loop acted on (SP, AN, RF: that loop; FU: the fused extent;
///                         RE: the loop put innermost; CA, SA: the consumer's loop), or the points of the
///                         Func (CR, CI, CH, SO)
///   1  log2(1 + f)        SP: the product of the factors; FU: the inner loop's extent; CA, SA: how often the
///                         Func is computed there (the consumer's loops down to that one); else 0
///   2  divides            SP: 1 when the factors' product divides e; 1 for every other action
///   3  tail waste         SP: the share of the rounded-up extent that is past e; else 0
///   4  outer / position   SP: log2(1 + outer extent); FU: log2(1 + outer loop's extent); else the loop's
///                         position, 0 = innermost
///   5, 6  e % 8 == 0, e % 16 == 0
///   7  known             1 when the loop or Func is known (loops of created Funcs are not simulated)
constexpr int kActionContextFeatures = 8;
using ActionContext = std::array<float, kActionContextFeatures>;

}  // namespace worldtune
