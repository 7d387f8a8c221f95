// The parts of a statement's analysis that StaticFeatures.cpp builds its rows from (internal to the features
// room): let bindings in scope, the operation counter of one statement, and access patterns (strides per
// loop and footprints). Halide IR in, unscaled numbers out; StaticFeatures.cpp groups and scales them.
#pragma once

#include "features/StaticFeatures.h"

#include "Halide.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace worldtune::static_features {

using namespace Halide;
using namespace Halide::Internal;

// ---------------------------------------------------------------------------------------------------------
// Small helpers.

inline double log_scale(double x) { return std::log2(1.0 + std::max(0.0, x)); }

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


/// Names of the free variables of an expression (VarNames).
std::set<std::string> var_names(const Expr &e);

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

Footprint footprint(const AccessShape &s, const std::vector<Loop> &loops, int inner);
/// The constant of an index difference; unknown when it is not a constant.
Stride constant_stride(const Expr &e);
/// How a resolved access moves with the lanes and with each enclosing loop.
AccessShape analyze_access(const RawAccess &a, const std::vector<Loop> &loops, const LetScope &scope,
                           const std::set<std::string> &loop_vars);

}  // namespace worldtune::static_features
