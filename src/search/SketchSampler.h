// Random schedules from Ansor-like sketch rules, in Halide terms.
//
// A sketch fixes the structure of a schedule; random annotation fills in its numbers:
//   output tiling      split every loop of the output Func into (outer, inner) tiles, outer loops outermost,
//                      the outermost k outer loops fused into one parallel loop (k random: parallel grain),
//                      the innermost tile loop vectorized; when the innermost loop is shorter than a vector
//                      (a convolution's 7-wide rows) a decision may vectorize the first loop long enough
//                      instead (output channels), moved innermost, with the reductions' storage reordered
//                      so that loop is dense
//   fused reduction    "multi-level tiling with fusion of the consumer" / "cache write": a reduction Func
//                      is computed inside the output's tile and its update is tiled S R S R S
//                      (vectorized innermost pure loop, unrolled register block); in space 2 it may be
//                      computed once per iteration of the output's parallel loop instead, over the region
//                      that iteration covers (a block of whole rows: layernorm's and softmax's row
//                      statistics computed once per block, with the producers they read computed there too)
//   root reduction     a reduction computed at root and tiled S S R S R S on its own, with fused parallel
//                      outer loops; the output epilogue scheduled separately
//   elementwise        simple elementwise stages stay inlined (always-inline) or are computed at the
//                      output's tile or at root, vectorized along their innermost loop
//   unroll             random unrolling of small inner loops
//   weight layout      (space 3) a packed input that is a weight (a dense layer's or a convolution's) may
//                      instead be asked for in that layout (`SO` on the input): the caller arranges it once,
//                      before the runs, as oneDNN arranges weights in its preferred format, and the program
//                      reads it in place
//   packed input       (space 2) an input that a reduction reads with a stride along its vectorized loop
//                      (a dense layer's W[n][k] read along n, a convolution's OIhw weights read along the
//                      output channels) is copied per output tile, per iteration of the output's parallel
//                      loop, or once at the root, into a buffer
//                      that stores that dim innermost (Halide's `in()` wrapper with reorder_storage): the
//                      inner loops then read whole vectors (oneDNN's blocked weight formats, in Halide terms)
//   row reduction      (space 2) a reduction whose innermost loop is a long reduction over an input's
//                      contiguous dim (softmax, layernorm) may be rfactored: the reduction is split by 1, 2
//                      or 4 vectors, the inner piece becomes the pure dim `u` of a partial Func computed per
//                      row, vectorized (and unrolled: independent accumulators), then summed across `u`
//   serial             (space 2) a decision per schedule to leave every loop serial: for tiny ops, starting
//                      the thread pool costs more than the work
//   register tile      (space 2) the unrolled block of a reduction's update is sized to the target's vector
//                      register file: vectors × unrolled + vectors + 1 <= registers (accumulators, loaded
//                      vectors and one broadcast), instead of a fixed largest unroll
//   vector blocks      (space 4) an update's vectorized loop of several vectors is split into one vector,
//                      vectorized, and its vectors, unrolled beside it: with one other unrolled loop (a
//                      convolution's 7-wide row), vectors × row accumulators stay in registers (the hand
//                      tile of docs/results/hand-kernels-zen5); weights are packed more often
//   register fill      (space 5) a decision per update with a vectorized loop: its register tile fills the
//                      register file (one other pure loop unrolled as far as vectors × unrolled + vectors + 1
//                      <= registers allows, the other pure loops without a register piece), and its
//                      reductions are blocked small (a window whole, a longer reduction by a block of at
//                      most fill_reduction_block), so the weights one step reads stay in L1: the hand tile of
//                      docs/results/hand-kernels-zen5 as one decision instead of a chain of rare ones
//                      (space 6) only on updates that reduce over both a loop the rule keeps
//                      whole and one it blocks (a convolution's window and input channels)
//   strided view       (space 7) a view Func (FuncInfo::view: a 1x1 convolution's input subsampled at its
//                      stride) gets the elementwise decisions: computed at the output's tile or at the root,
//                      the reduction then reads a dense copy a stride² of the input's size; up to space 6 it
//                      stays inlined without a draw, so those spaces sample as before views existed; and
//                      an elementwise producer computed at the root runs its outermost loop longer than 1 in
//                      parallel (up to space 6 its outermost loop, a serial batch of one)
//   weight blocks      (space 8) a packed weight whose dim along the vector loop is a whole number of vectors
//                      may be asked for stored in blocks of one vector along that dim (`BL`, first in the
//                      list: it rebuilds the program), read in place: oneDNN's `OIhw16o`-style formats
//   Winograd           (space 9) a convolution with a Winograd form (a dense 3x3 NCHW window at stride 1) is
//                      computed by Winograd's F(2, 3) or F(4, 3) at p_winograd (`WG`, first in the list: it
//                      rebuilds the program with the transform stages, the weights passed transformed); the
//                      rules above then schedule the Winograd program's Funcs: its matrix products (acc) as a
//                      reduction, the padded input as an elementwise producer, the output as the output
//   constant tensor    (space 9) a Func that indexes a small constant matrix with some of its dims
//                      (FuncInfo::constant_index_dims: the Winograd transforms) is computed at the root with
//                      those dims unrolled inside its vectorized dim (one it reads densely from a producer's
//                      innermost dim, stored innermost; else its innermost dim), so every coefficient folds to
//                      a constant (Ansor's rule for stages that read a constant tensor), in parallel over its
//                      outermost other dim; a reduction it alone reads (Winograd's matrix products) is computed
//                      at the root or inside one of its outer loops, drawn alike, and tiled there as a fused
//                      reduction (its accumulators stay in a block small enough for the cache and registers)
//   read order         (space 10, the default) an output whose innermost dim steps through a Func it reads with another
//                      stride, while one of its outer dims (at least a vector long) steps through that Func's
//                      innermost dim (Winograd's output transform, stored by channel, read back into NCHW)
//                      may be vectorized along that outer dim at p_read_vector, like a wide vector: the loads
//                      are whole vectors and the stores scatter, instead of the reverse. Programs without such
//                      a read sample as in space 9
// Every random choice is recorded on a DecisionTape. Replaying a tape rebuilds its schedule; changing one
// decision (mutation) or splicing two tapes (crossover) gives a neighbour that is again an instance of a
// sketch: the evolutionary search works on tapes and never has to repair an action list.
// sample_valid() checks by lowering, so its callers get valid states only.
#pragma once

#include "schedule/Action.h"
#include "workload/Workload.h"

#include <map>
#include <memory>
#include <random>
#include <set>

namespace worldtune {

/// Every knob of random sampling, with its default.
struct SamplerParams {
    int space = 10;                  ///< the sketch rules: 1 = before search space v2 (no packed inputs, unroll
                                     ///< up to max_unroll), 2 = with packed inputs and register tiles,
                                     ///< 3 = and weights asked for in a packed layout, 4 = and vector blocks
                                     ///< with weights packed at p_pack_weight (the default from
                                     ///< docs/results/v4-picks-zen5 to register-fill-window-zen5), 5 = and the
                                     ///< register-fill rule,
                                     ///< 6 = the register-fill rule only on updates that reduce over a short
                                     ///< loop it keeps whole and a long one it blocks (a convolution's window
                                     ///< and input channels; not a depthwise window alone, nor one long
                                     ///< reduction: on the val list's records the rule lost there,
                                     ///< docs/results/register-fill-val-zen5); the default from
                                     ///< docs/results/register-fill-window-zen5 to space-v8-zen5,
                                     ///< 7 = and strided views computed (the elementwise decisions), root
                                     ///< elementwise producers parallel over a loop longer than 1,
                                     ///< 8 = and weights asked for in blocks of a vector (`BL`), the default
                                     ///< from docs/results/space-v8-zen5 to space-v10-val-xeon,
                                     ///< 9 = and the Winograd algorithm for dense 3x3 convolutions at stride 1
                                     ///< (`WG`) with the constant-tensor rule,
                                     ///< 10 = and the read-order rule (Winograd's output vectorized along
                                     ///< the channels it reads densely), the default since
                                     ///< docs/results/space-v10-val-xeon
    int vector_lanes = 0;            ///< float32 lanes of a vector; 0: the host target's natural width
    int vector_registers = 0;        ///< vector registers of the target; 0: the host's (32 with AVX-512, else 16)
    double p_pack_input = 0.5;       ///< (space 2) chance of packing an input read strided along the vector loop
    double p_pack_weight = 0.8;      ///< (space 4) p_pack_input for a weight (a dense layer's, a convolution's).
                                     ///< On the Zen 5's 104 training-split conv and dense workloads the best
                                     ///< packed random sample beat the best unpacked one on 83 (docs/results/
                                     ///< hand-kernels-zen5, `packing.py records`)
    double p_weight_layout = 0.5;    ///< (space 3) of a packed input that is a weight: chance of asking for it
                                     ///< in the packed layout instead of copying it inside the program
    double p_weight_block = 0.5;     ///< (space 8) of a packed weight whose dim along the vector loop is a
                                     ///< whole number of vectors: chance of asking for it stored in blocks of
                                     ///< a vector along that dim (oneDNN's `OIhw16o`), read in place
    double p_fill_whole_reduction = 0.5;  ///< (space 8) under the register-fill rule, of a reduction longer than
                                     ///< fill_reduction_block that reads a weight stored in blocks: chance of
                                     ///< keeping it whole inside the register tile (the weights stream)
    double p_winograd = 0.5;         ///< (space 9) of a convolution with a Winograd form: chance of computing it
                                     ///< by Winograd (F(2, 3) or F(4, 3), drawn alike). Not tuned: an even prior
    double p_rfactor = 0.5;          ///< (space 2) chance of rfactoring a long contiguous row reduction
    double p_serial = 0.1;           ///< (space 2) chance of a schedule without parallel loops
    double p_pack_at_root = 0.1;     ///< (space 2) of a packed input: chance of packing it once at the root
                                     ///< instead of inside the output's loops. 0.25 until the Xeon's training-
                                     ///< split records (random samples of 47 workloads, docs/results.md) showed
                                     ///< root packing rarely best (1 of 47) and half as fast as packing per
                                     ///< iteration of the parallel loop (median 0.29 against 0.52 of the best)
    double p_root_reduction = 0.3;   ///< chance of the root-reduction sketch instead of the fused one
    double p_reduction_at_parallel_loop = 0.3;  ///< (space 2) of a fused reduction: chance of computing it once
                                     ///< per iteration of the output's parallel loop rather than per tile
                                     ///< (only when the two loops differ). Random samples of 7 val
                                     ///< workloads: in the best schedule of 5 (docs/results.md, "Row blocks")
    double p_inline_elementwise = 0.6;  ///< chance that a simple elementwise producer stays inlined
    double p_read_vector = 0.5;      ///< (space 10) of an output the read-order rule applies to: chance of
                                     ///< vectorizing the dim it reads densely. Not tuned: an even prior
    double p_wide_vector = 0.8;      ///< when the output's innermost loop is shorter than a vector: chance
                                     ///< of vectorizing the first loop that is long enough instead
    double p_register_fill = 0.5;    ///< (spaces 5, 6) of an update with a vectorized loop: chance of the register-fill rule
    int fill_reduction_block = 4;    ///< (spaces 5, 6) largest reduction block under the register-fill rule (a
                                     ///< window up to it is taken whole). The hand tile's input-channel block
                                     ///< of 2 read 431 GFLOP/s, 4: 416, 8: 401, 16: 379 (hand-kernels-zen5)
    int max_tile = 128;              ///< largest tile extent drawn for a loop
    int max_vectors = 4;             ///< largest vectorized loop, in vectors (wider ones crash LLVM 14 on
                                     ///< strided row reductions and spill registers elsewhere)
    int max_unroll = 8;              ///< (space 1) largest loop extent the sampler unrolls
    int max_tries = 50;              ///< draws per valid sample before giving up
};

/// The sampler's settings for a named search space ("v1", "v2", "v3"); throws std::invalid_argument otherwise.
SamplerParams sampler_params_for_space(const std::string &name);
/// The space SamplerParams{} samples (its `space`), by name: what tune, compare and bench use unless told.
std::string default_search_space();
/// The names sampler_params_for_space accepts, newest last.
std::vector<std::string> search_space_names();

/// What a random decision of the sampler sets, so mutations can aim at one kind (Ansor's mutation rules).
enum class DecisionKind { TileSize, ParallelGrain, ComputeLocation, Unroll, Structure };
constexpr int kDecisionKinds = 5;

struct Decision {
    DecisionKind kind;
    uint32_t value;        ///< read modulo the number of choices when replayed
    uint32_t choices = 0;  ///< how many choices the decision had when recorded (0: not known)
};
using DecisionTape = std::vector<Decision>;

/// Every tape that differs from `tape` in one decision, set to another of its choices: all of them for a
/// decision of up to `max_choices` choices, the first and the last for a larger one (a yes/no chance, read
/// against a threshold). A neighbour replays into a sketch instance like any mutation; some neighbours may
/// build the same schedule.
std::vector<DecisionTape> one_decision_neighbours(const DecisionTape &tape, uint32_t max_choices = 64);

/// A sampled schedule with the decisions that made it.
struct SketchCandidate {
    DecisionTape tape;
    ActionList actions;
};

class SketchSampler {
public:
    SketchSampler(const WorkloadSpec &spec, SamplerParams params, uint64_t seed);

    /// One random schedule (not yet checked).
    ActionList draw() { return replay({}).actions; }
    /// The schedule of a tape; decisions past its end are drawn at random (and recorded).
    SketchCandidate replay(const DecisionTape &tape);
    /// One random schedule that applies and lowers; throws std::runtime_error after max_tries failures.
    ActionList sample_valid();

    /// The program of the spec as the op builds it (the direct algorithm), never scheduled.
    const Workload &workload() const { return *direct_; }
    std::mt19937_64 &rng() { return rng_; }

private:
    WorkloadSpec spec_;
    SamplerParams params_;
    std::mt19937_64 rng_;
    std::unique_ptr<Workload> direct_;    ///< read-only: the facts about stages, never scheduled
    /// (space 9) The Winograd forms of the spec, by tile (none when it has no Winograd form).
    std::map<int, std::unique_ptr<Workload>> winograd_forms_;
    const Workload *workload_ = nullptr;  ///< the program the schedule being built schedules (direct_ or a form)
    const DecisionTape *replaying_ = nullptr;  ///< the tape being replayed
    DecisionTape recording_;                   ///< the decisions of the schedule being built

    /// A choice in [0, n): the replayed decision when there is one of this kind, else a random one.
    uint32_t choose(DecisionKind kind, uint32_t n);
    /// True with probability p (a recorded decision as well).
    bool chance(DecisionKind kind, double p);
    ActionList build();
    int lanes() const;
    int registers() const;
    /// The tile extents a loop of `extent` may get: powers of two and divisors, at most `cap` (max_tile when 0);
    /// whole vectors for the vectorized loop when its extent allows.
    std::vector<int64_t> tile_choices(int64_t extent, bool vector_dim, int64_t cap) const;
    /// One of tile_choices, drawn.
    int64_t draw_tile(int64_t extent, bool vector_dim, int64_t cap = 0);
    /// The largest unrolled extent beside a vectorized loop of `vector_inner` that keeps its accumulators, the
    /// vectors loaded per step and one broadcast in the register file.
    int64_t register_tile_cap(int64_t vector_inner) const;
    /// The inner extent of a pure loop of an update's register tile (`vector_inner`: the vectorized loop's).
    int64_t draw_register_tile(int64_t extent, int64_t vector_inner);
    /// The largest such extent (the register-fill rule).
    int64_t filling_register_tile(int64_t extent, int64_t vector_inner) const;
    static constexpr size_t kNoFill = size_t(-1);
    /// Whether an update fills the register file (space 5, drawn; space 6 only where fill_fits_reduction):
    /// the pure loop it unrolls (pure_extents.size() when the vectors alone fill it), or kNoFill.
    size_t draw_register_fill(const StageInfo &stage, const std::vector<int64_t> &pure_extents, size_t vector_pure,
                              int64_t vector_inner);
    /// Whether the register-fill rule may fire on `stage` in this space: always in space 5; in space 6 only when
    /// the stage reduces over a loop the rule keeps whole (extent 2 to fill_reduction_block) and one it blocks.
    bool fill_fits_reduction(const StageInfo &stage) const;
    /// Packs the inputs a reduction stage reads strided along the loop `vector_var` (packed input rule).
    void pack_inputs(ActionList &out, const FuncInfo &f, const std::string &vector_var, int64_t vector_extent,
                     const std::string &tile_loop);
    /// (space 8) Draws, for each weight a reduction reads strided along `vector_var` whose dim there is a
    /// whole number of vectors, whether to ask for it stored in blocks of a vector (a BL action put first).
    void block_weights(ActionList &out, const FuncInfo &f, const std::string &vector_var, int64_t vector_extent);
    /// Whether `stage` reads a weight this sample stores in blocks.
    bool reads_blocked_weight(const StageInfo &stage) const;
    /// Schedules `stage` as a vectorized row reduction through rfactor when the rule applies and is drawn.
    bool rfactor_row_reduction(ActionList &out, const StageInfo &stage, bool at_root);
    /// Marks a loop parallel, unless this schedule was drawn serial.
    void parallelize(ActionList &out, const std::string &stage, const std::string &loop);
    bool serial_ = false;  ///< this schedule leaves every loop serial
    std::string parallel_loop_;  ///< the output's (fused) parallel loop in this schedule
    std::set<std::string> blocked_weights_;  ///< (space 8) the weights this schedule stores in blocks
    /// Per output dim, the extent one iteration of the parallel loop covers (the tile for dims fused into
    /// it, the whole extent for the others).
    std::vector<int64_t> parallel_region_;
    /// Where a producer is computed, outermost first: at the root, once per iteration of the output's
    /// parallel loop, or inside the output's tile. A producer may go no deeper than its shallowest consumer.
    enum class Level { Root, ParallelLoop, Tile };
    /// The output dim vectorized instead of a too-short innermost one, or (space 10) instead of one that
    /// reads its producer with a stride ("" none); drawn once per schedule.
    std::string wide_vector_dim_;
    bool vector_by_read_ = false;  ///< wide_vector_dim_ was drawn by the read-order rule (space 10)
    void choose_wide_vector_dim();
    /// (space 10) The read-order rule: see the list of rules above.
    void choose_read_vector_dim(const FuncInfo &f);
    /// Which of a Func's pure dims to vectorize, given their extents: the innermost one, or the wide one.
    size_t vector_index(const FuncInfo &f, const std::vector<int64_t> &extents) const;
    void tile_output(ActionList &out, std::vector<int64_t> &tiles, std::string &tile_loop);
    /// Schedules a reduction computed at loop `at` of the output, whose iterations cover `region` of it.
    /// `consumer`: the Func whose loop `at` is (the output when null); `region`: per dim of it, what one
    /// iteration of `at` covers.
    void schedule_fused_reduction(ActionList &out, const FuncInfo &f, const std::vector<int64_t> &region,
                                  const std::string &at, const FuncInfo *consumer = nullptr);
    void schedule_root_reduction(ActionList &out, const FuncInfo &f);
    /// Schedules a pure producer that may live as deep as `allowed` (`at`: the output's loop of that level);
    /// returns the level it ends up at (inlined into its consumers: `allowed`).
    Level schedule_elementwise(ActionList &out, const FuncInfo &f, Level allowed, const std::string &at);
    /// The dim a pure producer computed at the root runs in parallel (it has at least 2 dims).
    std::string root_parallel_dim(const FuncInfo &f) const;
    /// (space 9) Draws whether to compute the spec by Winograd: the tile (0: the direct algorithm), and
    /// points workload_ at that program.
    int draw_algorithm();
    /// (space 9) The constant-tensor rule: `f` at the root, its constant-index dims unrolled inside its
    /// vectorized dim, in parallel over its outermost other dim longer than 1.
    void schedule_constant_indexed(ActionList &out, const FuncInfo &f);
    /// (space 9) The loops of a constant-tensor Func's root nest that a producer may be computed in, outermost
    /// first (longer than 1, outside its constant-index loops, not its vector), and per loop what one of its
    /// iterations covers of each of the Func's dims.
    struct RootNest {
        std::vector<std::string> loops;
        std::vector<std::vector<int64_t>> regions;
    };
    std::map<std::string, RootNest> root_nests_;  ///< by Func, in the schedule being built
    void record_root_nest(const FuncInfo &f, const std::vector<std::string> &order, size_t v, bool vectorized);
    /// The root nest of `f`'s one consumer when it is a constant-tensor Func (space 9), else null.
    const RootNest *root_nest_of_only_consumer(const FuncInfo &f) const;
    void tile_update(ActionList &out, const StageInfo &stage, const std::vector<int64_t> &pure_extents, size_t vector_pure,
                     bool parallel_outer);
    /// Vectorizes f's pure definition along dim `v`; a dim other than the innermost is stored innermost.
    void vectorize_reduction_func(ActionList &out, const FuncInfo &f, const std::vector<int64_t> &extents, size_t v);
    void vectorize_pure(ActionList &out, const std::string &stage, const LoopDim &inner, int64_t extent);
};

}  // namespace worldtune
