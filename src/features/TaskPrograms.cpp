#include "features/TaskPrograms.h"

#include "workload/Winograd.h"

namespace worldtune {

TaskPrograms::TaskPrograms(const WorkloadSpec &spec) {
    const auto direct = build_workload(spec);
    direct_ = direct->func_infos;
    flops_ = direct->flops;
    for (const auto &form : winograd_forms(spec)) winograd_[form.first] = form.second->func_infos;
}

const std::vector<FuncInfo> &TaskPrograms::funcs_for(const ActionList &actions) const {
    const int m = winograd_tile_of(actions);
    if (m == 0) return direct_;
    auto it = winograd_.find(m);
    return it == winograd_.end() ? direct_ : it->second;
}

}  // namespace worldtune
