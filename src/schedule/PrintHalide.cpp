#include "schedule/PrintHalide.h"

#include <set>
#include <sstream>
#include <stdexcept>

namespace worldtune {

namespace {

const char *kTailCode[] = {"TailStrategy::Auto", "TailStrategy::GuardWithIf", "TailStrategy::ShiftInwards",
                           "TailStrategy::RoundUp"};

std::string identifier(std::string name) {
    for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

/// C++ for a stage: "acc" -> acc, "acc.u0" -> acc.update(0).
std::string stage_code(const std::string &stage) {
    size_t dot = stage.find(".u");
    if (dot == std::string::npos) return identifier(stage);
    return identifier(stage.substr(0, dot)) + ".update(" + stage.substr(dot + 2) + ")";
}

class Printer {
public:
    explicit Printer(const Workload &w) : w_(w) {
        for (const FuncInfo &f : w.func_infos)
            for (const StageInfo &s : f.stages)
                for (const LoopDim &d : s.dims)
                    if (d.reduction) rvars_.insert(d.name);
    }

    std::string loop(const std::string &name) const {
        return (rvars_.count(name) ? "RVar(\"" : "Var(\"") + name + "\")";
    }

    std::string print(const Action &a) {
        std::ostringstream out;
        const std::string s = stage_code(a.stage);
        switch (a.kind) {
        case ActionKind::Split: {
            const bool rvar = rvars_.count(a.dims[0]) > 0;
            const std::vector<std::string> names = a.split_names();
            std::string current = a.dims[0];
            for (size_t i = 0; i < a.factors.size(); i++) {
                int64_t product = 1;
                for (size_t j = i; j < a.factors.size(); j++) product *= a.factors[j];
                const std::string inner = (i + 1 == a.factors.size()) ? names.back() : names[0] + "_r" + std::to_string(i + 1);
                if (rvar) rvars_.insert(names[i]), rvars_.insert(inner);
                out << s << ".split(" << loop(current) << ", " << loop(names[i]) << ", " << loop(inner) << ", " << product
                    << ", " << kTailCode[i == 0 ? int(a.tail) : 0] << ");";
                if (i + 1 < a.factors.size()) out << "\n";
                current = inner;
            }
            break;
        }
        case ActionKind::Reorder: {
            out << s << ".reorder(";
            for (size_t i = 0; i < a.dims.size(); i++) out << (i ? ", " : "") << loop(a.dims[i]);
            out << ");";
            break;
        }
        case ActionKind::Fuse:
            if (rvars_.count(a.dims[0]) || rvars_.count(a.dims[1])) rvars_.insert(a.dims[2]);
            out << s << ".fuse(" << loop(a.dims[0]) << ", " << loop(a.dims[1]) << ", " << loop(a.dims[2]) << ");";
            break;
        case ActionKind::Annotate:
            out << s << "." << annotation_name(a.annotation) << "(" << loop(a.dims[0]) << ");";
            break;
        case ActionKind::ComputeAt:
        case ActionKind::StoreAt:
            out << s << (a.kind == ActionKind::ComputeAt ? ".compute_at(" : ".store_at(") << identifier(a.consumer) << ", "
                << loop(a.dims[0]) << ");";
            break;
        case ActionKind::ComputeRoot: out << s << ".compute_root();"; break;
        case ActionKind::ComputeInline: out << s << ".compute_inline();"; break;
        case ActionKind::RFactor:
            out << "Func " << identifier(a.created_func()) << " = " << s << ".rfactor(" << loop(a.dims[0]) << ", Var(\""
                << a.dims[1] << "\"));";
            break;
        case ActionKind::Cache:
            out << "Func " << identifier(a.created_func()) << " = " << s << ".in("
                << (a.consumer.empty() ? "" : identifier(a.consumer)) << ");";
            break;
        case ActionKind::StorageOrder: {
            if (w_.is_input(a.stage)) return input_layout(a);
            out << s << ".reorder_storage(";
            for (size_t i = 0; i < a.dims.size(); i++) out << (i ? ", " : "") << "Var(\"" << a.dims[i] << "\")";
            out << ");";
            break;
        }
        case ActionKind::BlockLayout:
            out << "// pass " << a.stage << " stored in blocks of " << a.factors.at(0) << " along " << a.dims.at(0)
                << ": " << a.stage << "(c) at (c" << a.dims.at(0) << " % " << a.factors.at(0) << ", the other dims, c"
                << a.dims.at(0) << " / " << a.factors.at(0) << "), zero-padded (arranged once, before the runs;"
                << " the algorithm reads it so)";
            break;
        case ActionKind::Winograd: {
            const int64_t m = a.factors.at(0);
            out << "// compute " << a.stage << " by Winograd's F(" << m << ", 3): " << m << "x" << m
                << " output tiles, stages pad, wino_in, acc, wino_out, out (src/workload/ops/Conv2d.cpp); pass W"
                << " transformed, U(k, c, xi, nu) = sum over s, r of G[xi][s] G[nu][r] W(s, r, c, k), shape [K, C, "
                << m + 2 << ", " << m + 2 << "] innermost first (worldtune's winograd_weights; arranged once, before the runs)";
            break;
        }
        }
        return out.str();
    }

private:
    const Workload &w_;
    std::set<std::string> rvars_;

    /// A weight's layout: stride constraints on the input (the caller passes it arranged so).
    std::string input_layout(const Action &a) const {
        const size_t i = size_t(w_.input_index(a.stage));
        std::vector<int> strides;
        try {
            strides = Workload::layout_strides(w_.input_shapes[i], w_.input_layout_of(i, a.dims));
        } catch (const std::invalid_argument &e) {
            return "// " + std::string(e.what());
        }
        std::ostringstream out;
        for (size_t d = 0; d < strides.size(); d++) out << identifier(a.stage) << ".dim(" << d << ").set_stride(" << strides[d] << "); ";
        out << "// pass " << a.stage << " in this layout (arranged once, before the runs)";
        return out.str();
    }
};

}  // namespace

std::string print_halide(const Workload &w, const ActionList &actions) {
    std::ostringstream out;
    out << "// Schedule of " << w.spec.canonical() << " (" << actions.size() << " directives)\n";
    Printer printer(w);
    for (const Action &a : actions) out << printer.print(a) << "\n";
    return out.str();
}

}  // namespace worldtune
