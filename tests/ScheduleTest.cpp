// Actions: every kind applies to a pipeline, prints, and round-trips through JSON; invalid lists give
// a typed error naming the action; state texts are deterministic.
#include "lower/StateText.h"
#include "schedule/Action.h"
#include "schedule/Apply.h"
#include "schedule/PrintHalide.h"
#include "search/SketchSampler.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <set>

using namespace worldtune;

namespace {

const char *kMatmul = "matmul:M=40,N=48,K=36";

ActionList parse(const std::string &json_text) { return actions_from_json(nlohmann::json::parse(json_text)); }

struct KindCase {
    const char *name;
    const char *actions;  ///< JSON list whose last action is the kind under test
    const char *marker;   ///< text the lowered state must contain
    const char *spec = nullptr;  ///< the workload (nullptr: kMatmul)
};

// One case per action kind (and per tail / annotation variant).
const KindCase kCases[] = {
    {"split_auto", R"([["SP","out","n",[8],"auto"]])", "out.s0.n.n_1"},
    {"split_guard", R"([["SP","out","n",[7],"guard"]])", "out.s0.n.n_1"},
    {"split_shift", R"([["SP","out","n",[7],"shift"]])", "out.s0.n.n_1"},
    {"split_round", R"([["SP","out","n",[8],"round"]])", "out.s0.n.n_1"},
    {"split_multi", R"([["SP","out","n",[4,3],"auto"]])", "n_2,"},
    {"split_rvar", R"([["SP","acc.u0","k$x",[6],"auto"]])", "k_x_1"},
    {"reorder", R"([["RE","out",["m","n"]]])", "for (out.s0.m"},
    {"fuse", R"([["FU","out","n","m","nm"]])", ".nm,"},
    {"parallel", R"([["AN","out","m","parallel"]])", "parallel (out.s0.m"},
    {"vectorize", R"([["SP","out","n",[8],"auto"],["AN","out","n_1","vectorize"]])", "ramp("},
    {"unroll", R"([["SP","out","n",[4],"auto"],["AN","out","n_1","unroll"]])", "out.s0.n.n_0"},
    {"compute_at", R"([["CA","acc","out","m"]])", "produce acc"},
    {"store_at", R"([["CA","acc","out","n"],["SA","acc","out","m"]])", "produce acc"},
    {"compute_root", R"([["CR","acc"]])", "produce acc"},
    {"compute_inline", R"([["CH","B","acc"],["CR","B_in_acc"],["CI","B_in_acc"]])", "produce out"},
    {"rfactor", R"([["SP","acc.u0","k$x",[4],"auto"],["RF","acc.u0","k_x_1","ki"],["CR","acc_rf"]])", "acc_intm"},
    {"cache_input", R"([["CH","B","acc"],["CA","B_in_acc","out","m"]])", "B_im"},
    {"cache_func", R"([["CR","acc"],["CH","acc",""],["CR","acc_in"]])", "acc_global_wrapper"},
    {"storage_order", R"([["CR","acc"],["SO","acc",["m","n"]]])", "acc[(acc.s0.n*40) + acc.s0.m]"},
    {"block_layout", R"([["BL","W","_1",8]])", "W[(acc.s1.k$x*8)", "dense:M=4,N=32,K=24"},  // k steps over a block
    {"winograd", R"([["WG","acc",2]])", "acc.s0.xi", "conv2d:N=1,C=4,H=8,W=8,K=8,R=3,S=3,pad=1"},
};

}  // namespace

TEST(ScheduleTest, EveryKindAppliesAndChangesTheState) {
    for (const KindCase &c : kCases) {
        SCOPED_TRACE(c.name);
        const WorkloadSpec spec = WorkloadSpec::parse(c.spec ? c.spec : kMatmul);
        ActionList actions = parse(c.actions);
        std::string text;
        ASSERT_NO_THROW(text = state_text(spec, actions)) << c.actions;
        EXPECT_NE(text, state_text(spec, actions, int(actions.size()) - 1)) << "the last action changed nothing";
        EXPECT_NE(text.find(c.marker), std::string::npos) << text;
    }
}

TEST(ScheduleTest, EveryKindRoundTripsThroughJson) {
    std::set<std::string> tags;
    for (const KindCase &c : kCases) {
        for (const Action &a : parse(c.actions)) {
            nlohmann::json j = a.to_json();
            Action back = Action::from_json(nlohmann::json::parse(j.dump()));
            EXPECT_EQ(back, a) << j.dump();
            EXPECT_EQ(back.to_json(), j);
            tags.insert(a.tag());
        }
    }
    EXPECT_EQ(tags.size(), 13u) << "every action kind must have a case";
}

TEST(ScheduleTest, MalformedActionJsonIsRefused) {
    const char *bad[] = {R"(["XX","out"])", R"(["SP","out","n",[],"auto"])", R"(["SP","out","n",[0],"auto"])",
                         R"(["SP","out","n",[4],"sideways"])", R"(["AN","out","n","spin"])", R"(["RE","out",["n"]])", R"(["SO","acc",["n"]])",
                         R"(["BL","W","_1",1])", R"(["BL","W","_1"])", R"(["BL","W","_1","8"])", R"(["WG","acc",1])", R"(["WG","acc"])", R"(["WG","acc","2"])", R"({"t":"SP"})", R"(["CR"])", R"(["CR",""])"};
    for (const char *text : bad) EXPECT_THROW(Action::from_json(nlohmann::json::parse(text)), ActionFormatError) << text;
}

TEST(ScheduleTest, UnreachablePipelineIsRefusedAndNamed) {
    // The row sum rfactored with a guarded tail reads expv up to 223 of 197 columns; inlined, the guard keeps
    // the reads in bounds, but expv computed at the output's tile covers the whole box: Halide proves a read
    // outside X and lowers the pipeline to `unreachable()`, which would run and leave the output unwritten.
    const WorkloadSpec spec = WorkloadSpec::parse("softmax:M=4,N=197");
    const ActionList actions = parse(R"([["SP","out","n",[32],"auto"],["SP","out","m",[1],"auto"],)"
                                     R"(["SP","rowsum.u0","k$x",[32],"guard"],["RF","rowsum.u0","k_x_1","u"],)"
                                     R"(["CA","rowsum_rf","rowsum","m"],["SP","rowsum_rf","u",[16],"auto"],)"
                                     R"(["SP","rowsum_rf.u0","u",[16],"auto"],["AN","rowsum_rf.u0","u_1","vectorize"],)"
                                     R"(["AN","rowsum_rf.u0","u_0","unroll"],["CA","expv","out","n_0"]])");
    EXPECT_NO_THROW(state_text(spec, ActionList(actions.begin(), actions.end() - 1)));
    try {
        state_text(spec, actions);
        FAIL() << "expected ScheduleError";
    } catch (const ScheduleError &e) {
        EXPECT_EQ(e.action_index, 9);
        EXPECT_NE(std::string(e.what()).find("unreachable"), std::string::npos) << e.what();
    }
}

TEST(ScheduleTest, InvalidActionListNamesTheFailingAction) {
    WorkloadSpec spec = WorkloadSpec::parse(kMatmul);
    // Unknown loop: refused when applied.
    try {
        state_text(spec, parse(R"([["SP","out","n",[8],"auto"],["AN","out","zz","parallel"]])"));
        FAIL() << "expected ScheduleError";
    } catch (const ScheduleError &e) {
        EXPECT_EQ(e.action_index, 1);
        EXPECT_NE(std::string(e.what()).find("zz"), std::string::npos);
    }
    // Vectorizing a loop whose extent is not constant: refused only when lowering; still named.
    try {
        state_text(spec, parse(R"([["SP","out","n",[7],"guard"],["CA","acc","out","n_0"],["AN","acc","n","vectorize"]])"));
        FAIL() << "expected ScheduleError";
    } catch (const ScheduleError &e) {
        EXPECT_EQ(e.action_index, 2) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
    // Unknown Func; rfactor of a stage without reduction; a consumer that does not exist.
    EXPECT_THROW(state_text(spec, parse(R"([["CR","nope"]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["RF","out","n","q"]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["CA","acc","ghost","n"]])")), ScheduleError);
    // A storage order naming a dim the Func does not have, or one dim twice.
    EXPECT_THROW(state_text(spec, parse(R"([["SO","acc",["m","zz"]]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["SO","acc",["m","m"]]])")), ScheduleError);
}

TEST(ScheduleTest, AWeightCanBeAskedForInAnotherLayout) {
    // dense reads W(k, n): `SO` on the input W stores n innermost (stride 1 along n, N along k), so the
    // vectorized n loop loads whole vectors; the workload records the layout its caller must pass, and the
    // printed schedule says so.
    const WorkloadSpec spec = WorkloadSpec::parse("dense:M=4,N=32,K=24");
    const ActionList actions = parse(R"([["SP","out","n",[8],"auto"],["AN","out","n_1","vectorize"],)"
                                     R"(["SO","W",["_1","_0"]]])");
    std::unique_ptr<Workload> w = build_workload(spec);
    apply_actions(*w, actions);
    const int W = w->input_index("W");
    ASSERT_GE(W, 0);
    EXPECT_EQ(w->input_layouts[size_t(W)], (std::vector<int>{1, 0}));
    EXPECT_EQ(w->input_strides(size_t(W)), (std::vector<int>{32, 1}));
    EXPECT_TRUE(w->input_layouts[size_t(w->input_index("X"))].empty());
    const std::string before = state_text(spec, actions, 2), after = state_text(spec, actions);
    EXPECT_NE(before, after);
    EXPECT_NE(before.find(", 24, 8)]*"), std::string::npos) << before;  // W gathered, a stride of K = 24
    EXPECT_EQ(after.find(", 24, 8)"), std::string::npos) << after;     // dense vector loads from W itself
    const std::string code = print_halide(*build_workload(spec), actions);
    EXPECT_NE(code.find("W.dim(0).set_stride(32); W.dim(1).set_stride(1);"), std::string::npos) << code;
    // Only weights: an activation's layout belongs to the caller; a dim the input lacks; twice.
    EXPECT_THROW(state_text(spec, parse(R"([["SO","X",["_1","_0"]]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["SO","W",["_2","_0"]]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["SO","W",["_1","_0"]],["SO","W",["_0","_1"]]])")), ScheduleError);
    EXPECT_THROW(state_text(WorkloadSpec::parse(kMatmul), parse(R"([["SO","B",["_1","_0"]]])")), ScheduleError);
}

TEST(ScheduleTest, AWeightCanBeAskedForInBlocks) {
    // dense reads W(k, n); `BL` stores it in blocks of 8 along n: W(k, n) at (n % 8, k, n / 8), N = 36 padded
    // to 40. The program is built again around the stored shape, and a vectorized n loop of aligned vectors
    // loads whole vectors from W itself, where the default layout gathers at a stride of K.
    const WorkloadSpec spec = WorkloadSpec::parse("dense:M=4,N=36,K=24");
    const ActionList actions = parse(R"([["BL","W","_1",8],["SP","out","n",[8],"guard"],["AN","out","n_1","vectorize"]])");
    std::unique_ptr<Workload> w = build_workload(spec);
    apply_actions(*w, actions);
    const size_t W = size_t(w->input_index("W"));
    EXPECT_EQ(w->input_blockings[W].dim, 1);
    EXPECT_EQ(w->input_blockings[W].block, 8);
    EXPECT_EQ(w->input_shapes[W], (std::vector<int>{24, 36}));  // the logical shape stays
    EXPECT_EQ(blocked_shape(w->input_shapes[W], w->input_blockings[W]), (std::vector<int>{8, 24, 5}));
    EXPECT_EQ(w->inputs[W].dimensions(), 3);
    EXPECT_FALSE(w->input_blockings[size_t(w->input_index("X"))].active());
    const std::string plain = state_text(spec, parse(R"([["SP","out","n",[8],"guard"],["AN","out","n_1","vectorize"]])"));
    const std::string blocked = state_text(spec, actions);
    EXPECT_NE(plain.find(", 24, 8)]*"), std::string::npos) << plain;  // W gathered, a stride of K = 24
    EXPECT_NE(blocked.find("W[ramp("), std::string::npos) << blocked;
    EXPECT_EQ(blocked.find(", 24, 8)"), std::string::npos) << blocked;
    const std::string code = print_halide(*build_workload(spec), actions);
    EXPECT_NE(code.find("// pass W stored in blocks of 8 along _1"), std::string::npos) << code;
    // Only weights; a dim the input lacks; twice; after another action (it rebuilds the program); an input
    // that is not there; and together with a stride layout of the same weight.
    EXPECT_THROW(state_text(spec, parse(R"([["BL","X","_1",8]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["BL","W","_2",8]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["BL","W","_1",8],["BL","W","_0",8]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["SP","out","n",[8],"guard"],["BL","W","_1",8]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["BL","nope","_1",8]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["BL","W","_1",8],["SO","W",["_1","_0"]]])")), ScheduleError);
    // Two weights in blocks, one after the other: both kept.
    const WorkloadSpec biased = WorkloadSpec::parse("dense:M=4,N=32,K=24,bias=1");
    std::unique_ptr<Workload> b = build_workload(biased);
    apply_actions(*b, parse(R"([["BL","W","_1",8],["BL","bias","_0",4]])"));
    EXPECT_EQ(b->blockings().size(), 2u);
}

TEST(ScheduleTest, AConvolutionCanBeComputedByWinograd) {
    // `WG` rebuilds a dense 3x3 convolution as Winograd's F(m, 3): the transform stages appear, the weight is
    // passed transformed (m + 2 wide), and the directives that follow schedule the new stages, the
    // transforms' constant-index loops unrolled so their coefficients fold.
    const WorkloadSpec spec = WorkloadSpec::parse("conv2d:N=1,C=16,H=10,W=10,K=16,R=3,S=3,pad=1");
    const ActionList actions = parse(R"([["WG","acc",4],["CR","wino_in"],["RE","wino_in",["xi","nu","c","tx","ty","n"]],
        ["AN","wino_in","xi","unroll"],["AN","wino_in","nu","unroll"],["CR","acc"],["SP","acc.u0","k",[8],"auto"],
        ["AN","acc.u0","k_1","vectorize"],["CR","wino_out"]])");
    std::unique_ptr<Workload> w = build_workload(spec);
    apply_actions(*w, actions);
    EXPECT_EQ(w->winograd_tile, 4);
    EXPECT_EQ(w->inputs[size_t(w->input_index("W"))].dimensions(), 4);
    const std::string text = state_text(spec, actions);
    for (const char *marker : {"produce wino_in", "produce acc", "produce wino_out", "W[ramp("}) EXPECT_NE(text.find(marker), std::string::npos) << marker;
    const std::string code = print_halide(*build_workload(spec), actions);
    EXPECT_NE(code.find("// compute acc by Winograd's F(4, 3)"), std::string::npos) << code;
    // After a directive (it rebuilds the program); twice; a tile without a transform; a Func without a
    // reduction; a convolution without a Winograd form; after a BL of the weight it transforms.
    EXPECT_THROW(state_text(spec, parse(R"([["CR","pad"],["WG","acc",2]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["WG","acc",2],["WG","acc",4]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["WG","acc",3]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["WG","pad",2]])")), ScheduleError);
    EXPECT_THROW(state_text(WorkloadSpec::parse("conv2d:N=1,C=16,H=10,W=10,K=16,R=3,S=3,stride=2"), parse(R"([["WG","acc",2]])")), ScheduleError);
    EXPECT_THROW(state_text(spec, parse(R"([["BL","W","_3",8],["WG","acc",2]])")), ScheduleError);
    // A blocked bias stays blocked through the rebuild.
    const WorkloadSpec biased = WorkloadSpec::parse("conv2d:N=1,C=8,H=6,W=6,K=16,R=3,S=3,pad=1,bias=1");
    std::unique_ptr<Workload> b = build_workload(biased);
    apply_actions(*b, parse(R"([["BL","bias","_0",8],["WG","acc",2]])"));
    EXPECT_EQ(b->blockings().size(), 1u);
    EXPECT_EQ(b->winograd_tile, 2);
}

TEST(ScheduleTest, StateTextIsDeterministicWithinAndAcrossProcesses) {
    WorkloadSpec spec = WorkloadSpec::parse("matmul:M=33,N=47,K=31");
    ActionList actions = parse(R"([["SP","out","n",[16],"guard"],["SP","out","m",[4],"auto"],["RE","out",["n_1","m_1","n_0","m_0"]],
        ["FU","out","n_0","m_0","t"],["AN","out","t","parallel"],["CA","acc","out","t"],["CH","B","acc"],["CR","B_in_acc"]])");
    const std::string first = state_text(spec, actions);
    for (int i = 0; i < 3; i++) EXPECT_EQ(state_text(spec, actions), first);
    // Another process (the CLI) prints the same bytes.
    const std::string file = testing::TempDir() + "/actions.json";
    {
        std::ofstream out(file);
        out << actions_to_json(actions).dump();
    }
    std::string other;
    EXPECT_EQ(test::run_worldtune("lower matmul:M=33,N=47,K=31 --actions " + file, other), 0);
    EXPECT_EQ(other, first);
}

TEST(ScheduleTest, TrajectoryTextsHaveOnePerPrefix) {
    WorkloadSpec spec = WorkloadSpec::parse(kMatmul);
    ActionList actions = parse(R"([["SP","out","n",[8],"auto"],["AN","out","n_1","vectorize"],["AN","out","m","parallel"]])");
    std::vector<std::string> texts = trajectory_texts(spec, actions);
    ASSERT_EQ(texts.size(), 4u);
    EXPECT_EQ(texts[0], state_text(spec, {}));
    EXPECT_EQ(texts[3], state_text(spec, actions));
    for (size_t i = 1; i < texts.size(); i++) EXPECT_NE(texts[i], texts[i - 1]);
}

TEST(ScheduleTest, SamplerGivesValidDistinctSchedules) {
    const uint64_t seed = std::random_device{}();
    std::cout << "seed " << seed << "\n";
    for (const char *text : {"matmul:M=64,N=64,K=64", "matmul:M=31,N=17,K=13"}) {
        WorkloadSpec spec = WorkloadSpec::parse(text);
        SketchSampler sampler(spec, SamplerParams{}, seed);
        std::set<std::string> seen;
        for (int i = 0; i < 10; i++) {
            ActionList actions = sampler.sample_valid();
            EXPECT_NO_THROW(validate_actions(spec, actions));
            seen.insert(actions_to_json(actions).dump());
        }
        EXPECT_GT(seen.size(), 5u) << text;
    }
}

TEST(ScheduleTest, StateTextDoesNotDependOnWhatTheProcessLoweredBefore) {
    // Halide numbers its temporaries from a process-wide counter and orders some operands by name. This
    // state printed `t8 + t11` in a fresh process and `t11 + t8` after one other lowering; check it after
    // several different histories against a fresh process.
    const std::string spec_text = "batch_matmul:B=12,M=128,N=128,K=64,trans_b=1";
    WorkloadSpec spec = WorkloadSpec::parse(spec_text);
    const ActionList state = parse(R"([["SP","out","n",[64],"auto"],["SP","out","m",[32],"auto"],["SP","out","b",[4],"auto"],
        ["RE","out",["n_1","m_1","b_1","n_0","m_0","b_0"]],["FU","out","m_0","b_0","out_p1"],["AN","out","out_p1","parallel"],
        ["AN","out","n_1","vectorize"],["CA","acc","out","n_0"],["SP","acc","n",[16],"auto"],["AN","acc","n_1","vectorize"],
        ["SP","acc.u0","n",[64],"auto"],["SP","acc.u0","m",[4],"auto"],["SP","acc.u0","b",[1],"auto"],
        ["RE","acc.u0",["n_1","m_1","b_1","n_0","m_0","b_0","k$x"]],["AN","acc.u0","n_1","vectorize"],["AN","acc.u0","b_1","unroll"]])");
    const ActionList other = parse(R"([["SP","out","n",[32],"auto"],["SP","out","m",[64],"auto"],["SP","out","b",[2],"auto"],
        ["RE","out",["n_1","m_1","b_1","n_0","m_0","b_0"]],["AN","out","b_0","parallel"],["AN","out","n_1","vectorize"],
        ["CA","acc","out","n_0"],["SP","acc","n",[16],"auto"],["AN","acc","n_1","vectorize"],["SP","acc.u0","k$x",[2],"auto"],
        ["SP","acc.u0","n",[32],"auto"],["SP","acc.u0","m",[2],"auto"],["SP","acc.u0","b",[1],"auto"],
        ["RE","acc.u0",["n_1","m_1","b_1","k_x_1","n_0","m_0","b_0","k_x_0"]],["AN","acc.u0","n_1","vectorize"]])");
    const std::string file = testing::TempDir() + "/history_state.json";
    std::ofstream(file) << actions_to_json(state).dump();
    std::string fresh;
    ASSERT_EQ(test::run_worldtune("lower " + spec_text + " --actions " + file, fresh), 0) << fresh;
    for (int history = 0; history < 4; history++) {
        state_text(spec, other);
        EXPECT_EQ(state_text(spec, state), fresh) << "after " << history + 1 << " other lowerings";
    }
}
