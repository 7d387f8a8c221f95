// The ops worldtune knows, each one an OpDef: its spec keys, how to build its pipeline, its reference.
//
// How to add an op:
//   1. Write src/workload/ops/<Name>.cpp defining `const OpDef &<name>_op()`: keys, validate, build,
//      reference, flops. Name every Func, Var and RDom explicitly (names must not depend on the process).
//   2. Declare it below and list it in all_ops() (OpRegistry.cpp).
//   3. tests/WorkloadTest.cpp checks every listed op against its reference on small shapes, including
//      non-divisible ones; add a shape of the new op to its table.
#pragma once

#include "workload/Spec.h"
#include "workload/Workload.h"

#include <functional>

namespace worldtune {

/// An input as an op reads it: by logical coordinates, which a blocked input maps to its stored ones
/// (InputBlocking). Converts to the ImageParam for everything else (boundary conditions, `in()`).
class InputRef {
public:
    InputRef(Halide::ImageParam param, InputBlocking blocking) : param_(std::move(param)), blocking_(blocking) {}
    template <typename... Args>
    Halide::Expr operator()(const Args &...coords) const {
        return at({Halide::Expr(coords)...});
    }
    /// The value at logical coordinates `coords` (Halide order).
    Halide::Expr at(std::vector<Halide::Expr> coords) const;
    operator Halide::ImageParam() const { return param_; }

private:
    Halide::ImageParam param_;
    InputBlocking blocking_;
};

/// Helps an op's build function register its Funcs and inputs.
class WorkloadBuilder {
public:
    /// `choices.blockings`: the weights to store in blocks, by input name (an op's weights read through
    /// InputRef); `choices.winograd_tile`: the algorithm asked for (the op reads it: winograd_tile()).
    explicit WorkloadBuilder(Workload &w, BuildChoices choices = {})
        : w_(w), blockings_(std::move(choices.blockings)), winograd_tile_(choices.winograd_tile) {}
    /// The Winograd tile asked for (0: the op's direct algorithm). An op that builds it passes its weight
    /// through transformed_weight; build_workload refuses a tile an op left unbuilt.
    int winograd_tile() const { return winograd_tile_; }
    /// A float32 input with `shape` in Halide order (innermost first), dense, min 0, with estimates.
    /// A weight (InputRole::Weight) may be asked for in another layout or in blocks by a schedule; read a
    /// weight through the returned InputRef, never through the ImageParam, so that blocks map right.
    InputRef input(const std::string &name, const std::vector<int> &shape, InputRole role = InputRole::Activation);
    /// A 3x3 weight of logical `shape` (s, r, c, k) that the program reads transformed for Winograd's
    /// F(m, 3), as U(k, c, xi, nu) (winograd_weights; the caller transforms it once). Builds the program as
    /// a Winograd one (Workload::winograd_tile = m). Read it through the returned ImageParam.
    Halide::ImageParam transformed_weight(const std::string &name, const std::vector<int> &shape, int m);
    /// Registers a Func; `extents` are its pure dims' extents (innermost first). Call producers first.
    /// `constant_index_dims`: FuncInfo::constant_index_dims.
    void func(const Halide::Func &f, const std::vector<int64_t> &extents, const std::vector<std::string> &constant_index_dims = {});
    /// Registers a strided view (FuncInfo::view): a pure Func the program inlines unless a schedule computes
    /// it. The reads of Funcs registered after it are recorded with it inlined.
    void view(const Halide::Func &f, const std::vector<int64_t> &extents);
    /// Registers the output (after every other Func): fixes its buffer shape and sets estimates.
    void output(const Halide::Func &f, const std::vector<int> &shape);

private:
    Workload &w_;
    std::map<std::string, InputBlocking> blockings_;
    int winograd_tile_ = 0;
    std::vector<Halide::Internal::Function> views_;
    std::vector<Halide::Expr> through_views(const std::vector<Halide::Expr> &values) const;
};

struct OpDef {
    std::string name;
    std::string summary;  ///< one line: what it computes and the meaning of its keys
    std::vector<SpecKey> keys;
    /// Cross-key checks (e.g. groups divides C); throws SpecError. May be empty.
    std::function<void(const WorkloadSpec &)> validate_keys;
    std::function<void(const WorkloadSpec &, WorkloadBuilder &)> build;
    /// Output at `coord` (Halide order) from the inputs, in plain C++.
    std::function<double(const WorkloadSpec &, const std::vector<Halide::Buffer<float>> &, const std::vector<int> &)> reference;
    std::function<double(const WorkloadSpec &)> flops;

    void validate(const WorkloadSpec &spec) const {
        if (validate_keys) validate_keys(spec);
    }
};

const std::vector<const OpDef *> &all_ops();
const OpDef *find_op(const std::string &name);

const OpDef &matmul_op();
const OpDef &batch_matmul_op();
const OpDef &dense_op();
const OpDef &conv2d_op();
const OpDef &pool2d_op();
const OpDef &softmax_op();
const OpDef &layernorm_op();

/// Activations shared by ops with an `act` key: none, relu, gelu (tanh approximation).
Halide::Expr apply_activation(const std::string &act, Halide::Expr x);
double reference_activation(const std::string &act, double x);
/// FLOPs of one activation evaluation (for GFLOP/s accounting).
double activation_flops(const std::string &act);

}  // namespace worldtune
