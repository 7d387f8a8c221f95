#include "features/ScheduleFeatures.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>

namespace worldtune {

namespace {

/// A name's 64-bit FNV-1a hash: lookups by loop or stage name, which run for every action of every scored
/// candidate, compare it before the name itself.
uint64_t name_id(const std::string &name) {
    uint64_t h = 1469598103934665603ull;
    for (const char c : name) h = (h ^ uint64_t(static_cast<unsigned char>(c))) * 1099511628211ull;
    return h;
}

struct Loop {
    std::string name;
    std::string origin;  ///< the stage's original dim it was split from ("" for a fused loop)
    int64_t extent = 1;
    bool vectorized = false, unrolled = false, parallel = false;
    uint64_t id = 0;     ///< name_id(name)
};

Loop make_loop(std::string name, std::string origin, int64_t extent) {
    Loop l{std::move(name), std::move(origin), extent};
    l.id = name_id(l.name);
    return l;
}

/// The loops of one stage, innermost first.
struct StageNest {
    std::string stage;
    uint64_t id = 0;  ///< name_id(stage)
    std::vector<Loop> loops;
};

struct Placement {
    int location = 0;  ///< 0 inlined, 1 root, 2 at a consumer's loop
    std::string consumer, loop;
    std::string store_inner;
};

}  // namespace

/// The loop nests of a pipeline's stages (innermost first) as its directives reshape them.
class NestSimulator {
public:
    explicit NestSimulator(const std::vector<FuncInfo> &funcs, bool with_access = false) : funcs_(funcs), with_access_(with_access) {
        for (const FuncInfo &f : funcs)
            for (const StageInfo &s : f.stages) {
                std::vector<Loop> *loops = nest(s.name);
                if (!loops) nests_.push_back({s.name, name_id(s.name), {}}), loops = &nests_.back().loops;
                for (const LoopDim &d : s.dims) loops->push_back(make_loop(d.name, d.name, std::max<int64_t>(1, d.extent)));
            }
    }

    /// The nests and placements `from` has (a simulator built from the same funcs): the loops are copied
    /// into the vectors already allocated, so copying per candidate allocates almost nothing.
    void copy_state(const NestSimulator &from) {
        for (size_t i = 0; i < nests_.size(); i++) nests_[i].loops = from.nests_[i].loops;  // the same stages, in the same order
        placements_ = from.placements_;
    }

    void apply(const Action &a) {
        switch (a.kind) {
        case ActionKind::Split: return split(a);
        case ActionKind::Reorder: return reorder(a);
        case ActionKind::Fuse: return fuse(a);
        case ActionKind::Annotate: return annotate(a);
        case ActionKind::ComputeAt: placements_[a.stage] = {2, a.consumer, a.dims.at(0), placements_[a.stage].store_inner}; return;
        case ActionKind::ComputeRoot: placements_[a.stage].location = 1; return;
        case ActionKind::ComputeInline: placements_[a.stage].location = 0; return;
        case ActionKind::StorageOrder:
            if (!a.dims.empty()) placements_[a.stage].store_inner = a.dims.front();
            return;
        case ActionKind::StoreAt:
        case ActionKind::RFactor:
        case ActionKind::Cache:
        case ActionKind::BlockLayout:
        case ActionKind::Winograd: return;
        }
    }

    KeyedFeatures features() const {
        KeyedFeatures out;
        for (const FuncInfo &f : funcs_) {
            if (f.view && !placements_.count(f.name)) continue;  // an unscheduled view is inlined: not a stage
            for (const StageInfo &s : f.stages) {
                stage_features(s, out);
                if (with_access_) access_features(f, s, out);
            }
            if (f.is_output) continue;
            auto it = placements_.find(f.name);
            const Placement p = it == placements_.end() ? Placement{} : it->second;
            out.emplace_back(f.name + "|loc", float(p.location));
            if (!p.store_inner.empty()) out.emplace_back(f.name + "|store=" + p.store_inner, 1.0f);
            float instances = p.location == 1 ? 1.0f : 0.0f;
            if (p.location == 2) {
                out.emplace_back(f.name + "|at=" + p.loop, 1.0f);
                instances = float(instances_at(p.consumer, p.loop));
            }
            out.emplace_back(f.name + "|instances", instances);
        }
        return out;
    }

    /// How often parallel loops start (`launches`) and the tasks they hand out (`tasks`), over every stage.
    void parallelism(double &launches, double &tasks) const {
        launches = tasks = 0;
        for (const FuncInfo &f : funcs_) {
            double instances = 1;
            if (!f.is_output) {
                auto it = placements_.find(f.name);
                const Placement p = it == placements_.end() ? Placement{} : it->second;
                if (p.location == 0) continue;  // inlined: its loops are its consumer's
                if (p.location == 2) instances = double(instances_at(p.consumer, p.loop));
            }
            for (const StageInfo &s : f.stages) {
                const std::vector<Loop> &loops = loops_of(s.name);
                double outside = 1, extent = 1;
                bool inside = false;
                for (auto l = loops.rbegin(); l != loops.rend(); ++l) {  // outermost first
                    if (l->parallel) inside = true, extent *= double(l->extent);
                    else if (!inside) outside *= double(l->extent);
                }
                if (extent <= 1) continue;  // a parallel loop of extent 1 runs serially
                launches += instances * outside;
                tasks += instances * outside * extent;
            }
        }
    }

    /// What `a` acts on, read before it is applied (ActionContext's columns).
    ActionContext context(const Action &a) {
        ActionContext c{};
        const Loop *loop = nullptr;
        int position = -1;
        auto locate = [&](const std::string &stage, const std::string &name) {
            std::vector<Loop> *loops = nest(stage);
            if (!loops) return;
            auto it = find(*loops, name);
            if (it == loops->end()) return;
            loop = &*it;
            position = int(it - loops->begin());
        };
        switch (a.kind) {
        case ActionKind::Split:
        case ActionKind::Annotate:
            if (!a.dims.empty()) locate(a.stage, a.dims[0]);
            break;
        case ActionKind::Fuse:
            if (a.dims.size() >= 2) locate(a.stage, a.dims[1]);  // the outer loop; the inner one below
            break;
        case ActionKind::Reorder:
            if (!a.dims.empty()) locate(a.stage, a.dims[0]);  // the loop that ends up innermost
            break;
        case ActionKind::RFactor:
            if (!a.dims.empty()) locate(a.stage, a.dims[0]);
            break;
        case ActionKind::ComputeAt:
        case ActionKind::StoreAt:
            if (!a.dims.empty()) locate(last_stage_of(a.consumer), a.dims[0]);
            break;
        default: break;
        }
        const bool func_action = a.kind == ActionKind::ComputeRoot || a.kind == ActionKind::ComputeInline ||
                                 a.kind == ActionKind::Cache || a.kind == ActionKind::StorageOrder ||
                                 a.kind == ActionKind::BlockLayout;
        const double e = loop ? double(loop->extent) : func_action ? points_of(a.stage) : 0.0;
        c[0] = float(std::log2(1 + e));
        c[5] = e > 0 && std::fmod(e, 8.0) == 0 ? 1.0f : 0.0f;
        c[6] = e > 0 && std::fmod(e, 16.0) == 0 ? 1.0f : 0.0f;
        c[7] = e > 0 ? 1.0f : 0.0f;
        c[2] = 1;
        if (a.kind == ActionKind::Split && loop) {
            double product = 1;
            for (int64_t f : a.factors) product *= double(std::max<int64_t>(1, f));
            const double outer = std::ceil(e / product);
            c[1] = float(std::log2(1 + product));
            c[2] = std::fmod(e, product) == 0 ? 1.0f : 0.0f;
            c[3] = float((outer * product - e) / (outer * product));
            c[4] = float(std::log2(1 + outer));
        } else if (a.kind == ActionKind::Fuse && loop && a.dims.size() >= 2) {
            const Loop *outer = loop;
            locate(a.stage, a.dims[0]);
            c[1] = float(std::log2(1 + double(loop->extent)));
            c[4] = float(std::log2(1 + double(outer->extent)));
            c[0] = float(std::log2(1 + double(loop->extent) * double(outer->extent)));
        } else if ((a.kind == ActionKind::ComputeAt || a.kind == ActionKind::StoreAt) && !a.dims.empty()) {
            c[1] = float(std::log2(1 + double(instances_at(a.consumer, a.dims[0]))));
        }
        if (position >= 0) c[4] = a.kind == ActionKind::Split || a.kind == ActionKind::Fuse ? c[4] : float(position);
        return c;
    }

private:
    const std::vector<FuncInfo> &funcs_;
    bool with_access_ = false;  ///< features() adds access_features
    std::vector<StageNest> nests_;  ///< a handful of stages: found by a scan of their ids
    std::map<std::string, Placement> placements_;
    std::vector<Loop> scratch_loops_;   ///< reused by split and reorder
    std::vector<size_t> scratch_slots_;

    /// The last stage of a Func (where a consumer's loops are), or the name itself.
    const std::string &last_stage_of(const std::string &func) const {
        for (const FuncInfo &f : funcs_)
            if (f.name == func && !f.stages.empty()) return f.stages.back().name;
        return func;
    }

    /// The points of a Func's pure definition (the product of its dims' extents; 0 for an unknown name).
    double points_of(const std::string &func) const {
        for (const FuncInfo &f : funcs_) {
            if (f.name != func) continue;
            double p = 1;
            for (const LoopDim &d : f.dims) p *= double(std::max<int64_t>(1, d.extent));
            return p;
        }
        return 0;
    }

    const StageNest *stage_nest(const std::string &stage) const {
        const uint64_t id = name_id(stage);
        for (const StageNest &n : nests_)
            if (n.id == id && n.stage == stage) return &n;
        return nullptr;
    }

    std::vector<Loop> *nest(const std::string &stage) {
        const uint64_t id = name_id(stage);
        for (StageNest &n : nests_)
            if (n.id == id && n.stage == stage) return &n.loops;
        return nullptr;
    }

    /// The loops of a stage the simulator was built with (std::out_of_range for another name).
    const std::vector<Loop> &loops_of(const std::string &stage) const {
        const StageNest *found = stage_nest(stage);
        if (!found) throw std::out_of_range("nest simulator: no stage " + stage);
        return found->loops;
    }

    static std::vector<Loop>::iterator find(std::vector<Loop> &loops, const std::string &name) {
        const uint64_t id = name_id(name);
        return std::find_if(loops.begin(), loops.end(), [&](const Loop &l) { return l.id == id && l.name == name; });
    }

    void split(const Action &a) {
        std::vector<Loop> *loops = nest(a.stage);
        if (!loops || a.factors.empty()) return;
        auto it = find(*loops, a.dims.at(0));
        if (it == loops->end()) return;
        const Loop whole = *it;
        int64_t product = 1;
        for (int64_t f : a.factors) product *= std::max<int64_t>(1, f);
        // The pieces innermost first, named as Action::split_names names them (outermost piece _0).
        std::vector<Loop> &pieces = scratch_loops_;
        pieces.clear();
        for (size_t i = a.factors.size(); i >= 1; i--) pieces.push_back(make_loop(a.split_name(i), whole.origin, a.factors[i - 1]));
        pieces.push_back(make_loop(a.split_name(0), whole.origin, (whole.extent + product - 1) / product));
        const auto at = loops->erase(it);
        loops->insert(at, pieces.begin(), pieces.end());
    }

    void reorder(const Action &a) {
        std::vector<Loop> *loops = nest(a.stage);
        if (!loops) return;
        std::vector<size_t> &slots = scratch_slots_;
        std::vector<Loop> &moved = scratch_loops_;
        slots.clear();
        moved.clear();
        for (const std::string &name : a.dims) {
            auto it = find(*loops, name);
            if (it == loops->end()) return;
            slots.push_back(size_t(it - loops->begin()));
            moved.push_back(*it);
        }
        std::sort(slots.begin(), slots.end());
        for (size_t i = 0; i < slots.size(); i++) (*loops)[slots[i]] = moved[i];
    }

    void fuse(const Action &a) {
        std::vector<Loop> *loops = nest(a.stage);
        if (!loops || a.dims.size() < 3) return;
        auto inner = find(*loops, a.dims[0]);
        auto outer = find(*loops, a.dims[1]);
        if (inner == loops->end() || outer == loops->end()) return;
        Loop fused = make_loop(a.dims[2], "", inner->extent * outer->extent);
        fused.parallel = inner->parallel || outer->parallel;
        *inner = fused;
        loops->erase(find(*loops, a.dims[1]));
    }

    void annotate(const Action &a) {
        std::vector<Loop> *loops = nest(a.stage);
        if (!loops) return;
        auto it = find(*loops, a.dims.at(0));
        if (it == loops->end()) return;
        if (a.annotation == AnnotationKind::Vectorize) it->vectorized = true;
        if (a.annotation == AnnotationKind::Unroll) it->unrolled = true;
        if (a.annotation == AnnotationKind::Parallel) it->parallel = true;
    }

    /// The product of the consumer's (last stage's) loops from the outermost down to `loop`.
    int64_t instances_at(const std::string &consumer, const std::string &loop) const {
        const StageNest *nest = stage_nest(last_stage_of(consumer));
        if (!nest) return 0;
        const uint64_t id = name_id(loop);
        int64_t product = 1;
        for (auto l = nest->loops.rbegin(); l != nest->loops.rend(); ++l) {
            product *= l->extent;
            if (l->id == id && l->name == loop) return product;
        }
        return 0;
    }

    void stage_features(const StageInfo &s, KeyedFeatures &out) const {
        const std::vector<Loop> &loops = loops_of(s.name);
        const std::string &p = s.name;
        float vec = 0, unroll = 1, par = 1;
        std::string vec_dim;
        for (const Loop &l : loops) {
            if (l.vectorized) vec = float(l.extent), vec_dim = l.origin;
            if (l.unrolled) unroll *= float(l.extent);
            if (l.parallel) par *= float(l.extent);
        }
        out.emplace_back(p + "|loops", float(loops.size()));
        out.emplace_back(p + "|vec", vec);
        if (!vec_dim.empty()) out.emplace_back(p + "|vec=" + vec_dim, 1.0f);
        out.emplace_back(p + "|unroll", unroll);
        out.emplace_back(p + "|par", par);
        out.emplace_back(p + "|reg", std::max(1.0f, vec) * unroll);
        if (!loops.empty()) {
            out.emplace_back(p + "|inner=" + loops.front().origin, 1.0f);
            out.emplace_back(p + "|inner", float(loops.front().extent));
        }
        for (const LoopDim &d : s.dims) {
            float inner = 0, outer = 0, pos = -1;
            for (size_t i = 0; i < loops.size(); i++) {
                if (loops[i].origin != d.name) continue;
                if (pos < 0) pos = float(i), inner = float(loops[i].extent);
                outer = float(loops[i].extent);
            }
            out.emplace_back(p + "|in|" + d.name, inner);
            out.emplace_back(p + "|out|" + d.name, outer);
            out.emplace_back(p + "|pos|" + d.name, pos);
        }
    }

    /// How the vectorized and the innermost loop walk every read and the store (the walk counts), and the
    /// bytes the innermost loops touch (see ScheduleFeatures.h).
    void access_features(const FuncInfo &f, const StageInfo &s, KeyedFeatures &out) const {
        const std::vector<Loop> &loops = loops_of(s.name);
        const StageRead store = store_access(f);
        std::string vec_var;
        size_t task_loops = loops.size();  // the loops inside the outermost parallel loop
        for (size_t i = 0; i < loops.size(); i++) {
            if (loops[i].vectorized) vec_var = loops[i].origin;
            if (loops[i].parallel) task_loops = i;
        }
        walk_counts(store, s, vec_var, s.name + "|vec_", out);
        if (!loops.empty()) walk_counts(store, s, loops.front().origin, s.name + "|in_", out);
        std::map<std::string, double> extent;  // of each original dim, over the loops inside the region
        for (size_t k = 0; k < loops.size(); k++) {
            if (!loops[k].origin.empty()) {
                auto it = extent.emplace(loops[k].origin, 1.0).first;
                it->second *= double(loops[k].extent);
            }
            if (k >= kFootprintLevels && k + 1 != task_loops) continue;
            const float bytes = float(std::log2(1 + region_bytes(store, s, extent)));
            if (k < kFootprintLevels) out.emplace_back(s.name + "|fp" + std::to_string(k + 1), bytes);
            if (k + 1 == task_loops) out.emplace_back(s.name + "|fp_task", bytes);
        }
    }

    static constexpr size_t kFootprintLevels = 4;

    enum class Walk { Broadcast, Contiguous, Strided };

    /// How stepping `var` moves along an access: not at all, to the next element (StageRead::dim_of gives
    /// the innermost dim), or otherwise.
    static Walk walk(const StageRead &access, const std::string &var) {
        if (access.dim_of(var) == 0) return Walk::Contiguous;
        for (const std::vector<std::string> &vars : access.dim_vars)
            if (std::find(vars.begin(), vars.end(), var) != vars.end()) return Walk::Strided;
        return Walk::Broadcast;
    }

    static void walk_counts(const StageRead &store, const StageInfo &s, const std::string &var, const std::string &prefix, KeyedFeatures &out) {
        if (var.empty()) return;
        float counts[3] = {0, 0, 0};
        for (const StageRead &r : s.reads) counts[int(walk(r, var))]++;
        out.emplace_back(prefix + "bcast", counts[0]);
        out.emplace_back(prefix + "contig", counts[1]);
        out.emplace_back(prefix + "strided", counts[2]);
        out.emplace_back(prefix + "store", float(int(walk(store, var))));
    }

    /// The store as an access: each of the Func's dims indexed by its own var, stepping by one.
    static StageRead store_access(const FuncInfo &f) {
        StageRead store{f.name, false, {}, {}};
        for (const LoopDim &d : f.dims) {
            store.dim_vars.push_back({d.name});
            store.unit_step_vars.push_back({d.name});
        }
        return store;
    }

    /// Bytes (float32) the reads and the store touch while each original dim runs over `extent` (1 for a
    /// dim outside the region): per access, the product over its dims of 1 + the sum of its vars' extents - 1.
    static double region_bytes(const StageRead &store, const StageInfo &s, const std::map<std::string, double> &extent) {
        auto footprint = [&](const StageRead &access) {
            double elements = 1;
            for (const std::vector<std::string> &vars : access.dim_vars) {
                double span = 1;
                for (const std::string &v : vars) {
                    auto it = extent.find(v);
                    if (it != extent.end()) span += it->second - 1;
                }
                elements *= span;
            }
            return 4 * elements;
        };
        double bytes = footprint(store);
        for (const StageRead &r : s.reads) bytes += footprint(r);
        return bytes;
    }
};

KeyedFeatures schedule_features(const std::vector<FuncInfo> &funcs, const ActionList &actions, bool with_access) {
    NestSimulator sim(funcs, with_access);
    for (const Action &a : actions) sim.apply(a);
    return sim.features();
}

namespace {

void push_parallelism(const NestSimulator &sim, double flops, std::vector<float> &row) {
    double launches = 0, tasks = 0;
    sim.parallelism(launches, tasks);
    row.push_back(float(std::log2(1 + std::max(0.0, flops))));
    row.push_back(float(std::log2(1 + launches)));
    row.push_back(float(std::log2(1 + tasks)));
    row.push_back(float(std::log2(1 + std::max(0.0, flops) / std::max(1.0, launches))));
}

}  // namespace

void append_parallelism_features(const std::vector<FuncInfo> &funcs, const ActionList &actions, double flops, std::vector<float> &row) {
    NestSimulator sim(funcs);
    for (const Action &a : actions) sim.apply(a);
    push_parallelism(sim, flops, row);
}

ScheduleReader::ScheduleReader(const TaskPrograms &programs) : programs_(programs) {}

ScheduleReader::~ScheduleReader() = default;

namespace {

/// Applies `actions` to `sim`, each one's context read before it is applied.
void simulate(NestSimulator &sim, const ActionList &actions, std::vector<ActionContext> &contexts) {
    contexts.clear();
    contexts.reserve(actions.size());
    for (const Action &a : actions) {
        contexts.push_back(sim.context(a));
        sim.apply(a);
    }
}

}  // namespace

ScheduleReader::Nests &ScheduleReader::nests_for(const std::vector<FuncInfo> &funcs) {
    Nests &nests = nests_[&funcs];
    if (!nests.initial) nests.initial = std::make_unique<NestSimulator>(funcs), nests.work = std::make_unique<NestSimulator>(funcs);
    return nests;
}

void ScheduleReader::read(const ActionList &actions, double flops, std::vector<ActionContext> &contexts, std::vector<float> &parallelism) {
    Nests &nests = nests_for(programs_.funcs_for(actions));
    NestSimulator &sim = *nests.work;
    sim.copy_state(*nests.initial);
    simulate(sim, actions, contexts);
    push_parallelism(sim, flops, parallelism);
}

void ScheduleReader::read_block(const std::vector<const ActionList *> &lists, const std::vector<size_t> &shared, double flops,
                                std::vector<std::vector<ActionContext>> &contexts, std::vector<std::vector<float>> &parallelism) {
    const std::vector<FuncInfo> *previous_funcs = nullptr;
    for (size_t j = 0; j < lists.size(); j++) {
        const ActionList &actions = *lists[j];
        const std::vector<FuncInfo> &funcs = programs_.funcs_for(actions);
        Nests &nests = nests_for(funcs);
        if (&funcs != previous_funcs) nests.saved_count = 0;  // its saved states belong to an older path
        const size_t from_previous = &funcs == previous_funcs ? std::min(shared[j], actions.size()) : 0;
        // The deepest saved state this candidate shares: every state still saved is a prefix of the
        // previous path no longer than what each candidate since shared with the one before it.
        while (nests.saved_count > 0 && nests.saved_depth[nests.saved_count - 1] > from_previous) nests.saved_count--;
        const size_t start = nests.saved_count > 0 ? nests.saved_depth[nests.saved_count - 1] : 0;
        NestSimulator &sim = *nests.work;
        sim.copy_state(start > 0 ? *nests.saved[nests.saved_count - 1] : *nests.initial);
        std::vector<ActionContext> &out = contexts[j];
        if (start > 0) out.assign(contexts[j - 1].begin(), contexts[j - 1].begin() + long(start));
        else out.clear();
        out.reserve(actions.size());
        const size_t keep = j + 1 < lists.size() ? std::min(shared[j + 1], actions.size()) : 0;  // what the next one shares
        for (size_t t = start; t <= actions.size(); t++) {
            if (t == keep && keep > start) save(nests, sim, keep);
            if (t == actions.size()) break;
            out.push_back(sim.context(actions[t]));
            sim.apply(actions[t]);
        }
        push_parallelism(sim, flops, parallelism[j]);
        previous_funcs = &funcs;
    }
}

void ScheduleReader::save(Nests &nests, const NestSimulator &sim, size_t depth) {
    if (nests.saved_count == nests.saved.size()) {
        nests.saved.push_back(std::make_unique<NestSimulator>(*nests.initial));
        nests.saved_depth.push_back(0);
    }
    nests.saved[nests.saved_count]->copy_state(sim);
    nests.saved_depth[nests.saved_count] = depth;
    nests.saved_count++;
}

void read_schedule(const std::vector<FuncInfo> &funcs, const ActionList &actions, double flops, std::vector<ActionContext> &contexts,
                   std::vector<float> &parallelism) {
    NestSimulator sim(funcs);
    simulate(sim, actions, contexts);
    push_parallelism(sim, flops, parallelism);
}

std::vector<ActionContext> action_contexts(const std::vector<FuncInfo> &funcs, const ActionList &actions) {
    NestSimulator sim(funcs);
    std::vector<ActionContext> out;
    simulate(sim, actions, out);
    return out;
}

void FeatureColumns::add_keys(const KeyedFeatures &features) {
    for (const auto &kv : features)
        if (column_.emplace(kv.first, order_.size()).second) order_.push_back(kv.first);
}

void FeatureColumns::append_row(const KeyedFeatures &features, size_t width, std::vector<float> &row) const {
    const size_t start = row.size();
    row.resize(start + width, 0.0f);
    for (const auto &[key, value] : features) {
        auto it = column_.find(key);
        if (it != column_.end() && it->second < width) row[start + it->second] = value;
    }
}

}  // namespace worldtune
