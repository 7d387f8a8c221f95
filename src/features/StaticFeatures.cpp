#include "features/StaticFeatures.h"

#include "features/StatementAnalysis.h"
#include "lower/StateText.h"
#include "schedule/Apply.h"
#include "workload/Workload.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <mutex>
#include <set>

namespace worldtune {

using namespace Halide;
using namespace Halide::Internal;

namespace {

using namespace static_features;

// ---------------------------------------------------------------------------------------------------------
// Statements.

/// Per-buffer numbers of one statement, unscaled.
struct RawBuffer {
    std::string name;
    bool stored = false, read = false, local = false;
    double accesses = 0;
    Footprint inner, tile, total;
    double accessed_bytes = 0;
    AccessShape shape;  ///< of the first access (the store, for the stored buffer)
    double reuse_count = 1, reuse_dist_iters = 0, reuse_dist_bytes = 0;
    bool reuse_loop = false;
    std::vector<Expr> bases;  ///< indices seen, to tell copies that touch new elements from repeats
};

struct RawStatement {
    // Grouping of copies: same buffer, same enclosing loop, same guard branch, same arithmetic.
    const void *loop_node = nullptr;
    const void *guard_node = nullptr;
    std::string buffer;
    std::vector<double> signature;
    std::string loaded;  ///< names of the loaded buffers, in order

    std::vector<Loop> loops;
    double counts[kCountKinds] = {};
    int lanes = 1;
    bool predicated = false;
    int guards = 0;
    int copies = 1;
    bool is_update = false;
    double alloc_bytes_in_scope = 0;
    int allocs_in_scope = 0;
    bool stored_local = false, stored_output = false, stored_alloc_in_parallel = false;
    double stored_alloc_bytes = 0, stored_alloc_reuse = 0;
    std::vector<RawBuffer> buffers;  ///< in order of first access, the stored buffer first
};

struct AllocInfo {
    std::string name;
    double bytes = 0;
    int depth = 0;
    bool in_parallel = false;
};

class NestWalker : public IRVisitor {
public:
    std::vector<RawStatement> statements;
    using IRVisitor::visit;

protected:
    void visit(const For *op) override {
        Loop l;
        l.var = op->name;
        l.type = op->for_type;
        const Expr ext = simplify(scope_.resolve(op->extent));
        const Expr mn = simplify(scope_.resolve(op->min));
        if (const int64_t *c = as_const_int(ext)) {
            l.extent = std::max<int64_t>(*c, 0);
        } else {
            l.inexact = true;
            Expr b = find_constant_bound(ext, Direction::Upper, intervals_);
            const int64_t *cb = b.defined() ? as_const_int(b) : nullptr;
            l.extent = cb ? std::max<int64_t>(*cb, 1) : 1;
        }
        if (const int64_t *c = as_const_int(mn)) {
            l.min = *c;
        } else {
            Expr b = find_constant_bound(mn, Direction::Lower, intervals_);
            const int64_t *cb = b.defined() ? as_const_int(b) : nullptr;
            l.min = cb ? *cb : 0;
        }
        loops_.push_back(l);
        loop_nodes_.push_back(op);
        loop_vars_.insert(op->name);
        intervals_.push(op->name, Interval(make_const(Int(32), l.min), make_const(Int(32), l.min + std::max<int64_t>(l.extent, 1) - 1)));
        op->body.accept(this);
        intervals_.pop(op->name);
        loop_vars_.erase(op->name);
        loop_nodes_.pop_back();
        loops_.pop_back();
    }

    void visit(const LetStmt *op) override {
        scope_.push(op->name, op->value, int(loops_.size()), loop_vars_);
        op->body.accept(this);
        scope_.pop(op->name);
    }

    void visit(const Allocate *op) override {
        AllocInfo a;
        a.name = op->name;
        a.bytes = op->type.bytes() * op->type.lanes();
        for (const Expr &e : op->extents) {
            const Expr ext = simplify(scope_.resolve(e));
            const int64_t *c = as_const_int(ext);
            if (!c) {
                Expr b = find_constant_bound(ext, Direction::Upper, intervals_);
                c = b.defined() ? as_const_int(b) : nullptr;
            }
            a.bytes *= c ? double(std::max<int64_t>(*c, 1)) : 1.0;
        }
        a.depth = int(loops_.size());
        a.in_parallel = std::any_of(loops_.begin(), loops_.end(), [](const Loop &l) { return is_parallel(l.type); });
        allocs_.push_back(a);
        op->body.accept(this);
        allocs_.pop_back();
    }

    void visit(const IfThenElse *op) override {
        guards_.push_back(op);
        guard_depth_++;
        op->then_case.accept(this);
        guards_.back() = reinterpret_cast<const char *>(op) + 1;  // the else branch is its own context
        if (op->else_case.defined()) op->else_case.accept(this);
        guard_depth_--;
        guards_.pop_back();
    }

    void visit(const Store *op) override;

    // Expressions outside stores, asserts, prefetches: not statements.
    void visit(const Evaluate *) override {}
    void visit(const AssertStmt *) override {}
    void visit(const Prefetch *) override {}

private:
    const AllocInfo *find_alloc(const std::string &name) const {
        for (auto it = allocs_.rbegin(); it != allocs_.rend(); ++it)
            if (it->name == name) return &*it;
        return nullptr;
    }

    LetScope scope_;
    std::vector<Loop> loops_;
    std::vector<const For *> loop_nodes_;
    std::set<std::string> loop_vars_;
    Scope<Interval> intervals_;
    std::vector<AllocInfo> allocs_;
    std::vector<const void *> guards_;
    int guard_depth_ = 0;
};

void NestWalker::visit(const Store *op) {
    RawStatement st;
    const int depth = int(loops_.size());
    st.loop_node = depth ? loop_nodes_.back() : nullptr;
    st.guard_node = guards_.empty() ? nullptr : guards_.back();
    st.buffer = op->name;
    st.loops = loops_;
    st.lanes = op->value.type().lanes();
    st.predicated = op->predicate.defined() && !is_const_one(op->predicate);
    st.guards = guard_depth_;

    OpCounter counter(scope_, depth, loop_vars_);
    op->value.accept(&counter);
    op->index.accept(&counter);
    if (st.predicated) op->predicate.accept(&counter);
    counter.counts[kCountStores] += op->value.type().lanes();
    std::copy(std::begin(counter.counts), std::end(counter.counts), st.counts);
    // Copies differ in their index arithmetic (`+ 1`, `+ 2`, ...), not in what they compute or read.
    for (int k : {kCountFloatAddSub, kCountFloatMul, kCountFloatMad, kCountFloatDivMod, kCountFloatMinMax,
                  kCountFloatCmpSelect, kCountFloatMath, kCountLoads, kCountStores})
        st.signature.push_back(counter.counts[k]);
    st.signature.push_back(st.lanes);
    for (const RawAccess &a : counter.loads) st.loaded += a.buffer + ";";

    // Allocations.
    for (const AllocInfo &a : allocs_) {
        st.alloc_bytes_in_scope += a.bytes;
        st.allocs_in_scope++;
    }
    st.stored_output = op->param.defined();
    if (const AllocInfo *a = find_alloc(op->name)) {
        st.stored_local = true;
        st.stored_alloc_bytes = a->bytes;
        st.stored_alloc_in_parallel = a->in_parallel;
        double reuse = 1;
        for (int i = a->depth; i < depth; i++) reuse *= double(loops_[i].extent);
        st.stored_alloc_reuse = reuse;
    }

    // Accesses: the store, then the loads in order.
    std::vector<RawAccess> accesses;
    RawAccess store;
    store.buffer = op->name;
    store.index = scope_.resolve(op->index);
    store.elem_bytes = op->value.type().bytes();
    store.lanes = op->value.type().lanes();
    store.is_store = true;
    accesses.push_back(store);
    for (RawAccess &a : counter.loads) accesses.push_back(std::move(a));

    std::vector<AccessShape> shapes;
    for (const RawAccess &a : accesses) shapes.push_back(analyze_access(a, loops_, scope_, loop_vars_));
    double trips = 1;
    for (const Loop &l : loops_) trips *= double(l.extent);

    for (size_t k = 0; k < accesses.size(); k++) {
        const RawAccess &a = accesses[k];
        const AccessShape &s = shapes[k];
        auto it = std::find_if(st.buffers.begin(), st.buffers.end(), [&](const RawBuffer &b) { return b.name == a.buffer; });
        const bool first = it == st.buffers.end();
        if (first) {
            RawBuffer b;
            b.name = a.buffer;
            b.local = find_alloc(a.buffer) != nullptr;
            b.shape = s;
            st.buffers.push_back(b);
            it = st.buffers.end() - 1;
        }
        RawBuffer &b = *it;
        b.stored |= a.is_store;
        b.read |= !a.is_store;
        b.accesses += 1;
        b.accessed_bytes += double(a.elem_bytes) * a.lanes * trips;
        const Footprint inner = footprint(s, loops_, 1), tile = footprint(s, loops_, 3), total = footprint(s, loops_, depth);
        b.inner.bytes = std::max(b.inner.bytes, inner.bytes);
        b.inner.lines = std::max(b.inner.lines, inner.lines);
        b.tile.bytes = std::max(b.tile.bytes, tile.bytes);
        b.tile.lines = std::max(b.tile.lines, tile.lines);
        b.total.bytes = std::max(b.total.bytes, total.bytes);
        b.total.lines = std::max(b.total.lines, total.lines);
        if (first) b.bases.push_back(a.index);
    }
    for (const RawBuffer &b : st.buffers) st.is_update |= b.stored && b.read;

    // Reuse, from each buffer's first access.
    for (RawBuffer &b : st.buffers) {
        int reuse_at = -1;  // innermost loop that does not move the index
        for (int i = 0; i < depth; i++) {
            if (b.shape.uses[i] || loops_[i].extent <= 1) continue;
            b.reuse_count *= double(loops_[i].extent);
            reuse_at = i;
        }
        if (reuse_at < 0) continue;
        b.reuse_loop = true;
        double iters = 1;
        for (int i = reuse_at + 1; i < depth; i++) iters *= double(loops_[i].extent);
        b.reuse_dist_iters = iters;
        for (const AccessShape &s : shapes) b.reuse_dist_bytes += footprint(s, loops_, depth - 1 - reuse_at).bytes;
    }
    statements.push_back(std::move(st));
}

/// Folds a copy (same buffer, loop, guard and arithmetic) into its group.
void merge_copy(RawStatement &into, const RawStatement &copy) {
    into.copies += copy.copies;
    for (int k = 0; k < kCountKinds; k++) into.counts[k] += copy.counts[k];
    for (const RawBuffer &cb : copy.buffers) {
        auto it = std::find_if(into.buffers.begin(), into.buffers.end(), [&](const RawBuffer &b) { return b.name == cb.name; });
        if (it == into.buffers.end()) {
            into.buffers.push_back(cb);
            continue;
        }
        it->accesses += cb.accesses;
        it->accessed_bytes += cb.accessed_bytes;
        it->stored |= cb.stored;
        it->read |= cb.read;
        const bool repeat = std::any_of(it->bases.begin(), it->bases.end(), [&](const Expr &e) {
            return !cb.bases.empty() && equal(e, cb.bases.front());
        });
        if (repeat) continue;  // the copy touches the same elements again
        it->bases.insert(it->bases.end(), cb.bases.begin(), cb.bases.end());
        const std::pair<Footprint *, const Footprint *> parts[] = {
            {&it->inner, &cb.inner}, {&it->tile, &cb.tile}, {&it->total, &cb.total}};
        for (const auto &[dst, src] : parts) {
            dst->bytes += src->bytes;
            dst->lines += src->lines;
        }
    }
}

std::vector<float> encode(const RawStatement &st) {
    std::vector<float> f(kStaticFeatureLength, 0.0f);
    double trips = 1;
    for (const Loop &l : st.loops) trips *= double(l.extent);
    for (int k = 0; k < kCountKinds; k++) f[k] = float(log_scale(st.counts[k] * trips));
    const double float_ops = st.counts[kCountFloatAddSub] + st.counts[kCountFloatMul] + st.counts[kCountFloatDivMod] +
                             st.counts[kCountFloatMinMax] + st.counts[kCountFloatCmpSelect] + st.counts[kCountFloatMath];
    f[kFloatOpsPerIter] = float(log_scale(float_ops));
    double unique_bytes = 0;
    for (const RawBuffer &b : st.buffers) unique_bytes += b.total.bytes;
    f[kArithIntensity] = float(log_scale(float_ops * trips / std::max(1.0, unique_bytes)));

    const int depth = int(st.loops.size());
    f[kDepth] = float(depth);
    f[kTripCount] = float(log_scale(trips));
    for (int k = 0; k < 3 && k < depth; k++) f[kInner1Extent + k] = float(log_scale(double(st.loops[depth - 1 - k].extent)));
    f[kVectorLanes] = float(log_scale(st.lanes));
    f[kIsVectorized] = st.lanes > 1 ? 1.0f : 0.0f;
    f[kPredicatedStore] = st.predicated ? 1.0f : 0.0f;
    double parallel_product = 1, serial_product = 1, outside_parallel = 1, outer_parallel = 0;
    int parallel_loops = 0, serial_loops = 0;
    bool inexact = false;
    for (const Loop &l : st.loops) {
        inexact |= l.inexact;
        if (is_parallel(l.type)) {
            if (parallel_loops == 0) outer_parallel = double(l.extent);
            parallel_loops++;
            parallel_product *= double(l.extent);
        } else {
            serial_loops++;
            serial_product *= double(l.extent);
            if (parallel_loops == 0) outside_parallel *= double(l.extent);
        }
    }
    if (parallel_loops == 0) outside_parallel = 1;  // no parallel loop: nothing is outside one
    f[kParallelLoops] = float(parallel_loops);
    f[kParallelProduct] = float(log_scale(parallel_loops ? parallel_product : 0));
    f[kOuterParallelExtent] = float(log_scale(outer_parallel));
    f[kOutsideParallel] = float(log_scale(parallel_loops ? outside_parallel : 0));
    f[kInParallel] = parallel_loops ? 1.0f : 0.0f;
    f[kSerialLoops] = float(serial_loops);
    f[kSerialProduct] = float(log_scale(serial_loops ? serial_product : 0));
    f[kUnrollCopies] = float(log_scale(st.copies));
    f[kIsUnrolled] = st.copies > 1 ? 1.0f : 0.0f;
    f[kGuards] = float(st.guards);
    f[kInexactExtent] = inexact ? 1.0f : 0.0f;
    f[kIsUpdate] = st.is_update ? 1.0f : 0.0f;

    f[kAllocBytesInScope] = float(log_scale(st.alloc_bytes_in_scope));
    f[kAllocsInScope] = float(st.allocs_in_scope);
    f[kStoredIsLocal] = st.stored_local ? 1.0f : 0.0f;
    f[kStoredIsOutput] = st.stored_output ? 1.0f : 0.0f;
    f[kStoredAllocBytes] = float(log_scale(st.stored_alloc_bytes));
    f[kStoredAllocInParallel] = st.stored_alloc_in_parallel ? 1.0f : 0.0f;
    f[kStoredAllocReuse] = float(log_scale(st.stored_local ? st.stored_alloc_reuse : 0));

    // Buffers, largest footprint first; stable, so ties keep the order of first access.
    std::vector<const RawBuffer *> order;
    for (const RawBuffer &b : st.buffers) order.push_back(&b);
    std::stable_sort(order.begin(), order.end(), [](const RawBuffer *a, const RawBuffer *b) { return a->total.bytes > b->total.bytes; });
    for (int slot = 0; slot < kBufferSlots && slot < int(order.size()); slot++) {
        const RawBuffer &b = *order[slot];
        float *g = f.data() + kBufferBase + slot * kBufferFeatures;
        g[kBufPresent] = 1;
        g[kBufIsStored] = b.stored;
        g[kBufIsRead] = b.read;
        g[kBufIsLocal] = b.local;
        g[kBufAccesses] = float(log_scale(b.accesses));
        g[kBufInnerBytes] = float(log_scale(b.inner.bytes));
        g[kBufInnerLines] = float(log_scale(b.inner.lines));
        g[kBufTileBytes] = float(log_scale(b.tile.bytes));
        g[kBufTileLines] = float(log_scale(b.tile.lines));
        g[kBufTotalBytes] = float(log_scale(b.total.bytes));
        g[kBufTotalLines] = float(log_scale(b.total.lines));
        g[kBufAccessedBytes] = float(log_scale(b.accessed_bytes));
        if (depth > 0) {
            const Stride &s = b.shape.coef[depth - 1];
            const bool zero = s.known && s.value == 0;
            const bool one = s.known && std::llabs(s.value) == 1;
            g[kBufStrideZero] = zero;
            g[kBufStrideOne] = one;
            g[kBufStrideOther] = !zero && !one;
        }
        for (int i = depth - 1; i >= 0; i--) {
            if (!b.shape.uses[i]) continue;
            const Stride &s = b.shape.coef[i];
            g[kBufStrideLog] = float(log_scale(s.known ? double(std::llabs(s.value)) : kUnknownStride));
            break;
        }
        if (b.shape.lanes > 1) {
            const bool broadcast = b.shape.lane.known && b.shape.lane.value == 0;
            const bool dense = b.shape.lane.known && b.shape.lane.value == 1;
            g[kBufLaneBroadcast] = broadcast;
            g[kBufLaneDense] = dense;
            g[kBufLaneStrided] = !broadcast && !dense;
        }
        g[kBufReuseCount] = float(log_scale(b.reuse_count));
        g[kBufReuseDistIters] = float(log_scale(b.reuse_dist_iters));
        g[kBufReuseDistBytes] = float(log_scale(b.reuse_dist_bytes));
        g[kBufReuseLoop] = b.reuse_loop;
        g[kBufReuseReadWrite] = b.stored && b.read;
    }
    return f;
}

}  // namespace

std::string StaticFeatures::name(int i) {
    static const char *const statement_names[kBufferBase] = {
        "float_add_sub", "float_mul", "float_mad", "float_div_mod", "float_min_max", "float_cmp_select",
        "float_math", "int_add_sub", "int_mul", "int_div_mod", "int_min_max", "int_cmp_select", "bool_bitwise",
        "casts", "other_calls", "load_elems", "store_elems", "float_ops_per_iter", "arith_intensity", "depth",
        "trip_count", "inner1_extent", "inner2_extent", "inner3_extent", "vector_lanes", "is_vectorized",
        "predicated_store", "parallel_loops", "parallel_product", "outer_parallel_extent", "outside_parallel",
        "in_parallel", "serial_loops", "serial_product", "unroll_copies", "is_unrolled", "guards",
        "inexact_extent", "is_update", "alloc_bytes_in_scope", "allocs_in_scope", "stored_is_local",
        "stored_is_output", "stored_alloc_bytes", "stored_alloc_in_parallel", "stored_alloc_reuse"};
    static const char *const buffer_names[kBufferFeatures] = {
        "present", "is_stored", "is_read", "is_local", "accesses", "inner_bytes", "inner_lines", "tile_bytes",
        "tile_lines", "total_bytes", "total_lines", "accessed_bytes", "stride_zero", "stride_one", "stride_other",
        "stride_log", "lane_broadcast", "lane_dense", "lane_strided", "reuse_count", "reuse_dist_iters",
        "reuse_dist_bytes", "reuse_loop", "reuse_read_write"};
    if (i < 0 || i >= kStaticFeatureLength) return "";
    if (i < kBufferBase) return statement_names[i];
    const int slot = (i - kBufferBase) / kBufferFeatures, offset = (i - kBufferBase) % kBufferFeatures;
    return "buf" + std::to_string(slot) + "." + buffer_names[offset];
}

FeatureRows extract_features(const Stmt &stmt) {
    NestWalker walker;
    if (stmt.defined()) stmt.accept(&walker);
    // Group the copies an unrolled loop leaves; groups keep the order of their first store.
    std::vector<RawStatement> groups;
    for (RawStatement &st : walker.statements) {
        auto same = [&](const RawStatement &g) {
            return g.loop_node == st.loop_node && g.guard_node == st.guard_node && g.buffer == st.buffer &&
                   g.signature == st.signature && g.loaded == st.loaded;
        };
        auto it = std::find_if(groups.begin(), groups.end(), same);
        if (it == groups.end()) {
            groups.push_back(std::move(st));
        } else {
            merge_copy(*it, st);
        }
    }
    FeatureRows rows;
    for (const RawStatement &g : groups) rows.push_back(encode(g));
    return rows;
}

FeatureRows extract_features(const WorkloadSpec &spec, const ActionList &actions) {
    return extract_features(state_stmt(spec, actions));
}

void append_pooled(const FeatureRows &rows, std::vector<float> &out) {
    const size_t base = out.size();
    out.resize(base + kPooledLength, 0.0f);
    float *sum = &out[base], *max = sum + kStaticFeatureLength;
    for (const std::vector<float> &r : rows)
        for (int i = 0; i < kStaticFeatureLength; i++) {
            sum[i] += r[i];
            max[i] = std::max(max[i], r[i]);
        }
    out[base + 2 * kStaticFeatureLength] = float(rows.size());
}

}  // namespace worldtune
