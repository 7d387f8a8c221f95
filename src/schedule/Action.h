// A schedule action: one Halide scheduling directive on one stage, a small value with a stable two-letter tag.
//
// The tags and their JSON form (one array per action; names are Halide's loop and Func names):
//   SP  ["SP", stage, dim, [l1, ..., ln], tail]   split `dim` into n+1 loops dim_0 (outermost) .. dim_n whose
//                                                  inner extents are l1..ln; tail: auto|guard|shift|round
//   RE  ["RE", stage, [inner, ..., outer]]         reorder loops (innermost first, as Halide's reorder)
//   FU  ["FU", stage, inner, outer, fused]         fuse two adjacent loops into one named `fused`
//   AN  ["AN", stage, dim, kind]                   annotate a loop: parallel|vectorize|unroll
//   CA  ["CA", func, consumer, dim]                compute `func` at loop `dim` of `consumer`'s last stage
//   SA  ["SA", func, consumer, dim]                store `func` at loop `dim` of `consumer`
//   CR  ["CR", func]                               compute `func` at the root
//   CI  ["CI", func]                               inline `func` into its consumers
//   RF  ["RF", stage, rvar, var]                   rfactor an update: `rvar` becomes pure `var` of a new Func
//                                                  named "<func>_rf" (the reduction over the rest stays)
//   CH  ["CH", func, consumer]                     cache `func` (a Func or an input) in a wrapper Func
//                                                  (`in()`), named "<func>_in" for every consumer, or
//                                                  "<func>_in_<consumer>" for one; "" means every consumer
//   SO  ["SO", func, [inner, ..., outer]]          storage order of `func`'s pure dims, innermost first
//                                                  (reorder_storage): which loop may vectorize densely;
//                                                  on a weight input (dims "_0".."_n-1", the rest follow
//                                                  in order): the layout its caller passes it in, arranged
//                                                  once before the runs (stride constraints on the input)
//   BL  ["BL", input, dim, block]                 a weight input (dims "_0".."_n-1") stored in blocks of
//                                                  `block` along `dim` (InputBlocking in Workload.h: oneDNN's
//                                                  `OIhw16o`-style formats), arranged once by its caller before
//                                                  the runs; it rebuilds the program, so it comes before every
//                                                  action that is not a BL
//   WG  ["WG", func, m]                            compute reduction `func` (a convolution's "acc") by
//                                                  Winograd's F(m, 3), m = 2 or 4 (workload/Winograd.h;
//                                                  search space 9): the program is rebuilt with the
//                                                  Winograd stages and the weights passed transformed,
//                                                  arranged once by the caller; like BL it comes before
//                                                  every other action that is neither
// A stage is a Func name ("acc", its pure definition) or "<func>.u<i>" (update i).
//
// How to add an action kind:
//   1. Add a value to ActionKind and a row to the table in Action.cpp (tag, JSON reader and writer).
//   2. Apply it in Apply.cpp and print it in PrintHalide.cpp.
//   3. Add an apply test and a JSON round-trip test to tests/ScheduleTest.cpp.
#pragma once

#include "common/OneLineError.h"
#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace worldtune {

enum class ActionKind { Split, Reorder, Fuse, Annotate, ComputeAt, StoreAt, ComputeRoot, ComputeInline, RFactor, Cache, StorageOrder, BlockLayout, Winograd };
enum class TailKind { Auto, GuardWithIf, ShiftInwards, RoundUp };
enum class AnnotationKind { Parallel, Vectorize, Unroll };

/// Malformed action JSON: one line naming the problem.
struct ActionFormatError : OneLineError {
    using OneLineError::OneLineError;
};

struct Action {
    ActionKind kind = ActionKind::ComputeRoot;
    std::string stage;                ///< the stage (SP RE FU AN RF) or the Func acted on (CA SA CR CI CH SO)
    std::vector<std::string> dims;    ///< SP, AN, BL: [dim]; RE, SO: the order; FU: [inner, outer, fused];
                                      ///< CA, SA: [consumer dim]; RF: [rvar, new var]
    std::vector<int64_t> factors;     ///< SP: inner extents, outer to inner; BL: [block]; WG: [m]
    std::string consumer;             ///< CA, SA: the consumer Func; CH: one consumer or ""
    TailKind tail = TailKind::Auto;
    AnnotationKind annotation = AnnotationKind::Parallel;

    static Action split(std::string stage, std::string dim, std::vector<int64_t> factors, TailKind tail = TailKind::Auto);
    static Action reorder(std::string stage, std::vector<std::string> inner_to_outer);
    static Action fuse(std::string stage, std::string inner, std::string outer, std::string fused);
    static Action annotate(std::string stage, std::string dim, AnnotationKind kind);
    static Action compute_at(std::string func, std::string consumer, std::string dim);
    static Action store_at(std::string func, std::string consumer, std::string dim);
    static Action compute_root(std::string func);
    static Action compute_inline(std::string func);
    static Action rfactor(std::string stage, std::string rvar, std::string var);
    static Action cache(std::string func, std::string consumer = "");
    static Action storage_order(std::string func, std::vector<std::string> inner_to_outer);
    static Action block_layout(std::string input, std::string dim, int64_t block);
    static Action winograd(std::string func, int64_t tile);
    /// Whether the action rebuilds the program (BL, WG): it comes before every directive.
    bool rebuilds() const { return kind == ActionKind::BlockLayout || kind == ActionKind::Winograd; }

    /// The two-letter tag.
    const char *tag() const;
    /// The Func this action names (the stage's Func for stage actions).
    std::string func() const;
    /// The names of the loops `split` creates, outermost first: dim_0 .. dim_n.
    std::vector<std::string> split_names() const;
    /// The i-th of them (i = 0 the outermost), without building the others.
    std::string split_name(size_t i) const;
    /// The Func an RF or CH action creates.
    std::string created_func() const;

    nlohmann::json to_json() const;
    static Action from_json(const nlohmann::json &j);  ///< throws ActionFormatError
    /// One compact line, the JSON array text.
    std::string to_string() const { return to_json().dump(); }

    bool operator==(const Action &o) const { return to_json() == o.to_json(); }
    bool operator!=(const Action &o) const { return !(*this == o); }
};

using ActionList = std::vector<Action>;

/// The Winograd tile a schedule computes its convolution with (its `WG` action's), 0 for none.
int winograd_tile_of(const ActionList &actions);

nlohmann::json actions_to_json(const ActionList &actions);
ActionList actions_from_json(const nlohmann::json &j);  ///< throws ActionFormatError
/// Reads a file holding a JSON array of actions (or an object with an "actions" array).
ActionList read_actions_file(const std::string &path);   ///< throws ActionFormatError

const char *tail_name(TailKind t);
const char *annotation_name(AnnotationKind a);

}  // namespace worldtune
