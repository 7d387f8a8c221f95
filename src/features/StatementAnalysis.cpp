#include "features/StatementAnalysis.h"

namespace worldtune::static_features {

std::set<std::string> var_names(const Expr &e) {
    VarNames v;
    e.accept(&v);
    return v.names;
}

Footprint footprint(const AccessShape &s, const std::vector<Loop> &loops, int inner) {
    struct Item {
        double stride;  ///< elements; kUnknownStride when unknown
        double extent;
    };
    std::vector<Item> items;
    if (s.lanes > 1) {
        const double st = s.lane.known ? double(std::llabs(s.lane.value)) : kUnknownStride;
        items.push_back({st, double(s.lanes)});
    }
    const int depth = int(loops.size());
    for (int i = std::max(0, depth - inner); i < depth; i++) {
        if (!s.uses[i] || loops[i].extent <= 1) continue;
        const double st = s.coef[i].known ? double(std::llabs(s.coef[i].value)) : kUnknownStride;
        items.push_back({st, double(loops[i].extent)});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.stride < b.stride; });
    const double eb = s.elem_bytes;
    double span = eb;     // bytes of one contiguous block
    double blocks = 1;    // blocks far apart
    double elems = 1;     // accesses, an upper bound on distinct elements
    for (const Item &it : items) {
        if (it.stride == 0) continue;
        elems *= it.extent;
        const double step = it.stride * eb;
        if (it.stride < kUnknownStride && step <= std::max(span, kCacheLineBytes)) {
            span += step * (it.extent - 1);
        } else {
            blocks *= it.extent;
        }
    }
    Footprint f;
    const double unique = std::min(elems, blocks * std::ceil(span / eb));
    f.bytes = unique * eb;
    f.lines = std::min(unique, blocks * std::ceil(span / kCacheLineBytes));
    return f;
}

Stride constant_stride(const Expr &e) {
    Stride s;
    if (const int64_t *c = as_const_int(e)) {
        s.known = true;
        s.value = *c;
    }
    return s;
}

AccessShape analyze_access(const RawAccess &a, const std::vector<Loop> &loops, const LetScope &scope,
                           const std::set<std::string> &loop_vars) {
    AccessShape s;
    s.elem_bytes = a.elem_bytes;
    s.lanes = a.lanes;
    Expr base = a.index;
    if (a.index.type().is_vector()) {
        if (const Ramp *r = a.index.as<Ramp>()) {
            base = r->base;
            s.lane = constant_stride(simplify(r->stride));
        } else if (const Broadcast *b = a.index.as<Broadcast>()) {
            base = b->value;
            s.lane.known = true;
        } else {
            base = simplify(extract_lane(a.index, 0));
            s.lane = constant_stride(simplify(extract_lane(a.index, 1) - base));
        }
    }
    if (base.type().is_vector()) base = simplify(extract_lane(base, 0));  // nested ramps
    base = substitute_in_all_lets(base);
    const std::set<std::string> deps = scope.loop_deps(base, loop_vars);
    std::map<std::string, Expr> at_min;
    for (const Loop &l : loops) at_min[l.var] = make_const(Int(32), l.min);
    for (const Loop &l : loops) {
        const bool uses = deps.count(l.var) > 0;
        s.uses.push_back(uses);
        Stride st;
        if (!uses) {
            st.known = true;
        } else {
            const Expr v = Variable::make(Int(32), l.var);
            Expr diff = simplify(substitute(l.var, v + 1, base) - base);
            st = constant_stride(diff);
            if (!st.known) st = constant_stride(simplify(substitute(at_min, diff)));  // e.g. a clamped tail
        }
        s.coef.push_back(st);
    }
    return s;
}

}  // namespace worldtune::static_features
