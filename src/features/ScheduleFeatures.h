// Features of a schedule read from its actions alone, without lowering: the loop nest each stage ends up
// with, simulated directive by directive from the workload's stages (the extents the output needs).
//
// The features are keyed by stage and loop names, so their set depends on the workload; a learner that
// sees several workloads gives each key a column (FeatureColumns). Per stage S (a Func or "f.u<i>"):
//   S|loops              the number of loops
//   S|vec, S|vec=D       extent of the vectorized loop (0: none) and its original dim D
//   S|unroll, S|par      product of the unrolled loops' extents, and of the parallel ones
//   S|reg                vector extent times unrolled extent (the register block)
//   S|inner=D, S|inner   the innermost loop's original dim and its extent
//   S|in|D, S|out|D      extent of D's innermost and outermost piece
//   S|pos|D              position of D's innermost piece, 0 = innermost loop
// Per Func F (not the output):
//   F|loc                0 inlined (Halide's default), 1 at the root, 2 inside a consumer's loop
//   F|at=L               computed at the consumer's loop L
//   F|instances          how often F is computed: product of the consumer loops down to L (1 at the root)
//   F|store=D            D stored innermost (storage order)
// Loops of Funcs the schedule creates (cache wrappers, rfactor) are not simulated.
// With `with_access`, per stage S also how its loops walk the memory it reads and writes (StageRead: which
// loop vars index each dim of each read; the store indexes its Func's dims by their own vars):
//   S|vec_W, S|in_W      for W in bcast / contig / strided: how many reads the vectorized loop (vec_), and
//                        the innermost loop (in_), walk on one element, on consecutive elements, or
//                        otherwise; S|vec_store, S|in_store: the store's walk (0 bcast, 1 contig, 2 strided)
//   S|fp1 .. S|fp4       log2(1 + bytes) the reads and the store touch over the innermost 1..4 loops
//   S|fp_task            the same over the loops inside the outermost parallel loop (one task), or the
//                        whole nest without one
// A read's bytes over a region: 4 x the product over its dims of 1 + the sum of (extent - 1) of the vars
// indexing that dim, each var's extent the product of its pieces inside the region (fused loops count 1).
#pragma once

#include "features/ActionContext.h"
#include "features/TaskPrograms.h"
#include "schedule/Action.h"
#include "workload/Workload.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace worldtune {

using KeyedFeatures = std::vector<std::pair<std::string, float>>;

/// The keyed features of a schedule of a pipeline with these Funcs. Actions naming unknown loops are
/// skipped (the schedule is validated elsewhere).
KeyedFeatures schedule_features(const std::vector<FuncInfo> &funcs, const ActionList &actions, bool with_access = false);

/// Columns of how a schedule starts parallel work that mean the same in every workload, so a learner
/// can carry a machine's cost of starting parallel work from one workload to the next (keyed features
/// cannot: their keys are stage names). Appended in this order:
///   log2(1 + flops)                      the workload's arithmetic
///   log2(1 + launches)                   how often a parallel loop starts: per stage with a parallel loop,
///                                        its Func's instances times the extent of the loops outside it
///   log2(1 + tasks)                      launches times the parallel extent
///   log2(1 + flops / max(1, launches))   the work each start pays for
/// A parallel loop of extent 1 runs serially and counts as none.
constexpr int kParallelismFeatures = 4;
void append_parallelism_features(const std::vector<FuncInfo> &funcs, const ActionList &actions, double flops, std::vector<float> &row);

/// Per action, what it acts on (ActionContext.h), read from the loop nest its prefix built.
std::vector<ActionContext> action_contexts(const std::vector<FuncInfo> &funcs, const ActionList &actions);
/// Both in one simulation of the loop nest: the actions' contexts (into `contexts`) and the parallelism
/// features (appended to `parallelism`), as action_contexts and append_parallelism_features give them.
void read_schedule(const std::vector<FuncInfo> &funcs, const ActionList &actions, double flops, std::vector<ActionContext> &contexts,
                   std::vector<float> &parallelism);

class NestSimulator;

/// read_schedule for many candidates of one task (the scoring loop): the task's loop nests are built once
/// per program (TaskPrograms: a Winograd schedule's are the Winograd program's) and reset for each candidate
/// instead of rebuilt. Not shared between threads.
class ScheduleReader {
public:
    explicit ScheduleReader(const TaskPrograms &programs);
    ~ScheduleReader();
    ScheduleReader(const ScheduleReader &) = delete;
    ScheduleReader &operator=(const ScheduleReader &) = delete;
    void read(const ActionList &actions, double flops, std::vector<ActionContext> &contexts, std::vector<float> &parallelism);
    /// read() of a block of candidates, into contexts[j] and parallelism[j] (appended) for lists[j]: what each
    /// gets is exactly what read() gives it alone. `shared[j]` is how many first actions lists[j] has in common
    /// with lists[j - 1] (shared[0] is not read); the state after a common prefix is kept and the prefix
    /// simulated once, so a block sorted by actions reads fastest.
    void read_block(const std::vector<const ActionList *> &lists, const std::vector<size_t> &shared, double flops,
                    std::vector<std::vector<ActionContext>> &contexts, std::vector<std::vector<float>> &parallelism);

private:
    const TaskPrograms &programs_;
    struct Nests {
        std::unique_ptr<NestSimulator> initial, work;
        /// States after prefixes of the path read last, shallowest first (saved_depth: the prefix's length);
        /// the first saved_count are in use.
        std::vector<std::unique_ptr<NestSimulator>> saved;
        std::vector<size_t> saved_depth;
        size_t saved_count = 0;
    };
    std::map<const std::vector<FuncInfo> *, Nests> nests_;  ///< per program read so far

    Nests &nests_for(const std::vector<FuncInfo> &funcs);
    /// Keeps a copy of `sim`, the state after the first `depth` actions of the path being read.
    void save(Nests &nests, const NestSimulator &sim, size_t depth);
};

/// Gives every key seen a column, in first-seen order; rows are dense (a key a schedule lacks reads 0).
class FeatureColumns {
public:
    void add_keys(const KeyedFeatures &features);
    size_t size() const { return order_.size(); }
    /// Appends `width` values (the first `width` columns; keys beyond them are dropped).
    void append_row(const KeyedFeatures &features, size_t width, std::vector<float> &row) const;

private:
    std::unordered_map<std::string, size_t> column_;
    std::vector<std::string> order_;
};

}  // namespace worldtune
