#include "search/SketchSampler.h"

#include "search/SketchNames.h"

#include "lower/StateText.h"
#include "schedule/Apply.h"
#include "workload/Winograd.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace worldtune {

using sketch::inner_name;
using sketch::split_name;
using sketch::tail_for;

namespace {

/// Moves `name` (when present) to the front of an innermost-first loop list.
void move_innermost(std::vector<std::string> &loops, const std::string &name) {
    auto it = std::find(loops.begin(), loops.end(), name);
    if (it != loops.end()) std::rotate(loops.begin(), it, it + 1);
}

}  // namespace

std::vector<std::string> search_space_names() { return {"v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10"}; }

std::string default_search_space() { return search_space_names()[size_t(SamplerParams{}.space - 1)]; }

SamplerParams sampler_params_for_space(const std::string &name) {
    const std::vector<std::string> names = search_space_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
        std::string known;
        for (const std::string &n : names) known += (known.empty() ? "" : ", ") + n;
        throw std::invalid_argument("unknown search space '" + name + "' (known: " + known + ")");
    }
    SamplerParams p;
    p.space = int(it - names.begin()) + 1;  // v<N> is space N
    return p;
}

SketchSampler::SketchSampler(const WorkloadSpec &spec, SamplerParams params, uint64_t seed)
    : spec_(spec), params_(params), rng_(seed), direct_(build_workload(spec)), workload_(direct_.get()) {
    if (params_.space >= 9) winograd_forms_ = winograd_forms(spec);
}

uint32_t SketchSampler::choose(DecisionKind kind, uint32_t n) {
    const size_t position = recording_.size();
    uint32_t value;
    if (replaying_ && position < replaying_->size() && (*replaying_)[position].kind == kind) {
        value = (*replaying_)[position].value;
    } else {
        value = uint32_t(rng_() & 0xffffffu);
    }
    recording_.push_back({kind, value, n});
    return n == 0 ? 0 : value % n;
}

std::vector<DecisionTape> one_decision_neighbours(const DecisionTape &tape, uint32_t max_choices) {
    std::vector<DecisionTape> out;
    for (size_t i = 0; i < tape.size(); i++) {
        const uint32_t n = tape[i].choices;
        if (n < 2) continue;
        const uint32_t current = tape[i].value % n;
        std::vector<uint32_t> values;
        if (n <= max_choices) {
            for (uint32_t v = 0; v < n; v++) values.push_back(v);
        } else {
            values = {0, n - 1};
        }
        for (uint32_t v : values) {
            if (v == current) continue;
            DecisionTape neighbour = tape;
            neighbour[i].value = v;
            out.push_back(std::move(neighbour));
        }
    }
    return out;
}

bool SketchSampler::chance(DecisionKind kind, double p) {
    constexpr uint32_t kResolution = 1u << 16;
    return choose(kind, kResolution) < uint32_t(p * kResolution);
}

SketchCandidate SketchSampler::replay(const DecisionTape &tape) {
    replaying_ = &tape;
    recording_.clear();
    SketchCandidate c;
    c.actions = build();
    c.tape = std::move(recording_);
    replaying_ = nullptr;
    recording_.clear();
    return c;
}

int SketchSampler::lanes() const {
    if (params_.vector_lanes > 0) return params_.vector_lanes;
    return Halide::get_host_target().natural_vector_size(Halide::Float(32));
}

int SketchSampler::registers() const {
    if (params_.vector_registers > 0) return params_.vector_registers;
    return Halide::get_host_target().has_feature(Halide::Target::AVX512) ? 32 : 16;
}

int64_t SketchSampler::register_tile_cap(int64_t vector_inner) const {
    // Accumulators (vectors × unrolled), the vectors loaded per step and one broadcast stay in registers.
    const int64_t vectors = std::max<int64_t>(1, vector_inner / lanes());
    return std::max<int64_t>(1, (registers() - 1 - vectors) / vectors);
}

int64_t SketchSampler::draw_register_tile(int64_t extent, int64_t vector_inner) {
    return draw_tile(extent, false, register_tile_cap(vector_inner));
}

int64_t SketchSampler::filling_register_tile(int64_t extent, int64_t vector_inner) const {
    const std::vector<int64_t> choices = tile_choices(extent, false, register_tile_cap(vector_inner));
    return *std::max_element(choices.begin(), choices.end());
}

bool SketchSampler::fill_fits_reduction(const StageInfo &stage) const {
    if (params_.space < 5) return false;
    if (params_.space == 5 || reads_blocked_weight(stage)) return true;
    bool kept_whole = false, blocked = false;
    for (const LoopDim &d : stage.dims) {
        if (!d.reduction || d.extent <= 1) continue;
        (d.extent <= params_.fill_reduction_block ? kept_whole : blocked) = true;
    }
    return kept_whole && blocked;
}

size_t SketchSampler::draw_register_fill(const StageInfo &stage, const std::vector<int64_t> &pure_extents, size_t vector_pure,
                                         int64_t vector_inner) {
    // The checks before the draw keep every other update's random draws those of space 4.
    if (!fill_fits_reduction(stage) || vector_inner < lanes() || !chance(DecisionKind::Structure, params_.p_register_fill))
        return kNoFill;
    std::vector<size_t> others;  // the pure loops that may be the unrolled one
    for (size_t i = 0; i < pure_extents.size(); i++)
        if (i != vector_pure && pure_extents[i] > 1) others.push_back(i);
    if (others.empty()) return pure_extents.size();  // filled by the vectors alone
    return others[choose(DecisionKind::Unroll, uint32_t(others.size()))];
}

std::vector<int64_t> SketchSampler::tile_choices(int64_t extent, bool vector_dim, int64_t largest) const {
    // Candidates: powers of two and divisors of the extent, up to the cap and the extent itself.
    std::vector<int64_t> choices;
    const int64_t cap = std::min<int64_t>(extent, largest > 0 ? largest : params_.max_tile);
    for (int64_t p = 1; p <= cap; p *= 2) choices.push_back(p);
    for (int64_t d = 3; d <= cap; d++)
        if (extent % d == 0 && (d & (d - 1)) != 0) choices.push_back(d);
    if (vector_dim) {
        // The vectorized loop: whole vectors when the extent allows it.
        std::vector<int64_t> vec;
        for (int64_t c : choices)
            if (c % lanes() == 0 && c <= int64_t(params_.max_vectors) * lanes()) vec.push_back(c);
        if (!vec.empty()) choices = vec;
    }
    return choices;
}

int64_t SketchSampler::draw_tile(int64_t extent, bool vector_dim, int64_t largest) {
    const std::vector<int64_t> choices = tile_choices(extent, vector_dim, largest);
    return choices[choose(DecisionKind::TileSize, uint32_t(choices.size()))];
}

void SketchSampler::vectorize_pure(ActionList &out, const std::string &stage, const LoopDim &inner, int64_t extent) {
    if (extent >= lanes()) {
        out.push_back(Action::split(stage, inner.name, {lanes()}, tail_for(false, lanes(), extent)));
        out.push_back(Action::annotate(stage, inner_name(inner.name, 1), AnnotationKind::Vectorize));
    }
}

void SketchSampler::choose_wide_vector_dim() {
    wide_vector_dim_.clear();
    vector_by_read_ = false;
    const FuncInfo &f = workload_->func_infos.back();
    if (f.dims.empty()) return;
    if (f.dims[0].extent >= lanes()) return choose_read_vector_dim(f);
    for (size_t i = 1; i < f.dims.size(); i++) {
        if (f.dims[i].extent < lanes()) continue;
        if (chance(DecisionKind::Structure, params_.p_wide_vector)) wide_vector_dim_ = f.dims[i].name;
        return;
    }
}

size_t SketchSampler::vector_index(const FuncInfo &f, const std::vector<int64_t> &extents) const {
    if (wide_vector_dim_.empty() || extents.empty() || (extents[0] >= lanes() && !vector_by_read_)) return 0;
    for (size_t i = 1; i < f.dims.size() && i < extents.size(); i++)
        if (f.dims[i].name == wide_vector_dim_ && extents[i] >= lanes()) return i;
    return 0;
}

void SketchSampler::vectorize_reduction_func(ActionList &out, const FuncInfo &f, const std::vector<int64_t> &extents, size_t v) {
    if (f.dims.empty()) return;
    if (v == 0) return vectorize_pure(out, f.name, f.dims[0], extents[0]);
    // Store the vectorized dim innermost, split it into vectors and move those innermost.
    const std::string &dim = f.dims[v].name;
    std::vector<std::string> storage = {dim}, loops = {inner_name(dim, 1)};
    for (size_t i = 0; i < f.dims.size(); i++) {
        if (i == v) {
            loops.push_back(split_name(dim, 1, 0));
            continue;
        }
        storage.push_back(f.dims[i].name);
        loops.push_back(f.dims[i].name);
    }
    out.push_back(Action::storage_order(f.name, storage));
    out.push_back(Action::split(f.name, dim, {lanes()}, tail_for(false, lanes(), extents[v])));
    out.push_back(Action::reorder(f.name, loops));
    out.push_back(Action::annotate(f.name, inner_name(dim, 1), AnnotationKind::Vectorize));
}

void SketchSampler::tile_output(ActionList &out, std::vector<int64_t> &tiles, std::string &tile_loop) {
    const FuncInfo &f = workload_->func_infos.back();
    std::vector<int64_t> extents;
    for (const LoopDim &d : f.dims) extents.push_back(d.extent);
    const size_t v = vector_index(f, extents);
    std::vector<std::string> inner, outer;  // innermost first
    std::string vector_inner;               // the inner tile loop of the vectorized dim
    tiles.clear();
    for (size_t i = 0; i < f.dims.size(); i++) {
        const LoopDim &d = f.dims[i];
        int64_t tile = d.extent > 1 ? draw_tile(d.extent, i == v) : 1;
        tiles.push_back(tile);
        if (d.extent <= 1) {
            outer.push_back(d.name);
            continue;
        }
        out.push_back(Action::split(f.name, d.name, {tile}));
        if (i == v) vector_inner = split_name(d.name, 1, 1);
        inner.push_back(split_name(d.name, 1, 1));
        outer.push_back(split_name(d.name, 1, 0));
    }
    move_innermost(inner, vector_inner);
    std::vector<std::string> order = inner;
    order.insert(order.end(), outer.begin(), outer.end());
    if (order.size() > 1) out.push_back(Action::reorder(f.name, order));

    // Fuse the k outermost outer loops into one parallel loop.
    const size_t k = 1 + choose(DecisionKind::ParallelGrain, uint32_t(outer.size()));
    std::string fused = outer.back();
    for (size_t j = 1; j < k; j++) {
        const std::string next = f.name + "_p" + std::to_string(j);
        out.push_back(Action::fuse(f.name, outer[outer.size() - 1 - j], fused, next));
        fused = next;
    }
    parallelize(out, f.name, fused);
    parallel_loop_ = fused;
    parallel_region_ = tiles;  // the last k dims' outer loops are fused into it; the others run inside
    for (size_t i = 0; i + k < f.dims.size(); i++) parallel_region_[i] = f.dims[i].extent;
    tile_loop = k == outer.size() ? fused : outer.front();
    if (!vector_inner.empty() && tiles[v] >= lanes())
        out.push_back(Action::annotate(f.name, vector_inner, AnnotationKind::Vectorize));
}

void SketchSampler::tile_update(ActionList &out, const StageInfo &stage, const std::vector<int64_t> &pure_extents,
                                size_t vector_pure, bool at_root) {
    const size_t outer_pieces = at_root ? 2 : 1;  // a pure loop's pieces outside its register tile: S S at root, S in a tile
    std::vector<std::string> s_inner, s_mid, s_outer, r_inner, r_outer;
    std::string vector_loop;  // the innermost piece of pure loop `vector_pure`, when it is long enough
    std::string vector_block_loop;  // (space 4) the vectors of a vector loop several vectors wide
    // Space 2 draws the vectorized loop first: its width sizes the register tile of the other loops.
    int64_t vector_inner = 0;
    if (params_.space >= 2 && vector_pure < pure_extents.size() && pure_extents[vector_pure] > 1)
        vector_inner = draw_tile(pure_extents[vector_pure], true);
    // Spaces 5 and 6: the register-fill rule (the pure loop it unrolls; kNoFill when not drawn).
    const size_t fill_pure = draw_register_fill(stage, pure_extents, vector_pure, vector_inner);
    const bool fill = fill_pure != kNoFill;
    std::string fill_loop;  // the register piece of loop `fill_pure`, unrolled
    size_t pure_index = 0;
    for (const LoopDim &d : stage.dims) {
        if (d.reduction) {
            // Split reductions mostly; always when nothing else of the stage would be scheduled (Halide warns
            // about a half-scheduled Func), and when filling the register file: a window (extent up to the
            // block) whole, a longer reduction by a small block, so one step's weights stay in L1.
            const bool only_loop_left = pure_extents.empty() || *std::max_element(pure_extents.begin(), pure_extents.end()) <= 1;
            if (d.extent > 1 && (fill || only_loop_left || chance(DecisionKind::Structure, 0.8))) {
                // (space 8) Over a weight stored in blocks the reduction streams: it may stay whole inside.
                const int64_t block = !fill ? draw_tile(d.extent, false)
                                      : d.extent <= params_.fill_reduction_block ? d.extent
                                      : reads_blocked_weight(stage) && chance(DecisionKind::TileSize, params_.p_fill_whole_reduction)
                                          ? d.extent
                                          : draw_tile(d.extent, false, params_.fill_reduction_block);
                out.push_back(Action::split(stage.name, d.name, {block}));
                r_inner.push_back(split_name(d.name, 1, 1));
                r_outer.push_back(split_name(d.name, 1, 0));
            } else {
                r_outer.push_back(d.name);
            }
            continue;
        }
        const int64_t extent = pure_extents[pure_index];
        const bool vector_dim = pure_index == vector_pure;
        const bool fill_dim = pure_index == fill_pure;
        pure_index++;
        if (extent <= 1) {
            s_outer.push_back(d.name);
            continue;
        }
        int64_t inner;
        if (vector_dim && params_.space >= 2) {
            inner = vector_inner;
        } else if (fill) {  // the unrolled loop fills the register file; the others get no register piece
            inner = fill_dim ? filling_register_tile(extent, vector_inner) : 1;
        } else if (params_.space >= 2) {
            inner = draw_register_tile(extent, vector_inner);
        } else {
            inner = draw_tile(extent, vector_dim);
            if (!vector_dim) inner = std::min<int64_t>(inner, params_.max_unroll);
        }
        std::vector<int64_t> factors;  // outermost first, as Action::split takes them
        if (at_root) factors.push_back(draw_tile(std::max<int64_t>(1, extent / inner), false));
        int64_t product = inner;  // what the outermost split of this loop divides by
        if (at_root) product *= factors.back();
        // A guarded tail under a vectorized update loop crashes Halide 14's code (seen on row reductions):
        // vectorize only splits that divide the extent.
        const bool vectorized = vector_dim && inner >= lanes() && extent % product == 0;
        // Space 4: a vector loop of several vectors becomes one vector wide, with the vectors an unrolled loop
        // beside it (independent accumulators; LLVM's code for one wide vector loop is slower).
        const bool vector_blocks = params_.space >= 4 && vectorized && inner > lanes() && inner % lanes() == 0;
        if (vector_blocks) factors.insert(factors.end(), {inner / lanes(), lanes()});
        else factors.push_back(inner);
        const size_t levels = factors.size();
        out.push_back(Action::split(stage.name, d.name, factors, tail_for(true, product, extent)));
        (at_root ? s_outer : s_mid).push_back(split_name(d.name, levels, 0));
        if (at_root) s_mid.push_back(split_name(d.name, levels, 1));
        for (size_t piece = levels; piece >= outer_pieces; piece--) s_inner.push_back(split_name(d.name, levels, piece));
        if (vectorized) vector_loop = split_name(d.name, levels, levels);
        if (vector_blocks) vector_block_loop = split_name(d.name, levels, levels - 1);
        if (fill_dim && inner > 1) fill_loop = split_name(d.name, levels, levels);
    }
    move_innermost(s_inner, vector_block_loop);
    move_innermost(s_inner, vector_loop);
    // Innermost first: S_inner R_inner S_mid R_outer S_outer (Ansor's S R S R S read from the inside).
    std::vector<std::string> order;
    for (auto *group : {&s_inner, &r_inner, &s_mid, &r_outer, &s_outer}) order.insert(order.end(), group->begin(), group->end());
    if (order.size() > 1) out.push_back(Action::reorder(stage.name, order));
    if (!vector_loop.empty()) out.push_back(Action::annotate(stage.name, vector_loop, AnnotationKind::Vectorize));
    if (!vector_block_loop.empty()) out.push_back(Action::annotate(stage.name, vector_block_loop, AnnotationKind::Unroll));
    // Register blocking: unroll one inner pure loop other than the vectorized one and its vectors (which one
    // is a decision: for a convolution, output channels reuse the loaded inputs, rows reuse the weights).
    const size_t first_other = vector_block_loop.empty() ? 1 : 2;
    if (fill) {
        if (!fill_loop.empty()) out.push_back(Action::annotate(stage.name, fill_loop, AnnotationKind::Unroll));
    } else if (s_inner.size() > first_other && chance(DecisionKind::Unroll, 0.7)) {
        const size_t which = first_other + choose(DecisionKind::Unroll, uint32_t(s_inner.size() - first_other));
        out.push_back(Action::annotate(stage.name, s_inner[which], AnnotationKind::Unroll));
    }
    if (at_root && !s_outer.empty()) {
        std::string fused = s_outer.back();
        if (s_outer.size() > 1 && chance(DecisionKind::ParallelGrain, 0.5)) {
            const std::string next = stage.func + "_p";
            out.push_back(Action::fuse(stage.name, s_outer[s_outer.size() - 2], fused, next));
            fused = next;
        }
        parallelize(out, stage.name, fused);
    }
}

void SketchSampler::parallelize(ActionList &out, const std::string &stage, const std::string &loop) {
    if (!serial_) out.push_back(Action::annotate(stage, loop, AnnotationKind::Parallel));
}

bool SketchSampler::rfactor_row_reduction(ActionList &out, const StageInfo &stage, bool at_root) {
    if (params_.space < 2 || stage.dims.empty() || !stage.dims[0].reduction) return false;
    const LoopDim &r = stage.dims[0];
    const bool contiguous = std::any_of(stage.reads.begin(), stage.reads.end(), [&](const StageRead &read) { return read.dim_of(r.name) == 0; });
    if (r.extent < 2 * lanes() || !contiguous || !chance(DecisionKind::Structure, params_.p_rfactor)) return false;
    std::vector<int64_t> widths;  // 1, 2 or 4 vectors of partial sums
    for (int64_t vectors = 1; vectors <= 4 && vectors * lanes() <= r.extent; vectors *= 2) widths.push_back(vectors * lanes());
    const int64_t width = widths[choose(DecisionKind::TileSize, uint32_t(widths.size()))];
    out.push_back(Action::split(stage.name, r.name, {width}, tail_for(true, width, r.extent)));
    const Action rfactor = Action::rfactor(stage.name, split_name(r.name, 1, 1), "u");
    out.push_back(rfactor);
    const std::string partial = rfactor.created_func();
    // The partial sums live per row: at the stage's innermost pure loop (at the root when it has none).
    auto pure = std::find_if(stage.dims.begin(), stage.dims.end(), [](const LoopDim &d) { return !d.reduction; });
    if (pure != stage.dims.end()) out.push_back(Action::compute_at(partial, stage.func, pure->name));
    else out.push_back(Action::compute_root(partial));
    out.push_back(Action::split(partial, "u", {lanes()}));
    out.push_back(Action::annotate(partial, split_name("u", 1, 1), AnnotationKind::Vectorize));
    out.push_back(Action::split(partial + ".u0", "u", {lanes()}));
    out.push_back(Action::annotate(partial + ".u0", split_name("u", 1, 1), AnnotationKind::Vectorize));
    if (width > lanes()) out.push_back(Action::annotate(partial + ".u0", split_name("u", 1, 0), AnnotationKind::Unroll));
    if (at_root && !stage.dims.empty() && stage.dims.back().name != r.name && stage.dims.back().extent > 1)
        parallelize(out, stage.name, stage.dims.back().name);
    return true;
}

void SketchSampler::pack_inputs(ActionList &out, const FuncInfo &f, const std::string &vector_var, int64_t vector_extent,
                                const std::string &tile_loop) {
    if (params_.space < 2 || vector_extent < lanes()) return;
    std::set<std::string> packed;
    for (size_t s = 1; s < f.stages.size(); s++) {
        for (const StageRead &read : f.stages[s].reads) {
            const int d = read.dim_of(vector_var);
            if (!read.is_input || d <= 0 || packed.count(read.producer) || blocked_weights_.count(read.producer)) continue;
            const bool weight = workload_->is_weight(read.producer);
            const double p_pack = params_.space >= 4 && weight ? params_.p_pack_weight : params_.p_pack_input;
            if (!chance(DecisionKind::Structure, p_pack)) continue;
            packed.insert(read.producer);
            // The input's dims (and its wrapper's) are Halide's _0 .. _n-1, innermost first: store _d innermost.
            const auto dim = input_dim_name;
            std::vector<std::string> storage = {dim(size_t(d))};
            for (size_t i = 0; i < read.dim_vars.size(); i++)
                if (int(i) != d) storage.push_back(dim(i));
            if (params_.space >= 3 && weight && chance(DecisionKind::Structure, params_.p_weight_layout)) {
                out.push_back(Action::storage_order(read.producer, storage));
                continue;
            }
            const Action cache = Action::cache(read.producer, f.name);
            const std::string wrapper = cache.created_func();
            out.push_back(cache);
            out.push_back(Action::storage_order(wrapper, storage));
            int64_t extent = vector_extent;  // of dim _d in the packed region
            if (!tile_loop.empty() && !chance(DecisionKind::ComputeLocation, params_.p_pack_at_root)) {
                // Inside the tile, or once per iteration of the parallel loop around it (the packed region
                // often depends on that loop alone: a convolution's weights on the output-channel tile).
                const bool outer = parallel_loop_ != tile_loop && choose(DecisionKind::ComputeLocation, 2) == 1;
                out.push_back(Action::compute_at(wrapper, workload_->func_infos.back().name, outer ? parallel_loop_ : tile_loop));
            } else {
                out.push_back(Action::compute_root(wrapper));
                if (storage.size() > 1) parallelize(out, wrapper, storage.back());
                for (size_t i = 0; i < workload_->inputs.size(); i++)
                    if (workload_->inputs[i].name() == read.producer) extent = workload_->input_shapes[i][size_t(d)];
            }
            out.push_back(Action::split(wrapper, dim(size_t(d)), {lanes()}, tail_for(true, lanes(), extent)));
            out.push_back(Action::annotate(wrapper, inner_name(dim(size_t(d)), 1), AnnotationKind::Vectorize));
        }
    }
}

void SketchSampler::block_weights(ActionList &out, const FuncInfo &f, const std::string &vector_var, int64_t vector_extent) {
    if (params_.space < 8 || vector_extent < lanes()) return;
    for (size_t s = 1; s < f.stages.size(); s++) {
        for (const StageRead &read : f.stages[s].reads) {
            const int d = read.dim_of(vector_var);
            if (!read.is_input || d <= 0 || !workload_->is_weight(read.producer) || blocked_weights_.count(read.producer)) continue;
            const int i = workload_->input_index(read.producer);
            if (workload_->input_shapes[size_t(i)][size_t(d)] % lanes() != 0) continue;  // a tail would gather
            if (!chance(DecisionKind::Structure, params_.p_weight_block)) continue;
            // Stored in blocks of one vector along _d: every aligned vector of the loop reads contiguous
            // floats, and so does the next element of every other dim. It rebuilds the program: first.
            out.insert(out.begin(), Action::block_layout(read.producer, input_dim_name(size_t(d)), lanes()));
            blocked_weights_.insert(read.producer);
        }
    }
}

bool SketchSampler::reads_blocked_weight(const StageInfo &stage) const {
    return std::any_of(stage.reads.begin(), stage.reads.end(), [&](const StageRead &r) { return blocked_weights_.count(r.producer) > 0; });
}

void SketchSampler::schedule_fused_reduction(ActionList &out, const FuncInfo &f, const std::vector<int64_t> &region,
                                             const std::string &at, const FuncInfo *consumer) {
    const FuncInfo &output = consumer ? *consumer : workload_->func_infos.back();
    out.push_back(Action::compute_at(f.name, output.name, at));
    std::vector<int64_t> extents;
    for (const LoopDim &d : f.dims) {
        int64_t e = d.extent;
        for (size_t i = 0; i < output.dims.size(); i++)
            if (output.dims[i].name == d.name) e = std::min(e, region[i]);
        extents.push_back(e);
    }
    const size_t v = vector_index(f, extents);
    vectorize_reduction_func(out, f, extents, v);
    if (!f.dims.empty()) block_weights(out, f, f.dims[v].name, extents[v]);
    for (size_t s = 1; s < f.stages.size(); s++)
        if (!rfactor_row_reduction(out, f.stages[s], false)) tile_update(out, f.stages[s], extents, v, false);
    if (!f.dims.empty()) pack_inputs(out, f, f.dims[v].name, extents[v], at);
}

void SketchSampler::schedule_root_reduction(ActionList &out, const FuncInfo &f) {
    out.push_back(Action::compute_root(f.name));
    std::vector<int64_t> extents;
    for (const LoopDim &d : f.dims) extents.push_back(d.extent);
    const size_t v = vector_index(f, extents);
    if (!f.dims.empty()) {
        vectorize_reduction_func(out, f, extents, v);
        // The outermost dim in parallel (its outer piece when it is the one split into vectors).
        const std::string last = v + 1 == f.dims.size() ? split_name(f.dims.back().name, 1, 0) : f.dims.back().name;
        if (f.dims.size() > 1) parallelize(out, f.name, last);
        block_weights(out, f, f.dims[v].name, extents[v]);
    }
    for (size_t s = 1; s < f.stages.size(); s++)
        if (!rfactor_row_reduction(out, f.stages[s], true)) tile_update(out, f.stages[s], extents, v, true);
    if (!f.dims.empty()) pack_inputs(out, f, f.dims[v].name, extents[v], "");
}

SketchSampler::Level SketchSampler::schedule_elementwise(ActionList &out, const FuncInfo &f, Level allowed, const std::string &at) {
    const FuncInfo &output = workload_->func_infos.back();
    if (chance(DecisionKind::ComputeLocation, params_.p_inline_elementwise)) return allowed;  // always-inline rule
    const bool in_loop = chance(DecisionKind::ComputeLocation, 0.5) && allowed != Level::Root;
    if (in_loop) {
        out.push_back(Action::compute_at(f.name, output.name, at));
    } else {
        out.push_back(Action::compute_root(f.name));
        if (f.dims.size() > 1) parallelize(out, f.name, root_parallel_dim(f));
    }
    if (!f.dims.empty()) vectorize_pure(out, f.name, f.dims[0], f.dims[0].extent);
    return in_loop ? allowed : Level::Root;
}

std::string SketchSampler::root_parallel_dim(const FuncInfo &f) const {
    // Up to space 6 the outermost dim, even a batch of one (a serial loop); from space 7 the outermost one
    // longer than 1 other than the vectorized innermost.
    if (params_.space >= 7)
        for (size_t i = f.dims.size(); i-- > 1;)
            if (f.dims[i].extent > 1) return f.dims[i].name;
    return f.dims.back().name;
}

ActionList SketchSampler::build() {
    ActionList out;
    std::vector<int64_t> tiles;
    std::string tile_loop;
    const int winograd_tile = params_.space >= 9 ? draw_algorithm() : 0;
    serial_ = params_.space >= 2 && chance(DecisionKind::Structure, params_.p_serial);
    blocked_weights_.clear();
    root_nests_.clear();
    choose_wide_vector_dim();
    tile_output(out, tiles, tile_loop);
    const auto loop_of = [&](Level l) { return l == Level::Tile ? tile_loop : parallel_loop_; };
    // Consumers first: a Func may live no deeper than its shallowest consumer (computed there, or inlined
    // into something that is); the output's tile is the deepest level.
    const auto &funcs = workload_->func_infos;
    std::map<std::string, Level> level = {{funcs.back().name, Level::Tile}};
    for (auto it = funcs.rbegin(); it != funcs.rend(); ++it) {
        const FuncInfo &f = *it;
        if (f.is_output) continue;
        Level allowed = Level::Tile;
        for (const std::string &c : f.consumers) allowed = std::min(allowed, level.count(c) ? level[c] : Level::Root);
        if (!f.constant_index_dims.empty()) {
            schedule_constant_indexed(out, f);
            level[f.name] = Level::Root;
        } else if (f.view && params_.space < 7) {
            level[f.name] = allowed;  // inlined, without a draw: spaces 1 to 6 sample as before views existed
        } else if (!f.has_reduction()) {
            level[f.name] = schedule_elementwise(out, f, allowed, loop_of(allowed));
        } else if (const RootNest *nest = root_nest_of_only_consumer(f)) {
            // (space 9) Its one consumer is a constant-tensor Func at the root: the reduction at the root, or
            // inside one of that consumer's outer loops (a block small enough to stay in cache), drawn alike.
            const uint32_t where = choose(DecisionKind::ComputeLocation, uint32_t(nest->loops.size() + 1));
            const FuncInfo *consumer = workload_->find_func(f.consumers.front());
            if (where == 0) schedule_root_reduction(out, f);
            else schedule_fused_reduction(out, f, nest->regions[where - 1], nest->loops[where - 1], consumer);
            level[f.name] = Level::Root;
        } else if (allowed == Level::Root || chance(DecisionKind::ComputeLocation, params_.p_root_reduction)) {
            schedule_root_reduction(out, f);
            level[f.name] = Level::Root;
        } else {
            Level at = allowed;
            if (at == Level::Tile && params_.space >= 2 && parallel_loop_ != tile_loop &&
                chance(DecisionKind::ComputeLocation, params_.p_reduction_at_parallel_loop))
                at = Level::ParallelLoop;
            schedule_fused_reduction(out, f, at == Level::Tile ? tiles : parallel_region_, loop_of(at));
            level[f.name] = at;
        }
    }
    if (winograd_tile) {
        // The direct program's reduction is the one computed by Winograd; the action rebuilds the program: first.
        const auto reduction = std::find_if(direct_->func_infos.begin(), direct_->func_infos.end(), [](const FuncInfo &f) { return f.has_reduction(); });
        out.insert(out.begin(), Action::winograd(reduction->name, winograd_tile));
    }
    return out;
}

ActionList SketchSampler::sample_valid() {
    std::string last_error;
    for (int i = 0; i < params_.max_tries; i++) {
        ActionList actions = draw();
        try {
            validate_actions(spec_, actions);
            return actions;
        } catch (const ScheduleError &e) {
            last_error = e.what();
        }
    }
    throw std::runtime_error("no valid schedule for " + spec_.canonical() + " in " + std::to_string(params_.max_tries) +
                             " draws; last error: " + last_error);
}

}  // namespace worldtune
