// The sampler's rules of search spaces 9 and 10: the algorithm choice (Winograd for a convolution that has a form)
// the constant-tensor rule for the Funcs that index a small constant matrix, and (space 10) the read-order rule
// for an output that reads such a Func back (SketchSampler.h).
#include "search/SketchSampler.h"

#include "search/SketchNames.h"


#include <algorithm>

namespace worldtune {

using sketch::inner_name;
using sketch::split_name;
using sketch::tail_for;

void SketchSampler::record_root_nest(const FuncInfo &f, const std::vector<std::string> &order, size_t v, bool vectorized) {
    // Per loop, the dim it iterates and its extent; the vector dim's outer piece covers the rest of it.
    std::vector<size_t> dim_of_loop;
    for (const std::string &loop : order) {
        size_t d = 0;
        while (d < f.dims.size() && f.dims[d].name != loop && !(d == v && vectorized && loop.rfind(f.dims[d].name + "_", 0) == 0)) d++;
        dim_of_loop.push_back(d);
    }
    RootNest nest;
    for (size_t p = order.size(); p-- > 0;) {  // outermost first
        const size_t d = dim_of_loop[p];
        if (d >= f.dims.size() || f.dims[d].extent <= 1 || (vectorized && p == 0)) continue;
        if (std::find(f.constant_index_dims.begin(), f.constant_index_dims.end(), f.dims[d].name) != f.constant_index_dims.end()) break;
        // What one iteration of loop p covers: whole dims for loops inside it, one point (a vector for the
        // vector dim) for p itself and the loops outside.
        std::vector<int64_t> region(f.dims.size(), 1);
        for (size_t q = 0; q < p; q++)
            if (dim_of_loop[q] < f.dims.size()) region[dim_of_loop[q]] = f.dims[dim_of_loop[q]].extent;
        if (vectorized) region[v] = (dim_of_loop[p] == v) ? int64_t(lanes()) : region[v];
        if (vectorized && std::none_of(dim_of_loop.begin(), dim_of_loop.begin() + long(p), [&](size_t d2) { return d2 == v; }))
            region[v] = std::min<int64_t>(f.dims[v].extent, lanes());
        nest.loops.push_back(order[p]);
        nest.regions.push_back(region);
    }
    root_nests_[f.name] = nest;
}

int SketchSampler::draw_algorithm() {
    workload_ = direct_.get();
    if (winograd_forms_.empty() || !chance(DecisionKind::Structure, params_.p_winograd)) return 0;
    auto form = winograd_forms_.begin();
    std::advance(form, choose(DecisionKind::Structure, uint32_t(winograd_forms_.size())));
    workload_ = form->second.get();
    return form->first;
}

const SketchSampler::RootNest *SketchSampler::root_nest_of_only_consumer(const FuncInfo &f) const {
    if (params_.space < 9 || f.consumers.size() != 1) return nullptr;
    auto it = root_nests_.find(f.consumers.front());
    return it == root_nests_.end() || it->second.loops.empty() ? nullptr : &it->second;
}

void SketchSampler::schedule_constant_indexed(ActionList &out, const FuncInfo &f) {
    out.push_back(Action::compute_root(f.name));
    const auto constant = [&](const LoopDim &d) {
        return std::find(f.constant_index_dims.begin(), f.constant_index_dims.end(), d.name) != f.constant_index_dims.end();
    };
    // The vector dim: one its reads step through densely in a producer's innermost dim (a transform's
    // channels), stored innermost; else the innermost dim.
    size_t v = 0;
    for (size_t i = 0; i < f.dims.size() && v == 0; i++)
        for (const StageRead &read : f.stages.front().reads)
            if (!constant(f.dims[i]) && read.dim_of(f.dims[i].name) == 0) v = i;
    const LoopDim &inner = f.dims[v];
    const bool vectorized = !constant(inner) && inner.extent >= lanes();
    if (v != 0) {
        std::vector<std::string> storage = {inner.name};
        for (size_t i = 0; i < f.dims.size(); i++)
            if (i != v) storage.push_back(f.dims[i].name);
        out.push_back(Action::storage_order(f.name, storage));
    }
    std::vector<std::string> order;  // innermost first: the vector, the constant-index dims, the rest
    if (vectorized) {
        out.push_back(Action::split(f.name, inner.name, {lanes()}, tail_for(false, lanes(), inner.extent)));
        order.push_back(inner_name(inner.name, 1));
    }
    for (const LoopDim &d : f.dims)
        if (constant(d)) order.push_back(d.name);
    order.push_back(vectorized ? split_name(inner.name, 1, 0) : inner.name);
    std::string parallel;
    for (size_t i = 0; i < f.dims.size(); i++) {
        if (i == v || constant(f.dims[i])) continue;
        order.push_back(f.dims[i].name);
        if (f.dims[i].extent > 1) parallel = f.dims[i].name;
    }
    out.push_back(Action::reorder(f.name, order));
    record_root_nest(f, order, v, vectorized);
    if (vectorized) out.push_back(Action::annotate(f.name, inner_name(inner.name, 1), AnnotationKind::Vectorize));
    for (const LoopDim &d : f.dims)
        if (constant(d) && d.extent > 1) out.push_back(Action::annotate(f.name, d.name, AnnotationKind::Unroll));
    if (!parallel.empty()) parallelize(out, f.name, parallel);
}

void SketchSampler::choose_read_vector_dim(const FuncInfo &f) {
    if (params_.space < 10) return;
    const auto reads_innermost = [&](const StageRead &read) {
        return std::any_of(read.dim_vars.begin(), read.dim_vars.end(), [&](const std::vector<std::string> &vars) {
            return std::find(vars.begin(), vars.end(), f.dims[0].name) != vars.end();
        });
    };
    for (const StageRead &read : f.stages.front().reads) {
        if (read.is_input || read.dim_of(f.dims[0].name) == 0 || !reads_innermost(read)) continue;
        for (size_t i = 1; i < f.dims.size(); i++) {
            if (f.dims[i].extent < lanes() || read.dim_of(f.dims[i].name) != 0) continue;
            if (!chance(DecisionKind::Structure, params_.p_read_vector)) return;
            wide_vector_dim_ = f.dims[i].name;
            vector_by_read_ = true;
            return;
        }
    }
}

}  // namespace worldtune
