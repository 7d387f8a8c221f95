// The programs a task's schedules build: the op's own and, for a convolution with a Winograd form, each
// Winograd one (a `WG` action rebuilds the program with other stages). A schedule's loop nests are simulated
// over the stages of the program its actions build, so its features name the stages it schedules.
#pragma once

#include "schedule/Action.h"
#include "workload/Workload.h"

#include <map>
#include <vector>

namespace worldtune {

class TaskPrograms {
public:
    /// Builds the spec's program and its Winograd forms (none for a spec without one).
    explicit TaskPrograms(const WorkloadSpec &spec);
    /// The stages of the program `actions` build (the direct one for a tile the spec has no form for).
    const std::vector<FuncInfo> &funcs_for(const ActionList &actions) const;
    /// The task's arithmetic (the direct algorithm's, whichever program runs it).
    double flops() const { return flops_; }

private:
    std::vector<FuncInfo> direct_;
    std::map<int, std::vector<FuncInfo>> winograd_;  ///< by tile
    double flops_ = 0;
};

}  // namespace worldtune
