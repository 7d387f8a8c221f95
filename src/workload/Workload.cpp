#include "workload/Workload.h"
#include "workload/Winograd.h"

#include "workload/OpRegistry.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace worldtune {

using namespace Halide;

namespace {

/// Halide makes Func names unique in the process ("acc", "acc$1", ...); worldtune names Funcs without the counter.
std::string base_name(const std::string &name) {
    size_t dollar = name.rfind('$');
    if (dollar == std::string::npos || dollar + 1 == name.size()) return name;
    for (size_t i = dollar + 1; i < name.size(); i++)
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
    return name.substr(0, dollar);
}

}  // namespace

int StageRead::dim_of(const std::string &var) const {
    const auto has = [&](const std::vector<std::string> &names) { return std::find(names.begin(), names.end(), var) != names.end(); };
    int found = -1;
    for (size_t d = 0; d < dim_vars.size(); d++) {
        if (!has(dim_vars[d])) continue;
        if (found >= 0) return -1;
        found = int(d);
    }
    return found >= 0 && has(unit_step_vars[size_t(found)]) ? found : -1;
}

bool StageInfo::has_reduction() const {
    return std::any_of(dims.begin(), dims.end(), [](const LoopDim &d) { return d.reduction; });
}

bool FuncInfo::has_reduction() const {
    return std::any_of(stages.begin(), stages.end(), [](const StageInfo &s) { return s.has_reduction(); });
}

int Workload::input_index(const std::string &name) const {
    for (size_t i = 0; i < inputs.size(); i++)
        if (inputs[i].name() == name) return int(i);
    return -1;
}

bool Workload::is_weight(const std::string &name) const {
    const int i = input_index(name);
    return i >= 0 && input_roles[size_t(i)] == InputRole::Weight;
}

std::vector<int> Workload::layout_strides(const std::vector<int> &shape, const std::vector<int> &layout) {
    std::vector<int> order = layout;
    if (order.empty())
        for (size_t d = 0; d < shape.size(); d++) order.push_back(int(d));
    std::vector<int> strides(shape.size(), 0);
    int stride = 1;
    for (int d : order) {
        strides[size_t(d)] = stride;
        stride *= shape[size_t(d)];
    }
    return strides;
}

std::vector<int> Workload::input_layout_of(size_t i, const std::vector<std::string> &names) const {
    const size_t dims = input_shapes[i].size();
    std::vector<int> order;
    for (const std::string &name : names) {
        int d = -1;
        for (size_t j = 0; j < dims; j++)
            if (input_dim_name(j) == name) d = int(j);
        if (d < 0) throw std::invalid_argument("input " + inputs[i].name() + " has no dimension '" + name + "'");
        if (std::find(order.begin(), order.end(), d) != order.end())
            throw std::invalid_argument("storage order names '" + name + "' twice");
        order.push_back(d);
    }
    for (size_t j = 0; j < dims; j++)
        if (std::find(order.begin(), order.end(), int(j)) == order.end()) order.push_back(int(j));
    return order;
}

std::string input_dim_name(size_t d) { return "_" + std::to_string(d); }

Buffer<float> arrange_in_layout(const Buffer<float> &dense, const std::vector<int> &layout) {
    if (layout.empty()) return dense;
    std::vector<int> sizes;
    for (int d = 0; d < dense.dimensions(); d++) sizes.push_back(dense.dim(d).extent());
    Buffer<float> arranged(sizes, layout);
    arranged.copy_from(dense);
    return arranged;
}

std::vector<int> blocked_shape(const std::vector<int> &shape, const InputBlocking &blocking) {
    if (!blocking.active()) return shape;
    const int d = blocking.dim, b = blocking.block;
    std::vector<int> stored = {b};
    for (size_t i = 0; i < shape.size(); i++)
        if (int(i) != d) stored.push_back(shape[i]);
    stored.push_back((shape[size_t(d)] + b - 1) / b);
    return stored;
}

Buffer<float> arrange_in_blocks(const Buffer<float> &logical, const InputBlocking &blocking) {
    if (!blocking.active()) return logical;
    std::vector<int> shape;
    for (int d = 0; d < logical.dimensions(); d++) shape.push_back(logical.dim(d).extent());
    Buffer<float> stored(blocked_shape(shape, blocking));
    stored.fill(0.0f);
    const int dim = blocking.dim, b = blocking.block;
    std::vector<int> at(size_t(stored.dimensions()));
    logical.for_each_element([&](const int *c) {
        size_t j = 0;
        at[j++] = c[dim] % b;
        for (int d = 0; d < logical.dimensions(); d++)
            if (d != dim) at[j++] = c[d];
        at[j] = c[dim] / b;
        stored(at.data()) = logical(c);
    });
    return stored;
}

std::vector<Buffer<float>> Workload::stored_inputs(const std::vector<Buffer<float>> &buffers) const {
    std::vector<Buffer<float>> stored;
    for (size_t i = 0; i < inputs.size(); i++)
        stored.push_back(input_winograd_tiles[i] ? winograd_weights(buffers.at(i), input_winograd_tiles[i])
                                                 : arrange_in_blocks(buffers.at(i), input_blockings[i]));
    return stored;
}

void Workload::bind_stored_inputs(const std::vector<Buffer<float>> &stored) {
    for (size_t i = 0; i < inputs.size(); i++) inputs[i].set(stored.at(i));
}

void Workload::bind_inputs(const std::vector<Buffer<float>> &buffers) { bind_stored_inputs(stored_inputs(buffers)); }

std::map<std::string, InputBlocking> Workload::blockings() const {
    std::map<std::string, InputBlocking> out;
    for (size_t i = 0; i < inputs.size(); i++)
        if (input_blockings[i].active()) out[inputs[i].name()] = input_blockings[i];
    return out;
}

std::vector<Argument> Workload::arguments() const {
    std::vector<Argument> args;
    for (const ImageParam &p : inputs) args.push_back(p);
    return args;
}

const FuncInfo *Workload::find_func(const std::string &name) const {
    for (const FuncInfo &f : func_infos)
        if (f.name == name) return &f;
    return nullptr;
}

const StageInfo *Workload::find_stage(const std::string &stage_name) const {
    for (const FuncInfo &f : func_infos)
        for (const StageInfo &s : f.stages)
            if (s.name == stage_name) return &s;
    return nullptr;
}

bool Workload::is_input(const std::string &name) const { return input_index(name) >= 0; }

namespace {

/// Halide indexes a buffer with 32-bit integers: refuse shapes it cannot hold.
void check_buffer_size(const std::string &name, const std::vector<int> &shape) {
    int64_t elements = 1;
    for (int e : shape) elements *= std::max(1, e);
    if (elements >= (int64_t(1) << 31))
        throw SpecError("buffer " + name + " would hold " + std::to_string(elements) + " elements, more than Halide's 2^31 limit");
}

}  // namespace

namespace {

/// The loop variables an index expression uses, in order of appearance, each once.
class VariableNames : public Internal::IRVisitor {
public:
    std::vector<std::string> names;

private:
    using IRVisitor::visit;
    void visit(const Internal::Variable *v) override {
        if (std::find(names.begin(), names.end(), v->name) == names.end()) names.push_back(v->name);
    }
};

std::vector<std::string> variables_of(const Expr &e) {
    VariableNames finder;
    e.accept(&finder);
    return finder.names;
}

/// Whether index `e` grows by exactly one when `var` does.
bool steps_by_one(const Expr &e, const std::string &var) {
    const Expr v = Internal::Variable::make(Int(32), var);
    const Expr step = Internal::simplify(Internal::substitute(var, v + 1, e) - e);
    return Internal::is_const_one(step);
}

/// The distinct reads of inputs (calls to "<input>_im", Halide's wrapper of an ImageParam, or to the
/// input) and of the pipeline's other Funcs.
class StageReads : public Internal::IRVisitor {
public:
    StageReads(const std::vector<ImageParam> &inputs, const std::string &self) : inputs_(inputs), self_(self) {}
    std::vector<StageRead> reads;

private:
    const std::vector<ImageParam> &inputs_;
    std::string self_;
    using IRVisitor::visit;
    void visit(const Internal::Call *call) override {
        IRVisitor::visit(call);
        if (call->call_type != Internal::Call::Halide && call->call_type != Internal::Call::Image) return;
        StageRead read{base_name(call->name), true, {}, {}};
        const bool input = std::any_of(inputs_.begin(), inputs_.end(), [&](const ImageParam &p) {
            if (read.producer != p.name() + "_im" && read.producer != p.name()) return false;
            read.producer = p.name();
            return true;
        });
        read.is_input = input;
        if (read.producer == self_) return;
        for (const Expr &arg : call->args) {
            read.dim_vars.push_back(variables_of(arg));
            read.unit_step_vars.emplace_back();
            for (const std::string &v : read.dim_vars.back())
                if (steps_by_one(arg, v)) read.unit_step_vars.back().push_back(v);
        }
        const bool seen = std::any_of(reads.begin(), reads.end(), [&](const StageRead &r) {
            return r.producer == read.producer && r.dim_vars == read.dim_vars;
        });
        if (!seen) reads.push_back(read);
    }
};

std::vector<StageRead> stage_reads(const std::vector<Expr> &values, const std::vector<ImageParam> &inputs, const std::string &self) {
    StageReads finder(inputs, self);
    for (const Expr &value : values) value.accept(&finder);
    return finder.reads;
}

}  // namespace

InputRef WorkloadBuilder::input(const std::string &name, const std::vector<int> &shape, InputRole role) {
    check_buffer_size(name, shape);
    InputBlocking blocking;
    if (auto it = blockings_.find(name); it != blockings_.end()) {
        blocking = it->second;
        if (role != InputRole::Weight) throw SpecError("input " + name + " is not a weight: only a weight may be stored in blocks");
        if (blocking.dim < 0 || blocking.dim >= int(shape.size()) || blocking.block < 2)
            throw SpecError("input " + name + " cannot be blocked by " + std::to_string(blocking.block) + " along dim " + std::to_string(blocking.dim));
        blockings_.erase(it);
    }
    const std::vector<int> stored = blocked_shape(shape, blocking);
    check_buffer_size(name, stored);
    ImageParam p(Float(32), static_cast<int>(stored.size()), name);
    const std::vector<int> strides = Workload::layout_strides(stored, {});  // dense, in dim order
    for (size_t d = 0; d < stored.size(); d++) {
        p.dim(d).set_bounds(0, stored[d]).set_stride(strides[d]);
        p.dim(d).set_estimate(0, stored[d]);
    }
    w_.inputs.push_back(p);
    w_.input_shapes.push_back(shape);
    w_.input_roles.push_back(role);
    w_.input_layouts.emplace_back();
    w_.input_blockings.push_back(blocking);
    w_.input_winograd_tiles.push_back(0);
    return InputRef(p, blocking);
}

ImageParam WorkloadBuilder::transformed_weight(const std::string &name, const std::vector<int> &shape, int m) {
    if (!is_winograd_tile(m)) throw SpecError("no Winograd transform F(" + std::to_string(m) + ", 3) (known: 2, 4)");
    if (shape.size() != 4 || shape[0] != 3 || shape[1] != 3) throw SpecError("internal: a Winograd weight is 3x3 W(s, r, c, k)");
    if (blockings_.count(name)) throw SpecError("input " + name + " is transformed for Winograd: it cannot also be stored in blocks");
    InputRef ref = input(name, {shape[3], shape[2], m + 2, m + 2}, InputRole::Weight);
    w_.input_shapes.back() = shape;  // the caller's weights are the logical ones: it transforms them
    w_.input_winograd_tiles.back() = m;
    w_.winograd_tile = m;
    return ref;
}

Expr InputRef::at(std::vector<Expr> coords) const {
    if (!blocking_.active()) return param_(coords);
    const Expr c = coords[size_t(blocking_.dim)];
    std::vector<Expr> stored = {c % blocking_.block};
    for (size_t d = 0; d < coords.size(); d++)
        if (int(d) != blocking_.dim) stored.push_back(coords[d]);
    stored.push_back(c / blocking_.block);
    return param_(stored);
}

void WorkloadBuilder::func(const Func &f, const std::vector<int64_t> &extents, const std::vector<std::string> &constant_index_dims) {
    FuncInfo info;
    info.name = base_name(f.name());
    info.constant_index_dims = constant_index_dims;
    std::vector<Var> args = f.args();
    if (args.size() != extents.size())
        throw SpecError("internal: Func " + f.name() + " has " + std::to_string(args.size()) + " dims but " +
                        std::to_string(extents.size()) + " extents");
    for (size_t i = 0; i < args.size(); i++) info.dims.push_back({args[i].name(), extents[i], false});

    StageInfo pure{info.name, info.name, -1, info.dims, stage_reads(through_views(f.values().as_vector()), w_.inputs, base_name(f.name()))};
    info.stages.push_back(pure);
    for (int u = 0; u < f.num_update_definitions(); u++) {
        StageInfo s{info.name + ".u" + std::to_string(u), info.name, u, {}, {}};
        s.reads = stage_reads(through_views(f.update_values(u).as_vector()), w_.inputs, base_name(f.name()));
        for (const Internal::ReductionVariable &r : f.function().update(u).schedule().rvars()) {
            const int64_t *extent = Internal::as_const_int(simplify(r.extent));
            if (!extent) throw SpecError("internal: reduction " + r.var + " of " + f.name() + " has no constant extent");
            s.dims.push_back({r.var, *extent, true});
        }
        // Pure vars that the update writes keep their place outside the reduction loops.
        for (const Expr &arg : f.update_args(u))
            if (const Internal::Variable *v = arg.as<Internal::Variable>())
                for (const LoopDim &d : info.dims)
                    if (d.name == v->name) s.dims.push_back(d);
        info.stages.push_back(s);
    }
    for (const auto &call : Internal::find_direct_calls(f.function())) {
        // An ImageParam is called through Halide's wrapper Func "<input>_im": name the input itself.
        std::string producer_name = base_name(call.first);
        for (const ImageParam &p : w_.inputs)
            if (producer_name == p.name() + "_im") producer_name = p.name();
        if (producer_name == info.name) continue;
        info.producers.push_back(producer_name);
        for (FuncInfo &producer : w_.func_infos)
            if (producer.name == producer_name) producer.consumers.push_back(info.name);
    }
    w_.funcs[info.name] = f;
    w_.func_infos.push_back(info);
}

void WorkloadBuilder::view(const Func &f, const std::vector<int64_t> &extents) {
    if (f.num_update_definitions() > 0) throw SpecError("internal: view " + f.name() + " has an update");
    func(f, extents);
    w_.func_infos.back().view = true;
    views_.push_back(f.function());
}

namespace {

/// Calls to a pure Func replaced by its value at the call's arguments (the program with it inlined).
class InlineCalls : public Internal::IRMutator {
public:
    explicit InlineCalls(const Internal::Function &f) : f_(f) {}

private:
    const Internal::Function &f_;
    using IRMutator::visit;
    Expr visit(const Internal::Call *call) override {
        if (call->call_type != Internal::Call::Halide || call->name != f_.name()) return IRMutator::visit(call);
        std::map<std::string, Expr> at;  // substituted all at once: an argument may name another's variable
        const std::vector<std::string> &args = f_.args();
        for (size_t i = 0; i < args.size(); i++) at[args[i]] = mutate(call->args[i]);
        return Internal::substitute(at, f_.values().at(size_t(call->value_index)));
    }
};

}  // namespace

std::vector<Expr> WorkloadBuilder::through_views(const std::vector<Expr> &values) const {
    std::vector<Expr> out = values;
    for (Expr &e : out)
        for (auto v = views_.rbegin(); v != views_.rend(); ++v) e = InlineCalls(*v).mutate(e);
    return out;
}

void WorkloadBuilder::output(const Func &f, const std::vector<int> &shape) {
    check_buffer_size(f.name(), shape);
    std::vector<int64_t> extents(shape.begin(), shape.end());
    func(f, extents);
    w_.func_infos.back().is_output = true;
    w_.output = f;
    w_.output_shape = shape;
    Func out = f;
    int stride = 1;
    for (size_t d = 0; d < shape.size(); d++) {
        out.output_buffer().dim(d).set_bounds(0, shape[d]).set_stride(stride);
        stride *= shape[d];
    }
    std::vector<Range> estimates;
    for (int s : shape) estimates.emplace_back(0, s);
    out.set_estimates(estimates);
}

std::unique_ptr<Workload> build_workload(const WorkloadSpec &spec, const BuildChoices &choices) {
    const OpDef *op = find_op(spec.op());
    if (!op) throw SpecError("unknown op '" + spec.op() + "'");
    auto w = std::make_unique<Workload>();
    w->spec = spec;
    WorkloadBuilder builder(*w, choices);
    op->build(spec, builder);
    for (const auto &named : choices.blockings)
        if (w->blockings().count(named.first) == 0) throw SpecError("no weight named " + named.first + " to store in blocks");
    if (w->winograd_tile != choices.winograd_tile)
        throw SpecError("no Winograd form of " + spec.canonical() + " (only a dense 3x3 NCHW convolution at stride 1 has one)");
    w->flops = op->flops(spec);
    if (!w->output.defined()) throw SpecError("internal: op " + spec.op() + " registered no output");
    return w;
}

double reference_at(const Workload &w, const std::vector<Buffer<float>> &inputs, const std::vector<int> &coord) {
    return find_op(w.spec.op())->reference(w.spec, inputs, coord);
}

}  // namespace worldtune
