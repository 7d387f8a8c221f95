#include "features/StaticFeatures.h"

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

// ---------------------------------------------------------------------------------------------------------
// Small helpers.

double log_scale(double x) { return std::log2(1.0 + std::max(0.0, x)); }

/// Expressions longer than this (in distinct nodes) stay behind their let name when indices are resolved.
constexpr int kMaxResolvedNodes = 400;
/// The stride recorded when it cannot be computed (a nonlinear index).
constexpr double kUnknownStride = double(1 << 20);
constexpr double kCacheLineBytes = 64;

/// Distinct nodes of an expression, counting stops a little past `cap`.
class NodeCounter : public IRGraphVisitor {
public:
    explicit NodeCounter(int cap) : cap_(cap) {}
    int count = 0;

protected:
    using IRGraphVisitor::include;
    void include(const Expr &e) override {
        if (count > cap_) return;
        count++;
        IRGraphVisitor::include(e);
    }

private:
    int cap_;
};

/// Names of the free variables of an expression.
class VarNames : public IRGraphVisitor {
public:
    std::set<std::string> names;

protected:
    using IRGraphVisitor::visit;
    void visit(const Variable *op) override { names.insert(op->name); }
};

std::set<std::string> var_names(const Expr &e) {
    VarNames v;
    e.accept(&v);
    return v.names;
}

struct Loop {
    std::string var;
    int64_t min = 0;
    int64_t extent = 1;
    ForType type = ForType::Serial;
    bool inexact = false;
};

/// The let bindings in scope: their resolved values (other lets substituted) and which loop variables they
/// depend on. Shadowed names are stacked.
class LetScope {
public:
    struct Binding {
        Expr original;             ///< the value as written
        Expr resolved;             ///< with outer lets substituted
        bool opaque;               ///< too large to substitute: the name stays in resolved expressions
        int depth;                 ///< loops enclosing the binding; -1 for a let inside an expression
        std::set<std::string> deps;  ///< loop variables the value depends on (through opaque lets too)
    };

    void push(const std::string &name, const Expr &value, int depth, const std::set<std::string> &loop_vars) {
        Binding b;
        b.original = value;
        b.resolved = resolve(value);
        NodeCounter counter(kMaxResolvedNodes);
        b.resolved.accept(&counter);
        b.opaque = counter.count > kMaxResolvedNodes;
        b.depth = depth;
        b.deps = loop_deps(b.resolved, loop_vars);
        auto &stack = table_[name];
        stack.push_back(std::move(b));
        refresh(name);
    }

    void pop(const std::string &name) {
        auto it = table_.find(name);
        if (it == table_.end() || it->second.empty()) return;
        it->second.pop_back();
        if (it->second.empty()) table_.erase(it);
        refresh(name);
    }

    const Binding *find(const std::string &name) const {
        auto it = table_.find(name);
        return it == table_.end() || it->second.empty() ? nullptr : &it->second.back();
    }

    /// Substitutes every (non-opaque) let in scope.
    Expr resolve(const Expr &e) const {
        if (substitutions_.empty()) return e;
        return substitute(substitutions_, e);
    }

    /// The loop variables a resolved expression depends on.
    std::set<std::string> loop_deps(const Expr &resolved, const std::set<std::string> &loop_vars) const {
        std::set<std::string> deps;
        for (const std::string &n : var_names(resolved)) {
            if (loop_vars.count(n)) deps.insert(n);
            if (const Binding *b = find(n)) deps.insert(b->deps.begin(), b->deps.end());
        }
        return deps;
    }

private:
    void refresh(const std::string &name) {
        const Binding *b = find(name);
        if (b && !b->opaque) {
            substitutions_[name] = b->resolved;
        } else {
            substitutions_.erase(name);
        }
    }

    std::map<std::string, std::vector<Binding>> table_;
    std::map<std::string, Expr> substitutions_;
};

// ---------------------------------------------------------------------------------------------------------
// Arithmetic of one statement.

enum CountKind {
    kCountFloatAddSub, kCountFloatMul, kCountFloatMad, kCountFloatDivMod, kCountFloatMinMax, kCountFloatCmpSelect,
    kCountFloatMath, kCountIntAddSub, kCountIntMul, kCountIntDivMod, kCountIntMinMax, kCountIntCmpSelect,
    kCountBoolBitwise, kCountCasts, kCountOtherCalls, kCountLoads, kCountStores, kCountKinds
};
static_assert(int(kCountKinds) == int(kFloatOpsPerIter), "count kinds map onto the first features");

struct RawAccess {
    std::string buffer;
    Expr index;  ///< resolved
    int elem_bytes = 4;
    int lanes = 1;
    bool is_store = false;
};

/// Counts the operations of a statement's expressions (weighted by lanes) and collects its loads. Lets bound
/// inside the innermost loop are computed every iteration: their values are counted where they are used.
class OpCounter : public IRVisitor {
public:
    OpCounter(LetScope &scope, int depth, const std::set<std::string> &loop_vars)
        : scope_(scope), depth_(depth), loop_vars_(loop_vars) {}

    double counts[kCountKinds] = {};
    std::vector<RawAccess> loads;

    using IRVisitor::visit;

protected:
    void add(CountKind k, const Type &t) { counts[k] += t.lanes(); }
    void arith(CountKind float_kind, CountKind int_kind, const Type &t) {
        if (t.is_float()) {
            add(float_kind, t);
        } else if (t.is_bool()) {
            add(kCountBoolBitwise, t);
        } else {
            add(int_kind, t);
        }
    }
    static bool is_float_mul(const Expr &e) {
        const Mul *m = e.as<Mul>();
        return m && m->type.is_float();
    }

    void visit(const Cast *op) override {
        add(kCountCasts, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Add *op) override {
        arith(kCountFloatAddSub, kCountIntAddSub, op->type);
        if (op->type.is_float() && (is_float_mul(op->a) || is_float_mul(op->b))) add(kCountFloatMad, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Sub *op) override {
        arith(kCountFloatAddSub, kCountIntAddSub, op->type);
        if (op->type.is_float() && (is_float_mul(op->a) || is_float_mul(op->b))) add(kCountFloatMad, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Mul *op) override {
        arith(kCountFloatMul, kCountIntMul, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Div *op) override {
        arith(kCountFloatDivMod, kCountIntDivMod, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Mod *op) override {
        arith(kCountFloatDivMod, kCountIntDivMod, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Min *op) override {
        arith(kCountFloatMinMax, kCountIntMinMax, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Max *op) override {
        arith(kCountFloatMinMax, kCountIntMinMax, op->type);
        IRVisitor::visit(op);
    }
    template<typename T>
    void compare(const T *op) {
        arith(kCountFloatCmpSelect, kCountIntCmpSelect, op->a.type());
        IRVisitor::visit(op);
    }
    void visit(const EQ *op) override { compare(op); }
    void visit(const NE *op) override { compare(op); }
    void visit(const LT *op) override { compare(op); }
    void visit(const LE *op) override { compare(op); }
    void visit(const GT *op) override { compare(op); }
    void visit(const GE *op) override { compare(op); }
    void visit(const And *op) override {
        add(kCountBoolBitwise, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Or *op) override {
        add(kCountBoolBitwise, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Not *op) override {
        add(kCountBoolBitwise, op->type);
        IRVisitor::visit(op);
    }
    void visit(const Select *op) override {
        arith(kCountFloatCmpSelect, kCountIntCmpSelect, op->type);
        IRVisitor::visit(op);
    }
    void visit(const VectorReduce *op) override {
        const Type &in = op->value.type();
        switch (op->op) {
        case VectorReduce::Add: arith(kCountFloatAddSub, kCountIntAddSub, in); break;
        case VectorReduce::Mul: arith(kCountFloatMul, kCountIntMul, in); break;
        case VectorReduce::Min:
        case VectorReduce::Max: arith(kCountFloatMinMax, kCountIntMinMax, in); break;
        default: add(kCountBoolBitwise, in); break;
        }
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        count_call(op);
        IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        add(kCountLoads, op->type);
        RawAccess a;
        a.buffer = op->name;
        a.index = scope_.resolve(op->index);
        a.elem_bytes = op->type.bytes();
        a.lanes = op->type.lanes();
        loads.push_back(std::move(a));
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        scope_.push(op->name, op->value, -1, loop_vars_);
        op->body.accept(this);
        scope_.pop(op->name);
    }
    void visit(const Variable *op) override {
        // A let bound inside the innermost loop is evaluated every iteration: count it where it is used.
        if (depth_ == 0) return;
        const LetScope::Binding *b = scope_.find(op->name);
        if (!b || b->depth != depth_ || !expanded_.insert(op->name).second) return;
        b->original.accept(this);
    }

private:
    void count_call(const Call *op) {
        static const std::set<std::string> free_intrinsics = {
            "likely", "likely_if_innermost", "promise_clamped", "unsafe_promise_clamped", "strict_float",
            "return_second", "bundle", "undef", "unreachable"};
        static const std::set<std::string> shifts_left = {"shift_left", "widening_shift_left"};
        static const std::set<std::string> shifts_right = {"shift_right", "rounding_shift_right",
                                                           "widening_shift_right", "mul_shift_right",
                                                           "rounding_mul_shift_right"};
        static const std::set<std::string> bitwise = {"bitwise_and", "bitwise_or", "bitwise_xor",
                                                      "bitwise_not", "count_leading_zeros",
                                                      "count_trailing_zeros", "popcount"};
        const std::string &n = op->name;
        if (free_intrinsics.count(n)) return;
        if (n == "abs" || n == "absd") return arith(kCountFloatMinMax, kCountIntMinMax, op->type);
        if (n == "if_then_else") return arith(kCountFloatCmpSelect, kCountIntCmpSelect, op->type);
        if (n == "reinterpret") return add(kCountCasts, op->type);
        if (shifts_left.count(n)) return add(kCountIntMul, op->type);
        if (shifts_right.count(n)) return add(kCountIntDivMod, op->type);
        if (bitwise.count(n)) return add(kCountBoolBitwise, op->type);
        if (n.rfind("widening_", 0) == 0 || n.rfind("saturating_", 0) == 0 || n.rfind("halving_", 0) == 0 ||
            n.rfind("rounding_halving_", 0) == 0)
            return arith(kCountFloatAddSub, kCountIntAddSub, op->type);
        if (op->call_type == Call::PureExtern && op->type.is_float()) return add(kCountFloatMath, op->type);
        add(kCountOtherCalls, op->type);
    }

    LetScope &scope_;
    int depth_;
    const std::set<std::string> &loop_vars_;
    std::set<std::string> expanded_;
};

// ---------------------------------------------------------------------------------------------------------
// Access patterns.

struct Stride {
    bool known = false;
    int64_t value = 0;
};

/// How one access moves with the vector lanes and with each enclosing loop.
struct AccessShape {
    int elem_bytes = 4;
    int lanes = 1;
    Stride lane;               ///< element distance between lanes (lanes > 1)
    std::vector<bool> uses;    ///< per loop, outermost first: the index depends on the loop's variable
    std::vector<Stride> coef;  ///< per loop: element distance between iterations
};

/// Footprint of an access over the lanes and the `inner` innermost loops.
struct Footprint {
    double bytes = 0;
    double lines = 0;
};

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

}  // namespace worldtune
