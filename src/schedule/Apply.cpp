#include "schedule/Apply.h"

#include "workload/Winograd.h"

#include <algorithm>

namespace worldtune {

using namespace Halide;

std::string one_line(const std::string &text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

ScheduleError::ScheduleError(int index, const std::string &message)
    : std::runtime_error(index >= 0 ? "action " + std::to_string(index) + ": " + one_line(message) : one_line(message)),
      action_index(index), halide_message(one_line(message)) {}

namespace {

/// A refusal found by worldtune itself before Halide sees the directive.
struct Refusal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Applier {
public:
    explicit Applier(Workload &w) : w_(w) {}

    void apply(const Action &a) {
        if (a.kind == ActionKind::BlockLayout) return block_layout(a);
        if (a.kind == ActionKind::Winograd) return winograd(a);
        scheduled_ = true;
        switch (a.kind) {
        case ActionKind::Split: return split(a);
        case ActionKind::Reorder: {
            Stage s = stage(a.stage);
            std::vector<VarOrRVar> order;
            for (const std::string &d : a.dims) order.push_back(loop(s, a.stage, d));
            s.reorder(order);
            return;
        }
        case ActionKind::Fuse: {
            Stage s = stage(a.stage);
            s.fuse(loop(s, a.stage, a.dims[0]), loop(s, a.stage, a.dims[1]), VarOrRVar(a.dims[2], is_rvar(s, a.dims[0])));
            return;
        }
        case ActionKind::Annotate: {
            Stage s = stage(a.stage);
            VarOrRVar v = loop(s, a.stage, a.dims[0]);
            if (a.annotation == AnnotationKind::Parallel) s.parallel(v);
            if (a.annotation == AnnotationKind::Vectorize) s.vectorize(v);
            if (a.annotation == AnnotationKind::Unroll) s.unroll(v);
            return;
        }
        case ActionKind::ComputeAt:
        case ActionKind::StoreAt: {
            Func f = func(a.stage);
            Func consumer = func(a.consumer);
            Stage last = consumer.num_update_definitions() > 0 ? consumer.update(consumer.num_update_definitions() - 1)
                                                               : Stage(consumer);
            LoopLevel level(consumer, loop(last, a.consumer, a.dims[0]));
            if (a.kind == ActionKind::ComputeAt) f.compute_at(level);
            else f.store_at(level);
            return;
        }
        case ActionKind::ComputeRoot: func(a.stage).compute_root(); return;
        case ActionKind::ComputeInline: func(a.stage).compute_inline(); return;
        case ActionKind::RFactor: {
            Stage s = stage(a.stage);
            const std::string created = a.created_func();
            if (w_.funcs.count(created)) throw Refusal("Func " + created + " already exists");
            if (!is_rvar(s, a.dims[0])) throw Refusal("rfactor needs a reduction loop, '" + a.dims[0] + "' is pure");
            Func rf = s.rfactor(RVar(a.dims[0]), Var(a.dims[1]));
            w_.funcs[created] = rf;
            return;
        }
        case ActionKind::Cache: return cache(a);
        case ActionKind::StorageOrder: return storage_order(a);
        case ActionKind::BlockLayout:
        case ActionKind::Winograd: return;
        }
    }

private:
    Workload &w_;
    bool scheduled_ = false;  ///< an action that does not rebuild the program (BL, WG) has been applied

    Func func(const std::string &name) {
        auto it = w_.funcs.find(name);
        if (it == w_.funcs.end()) throw Refusal("no Func named '" + name + "'");
        return it->second;
    }

    Stage stage(const std::string &name) {
        size_t dot = name.find(".u");
        if (dot == std::string::npos) return Stage(func(name));
        Func f = func(name.substr(0, dot));
        int index = -1;
        try {
            index = std::stoi(name.substr(dot + 2));
        } catch (...) {
            throw Refusal("bad stage name '" + name + "'");
        }
        if (index < 0 || index >= f.num_update_definitions())
            throw Refusal("Func " + f.name() + " has no update " + name.substr(dot + 2));
        return f.update(index);
    }

    /// The stage's loop named `d`: Halide qualifies split loops ("n.n_0"), so match a trailing component.
    const Internal::Dim *find_dim(const Stage &s, const std::string &d) {
        for (const Internal::Dim &dim : s.get_schedule().dims()) {
            const std::string &v = dim.var;
            if (v == d || (v.size() > d.size() && v.compare(v.size() - d.size(), d.size(), d) == 0 &&
                           v[v.size() - d.size() - 1] == '.'))
                return &dim;
        }
        return nullptr;
    }

    bool is_rvar(const Stage &s, const std::string &d) {
        const Internal::Dim *dim = find_dim(s, d);
        return dim && dim->is_rvar();
    }

    VarOrRVar loop(const Stage &s, const std::string &stage_name, const std::string &d) {
        const Internal::Dim *dim = find_dim(s, d);
        if (!dim || d == Var::outermost().name()) {
            std::string names;
            for (const Internal::Dim &x : s.get_schedule().dims())
                if (x.var != Var::outermost().name()) names += (names.empty() ? "" : " ") + x.var.substr(x.var.rfind('.') + 1);
            throw Refusal("stage " + stage_name + " has no loop named '" + d + "' (loops: " + names + ")");
        }
        return VarOrRVar(d, dim->is_rvar());
    }

    void split(const Action &a) {
        Stage s = stage(a.stage);
        const std::string &dim = a.dims[0];
        const bool rvar = loop(s, a.stage, dim).is_rvar;
        const std::vector<std::string> names = a.split_names();
        std::string current = dim;
        const size_t n = a.factors.size();
        for (size_t i = 0; i < n; i++) {
            int64_t product = 1;
            for (size_t j = i; j < n; j++) product *= a.factors[j];
            const std::string inner = (i + 1 == n) ? names[n] : names[0] + "_r" + std::to_string(i + 1);
            // Only the outermost split can leave a tail; the inner ones divide exactly.
            TailStrategy tail = TailStrategy::Auto;
            if (i == 0) tail = std::vector<TailStrategy>{TailStrategy::Auto, TailStrategy::GuardWithIf,
                                                         TailStrategy::ShiftInwards, TailStrategy::RoundUp}[int(a.tail)];
            s.split(VarOrRVar(current, rvar), VarOrRVar(names[i], rvar), VarOrRVar(inner, rvar), int(product), tail);
            current = inner;
        }
    }

    void storage_order(const Action &a) {
        if (w_.is_input(a.stage)) return input_layout(a);
        Func f = func(a.stage);
        std::vector<std::string> args;
        for (const Var &v : f.args()) args.push_back(v.name());
        std::vector<Var> order;
        for (const std::string &d : a.dims) {
            if (std::find(args.begin(), args.end(), d) == args.end())
                throw Refusal("Func " + f.name() + " stores no dimension '" + d + "'");
            for (const Var &v : order)
                if (v.name() == d) throw Refusal("storage order names '" + d + "' twice");
            order.push_back(Var(d));
        }
        f.reorder_storage(order);
    }

    /// A weight's layout: the caller passes it with these strides (checked by the pipeline), so its
    /// loads follow them; the arranging happens once, outside the program.
    void input_layout(const Action &a) {
        const size_t i = size_t(w_.input_index(a.stage));
        if (!w_.is_weight(a.stage)) throw Refusal("input " + a.stage + " is not a weight: its layout is the caller's");
        if (!w_.input_layouts[i].empty()) throw Refusal("input " + a.stage + " already has a layout");
        if (w_.input_blockings[i].active()) throw Refusal("input " + a.stage + " is stored in blocks");
        std::vector<int> order;
        try {
            order = w_.input_layout_of(i, a.dims);
        } catch (const std::invalid_argument &e) {
            throw Refusal(e.what());
        }
        w_.input_layouts[i] = order;
        const std::vector<int> strides = w_.input_strides(i);
        for (size_t j = 0; j < strides.size(); j++) w_.inputs[i].dim(int(j)).set_stride(strides[j]);
    }

    /// A weight stored in blocks: the program reads it differently, so the workload is built again with
    /// the blocking (and the ones before it); nothing may have been scheduled yet.
    void block_layout(const Action &a) {
        if (scheduled_) throw Refusal("BL comes before every other action: it rebuilds the program");
        const int i = w_.input_index(a.stage);
        if (i < 0) throw Refusal("no input named '" + a.stage + "'");
        if (!w_.is_weight(a.stage)) throw Refusal("input " + a.stage + " is not a weight: its layout is the caller's");
        if (w_.input_blockings[size_t(i)].active()) throw Refusal("input " + a.stage + " is already stored in blocks");
        InputBlocking blocking;
        for (size_t d = 0; d < w_.input_shapes[size_t(i)].size(); d++)
            if (input_dim_name(d) == a.dims.at(0)) blocking.dim = int(d);
        if (blocking.dim < 0) throw Refusal("input " + a.stage + " has no dimension '" + a.dims.at(0) + "'");
        blocking.block = int(a.factors.at(0));
        BuildChoices choices = w_.choices();
        choices.blockings[a.stage] = blocking;
        rebuild(choices);
    }

    /// A convolution computed by Winograd's F(m, 3): the program is built again as the Winograd one.
    void winograd(const Action &a) {
        if (scheduled_) throw Refusal("WG comes before every action other than BL: it rebuilds the program");
        if (w_.winograd_tile) throw Refusal("the program is already a Winograd one");
        const FuncInfo *f = w_.find_func(a.stage);
        if (!f || !f->has_reduction()) throw Refusal("no reduction Func named '" + a.stage + "' to compute by Winograd");
        const int64_t m = a.factors.at(0);
        if (!is_winograd_tile(int(m))) throw Refusal("no Winograd transform F(" + std::to_string(m) + ", 3) (known: 2, 4)");
        BuildChoices choices = w_.choices();
        choices.winograd_tile = int(m);
        rebuild(choices);
    }

    void rebuild(const BuildChoices &choices) {
        const WorkloadSpec spec = w_.spec;
        try {
            w_ = std::move(*build_workload(spec, choices));
        } catch (const SpecError &e) {
            throw Refusal(e.what());
        }
    }

    void cache(const Action &a) {
        const std::string created = a.created_func();
        if (w_.funcs.count(created)) throw Refusal("Func " + created + " already exists");
        Func wrapper;
        if (w_.is_input(a.stage)) {
            ImageParam &input = w_.inputs[size_t(w_.input_index(a.stage))];
            wrapper = a.consumer.empty() ? input.in() : input.in(func(a.consumer));
        } else {
            Func f = func(a.stage);
            wrapper = a.consumer.empty() ? f.in() : f.in(func(a.consumer));
        }
        w_.funcs[created] = wrapper;
    }
};

}  // namespace

void apply_actions(Workload &w, const ActionList &actions) {
    Applier applier(w);
    for (size_t i = 0; i < actions.size(); i++) {
        try {
            applier.apply(actions[i]);
        } catch (const Refusal &e) {
            throw ScheduleError(int(i), e.what());
        } catch (const Halide::Error &e) {
            throw ScheduleError(int(i), e.what());
        } catch (const std::exception &e) {
            throw ScheduleError(int(i), e.what());
        }
    }
}

}  // namespace worldtune
