// A workload: the Halide pipeline a spec names, with deterministic names, fixed shapes and estimates,
// plus the facts the search needs about its stages (loop names, extents, producers and consumers).
#pragma once

#include "workload/Spec.h"

#include "Halide.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace worldtune {

/// One loop of a stage as Halide names it, with its extent in the unscheduled program.
struct LoopDim {
    std::string name;   ///< Halide's name: a pure Var ("x") or an RVar ("r$x")
    int64_t extent = 1;
    bool reduction = false;
};

/// How a stage reads one producer (an input or a Func): for each of the producer's dims (innermost in
/// memory first, in its default storage), the loop variables its index expression uses, and those of
/// them whose next value reads the next element. `I(x * 2 + r$x, y, c)` reads dim 0 with {x, r$x}, of
/// which r$x steps by one.
struct StageRead {
    std::string producer;
    bool is_input = true;  ///< an ImageParam (else a Func of the pipeline)
    std::vector<std::vector<std::string>> dim_vars;
    std::vector<std::vector<std::string>> unit_step_vars;
    /// The one dim that `var` indexes, with a step of one element (-1 when none, several, or another step).
    int dim_of(const std::string &var) const;
};

/// One definition of a Func: the pure one (`update == -1`, named "f") or update i (named "f.u<i>").
struct StageInfo {
    std::string name;
    std::string func;
    int update = -1;
    std::vector<LoopDim> dims;      ///< innermost first, as Halide orders loops by default
    std::vector<StageRead> reads;   ///< the inputs and Funcs it reads, one entry per distinct access
    bool has_reduction() const;
};

/// One Func of the pipeline. Inputs are ImageParams and are not listed here.
struct FuncInfo {
    std::string name;
    std::vector<LoopDim> dims;            ///< pure dims, innermost first, with the extents the output needs
    std::vector<StageInfo> stages;        ///< the pure definition, then each update
    std::vector<std::string> producers;   ///< Funcs and inputs this one reads
    std::vector<std::string> consumers;   ///< Funcs that read this one
    bool is_output = false;
    /// A strided view: a pure Func that reads its producer at a stride (a 1x1 convolution's subsampled
    /// input). Inlined unless a schedule computes it (search space 7 on); its consumers' reads are
    /// recorded through it, as the inlined program reads.
    bool view = false;
    /// Pure dims that index a small constant matrix (a Winograd transform's tile positions): a schedule
    /// unrolls them, so each coefficient folds to a constant (Ansor's rule for stages that read a
    /// constant tensor). Empty for most Funcs.
    std::vector<std::string> constant_index_dims;
    bool has_reduction() const;
    /// A pure Func with no update: a candidate for compute_inline.
    bool is_pure() const { return stages.size() == 1; }
};

/// What an input holds: data that flows between layers (its layout is the caller's), or a weight, known
/// before the program runs, which a schedule may ask for in another layout (an `SO` action on the input,
/// arranged once by the caller, outside the timed run, as oneDNN's preferred weight formats are).
enum class InputRole { Activation, Weight };

/// A weight stored in blocks along one of its dims, as oneDNN's blocked formats (`OIhw16o`) store output
/// channels: the element at logical coordinate c lives at stored coordinate (c[dim] % block, the other
/// dims in order, c[dim] / block), so that a loop over `dim` moving in aligned vectors of `block` lanes
/// reads contiguous floats, and the next element of any other dim is `block` floats away. Asked for by a
/// `BL` action (search space 8); the caller arranges it once, zero-padded to a multiple of `block`.
struct InputBlocking {
    int dim = -1;
    int block = 0;
    bool active() const { return dim >= 0; }
};

/// The stored shape (Halide order) of an input of logical `shape` under `blocking`.
std::vector<int> blocked_shape(const std::vector<int> &shape, const InputBlocking &blocking);

/// How a program is built from its spec: the choices a schedule makes before any directive, because they
/// change the algorithm or the inputs it reads (`BL` and `WG` actions, each of which rebuilds the program).
struct BuildChoices {
    std::map<std::string, InputBlocking> blockings;  ///< weights stored in blocks, by input name
    /// A convolution computed by Winograd's F(m, 3) with this output tile m (workload/Winograd.h; search
    /// space 9, `WG`), its weights transformed once by the caller; 0: the direct algorithm.
    int winograd_tile = 0;
};

/// A built pipeline. Directives mutate its Funcs in place: build a fresh Workload for every state.
class Workload {
public:
    WorkloadSpec spec;
    std::vector<Halide::ImageParam> inputs;           ///< in argument order
    std::vector<std::vector<int>> input_shapes;       ///< Halide order (innermost first)
    std::vector<InputRole> input_roles;               ///< per input
    /// Per input, the order in which its dims are laid out in memory, innermost first (Halide's
    /// storage_order); empty: dim order, dense (the default). Set by an `SO` action on a weight.
    std::vector<std::vector<int>> input_layouts;
    /// Per input, its blocking (inactive: none). Fixed when the workload is built: a `BL` action rebuilds it.
    std::vector<InputBlocking> input_blockings;
    /// Per input, the Winograd tile m its stored form is transformed for (winograd_weights: a 3x3 weight
    /// W(s, r, c, k) passed as U(k, c, xi, nu)); 0: stored as it is.
    std::vector<int> input_winograd_tiles;
    /// The Winograd tile of the algorithm this program computes (0: the op's direct algorithm).
    int winograd_tile = 0;
    Halide::Func output;
    std::vector<int> output_shape;                    ///< Halide order (innermost first)
    std::map<std::string, Halide::Func> funcs;        ///< every Func by name, the output included
    std::vector<FuncInfo> func_infos;                 ///< producers before consumers; the output last
    double flops = 0;                                 ///< floating-point operations of one run

    Halide::Pipeline pipeline() const { return Halide::Pipeline(output); }
    std::vector<Halide::Argument> arguments() const;
    const FuncInfo *find_func(const std::string &name) const;
    const StageInfo *find_stage(const std::string &stage_name) const;
    /// The Func or ImageParam with this name as a Func handle (inputs only through `in()` wrappers).
    bool is_input(const std::string &name) const;
    /// The index of the input with this name, or -1.
    int input_index(const std::string &name) const;
    bool is_weight(const std::string &name) const;
    /// Input i's strides (Halide order) in its layout: dense, innermost dim of the layout stride 1.
    std::vector<int> input_strides(size_t i) const { return layout_strides(input_shapes[i], input_layouts[i]); }
    /// The layout of input i that dims named "_<d>" give, innermost first; dims left out follow, in dim
    /// order. Throws std::invalid_argument for an unknown or repeated name.
    std::vector<int> input_layout_of(size_t i, const std::vector<std::string> &names) const;
    /// Strides (Halide order) of a dense buffer of `shape` laid out in `layout` (innermost first; empty: dim order).
    static std::vector<int> layout_strides(const std::vector<int> &shape, const std::vector<int> &layout);
    /// Binds `inputs` (logical coordinates, in their layouts) to the pipeline's inputs, each blocked input
    /// arranged in its blocks first: bind_stored_inputs(stored_inputs(inputs)).
    void bind_inputs(const std::vector<Halide::Buffer<float>> &inputs);
    /// `inputs` (logical coordinates) as the pipeline stores them: each blocked input arranged in its
    /// blocks, the others shared, not copied. Arrange once, bind many times.
    std::vector<Halide::Buffer<float>> stored_inputs(const std::vector<Halide::Buffer<float>> &inputs) const;
    /// Binds buffers already in the stored shapes (stored_inputs) to the pipeline's inputs.
    void bind_stored_inputs(const std::vector<Halide::Buffer<float>> &stored);
    /// The blockings of the inputs that have one, by input name.
    std::map<std::string, InputBlocking> blockings() const;
    /// What build_workload takes to build this program again: its blockings and its algorithm.
    BuildChoices choices() const { return BuildChoices{blockings(), winograd_tile}; }
};

/// The name Halide and worldtune give an input's (or a cache wrapper's) dim d: "_<d>".
std::string input_dim_name(size_t d);

/// `dense` (dim order, dense) copied into a buffer laid out in `layout` (innermost dim first; empty:
/// `dense` itself): the same value at every coordinate.
Halide::Buffer<float> arrange_in_layout(const Halide::Buffer<float> &dense, const std::vector<int> &layout);

/// `logical` (addressed by logical coordinates) arranged in `blocking`'s stored shape, zeros past its end.
Halide::Buffer<float> arrange_in_blocks(const Halide::Buffer<float> &logical, const InputBlocking &blocking);

/// Builds the pipeline of a spec as `choices` say (weights in blocks, a Winograd algorithm). Throws
/// SpecError for shapes the op cannot build, or cannot build so.
std::unique_ptr<Workload> build_workload(const WorkloadSpec &spec, const BuildChoices &choices = {});

inline std::unique_ptr<Workload> build_workload(const std::string &spec_text) {
    return build_workload(WorkloadSpec::parse(spec_text));
}

/// The output of the unscheduled program at one point (Halide order), in double precision,
/// computed by the op's plain C++ reference from the same inputs.
double reference_at(const Workload &w, const std::vector<Halide::Buffer<float>> &inputs, const std::vector<int> &coord);

}  // namespace worldtune
