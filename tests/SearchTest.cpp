// The search: sketch rules give valid states on every op kind, tapes replay exactly, mutation and
// crossover keep states valid or are rejected cleanly, the evolutionary search proposes unmeasured
// valid candidates, its batch pick skips near copies when asked to, the task scheduler allocates rounds
// sensibly (also running rounds of different tasks at once), and an interrupted tuning run resumes without measuring a state twice.
#include "TestSupport.h"

#include "lower/StateText.h"
#include "measure/OutputCheck.h"
#include "model/RandomModel.h"
#include "schedule/Apply.h"
#include "search/BatchSelection.h"
#include "search/Evolution.h"
#include "search/SketchSampler.h"
#include "search/TaskScheduler.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

using namespace worldtune;

namespace {

const char *kSpecs[] = {
    "matmul:M=33,N=40,K=17",
    "batch_matmul:B=2,M=16,N=24,K=8,trans_b=1",
    "dense:M=8,N=40,K=16,bias=1,act=gelu",
    "conv2d:N=1,C=8,H=9,W=9,K=8,R=3,S=3,pad=1,bias=1,act=relu",
    "conv2d:N=1,C=8,H=10,W=10,K=16,R=3,S=3,stride=2,pad=1,layout=NHWC",
    "conv2d:N=1,C=8,H=9,W=9,K=8,R=3,S=3,pad=1,groups=8",
    "conv2d:N=1,C=8,H=7,W=7,K=32,R=3,S=3,pad=1,bias=1,act=relu",
    "pool2d:N=1,C=4,H=9,W=9,R=3,S=3,stride=2,pad=1",
    "pool2d:N=1,C=4,H=8,W=8,R=2,S=2,stride=2,kind=avg",
    "softmax:M=12,N=40",
    "layernorm:M=12,N=40",
};

uint64_t test_seed() {
    static const uint64_t seed = std::random_device{}();
    return seed;
}

}  // namespace

TEST(Search, SketchRulesGiveValidStatesOnEveryOp) {
    std::cout << "seed " << test_seed() << "\n";
    for (const std::string &space : search_space_names()) {
        for (const char *text : kSpecs) {
            WorkloadSpec spec = WorkloadSpec::parse(text);
            SketchSampler sampler(spec, sampler_params_for_space(space), test_seed());
            int valid = 0;
            for (int i = 0; i < 12; i++) {
                ActionList a = sampler.draw();
                try {
                    validate_actions(spec, a);
                    valid++;
                } catch (const ScheduleError &) {
                }
            }
            EXPECT_GE(valid, 9) << space << " " << text << ": most raw draws must be valid";
            EXPECT_NO_THROW(sampler.sample_valid()) << space << " " << text;
        }
    }
    EXPECT_THROW(sampler_params_for_space("v0"), std::invalid_argument);
}

/// The packing actions (CH) of a schedule, and whether each stores the packed dim innermost.
int packed_inputs(const ActionList &actions, const std::string &expected_innermost) {
    int packed = 0;
    for (const Action &a : actions) {
        if (a.kind != ActionKind::Cache) continue;
        packed++;
        bool stored = false;
        for (const Action &b : actions)
            stored = stored || (b.kind == ActionKind::StorageOrder && b.stage == a.created_func() && b.dims[0] == expected_innermost);
        EXPECT_TRUE(stored) << actions_to_json(actions).dump();
    }
    return packed;
}

TEST(Search, InputsReadAlongTheVectorLoopArePacked) {
    // dense reads W(k, n) along the vectorized n with a stride of K: space 2 may pack W with n innermost
    // (p_pack_input 0.5), space 1 never does; a matmul's B(n, k) is read densely and is never packed.
    SamplerParams v2 = sampler_params_for_space("v2"), v1 = sampler_params_for_space("v1");
    v2.vector_lanes = v1.vector_lanes = 8;
    const WorkloadSpec dense = WorkloadSpec::parse("dense:M=8,N=64,K=16");
    SketchSampler packing(dense, v2, test_seed()), plain(dense, v1, test_seed());
    int packed = 0;
    for (int i = 0; i < 80; i++) {
        const ActionList a = packing.sample_valid();
        const int n = packed_inputs(a, "_1");
        packed += n > 0;
        if (n > 0) EXPECT_NE(state_text(dense, a).find("W_im_in_acc"), std::string::npos);  // Halide's name of the wrapper
        EXPECT_EQ(packed_inputs(plain.sample_valid(), "_1"), 0);
    }
    // About a third of the valid samples pack (W is read along n only when n is the vectorized loop and the
    // draw packs it; measured over 25 seeds: 20 to 34 of 80). Fewer than 6 of 80 is far outside that.
    EXPECT_GE(packed, 6);
    SketchSampler matmul(WorkloadSpec::parse("matmul:M=8,N=64,K=16"), v2, test_seed());
    for (int i = 0; i < 20; i++) EXPECT_EQ(packed_inputs(matmul.sample_valid(), ""), 0);
}

TEST(Search, Space3AsksForWeightsInThePackedLayout) {
    // Space 3 may ask for a weight read along the vector loop in the packed layout (`SO` on the input
    // itself) instead of copying it; space 2 never does, and an activation never gets a layout.
    SamplerParams v3 = sampler_params_for_space("v3"), v2 = sampler_params_for_space("v2");
    v3.vector_lanes = v2.vector_lanes = 8;
    const auto weight_layouts = [](const ActionList &actions) {
        int n = 0;
        for (const Action &a : actions) {
            if (a.kind != ActionKind::StorageOrder || (a.stage != "W" && a.stage != "X")) continue;
            EXPECT_EQ(a.stage, "W");
            EXPECT_EQ(a.dims[0], "_1") << "n innermost";
            n++;
        }
        return n;
    };
    const WorkloadSpec dense = WorkloadSpec::parse("dense:M=8,N=64,K=16");
    SketchSampler layouts(dense, v3, test_seed()), copies(dense, v2, test_seed());
    int asked = 0, measured = 0;
    for (int i = 0; i < 80; i++) {
        const ActionList a = layouts.sample_valid();
        asked += weight_layouts(a) > 0;
        EXPECT_EQ(weight_layouts(copies.sample_valid()), 0);
        if (measured < 2 && weight_layouts(a) > 0) {  // the sample runs and is right, with W passed in its layout
            measured++;
            std::unique_ptr<Workload> w = build_workload(dense);
            apply_actions(*w, a);
            const std::vector<Halide::Buffer<float>> inputs = random_inputs(*w, 3);
            EXPECT_EQ(inputs[size_t(w->input_index("W"))].dim(1).stride(), 1);
            for (size_t j = 0; j < inputs.size(); j++) w->inputs[j].set(inputs[j]);
            Halide::Buffer<float> out = w->pipeline().realize(w->output_shape, Halide::get_host_target());
            EXPECT_TRUE(check_output(*w, inputs, out, 1e-4, 1e-5, 3).ok) << actions_to_json(a).dump();
        }
    }
    // Half of the packed samples (about a third of all) use the layout: 10 to 17 of 80 expected; under 3 is far outside.
    EXPECT_GE(asked, 3);
    EXPECT_EQ(measured, 2);
}

/// A space's sampler settings with a fixed vector width (tests that must not depend on the host).
SamplerParams space_with_lanes(const std::string &space, int lanes) {
    SamplerParams p = sampler_params_for_space(space);
    p.vector_lanes = lanes;
    return p;
}

/// The update loops a schedule vectorizes, with the split factors that made each (empty: not split).
std::vector<std::vector<int64_t>> vectorized_update_splits(const ActionList &actions) {
    std::vector<std::vector<int64_t>> found;
    for (const Action &a : actions) {
        if (a.kind != ActionKind::Annotate || a.annotation != AnnotationKind::Vectorize || a.stage.find(".u") == std::string::npos) continue;
        std::vector<int64_t> factors;
        for (const Action &s : actions)
            if (s.kind == ActionKind::Split && s.stage == a.stage && s.split_names().back() == a.dims[0]) factors = s.factors;
        found.push_back(factors);
    }
    return found;
}

/// Runs a schedule of `spec` on random inputs and checks its output against the reference.
bool runs_right(const WorkloadSpec &spec, const ActionList &actions, uint64_t seed) {
    std::unique_ptr<Workload> w = build_workload(spec);
    apply_actions(*w, actions);
    const std::vector<Halide::Buffer<float>> inputs = random_inputs(*w, seed);
    w->bind_inputs(inputs);  // a weight stored in blocks arranged in them
    Halide::Buffer<float> out = w->pipeline().realize(w->output_shape, Halide::get_host_target());
    return check_output(*w, inputs, out, 1e-4, 1e-5, 3).ok;
}

TEST(Search, Space4UnrollsTheVectorsOfAWideVectorLoop) {
    // A dense update vectorized along n over several vectors: space 4 splits it into one vector
    // (vectorized) and the vectors (unrolled beside it); space 3 vectorizes the whole wide loop.
    const WorkloadSpec dense = WorkloadSpec::parse("dense:M=8,N=64,K=16");
    SketchSampler blocks(dense, space_with_lanes("v4", 8), test_seed()), wide(dense, space_with_lanes("v3", 8), test_seed());
    int blocked = 0, wide_loops = 0, checked = 0;
    for (int i = 0; i < 80; i++) {
        const ActionList a = blocks.sample_valid();
        for (const std::vector<int64_t> &factors : vectorized_update_splits(a)) {
            ASSERT_FALSE(factors.empty());
            EXPECT_EQ(factors.back(), 8) << "one vector: " << actions_to_json(a).dump();
            // The vectors: the piece just outside the vector, unrolled (at the root a split's middle piece
            // is a tile loop instead, never unrolled).
            const std::string vectors = Action::split("acc.u0", "n", factors).split_names()[factors.size() - 1];
            if (factors.size() < 2 || factors[factors.size() - 2] < 2 ||
                std::find(a.begin(), a.end(), Action::annotate("acc.u0", vectors, AnnotationKind::Unroll)) == a.end())
                continue;
            blocked++;
            if (checked < 2) {  // the sample runs and is right
                checked++;
                EXPECT_TRUE(runs_right(dense, a, 5)) << actions_to_json(a).dump();
            }
        }
        for (const std::vector<int64_t> &factors : vectorized_update_splits(wide.sample_valid()))
            wide_loops += !factors.empty() && factors.back() > 8;
    }
    // Over 6 seeds: 20 to 29 of 80 samples blocked (space 4), 19 to 27 with a wide vector loop (space 3);
    // under 4 is far outside either.
    EXPECT_GE(blocked, 4);
    EXPECT_GE(wide_loops, 4) << "space 3 keeps wide vector loops (so this test can tell the spaces apart)";
    EXPECT_EQ(checked, 2);
}

TEST(Search, Space5FillsTheRegisterFileOverASmallReductionBlock) {
    // With the register-fill rule always drawn (8 lanes, 16 registers), every convolution update with a
    // vectorized loop keeps its 3x3 window whole, blocks its 8 input channels by at most 4, and has at most
    // one other pure loop with a register piece: unrolled, as long as vectors x it + vectors + 1 <= 16 allows.
    SamplerParams v5 = space_with_lanes("v5", 8);
    v5.vector_registers = 16;
    v5.p_register_fill = 1.0;
    const WorkloadSpec conv = WorkloadSpec::parse("conv2d:N=1,C=8,H=7,W=7,K=32,R=3,S=3,pad=1,bias=1,act=relu");
    SketchSampler sampler(conv, v5, test_seed());
    int filled = 0, unrolled = 0, checked = 0;
    for (int i = 0; i < 60; i++) {
        const ActionList a = sampler.sample_valid();
        const std::vector<std::vector<int64_t>> vector_splits = vectorized_update_splits(a);
        if (vector_splits.size() != 1 || vector_splits[0].empty()) continue;
        filled++;
        // The vectors: the piece just outside the vector when it is unrolled (at the root that piece may be a
        // tile loop instead, never unrolled).
        int64_t vectors = 1;
        for (const Action &s : a)
            if (s.kind == ActionKind::Split && s.stage == "acc.u0" && s.factors == vector_splits[0] && s.factors.size() >= 2 &&
                std::find(a.begin(), a.end(), Action::annotate("acc.u0", s.split_names()[s.factors.size() - 1], AnnotationKind::Unroll)) != a.end())
                vectors = s.factors[s.factors.size() - 2];
        int register_pieces = 0;
        for (const Action &s : a) {
            if (s.kind != ActionKind::Split || s.stage != "acc.u0") continue;
            const int64_t piece = s.factors.back();
            if (s.dims[0] == "r$z") EXPECT_LE(piece, 4) << actions_to_json(a).dump();
            else if (s.dims[0].rfind("r$", 0) == 0) EXPECT_EQ(piece, 3) << actions_to_json(a).dump();
            else if (piece > 1 && std::find(a.begin(), a.end(), Action::annotate("acc.u0", s.split_names().back(), AnnotationKind::Vectorize)) == a.end()) {
                register_pieces++;
                EXPECT_LE(vectors * piece + vectors + 1, 16) << actions_to_json(a).dump();
                EXPECT_NE(std::find(a.begin(), a.end(), Action::annotate("acc.u0", s.split_names().back(), AnnotationKind::Unroll)), a.end());
            }
        }
        EXPECT_LE(register_pieces, 1) << actions_to_json(a).dump();
        unrolled += register_pieces;
        if (register_pieces == 1 && checked < 2) {
            checked++;
            EXPECT_TRUE(runs_right(conv, a, 7)) << actions_to_json(a).dump();
        }
    }
    std::cout << "register-fill samples " << filled << ", with an unrolled loop " << unrolled << "\n";
    // Most samples vectorize the update and unroll a loop beside it (over 6 seeds: 44 to 52 of 60, and 44 to
    // 50); under 10 is far outside that.
    EXPECT_GE(filled, 10);
    EXPECT_GE(unrolled, 10);
    EXPECT_EQ(checked, 2);
}

TEST(Search, Space6FillsOnlyUpdatesWithAWindowAndABlockedReduction) {
    // Space 6 draws the register-fill rule only where an update reduces over a loop it keeps whole and one it
    // blocks. There it samples what space 5 samples; elsewhere (a depthwise window alone, one long
    // reduction, row reductions) what space 4 samples, draw for draw.
    const auto with_fill = [](const std::string &space) {
        SamplerParams p = space_with_lanes(space, 8);
        p.vector_registers = 16;
        p.p_register_fill = 1.0;
        return p;
    };
    const auto same_samples = [&](const std::string &spec_text, const std::string &a_space, const std::string &b_space) {
        const WorkloadSpec spec = WorkloadSpec::parse(spec_text);
        SketchSampler a(spec, with_fill(a_space), test_seed()), b(spec, with_fill(b_space), test_seed());
        int same = 0;
        for (int i = 0; i < 30; i++) same += actions_to_json(a.sample_valid()) == actions_to_json(b.sample_valid());
        return same;
    };
    const std::string conv = "conv2d:N=1,C=8,H=7,W=7,K=32,R=3,S=3,pad=1,bias=1,act=relu";
    EXPECT_EQ(same_samples(conv, "v6", "v5"), 30);
    EXPECT_LT(same_samples(conv, "v6", "v4"), 30) << "the rule fires on the dense convolution";
    for (const std::string &other : {"conv2d:N=1,C=16,H=14,W=14,K=16,R=3,S=3,stride=2,pad=1,groups=16,bias=1",
                                     "dense:M=8,N=64,K=16", "conv2d:N=1,C=32,H=7,W=7,K=16,R=1,S=1", "softmax:M=8,N=100"}) {
        EXPECT_EQ(same_samples(other, "v6", "v4"), 30) << other;
        EXPECT_LT(same_samples(other, "v6", "v5"), 30) << other << ": space 5 fills it (so the test tells them apart)";
    }
}

TEST(Search, Space7ComputesStridedViewsAndParallelRootCopies) {
    // Space 7 gives a 1x1 strided convolution's view `sub` the elementwise decisions; space 6 never
    // schedules it. Where a program has no view and no root copy over a batch of one, both spaces sample the
    // same schedules, draw for draw.
    int computed = 0, checked = 0;
    for (const char *text : {"conv2d:N=1,C=8,H=14,W=14,K=32,R=1,S=1,stride=2,bias=1",
                             "conv2d:N=1,C=16,H=13,W=13,K=16,R=1,S=1,stride=2,layout=NHWC"}) {
        const WorkloadSpec spec = WorkloadSpec::parse(text);
        SketchSampler v7(spec, space_with_lanes("v7", 8), test_seed()), v6(spec, space_with_lanes("v6", 8), test_seed());
        for (int i = 0; i < 30; i++) {
            const std::string six = actions_to_json(v6.sample_valid()).dump();
            EXPECT_EQ(six.find("\"sub\""), std::string::npos) << six;
            const ActionList a = v7.sample_valid();
            const bool placed = std::any_of(a.begin(), a.end(), [](const Action &x) {
                return x.stage == "sub" && (x.kind == ActionKind::ComputeRoot || x.kind == ActionKind::ComputeAt);
            });
            computed += placed;
            if (placed && checked < 4) {
                checked++;
                EXPECT_TRUE(runs_right(spec, a, 11)) << actions_to_json(a).dump();
            }
        }
    }
    // p_inline_elementwise 0.6: about 24 of 60 samples compute the view; under 5 is far outside that.
    EXPECT_GE(computed, 5);
    EXPECT_GE(checked, 2);

    // A root copy runs its outermost loop longer than 1 in parallel: pad's c, not its batch of one (unless
    // the schedule is serial: p_serial leaves every loop serial).
    const WorkloadSpec padded = WorkloadSpec::parse("conv2d:N=1,C=8,H=9,W=9,K=16,R=3,S=3,pad=1");
    SketchSampler sampler(padded, space_with_lanes("v7", 8), test_seed());
    int root = 0;  // about 1 sample in 6 computes pad at the root in a parallel schedule
    for (int i = 0; i < 60; i++) {
        const ActionList a = sampler.sample_valid();
        const bool serial = std::none_of(a.begin(), a.end(), [](const Action &x) {
            return x.kind == ActionKind::Annotate && x.annotation == AnnotationKind::Parallel;
        });
        if (serial || std::find(a.begin(), a.end(), Action::compute_root("pad")) == a.end()) continue;
        root++;
        EXPECT_NE(std::find(a.begin(), a.end(), Action::annotate("pad", "c", AnnotationKind::Parallel)), a.end())
            << actions_to_json(a).dump();
    }
    EXPECT_GE(root, 1);
    for (const char *same : {"dense:M=8,N=64,K=16,bias=1,act=relu", "conv2d:N=1,C=32,H=7,W=7,K=16,R=1,S=1", "softmax:M=8,N=100"}) {
        const WorkloadSpec spec = WorkloadSpec::parse(same);
        SketchSampler a(spec, space_with_lanes("v7", 8), test_seed()), b(spec, space_with_lanes("v6", 8), test_seed());
        for (int i = 0; i < 20; i++) EXPECT_EQ(actions_to_json(a.sample_valid()), actions_to_json(b.sample_valid())) << same;
    }
}

TEST(Search, Space8AsksForWeightsInBlocksOfAVector) {
    // Space 8 may ask for a weight read strided along the vector loop stored in blocks of one vector along
    // that dim (a BL action, first in the list), and then may keep a long reduction whole inside a register
    // tile that fills the register file. Space 7 never does; programs without such a weight sample the same
    // schedules in both, draw for draw.
    int blocked = 0, whole = 0, checked = 0;
    for (const char *text : {"conv2d:N=1,C=16,H=14,W=14,K=32,R=1,S=1,stride=2,bias=1", "conv2d:N=1,C=8,H=9,W=9,K=16,R=3,S=3,pad=1",
                             "dense:M=8,N=64,K=48,bias=1"}) {
        const WorkloadSpec spec = WorkloadSpec::parse(text);
        SketchSampler v8(spec, space_with_lanes("v8", 8), test_seed()), v7(spec, space_with_lanes("v7", 8), test_seed());
        for (int i = 0; i < 30; i++) {
            const std::string seven = actions_to_json(v7.sample_valid()).dump();
            EXPECT_EQ(seven.find("\"BL\""), std::string::npos) << seven;
            const ActionList a = v8.sample_valid();
            for (size_t j = 0; j < a.size(); j++) {
                if (a[j].kind != ActionKind::BlockLayout) continue;
                EXPECT_TRUE(std::all_of(a.begin(), a.begin() + long(j), [](const Action &x) { return x.kind == ActionKind::BlockLayout; }));
                EXPECT_EQ(a[j].factors, (std::vector<int64_t>{8})) << "a block is one vector";
            }
            const bool in_blocks = !a.empty() && a.front().kind == ActionKind::BlockLayout;
            blocked += in_blocks;
            // The channel reduction (48 or 16 or 8 long) kept whole: split by its own extent.
            whole += in_blocks && std::any_of(a.begin(), a.end(), [](const Action &x) {
                return x.kind == ActionKind::Split && x.stage == "acc.u0" && (x.dims[0] == "r$z" || x.dims[0] == "k$x") &&
                       (x.factors == std::vector<int64_t>{48} || x.factors == std::vector<int64_t>{16});
            });
            if (in_blocks && checked < 6) {
                checked++;
                EXPECT_TRUE(runs_right(spec, a, 13)) << actions_to_json(a).dump();
            }
        }
    }
    EXPECT_GE(blocked, 6);  // about a third of the samples
    EXPECT_GE(whole, 1);
    EXPECT_GE(checked, 3);
    // Output channels that are no whole number of vectors (a tail would gather) are never asked for in blocks.
    const WorkloadSpec odd = WorkloadSpec::parse("dense:M=8,N=60,K=48");
    SketchSampler odd_sampler(odd, space_with_lanes("v8", 8), test_seed());
    for (int i = 0; i < 20; i++) EXPECT_NE(odd_sampler.sample_valid().front().kind, ActionKind::BlockLayout);
    for (const char *same : {"matmul:M=16,N=64,K=32", "softmax:M=8,N=100", "conv2d:N=1,C=16,H=7,W=7,K=32,R=3,S=3,pad=1,layout=NHWC"}) {
        const WorkloadSpec spec = WorkloadSpec::parse(same);
        SketchSampler a(spec, space_with_lanes("v8", 8), test_seed()), b(spec, space_with_lanes("v7", 8), test_seed());
        for (int i = 0; i < 20; i++) EXPECT_EQ(actions_to_json(a.sample_valid()), actions_to_json(b.sample_valid())) << same;
    }
}

TEST(Search, Space9ComputesDenseThreeByThreeConvolutionsByWinograd) {
    // Space 9 may compute a dense 3x3 NCHW convolution at stride 1 by Winograd (a WG action first, or after
    // the BLs), both tiles drawn; the transforms at the root with their constant-index loops unrolled inside
    // the vector loop. The schedules compute the convolution. Programs without a Winograd form sample the same
    // schedules in space 9 as in space 8, draw for draw.
    const WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=16,H=9,W=9,K=16,R=3,S=3,pad=1,bias=1,act=relu");
    SketchSampler v9(spec, space_with_lanes("v9", 8), test_seed());
    std::set<int64_t> tiles;
    int winograd = 0, checked = 0;
    for (int i = 0; i < 40; i++) {
        const ActionList a = v9.sample_valid();
        const auto wg = std::find_if(a.begin(), a.end(), [](const Action &x) { return x.kind == ActionKind::Winograd; });
        if (wg == a.end()) continue;
        winograd++;
        tiles.insert(wg->factors.at(0));
        EXPECT_EQ(wg->stage, "acc");
        EXPECT_TRUE(std::all_of(a.begin(), wg, [](const Action &x) { return x.rebuilds(); })) << actions_to_json(a).dump();
        for (const char *stage : {"wino_in", "wino_out"}) {
            EXPECT_NE(std::find(a.begin(), a.end(), Action::compute_root(stage)), a.end()) << stage;
            for (const char *dim : {"xi", "nu", "i", "j"}) {
                const bool own = (std::string(stage) == "wino_in") == (dim[0] == 'x' || dim[0] == 'n');
                if (own) EXPECT_NE(std::find(a.begin(), a.end(), Action::annotate(stage, dim, AnnotationKind::Unroll)), a.end()) << stage << " " << dim;
            }
            EXPECT_NE(std::find(a.begin(), a.end(), Action::annotate(stage, std::string(stage) == "wino_in" ? "c_1" : "k_1", AnnotationKind::Vectorize)), a.end());
        }
        if (checked < 4) {
            checked++;
            EXPECT_TRUE(runs_right(spec, a, 17)) << actions_to_json(a).dump();
        }
    }
    EXPECT_GE(winograd, 10);  // about half
    EXPECT_EQ(tiles.size(), 2u);
    EXPECT_GE(checked, 4);
    for (const char *same : {"conv2d:N=1,C=16,H=9,W=9,K=16,R=3,S=3,stride=2,pad=1", "conv2d:N=1,C=16,H=7,W=7,K=32,R=3,S=3,pad=1,layout=NHWC",
                             "dense:M=8,N=64,K=48,bias=1", "softmax:M=8,N=100"}) {
        const WorkloadSpec other = WorkloadSpec::parse(same);
        for (const char *space : {"v9", "v10"}) {
            SketchSampler a(other, space_with_lanes(space, 8), test_seed()), b(other, space_with_lanes("v8", 8), test_seed());
            for (int i = 0; i < 20; i++) EXPECT_EQ(actions_to_json(a.sample_valid()), actions_to_json(b.sample_valid())) << same << " " << space;
        }
    }
}

TEST(Search, Space10VectorizesWinogradOutputsAlongTheChannelsTheyRead) {
    // The Winograd output reads the output transform stored by channel: space 10 vectorizes it along the
    // channels (dense loads) at p_read_vector, else along x as space 9 always does (x is a vector long here).
    // Both kinds compute the convolution.
    const WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=16,H=9,W=9,K=16,R=3,S=3,pad=1,bias=1,act=relu");
    SketchSampler v10(spec, space_with_lanes("v10", 8), test_seed()), v9(spec, space_with_lanes("v9", 8), test_seed());
    const auto out_vector_dim = [](const ActionList &a) {
        for (const Action &x : a)
            if (x.stage == "out" && x.kind == ActionKind::Annotate && x.annotation == AnnotationKind::Vectorize) return x.dims.at(0).substr(0, 1);
        return std::string();
    };
    const auto winograd = [](const ActionList &a) { return !a.empty() && a.front().kind == ActionKind::Winograd; };
    std::map<std::string, int> by_dim, by_dim_v9;
    for (int i = 0; i < 60; i++) {
        const ActionList a = v10.sample_valid(), b = v9.sample_valid();
        if (winograd(b)) by_dim_v9[out_vector_dim(b)]++;
        if (!winograd(a)) continue;
        const std::string dim = out_vector_dim(a);
        if (by_dim[dim]++ < 2) EXPECT_TRUE(runs_right(spec, a, 23)) << actions_to_json(a).dump();
    }
    EXPECT_GE(by_dim["k"], 4);
    EXPECT_GE(by_dim["x"], 4);
    EXPECT_EQ(by_dim_v9["k"], 0);
}

TEST(Search, LongRowReductionsAreRfactoredIntoVectors) {
    // softmax's row max reads X along k, its row sum reads expv along k: space 2 may rfactor either into
    // partial sums over a vectorized `u` (p_rfactor 0.5); space 1 never does.
    SamplerParams v2 = sampler_params_for_space("v2"), v1 = sampler_params_for_space("v1");
    v2.vector_lanes = v1.vector_lanes = 8;
    const WorkloadSpec spec = WorkloadSpec::parse("softmax:M=8,N=100");
    SketchSampler rows(spec, v2, test_seed()), plain(spec, v1, test_seed());
    int rfactored = 0, serial = 0;
    for (int i = 0; i < 80; i++) {
        const ActionList a = rows.sample_valid();
        bool parallel = false;
        for (const Action &act : a) {
            parallel = parallel || (act.kind == ActionKind::Annotate && act.annotation == AnnotationKind::Parallel);
            if (act.kind != ActionKind::RFactor) continue;
            rfactored++;
            const Action vectorized = Action::annotate(act.created_func() + ".u0", "u_1", AnnotationKind::Vectorize);
            EXPECT_NE(std::find(a.begin(), a.end(), vectorized), a.end()) << actions_to_json(a).dump();
        }
        serial += !parallel;
        for (const Action &act : plain.sample_valid()) EXPECT_NE(act.kind, ActionKind::RFactor);
    }
    EXPECT_GE(rfactored, 20) << "two reductions, 80 schedules, p 0.5 (59 to 81 over 15 seeds)";
    EXPECT_GE(serial, 1) << "p_serial 0.1 over 80 schedules (3 to 14 over 15 seeds; none is about 2e-4 by chance)";
}

TEST(Search, RowStatisticsMayBeComputedOncePerBlockOfRows) {
    // layernorm's mean and var may be computed once per iteration of the output's parallel loop over row
    // blocks (m_0, when the rows' outer loop alone is parallel) instead of per output tile (n_0): space 2
    // only, and every such schedule lowers.
    SamplerParams v2 = sampler_params_for_space("v2"), v1 = sampler_params_for_space("v1");
    v2.vector_lanes = v1.vector_lanes = 8;
    const WorkloadSpec spec = WorkloadSpec::parse("layernorm:M=16,N=64");
    SketchSampler blocks(spec, v2, test_seed()), plain(spec, v1, test_seed());
    const auto per_block = [](const ActionList &a) {
        return std::any_of(a.begin(), a.end(), [](const Action &act) {
            return act.kind == ActionKind::ComputeAt && (act.stage == "mean" || act.stage == "var") && act.dims == std::vector<std::string>{"m_0"};
        });
    };
    int found = 0;
    for (int i = 0; i < 80; i++) {
        found += per_block(blocks.sample_valid());
        EXPECT_FALSE(per_block(plain.sample_valid()));
    }
    // Per schedule: rows' loop alone parallel (1/2), a reduction fused (0.7), at the parallel loop (0.3),
    // for either of two reductions: about 0.15; 2 of 80 is far below that.
    EXPECT_GE(found, 2);
}

TEST(Search, RegisterTilesFitTheRegisterFile) {
    // Space 2 sizes the unrolled block of an update to the target's vector registers: with 16 registers
    // of 8 lanes, vectors x unrolled + vectors + 1 <= 16.
    SamplerParams params = sampler_params_for_space("v2");
    params.vector_lanes = 8;
    params.vector_registers = 16;
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=64,N=64,K=32");
    SketchSampler sampler(spec, params, test_seed());
    int checked = 0;
    for (int i = 0; i < 60; i++) {
        const ActionList a = sampler.sample_valid();
        std::map<std::string, int64_t> inner;  // innermost loop of each split of the update -> its extent
        for (const Action &s : a)
            if (s.kind == ActionKind::Split && s.stage == "acc.u0") inner[s.split_names().back()] = s.factors.back();
        int64_t vectors = 0, unrolled = 0;
        for (const Action &s : a) {
            if (s.kind != ActionKind::Annotate || s.stage != "acc.u0" || !inner.count(s.dims[0])) continue;
            if (s.annotation == AnnotationKind::Vectorize) vectors = inner[s.dims[0]] / 8;
            if (s.annotation == AnnotationKind::Unroll) unrolled = inner[s.dims[0]];
        }
        if (vectors == 0 || unrolled == 0) continue;
        checked++;
        EXPECT_LE(vectors * unrolled + vectors + 1, 16) << actions_to_json(a).dump();
    }
    EXPECT_GE(checked, 5) << "a vectorized and an unrolled loop in most schedules (16 to 27 of 60 over 15 seeds)";
}

TEST(Search, RowsShorterThanAVectorVectorizeTheChannels) {
    // 7-wide output rows: the innermost loop cannot fill a 16-lane vector, the 32 output channels can. The
    // direct algorithm (Winograd's acc stores k innermost already).
    WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=16,H=7,W=7,K=32,R=3,S=3,pad=1,bias=1");
    SamplerParams params;
    params.vector_lanes = 16;
    params.p_winograd = 0;
    SketchSampler sampler(spec, params, test_seed());
    int vectorized_reductions = 0;
    for (int i = 0; i < 40; i++) {
        const ActionList a = sampler.sample_valid();
        bool vectorized = false, stored = false;
        for (const Action &act : a) {
            if (act.kind == ActionKind::Annotate && act.annotation == AnnotationKind::Vectorize && act.func() == "acc") {
                vectorized = true;
                EXPECT_EQ(act.dims[0].rfind("k", 0), 0u) << actions_to_json(a).dump();
            }
            stored = stored || (act.kind == ActionKind::StorageOrder && act.stage == "acc" && act.dims[0] == "k");
        }
        EXPECT_EQ(vectorized, stored) << "a reduction vectorized along k stores k innermost: " << actions_to_json(a).dump();
        vectorized_reductions += vectorized;
        if (vectorized) {
            const std::string text = state_text(spec, a);
            EXPECT_NE(text.find("ramp("), std::string::npos);
        }
    }
    EXPECT_GE(vectorized_reductions, 20) << "p_wide_vector is 0.8 (fewer than 20 of 40: about 1e-5 by chance)";
}

TEST(Search, TapesReplayExactly) {
    WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=8,H=9,W=9,K=8,R=3,S=3,pad=1");
    SketchSampler a(spec, SamplerParams{}, test_seed()), b(spec, SamplerParams{}, test_seed() + 1);
    for (int i = 0; i < 10; i++) {
        SketchCandidate c = a.replay({});
        SketchCandidate again = b.replay(c.tape);
        EXPECT_EQ(actions_to_json(again.actions), actions_to_json(c.actions));
        EXPECT_EQ(again.tape.size(), c.tape.size());
    }
}

/// Exposes the evolutionary operators through a batch: with mutation_prob 1 (or 0) every child is a
/// mutation (or a crossover); the batch must hold only valid, distinct, unmeasured states.
class OperatorTest : public testing::TestWithParam<double> {};

TEST_P(OperatorTest, ChildrenAreValidOrRejectedCleanly) {
    for (const char *text : {"matmul:M=64,N=48,K=32", "softmax:M=24,N=40", "conv2d:N=1,C=8,H=9,W=9,K=8,R=3,S=3,pad=1"}) {
        WorkloadSpec spec = WorkloadSpec::parse(text);
        SketchSampler sampler(spec, SamplerParams{}, test_seed());
        RandomModel model(test_seed());
        EvolutionParams params;
        params.population = 24;
        params.generations = 3;
        params.mutation_prob = GetParam();
        params.eps_greedy = 0;
        EvolutionarySearch search(sampler, model, params, test_seed());
        std::set<std::string> measured;
        std::vector<DecisionTape> best;
        for (int i = 0; i < 3; i++) {
            SketchCandidate c = sampler.replay({});
            best.push_back(c.tape);
            measured.insert(actions_to_json(c.actions).dump());
        }
        std::vector<SketchCandidate> batch = search.next_batch(8, measured, best);
        EXPECT_EQ(batch.size(), 8u) << text;
        std::set<std::string> keys;
        for (const SketchCandidate &c : batch) {
            const std::string key = actions_to_json(c.actions).dump();
            EXPECT_EQ(measured.count(key), 0u) << "measured states are never proposed";
            EXPECT_TRUE(keys.insert(key).second) << "no duplicates in a batch";
            EXPECT_NO_THROW(validate_actions(spec, c.actions)) << key;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(MutationAndCrossover, OperatorTest, testing::Values(1.0, 0.0));

namespace {
/// The random model, counting its predict() calls (one per generation), with or without a prior.
class CountingModel : public RandomModel {
public:
    explicit CountingModel(bool prior) : RandomModel(7), prior_(prior) {}
    std::vector<double> predict(const std::vector<ActionList> &candidates) override {
        calls++;
        return RandomModel::predict(candidates);
    }
    bool has_prior() const override { return prior_; }
    int calls = 0;

private:
    bool prior_;
};

int generations_run(bool prior, int measured_count, const EvolutionParams &params) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=64,N=48,K=32");
    SketchSampler sampler(spec, SamplerParams{}, test_seed());
    CountingModel model(prior);
    EvolutionarySearch search(sampler, model, params, test_seed());
    std::set<std::string> measured;
    std::vector<DecisionTape> best;
    // distinct schedules: random draws in this small space may repeat, and a repeat is measured once
    for (int draws = 0; int(measured.size()) < measured_count && draws < 1000; draws++) {
        SketchCandidate c = sampler.replay({});
        if (measured.insert(actions_to_json(c.actions).dump()).second) best.push_back(c.tape);
    }
    EXPECT_EQ(int(measured.size()), measured_count) << "the space holds that many distinct schedules";
    search.next_batch(4, measured, best);
    return model.calls;
}
}  // namespace

// A model with a prior evolves for prior_generations, and for late_generations once late_after candidates
// are measured; a model without a prior keeps its generations throughout.
TEST(Search, LateSettingsApplyToAPriorOnceEnoughIsMeasured) {
    EvolutionParams params;
    params.population = 16;
    params.generations = 3;
    params.prior_generations = 1;
    params.late_generations = 2;
    params.late_after = 4;
    EXPECT_EQ(generations_run(true, 2, params), 1);
    EXPECT_EQ(generations_run(true, 4, params), 2);
    EXPECT_EQ(generations_run(false, 4, params), 3);
    params.late_after = 0;  // off
    EXPECT_EQ(generations_run(true, 4, params), 1);
}

TEST(Search, OneDecisionNeighboursChangeExactlyOneChoice) {
    const WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=8,H=9,W=9,K=8,R=3,S=3,pad=1");
    SketchSampler sampler(spec, SamplerParams{}, test_seed());
    const SketchCandidate c = sampler.replay({});
    size_t expected = 0;
    for (const Decision &d : c.tape) {
        ASSERT_GT(d.choices, 0u) << "every recorded decision knows its number of choices";
        expected += d.choices < 2 ? 0 : d.choices <= 64 ? d.choices - 1 : 2;
    }
    const std::vector<DecisionTape> neighbours = one_decision_neighbours(c.tape);
    EXPECT_GE(neighbours.size() + 1, expected) << "all other choices (a chance decision may lose one: 0 or the last)";
    EXPECT_LE(neighbours.size(), expected);
    std::set<std::string> distinct;
    for (const DecisionTape &n : neighbours) {
        ASSERT_EQ(n.size(), c.tape.size());
        int changed = 0;
        for (size_t i = 0; i < n.size(); i++)
            if (n[i].value % n[i].choices != c.tape[i].value % c.tape[i].choices) changed++;
        EXPECT_EQ(changed, 1);
        distinct.insert(actions_to_json(sampler.replay(n).actions).dump());
    }
    distinct.erase(actions_to_json(c.actions).dump());
    EXPECT_GE(distinct.size(), 10u) << "most single changes build another schedule";
}

namespace {
/// The random model with a prior, keeping the candidates and scores of its last predict() call.
class LastCallModel : public CountingModel {
public:
    explicit LastCallModel(bool prior) : CountingModel(prior) {}
    std::vector<double> predict(const std::vector<ActionList> &candidates) override {
        last_scores = CountingModel::predict(candidates);
        last_candidates = candidates;
        return last_scores;
    }
    std::vector<ActionList> last_candidates;
    std::vector<double> last_scores;
};

struct NeighbourhoodBatch {
    int calls = 0;                            ///< predict() calls: the generations, and one for the neighbours
    std::vector<std::string> front;           ///< keys of the batch's first `first` candidates
    std::vector<std::string> best_scored;     ///< keys of the last call's `first` best-scored candidates
    std::set<std::string> last_call;          ///< keys of every candidate of the last call
};

/// A batch of 8 after one measured schedule, with a model with or without a prior and one tape's
/// neighbourhood at `share` of the batch.
NeighbourhoodBatch neighbourhood_batch(bool prior, double share, size_t first) {
    const WorkloadSpec spec = WorkloadSpec::parse("matmul:M=64,N=48,K=32");
    SketchSampler sampler(spec, SamplerParams{}, test_seed());
    LastCallModel model(prior);
    EvolutionParams params;
    params.population = 16;
    params.generations = 2;
    params.eps_greedy = 0;
    params.neighbourhood_tapes = 1;
    params.neighbourhood_share = share;
    EvolutionarySearch search(sampler, model, params, test_seed());
    const SketchCandidate best = sampler.replay({});
    const std::set<std::string> measured{actions_to_json(best.actions).dump()};
    const std::vector<SketchCandidate> batch = search.next_batch(8, measured, {best.tape});
    EXPECT_EQ(batch.size(), 8u);
    NeighbourhoodBatch out;
    out.calls = model.calls;
    for (size_t i = 0; i < std::min(first, batch.size()); i++) out.front.push_back(actions_to_json(batch[i].actions).dump());
    std::vector<size_t> order(model.last_candidates.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return model.last_scores[a] > model.last_scores[b]; });
    for (size_t i = 0; i < order.size(); i++) {
        const std::string key = actions_to_json(model.last_candidates[order[i]]).dump();
        out.last_call.insert(key);
        if (out.best_scored.size() < first) out.best_scored.push_back(key);
    }
    return out;
}
}  // namespace

// With a prior, the neighbours are scored in one more call after the generation, and the batch's
// model-picked part starts with neighbourhood_share of it: that call's best-scored candidates, in order.
// A model without a prior searches as before (its generations only).
TEST(Search, NeighbourhoodTakesItsShareOfTheBatchForAPrior) {
    const NeighbourhoodBatch all = neighbourhood_batch(true, 1.0, 8);
    EXPECT_EQ(all.calls, 2) << "one generation (prior_generations) and the neighbours";
    EXPECT_GE(all.last_call.size(), 8u) << "a matmul's schedule has more than 8 one-decision neighbours";
    EXPECT_EQ(all.front, all.best_scored);
    const NeighbourhoodBatch half = neighbourhood_batch(true, 0.5, 4);
    EXPECT_EQ(half.front, half.best_scored);
    const NeighbourhoodBatch none = neighbourhood_batch(false, 1.0, 8);
    EXPECT_EQ(none.calls, 2) << "two generations, no neighbourhood";
}

TEST(Search, BatchPickSkipsNearCopiesOfThePicksWhenAskedTo) {
    // Three schedules: b is a one split factor away from a, c differs in structure.
    const ActionList a = {Action::split("out", "x", {16}), Action::split("out", "y", {4}), Action::annotate("out", "x.0", AnnotationKind::Vectorize),
                          Action::annotate("out", "y.1", AnnotationKind::Parallel)};
    ActionList b = a;
    b[1] = Action::split("out", "y", {8});
    const ActionList c = {Action::split("out", "x", {8}), Action::compute_root("in"), Action::annotate("out", "y", AnnotationKind::Parallel)};
    EXPECT_DOUBLE_EQ(action_similarity(a, a), 1.0);
    EXPECT_NEAR(action_similarity(a, b), 3.0 / 5.0, 1e-12);
    EXPECT_LT(action_similarity(a, c), action_similarity(a, b));
    const std::vector<ActionList> candidates = {c, b, a, b};
    const std::vector<double> scores = {1.0, 2.0, 3.0, -INFINITY};

    BatchDiversity by_score;
    by_score.weight = 0;
    EXPECT_EQ(pick_batch(scores, candidates, 2, by_score), (std::vector<size_t>{2, 1})) << "the top two by score";
    EXPECT_EQ(pick_batch(scores, candidates, 5, by_score), (std::vector<size_t>{2, 1, 0})) << "refused ones are never picked";

    BatchDiversity diverse;
    diverse.weight = 0.5;
    EXPECT_EQ(pick_batch(scores, candidates, 2, diverse), (std::vector<size_t>{2, 0})) << "the best, then the dissimilar one";
    EXPECT_EQ(pick_batch(scores, candidates, 3, diverse), (std::vector<size_t>{2, 0, 1}));
    diverse.shortlist = 1;
    EXPECT_EQ(pick_batch(scores, candidates, 2, diverse), (std::vector<size_t>{2, 1})) << "picks come from the shortlist only";
    EXPECT_TRUE(pick_batch({}, {}, 4, diverse).empty());
}

TEST(Search, TaskSchedulerWarmsUpThenFollowsTheGradient) {
    std::vector<PresetEntry> tasks = {{"matmul:M=8,N=8,K=8", 1}, {"matmul:M=16,N=16,K=16", 10}, {"softmax:M=4,N=4", 1}};
    SchedulerParams params;
    params.trials_per_round = 10;
    TaskScheduler scheduler(tasks, params, [](const WorkloadSpec &) { return std::unique_ptr<Tuner>(); });
    EXPECT_EQ(scheduler.pick_task(), 1u) << "warm-up: largest expected cost (count x FLOPs) first";
    scheduler.resume(1, 10, 1e-3);
    EXPECT_EQ(scheduler.pick_task(), 0u) << "warm-up: every task gets a round first";
    scheduler.resume(0, 10, 1e-3);
    EXPECT_EQ(scheduler.missing_tasks(), (std::vector<size_t>{2}));
    scheduler.resume(2, 10, 1e-3);
    EXPECT_TRUE(scheduler.missing_tasks().empty());
    EXPECT_EQ(scheduler.pick_task(), 1u) << "same latency and trials: the task that occurs 10x wins";
    EXPECT_DOUBLE_EQ(scheduler.estimated_latency(), 12e-3);
}

TEST(Search, TaskSchedulerShrinksTheWarmUpToReachEveryTask) {
    std::vector<PresetEntry> tasks = {{"matmul:M=8,N=8,K=8", 1}, {"matmul:M=16,N=16,K=16", 1}, {"softmax:M=4,N=4", 1}};
    SchedulerParams params;
    params.trials_per_round = 16;
    params.total_trials = 6;
    TaskScheduler small(tasks, params, [](const WorkloadSpec &) { return std::unique_ptr<Tuner>(); });
    EXPECT_EQ(small.round_trials(small.pick_task()), 2) << "6 trials over 3 tasks to warm up: rounds of 2";
    params.total_trials = 2;
    TaskScheduler tiny(tasks, params, [](const WorkloadSpec &) { return std::unique_ptr<Tuner>(); });
    EXPECT_EQ(tiny.round_trials(tiny.pick_task()), 1) << "fewer trials than tasks: one each, largest cost first";
    params.total_trials = 1000;
    TaskScheduler large(tasks, params, [](const WorkloadSpec &) { return std::unique_ptr<Tuner>(); });
    EXPECT_EQ(large.round_trials(large.pick_task()), 16) << "a large budget keeps full rounds";
    large.resume(1, 16, 1e-3);
    large.resume(0, 16, 1e-3);
    large.resume(2, 16, 1e-3);
    EXPECT_EQ(large.round_trials(0), 16);
}

namespace {

/// What the test measurers answer: each candidate correct, the i-th of a batch at 1 ms / (1 + i).
void answer_batch(const WorkloadSpec &spec, const std::vector<ActionList> &candidates,
                  const std::function<void(size_t, MeasureResult)> &on_result) {
    for (size_t i = 0; i < candidates.size(); i++) {
        MeasureResult r;
        r.spec = spec.canonical();
        r.actions = actions_to_json(candidates[i]);
        r.timing.median_s = 1e-3 / double(1 + i);
        on_result(i, r);
    }
}

}  // namespace

TEST(Search, TaskSchedulerRunsRoundsOfDifferentTasksAtOnce) {
    // A measurer as a farm is: batches of several threads at once, each taking a while.
    struct SlowMeasurer : CandidateMeasurer {
        std::mutex mutex;
        std::multiset<std::string> measuring;  // specs whose batch is out now
        int most_at_once = 0, same_task_at_once = 0;
        void measure_batch(const WorkloadSpec &spec, const std::vector<ActionList> &candidates,
                           const std::function<void(size_t, MeasureResult)> &on_result) override {
            {
                std::lock_guard<std::mutex> lock(mutex);
                same_task_at_once += int(measuring.count(spec.canonical()));
                measuring.insert(spec.canonical());
                most_at_once = std::max(most_at_once, int(measuring.size()));
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            answer_batch(spec, candidates, on_result);
            std::lock_guard<std::mutex> lock(mutex);
            measuring.erase(measuring.find(spec.canonical()));
        }
    } measurer;
    std::vector<PresetEntry> tasks = {{kSpecs[0], 1}, {kSpecs[1], 2}, {kSpecs[2], 1}, {kSpecs[3], 1}};
    SchedulerParams params;
    params.trials_per_round = 4;
    params.total_trials = 40;
    TuneParams per_round;
    per_round.measures_per_round = 4;
    TaskScheduler scheduler(tasks, params, [&](const WorkloadSpec &spec) { return std::make_unique<Tuner>(spec, per_round, measurer); });
    std::mutex mutex;
    std::map<size_t, int> measured;
    std::atomic<int> in_on_round{0};
    int rounds_overlapping = 0;
    scheduler.run([&](size_t task, const MeasureResult &) {
        std::lock_guard<std::mutex> lock(mutex);
        measured[task]++;
    }, [&](size_t, const TaskState &) {
        rounds_overlapping += in_on_round++ != 0;
        in_on_round--;
    }, 3);
    EXPECT_GE(measurer.most_at_once, 2) << "rounds of different tasks measure at once";
    EXPECT_EQ(measurer.same_task_at_once, 0) << "a task runs one round at a time";
    EXPECT_EQ(rounds_overlapping, 0) << "on_round is called one at a time";
    int total = 0;
    for (size_t i = 0; i < tasks.size(); i++) {
        EXPECT_EQ(measured[i], scheduler.tasks()[i].trials);
        EXPECT_GT(measured[i], 0) << "every task warmed up";
        total += measured[i];
    }
    EXPECT_EQ(total, params.total_trials) << "the budget is spent exactly";
}

TEST(Search, NoRoundStartsOnceTheTimeBudgetIsSpent) {
    struct SlowMeasurer : CandidateMeasurer {  // every batch takes 20 ms
        void measure_batch(const WorkloadSpec &spec, const std::vector<ActionList> &candidates,
                           const std::function<void(size_t, MeasureResult)> &on_result) override {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            answer_batch(spec, candidates, on_result);
        }
    } measurer;
    TuneParams one;
    one.trials = 400;
    one.measures_per_round = 2;
    one.time_budget_s = 0.1;
    const TuneSummary s = Tuner(WorkloadSpec::parse(kSpecs[0]), one, measurer).run([](const MeasureResult &, int) {});
    EXPECT_GT(s.measured, 0);
    EXPECT_LT(s.measured, one.trials) << "a workload's run stops starting batches when the time is spent";
    EXPECT_EQ(s.measured % 2, 0) << "the batch under way finishes";

    std::vector<PresetEntry> tasks = {{kSpecs[0], 1}, {kSpecs[1], 1}};
    SchedulerParams params;
    params.trials_per_round = 2;
    params.total_trials = 400;
    params.time_budget_s = 0.1;
    TuneParams per_round;
    per_round.measures_per_round = 2;
    TaskScheduler scheduler(tasks, params, [&](const WorkloadSpec &spec) { return std::make_unique<Tuner>(spec, per_round, measurer); });
    int measured = 0;
    scheduler.run([&](size_t, const MeasureResult &) { measured++; });
    EXPECT_GT(measured, 0);
    EXPECT_LT(measured, params.total_trials) << "a network's run stops starting rounds when the time is spent";
    EXPECT_EQ(measured % 2, 0) << "the round under way finishes";
}

TEST(Search, KilledTuningRunResumesWithoutMeasuringTwice) {
    const std::string db = testing::TempDir() + "/search_resume.db";
    std::remove(db.c_str());
    const std::string args = "tune matmul:M=48,N=32,K=16 --repeats 2 --min-time 0.001 --quiet --db " + db;
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const std::string spec = "matmul:M=48,N=32,K=16";
        int null_fd = open("/dev/null", O_WRONLY);
        dup2(null_fd, 1);
        dup2(null_fd, 2);
        execl(WORLDTUNE_BINARY, WORLDTUNE_BINARY, "tune", spec.c_str(), "--repeats", "2", "--min-time", "0.001", "--quiet",
              "--db", db.c_str(), "--trials", "200", nullptr);
        _exit(127);
    }
    // Let it measure a few candidates, then kill it.
    auto count = [&](const char *sql) {
        sqlite3 *h = nullptr;
        int64_t n = -1;
        if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
            sqlite3_stmt *st = nullptr;
            if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
        sqlite3_close(h);
        return n;
    };
    for (int i = 0; i < 600 && count("select count(*) from records") < 4; i++) usleep(50000);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    const int64_t before = count("select count(*) from records");
    ASSERT_GE(before, 4);
    std::string out;
    ASSERT_EQ(test::run_worldtune(args + " --trials 5", out), 0) << out;
    EXPECT_NE(out.find(std::to_string(before) + " states already"), std::string::npos) << out;
    EXPECT_EQ(count("select count(*) from records"), before + 5);
    EXPECT_EQ(count("select count(distinct actions) from records"), before + 5) << "no state measured twice";
}
