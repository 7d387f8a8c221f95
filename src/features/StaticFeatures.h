// Ansor-style static features of a program state: one fixed-length vector per buffer-store statement of
// the lowered loop nest (arithmetic by kind, the loops around the store and their annotations, how each
// touched buffer is accessed, the allocations in scope), for the XGBoost cost model in StaticModel.
//
// What a "statement" is here. Features are read from the statement Halide produces after all of its
// lowering passes (the one StateText captures): vectorized loops are gone (their lanes are the vector width
// of the Store and Load nodes), unrolled loops are gone (their body appears once per iteration), buffers are
// flattened. So a row describes one Store node, or, when several Store nodes to the same buffer with the
// same arithmetic sit in the same loop body (the copies an unrolled loop leaves), the group of them: its
// counts add up over the copies and `kUnrollCopies` says how many there were. The final store of every stage
// (its pure definition and each update) is a Store node, so every stage has at least one row.
//
// Scaling: counts, extents, sizes and byte totals are log2(1 + x); flags are 0/1; a few small counts
// (depth, loops, guards) are raw. Extents that are not constants are bounded by their constant upper bound
// (kInexactExtent is then 1) or, when none can be found, taken as 1.
//
// Change the layout -> bump StaticFeatures::version(): saved models refuse other versions.
#pragma once

#include "schedule/Action.h"
#include "workload/Spec.h"

#include "Halide.h"

#include <string>
#include <vector>

namespace worldtune {

/// Index of each per-statement feature. Counts of operations are per execution of the whole program:
/// (operations in one iteration, each weighted by its vector lanes) x (trip count of the loops around).
enum StaticFeature : int {
    // Arithmetic, by kind (log2(1 + count)).
    kFloatAddSub = 0,      ///< float add and subtract
    kFloatMul,             ///< float multiply
    kFloatMad,             ///< float add/subtract with a multiply operand (a fusable multiply-add)
    kFloatDivMod,          ///< float divide and modulo
    kFloatMinMax,          ///< float min, max, abs
    kFloatCmpSelect,       ///< float comparisons and selects of float values
    kFloatMath,            ///< math calls: exp, log, sqrt, tanh, pow, sin, floor, ...
    kIntAddSub,            ///< integer add and subtract (mostly index arithmetic)
    kIntMul,               ///< integer multiply and shift-left
    kIntDivMod,            ///< integer divide, modulo, shift-right
    kIntMinMax,            ///< integer min, max, abs
    kIntCmpSelect,         ///< integer comparisons and selects of integer values
    kBoolBitwise,          ///< boolean and bitwise operations
    kCasts,                ///< casts and reinterprets
    kOtherCalls,           ///< other intrinsic and extern calls
    kLoadElems,            ///< elements loaded (all buffers)
    kStoreElems,           ///< elements stored
    kFloatOpsPerIter,      ///< float operations in one iteration of the innermost loop (all copies)
    kArithIntensity,       ///< float operations per unique byte touched by the statement, log2(1 + x)
    // The loop nest around the store.
    kDepth,                ///< number of enclosing loops (raw)
    kTripCount,            ///< product of the extents of all enclosing loops
    kInner1Extent,         ///< extent of the innermost enclosing loop (0 without loops)
    kInner2Extent,         ///< extent of the second innermost loop
    kInner3Extent,         ///< extent of the third innermost loop
    kVectorLanes,          ///< vector lanes of the stored value (1: scalar)
    kIsVectorized,         ///< the innermost loop was vectorized: the store writes a vector
    kPredicatedStore,      ///< the store has a predicate (a guarded vector tail)
    kParallelLoops,        ///< number of enclosing parallel loops (raw)
    kParallelProduct,      ///< product of the extents of the enclosing parallel loops
    kOuterParallelExtent,  ///< extent of the outermost enclosing parallel loop (0: none)
    kOutsideParallel,      ///< product of the extents of loops outside the outermost parallel loop
    kInParallel,           ///< some enclosing loop is parallel
    kSerialLoops,          ///< number of enclosing serial loops (raw)
    kSerialProduct,        ///< product of the extents of the enclosing serial loops
    kUnrollCopies,         ///< Store nodes merged into this row: copies left by unrolling (1: none)
    kIsUnrolled,           ///< more than one copy
    kGuards,               ///< enclosing if-statements (tail guards, loop partitions), raw
    kInexactExtent,        ///< some enclosing extent is not a constant and was bounded
    kIsUpdate,             ///< the statement reads the buffer it stores (an update / accumulation)
    // Allocations.
    kAllocBytesInScope,    ///< total bytes of the allocations enclosing the store
    kAllocsInScope,        ///< number of allocations enclosing the store (raw)
    kStoredIsLocal,        ///< the stored buffer is allocated inside the pipeline (not the output)
    kStoredIsOutput,       ///< the stored buffer is the pipeline's output
    kStoredAllocBytes,     ///< bytes of the stored buffer's allocation (0 for the output)
    kStoredAllocInParallel,  ///< the stored buffer is allocated inside a parallel loop (one per task)
    kStoredAllocReuse,     ///< product of the extents of the loops between the stored buffer's allocation
                           ///< and the store (how often a local buffer is refilled; 0 for the output)
    kBufferBase,           ///< first feature of the first buffer slot (see BufferFeature)
};

/// Features of one buffer the statement touches, at kBufferBase + slot * kBufferFeatures + offset. Up to
/// kBufferSlots buffers (the stored one and the loaded ones), sorted by unique bytes touched over the whole
/// nest, largest first (ties: first touched first); unused slots are all 0. "Unique bytes" and "cache
/// lines" estimate the footprint of the accesses over a set of loops from their strides (64-byte lines).
enum BufferFeature : int {
    kBufPresent = 0,       ///< the slot describes a buffer
    kBufIsStored,          ///< the statement stores to it
    kBufIsRead,            ///< the statement loads from it
    kBufIsLocal,           ///< allocated inside the pipeline (not an input or the output)
    kBufAccesses,          ///< accesses in one iteration (all copies), log2(1 + x)
    kBufInnerBytes,        ///< unique bytes touched by the vector lanes and the innermost loop
    kBufInnerLines,        ///< cache lines touched by the vector lanes and the innermost loop
    kBufTileBytes,         ///< unique bytes touched over the three innermost loops
    kBufTileLines,         ///< cache lines touched over the three innermost loops
    kBufTotalBytes,        ///< unique bytes touched over the whole nest
    kBufTotalLines,        ///< cache lines touched over the whole nest
    kBufAccessedBytes,     ///< bytes accessed over the whole nest, repeats included
    kBufStrideZero,        ///< the index does not change with the innermost loop
    kBufStrideOne,         ///< the index moves by one element per iteration of the innermost loop
    kBufStrideOther,       ///< any other (or unknown) stride in the innermost loop
    kBufStrideLog,         ///< log2(1 + |stride|) in elements, in the innermost loop that changes the index
    kBufLaneBroadcast,     ///< vector access with all lanes on one element
    kBufLaneDense,         ///< vector access on consecutive elements
    kBufLaneStrided,       ///< vector access with any other lane pattern (strided, gather)
    kBufReuseCount,        ///< product of the extents of loops whose variable the index does not use
    kBufReuseDistIters,    ///< iterations between two uses of one element (loops inside the innermost reuse loop)
    kBufReuseDistBytes,    ///< unique bytes all buffers of the statement touch between two such uses
    kBufReuseLoop,         ///< some loop reuses the elements (reuse count > 1)
    kBufReuseReadWrite,    ///< read and written by the statement (serial read-modify-write)
    kBufferFeatures,       ///< features per buffer slot
};

constexpr int kBufferSlots = 5;
constexpr int kStaticFeatureLength = kBufferBase + kBufferSlots * kBufferFeatures;

class StaticFeatures {
public:
    /// The layout's version: bump it when a feature changes meaning, order or scaling.
    static int version() { return 1; }
    static int length() { return kStaticFeatureLength; }
    /// A short name of feature i ("float_add_sub", "buf2.total_bytes"), for dumps and debugging.
    static std::string name(int i);
};

using FeatureRows = std::vector<std::vector<float>>;

/// The feature rows of a state: lowers it (ScheduleError when Halide refuses it), then reads the statement.
/// Safe to call from several threads at once. The same state gives the same rows in any process.
FeatureRows extract_features(const WorkloadSpec &spec, const ActionList &actions);

/// The feature rows of a lowered statement (rows in order of the stores' first appearance).
FeatureRows extract_features(const Halide::Internal::Stmt &stmt);

/// Values of a pooled state row (one fixed-length row per state): the sum and the maximum of each statement
/// feature over the state's statements, then the statement count.
constexpr int kPooledLength = 2 * kStaticFeatureLength + 1;
/// Appends the pooled row of a state's statements to `out`.
void append_pooled(const FeatureRows &rows, std::vector<float> &out);


}  // namespace worldtune
