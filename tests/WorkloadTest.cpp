// Tests of the workload module: every op against its plain C++ reference, spec parsing and errors,
// canonical text, network presets, stage facts, and the `workloads` command.
#include "workload/OpRegistry.h"
#include "workload/Presets.h"
#include "workload/Spec.h"
#include "workload/Winograd.h"
#include "workload/Workload.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace worldtune {
namespace {

using Halide::Buffer;

// Small shapes of every op and option, many with prime or odd extents so that nothing divides evenly.
const std::vector<std::string> kReferenceCases = {
    "matmul:M=7,N=13,K=31",
    "batch_matmul:B=3,M=7,N=5,K=13",
    "batch_matmul:B=2,M=5,N=7,K=9,trans_b=1",
    "dense:M=7,N=13,K=31",
    "dense:M=5,N=9,K=17,bias=1,act=relu",
    "dense:M=3,N=11,K=23,bias=1,act=gelu",
    "dense:M=4,N=6,K=5,act=gelu",
    "conv2d:N=1,C=3,H=9,W=9,K=4,R=3,S=3",
    "conv2d:N=1,C=3,H=9,W=7,K=4,R=3,S=3,pad=1",
    "conv2d:N=2,C=3,H=13,W=11,K=5,R=3,S=3,stride=2,pad=1,bias=1,act=relu",
    "conv2d:N=1,C=2,H=11,W=10,K=3,R=3,S=3,pad=2,dilation=2",
    "conv2d:N=1,C=4,H=7,W=7,K=6,R=3,S=3,pad=1,groups=2,bias=1",
    "conv2d:N=1,C=5,H=9,W=8,K=5,R=3,S=3,stride=2,pad=1,groups=5,bias=1,act=relu",
    "conv2d:N=1,C=3,H=6,W=7,K=6,R=3,S=3,groups=3",
    "conv2d:N=2,C=7,H=5,W=6,K=3,R=1,S=1,bias=1,act=gelu",
    "conv2d:N=1,C=3,H=10,W=11,K=2,R=2,S=3,stride=3,pad=1,act=gelu",
    "conv2d:N=1,C=3,H=15,W=15,K=4,R=7,S=7,stride=2,pad=3,bias=1,act=relu",
    "conv2d:N=1,C=3,H=9,W=9,K=4,R=3,S=3,pad=1,layout=NHWC",
    "conv2d:N=2,C=4,H=11,W=9,K=6,R=3,S=3,stride=2,pad=2,dilation=2,groups=2,bias=1,act=relu,layout=NHWC",
    "conv2d:N=1,C=6,H=7,W=8,K=6,R=3,S=3,pad=1,groups=6,bias=1,act=gelu,layout=NHWC",
    "conv2d:N=1,C=5,H=5,W=5,K=7,R=1,S=1,stride=2,layout=NHWC",
    "pool2d:N=1,C=3,H=13,W=11,R=3,S=3,stride=2,pad=1",
    "pool2d:N=1,C=3,H=13,W=11,R=3,S=3,stride=2,pad=1,kind=avg",
    "pool2d:N=2,C=2,H=8,W=9,R=2,S=2,stride=2",
    "pool2d:N=1,C=5,H=7,W=7,R=7,S=7,kind=avg",
    "pool2d:N=1,C=2,H=6,W=5,R=3,S=2,pad=1,kind=avg",
    "softmax:M=7,N=13",
    "softmax:M=1,N=31",
    "softmax:M=5,N=1",
    "layernorm:M=7,N=13",
    "layernorm:M=3,N=31",
};

std::vector<Buffer<float>> random_inputs(const Workload &w, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<Buffer<float>> inputs;
    for (const std::vector<int> &shape : w.input_shapes) {
        Buffer<float> b(shape);
        b.for_each_value([&](float &v) { v = dist(rng); });
        inputs.push_back(b);
    }
    return inputs;
}

/// Runs `w` on `inputs` (logical shapes; blocked weights arranged by bind_inputs) and checks every output
/// point against the op's reference.
void expect_matches_reference(Workload &w, const std::vector<Buffer<float>> &inputs) {
    ASSERT_EQ(inputs.size(), w.inputs.size());
    w.bind_inputs(inputs);
    Buffer<float> out(w.output_shape);
    w.pipeline().realize(out);
    int checked = 0, wrong = 0;
    out.for_each_element([&](const int *pos) {
        std::vector<int> coord(pos, pos + out.dimensions());
        const double want = reference_at(w, inputs, coord);
        const double got = out(pos);
        checked++;
        if (std::abs(got - want) <= 1e-3 * (1 + std::abs(want))) return;
        if (wrong++ < 3) {
            std::string at;
            for (int c : coord) at += (at.empty() ? "" : ",") + std::to_string(c);
            ADD_FAILURE() << "at (" << at << "): got " << got << ", reference " << want;
        }
    });
    EXPECT_EQ(wrong, 0) << wrong << " of " << checked << " points differ";
    EXPECT_EQ(int64_t(checked), int64_t(out.number_of_elements()));
}

TEST(WorkloadTest, EveryOpMatchesItsReference) {
    const uint32_t seed = 20240611;
    std::printf("random inputs seed %u\n", seed);
    std::set<std::string> ops_covered;
    for (const std::string &text : kReferenceCases) {
        SCOPED_TRACE(text);
        std::unique_ptr<Workload> w = build_workload(text);
        ops_covered.insert(w->spec.op());
        expect_matches_reference(*w, random_inputs(*w, seed));
        EXPECT_GT(w->flops, 0);
    }
    for (const OpDef *op : all_ops()) EXPECT_TRUE(ops_covered.count(op->name)) << "no reference case for " << op->name;
}

TEST(WorkloadTest, EveryWeightInBlocksAlongEveryDimMatchesTheReference) {
    // Each weight of each reference case stored in blocks of 3 along each of its dims in turn (InputBlocking:
    // most extents here are no whole number of blocks, so the padding is read too): the program built around
    // the stored shape computes what the plain one does.
    int blocked = 0;
    for (const std::string &text : kReferenceCases) {
        const std::unique_ptr<Workload> plain = build_workload(text);
        for (size_t i = 0; i < plain->inputs.size(); i++) {
            if (plain->input_roles[i] != InputRole::Weight) continue;
            for (size_t d = 0; d < plain->input_shapes[i].size(); d++) {
                SCOPED_TRACE(text + " " + plain->inputs[i].name() + " dim " + std::to_string(d));
                std::unique_ptr<Workload> w = build_workload(plain->spec, BuildChoices{{{plain->inputs[i].name(), InputBlocking{int(d), 3}}}, 0});
                ASSERT_EQ(w->inputs[i].dimensions(), int(plain->input_shapes[i].size()) + 1);
                expect_matches_reference(*w, random_inputs(*w, 20241206));
                blocked++;
            }
        }
    }
    EXPECT_GT(blocked, 10);
    // Only a weight, only a dim it has, only blocks of 2 or more, only an input that exists.
    const WorkloadSpec dense = WorkloadSpec::parse("dense:M=4,N=6,K=5");
    EXPECT_THROW(build_workload(dense, BuildChoices{{{"X", InputBlocking{0, 4}}}, 0}), SpecError);
    EXPECT_THROW(build_workload(dense, BuildChoices{{{"W", InputBlocking{2, 4}}}, 0}), SpecError);
    EXPECT_THROW(build_workload(dense, BuildChoices{{{"W", InputBlocking{0, 1}}}, 0}), SpecError);
    EXPECT_THROW(build_workload(dense, BuildChoices{{{"nope", InputBlocking{0, 4}}}, 0}), SpecError);
}

TEST(WorkloadTest, WinogradTransformsComputeTheCorrelation) {
    // In one dimension: m outputs of a 3-tap correlation are Aᵀ [(G g) ⊙ (Bᵀ d)], for any d and g.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (int m : winograd_tiles()) {
        SCOPED_TRACE(m);
        const int alpha = m + 2;
        for (int trial = 0; trial < 5; trial++) {
            std::vector<double> d(static_cast<size_t>(alpha), 0.0), g(3, 0.0);
            for (double &v : d) v = dist(rng);
            for (double &v : g) v = dist(rng);
            std::vector<double> product(static_cast<size_t>(alpha), 0.0);
            for (int xi = 0; xi < alpha; xi++) {
                double u = 0, v = 0;
                for (int r = 0; r < 3; r++) u += winograd_kernel_coefficient(m, xi, r) * g[size_t(r)];
                for (int a = 0; a < alpha; a++) v += winograd_input_coefficient(m, xi, a) * d[size_t(a)];
                product[size_t(xi)] = u * v;
            }
            for (int i = 0; i < m; i++) {
                double got = 0, want = 0;
                for (int xi = 0; xi < alpha; xi++) got += winograd_output_coefficient(m, i, xi) * product[size_t(xi)];
                for (int r = 0; r < 3; r++) want += d[size_t(i + r)] * g[size_t(r)];
                EXPECT_NEAR(got, want, 1e-12) << "output " << i;
            }
        }
    }
    EXPECT_FALSE(is_winograd_tile(3));
    EXPECT_THROW(winograd_input_coefficient(6, 0, 0), std::invalid_argument);
}

TEST(WorkloadTest, EveryWinogradFormMatchesTheReference) {
    // Dense 3x3 NCHW convolutions at stride 1, with and without padding, bias and activation, outputs that no
    // tile divides, a batch of two: the Winograd program (weights passed transformed) computes what the
    // direct one does.
    const std::vector<std::string> cases = {"conv2d:N=1,C=3,H=9,W=9,K=4,R=3,S=3",
                                            "conv2d:N=1,C=3,H=9,W=7,K=4,R=3,S=3,pad=1",
                                            "conv2d:N=2,C=5,H=11,W=13,K=3,R=3,S=3,pad=1,bias=1,act=relu",
                                            "conv2d:N=1,C=8,H=7,W=7,K=16,R=3,S=3,pad=1,bias=1,act=gelu"};
    for (const std::string &text : cases) {
        for (int m : winograd_tiles()) {
            SCOPED_TRACE(text + " m=" + std::to_string(m));
            std::unique_ptr<Workload> w = build_workload(WorkloadSpec::parse(text), BuildChoices{{}, m});
            EXPECT_EQ(w->winograd_tile, m);
            const size_t W = size_t(w->input_index("W"));
            EXPECT_EQ(w->input_winograd_tiles[W], m);
            EXPECT_EQ(w->inputs[W].dimensions(), 4);
            EXPECT_EQ(w->input_shapes[W][0], 3) << "the caller passes the logical weights";
            ASSERT_NE(w->find_func("wino_in"), nullptr);
            EXPECT_EQ(w->find_func("wino_in")->constant_index_dims, (std::vector<std::string>{"xi", "nu"}));
            EXPECT_EQ(w->find_func("wino_out")->constant_index_dims, (std::vector<std::string>{"i", "j"}));
            EXPECT_EQ(w->flops, build_workload(text)->flops) << "rates stay those of the direct algorithm";
            expect_matches_reference(*w, random_inputs(*w, 20261207));
        }
    }
    // No form: a stride, a dilation, groups, another window, NHWC, another op, a tile without a transform,
    // and the weight also stored in blocks.
    for (const char *text : {"conv2d:N=1,C=3,H=9,W=9,K=4,R=3,S=3,stride=2", "conv2d:N=1,C=3,H=9,W=9,K=4,R=3,S=3,dilation=2",
                             "conv2d:N=1,C=4,H=9,W=9,K=4,R=3,S=3,groups=2", "conv2d:N=1,C=3,H=9,W=9,K=4,R=1,S=1",
                             "conv2d:N=1,C=3,H=9,W=9,K=4,R=3,S=3,layout=NHWC", "dense:M=4,N=6,K=5"})
        EXPECT_THROW(build_workload(WorkloadSpec::parse(text), BuildChoices{{}, 2}), SpecError) << text;
    const WorkloadSpec conv = WorkloadSpec::parse("conv2d:N=1,C=3,H=9,W=9,K=4,R=3,S=3");
    EXPECT_THROW(build_workload(conv, BuildChoices{{}, 3}), SpecError);
    EXPECT_THROW(build_workload(conv, BuildChoices{{{"W", InputBlocking{3, 4}}}, 2}), SpecError);
}

/// Runs a workload on the given inputs (shapes must match) and returns its output.
Buffer<float> run(Workload &w, const std::vector<Buffer<float>> &inputs) {
    for (size_t i = 0; i < inputs.size(); i++) w.inputs[i].set(inputs[i]);
    Buffer<float> out(w.output_shape);
    w.pipeline().realize(out);
    return out;
}

TEST(WorkloadTest, GeluMatchesItsReferenceVectorizedAndSaturated) {
    // Far outside the [-1, 1] of the random inputs: exp(-2u) overflows to inf for very negative x and
    // underflows to 0 for large x, where GELU must be -0 and x, never NaN. Vectorized, as schedules run it.
    const std::vector<float> xs = {-200, -80, -30, -9, -3, -1, -0.25f, 0, 0.25f, 1, 3, 9, 30, 80, 200, -7.5f};
    Buffer<float> in(static_cast<int>(xs.size()));
    for (size_t i = 0; i < xs.size(); i++) in(static_cast<int>(i)) = xs[i];
    Halide::Var i("i");
    Halide::Func gelu("gelu");
    gelu(i) = apply_activation("gelu", in(i));
    gelu.vectorize(i, 16);
    Buffer<float> out = gelu.realize({static_cast<int>(xs.size())});
    for (size_t k = 0; k < xs.size(); k++) {
        const double want = reference_activation("gelu", xs[k]);
        EXPECT_NEAR(out(static_cast<int>(k)), want, 1e-5 + 1e-5 * std::abs(want)) << "x = " << xs[k];
    }
}

// The layouts the specs promise, checked across ops: an NHWC 1x1 conv of I[1][H][W][C] by W[1][1][C][K]
// is the matmul of I as [H*W][C] by W as [C][K]; the same data in the same memory order.
TEST(WorkloadTest, LayoutsAgreeAcrossOps) {
    auto conv = build_workload("conv2d:N=1,C=5,H=3,W=4,K=6,R=1,S=1,layout=NHWC");
    auto mm = build_workload("matmul:M=12,N=6,K=5");
    std::vector<Buffer<float>> conv_in = random_inputs(*conv, 7);
    std::vector<Buffer<float>> mm_in = {Buffer<float>(conv_in[0].data(), {5, 12}),
                                        Buffer<float>(conv_in[1].data(), {6, 5})};
    Buffer<float> a = run(*conv, conv_in), b = run(*mm, mm_in);
    ASSERT_EQ(a.number_of_elements(), b.number_of_elements());
    for (size_t i = 0; i < a.number_of_elements(); i++) EXPECT_FLOAT_EQ(a.data()[i], b.data()[i]) << i;
}

TEST(WorkloadTest, MalformedSpecsGiveOneLineErrors) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "empty"},
        {"nosuchop:M=1", "unknown op 'nosuchop'"},
        {"matmul:M=4,N=4", "missing key 'K'"},
        {"matmul:M=0,N=4,K=4", "must be positive"},
        {"matmul:M=-3,N=4,K=4", "must be positive"},
        {"matmul:M=4,N=4,K=x", "must be an integer"},
        {"matmul:M=4,N=4,K=4,Q=2", "unknown key 'Q'"},
        {"matmul:M=4,N=4,K=4,M=4", "given twice"},
        {"dense:M=4,N=4,K=4,act=tanh", "must be one of none|relu|gelu"},
        {"batch_matmul:B=2,M=2,N=2,K=2,trans_b=2", "must be one of 0|1"},
        {"conv2d:N=1,C=6,H=8,W=8,K=4,R=3,S=3,groups=4", "groups=4 must divide"},
        {"conv2d:N=1,C=6,H=8,W=8,K=9,R=3,S=3,groups=2", "groups=2 must divide"},
        {"conv2d:N=1,C=3,H=2,W=2,K=4,R=5,S=5", "not positive"},
        {"conv2d:N=1,C=3,H=8,W=8,K=4,R=3,S=3,pad=-1", "must be non-negative"},
        {"conv2d:N=1,C=3,H=8,W=8,K=4,R=3,S=3,stride=0", "must be positive"},
        {"conv2d:N=1,C=3,H=8,W=8,K=4,R=3,S=3,layout=CHWN", "must be one of NCHW|NHWC"},
        {"pool2d:N=1,C=3,H=8,W=8,R=2,S=2,pad=2", "smaller than the window"},
        {"pool2d:N=1,C=3,H=8,W=8,R=3,S=3,kind=min", "must be one of max|avg"},
        {"softmax:M=4", "missing key 'N'"},
        {"layernorm:M=4,N=4,eps=1", "unknown key 'eps'"},
    };
    for (const auto &[text, expected] : cases) {
        SCOPED_TRACE(text);
        try {
            WorkloadSpec::parse(text);
            ADD_FAILURE() << "parsed without error";
        } catch (const SpecError &e) {
            const std::string message = e.what();
            EXPECT_NE(message.find(expected), std::string::npos) << "message: " << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << "message: " << message;
        }
    }
}

TEST(WorkloadTest, CanonicalTextRoundTrips) {
    for (const std::string &text : kReferenceCases) {
        const WorkloadSpec spec = WorkloadSpec::parse(text);
        EXPECT_EQ(spec.canonical(), text);
        EXPECT_EQ(WorkloadSpec::parse(spec.canonical()).canonical(), spec.canonical());
    }
    // Keys in any order, defaults spelled out: the canonical text orders keys and leaves defaults out.
    EXPECT_EQ(WorkloadSpec::parse("matmul: K=3, N=2 ,M=1").canonical(), "matmul:M=1,N=2,K=3");
    EXPECT_EQ(WorkloadSpec::parse("conv2d:S=3,R=3,K=4,W=8,H=8,C=3,N=1,stride=1,pad=0,dilation=1,groups=1,bias=0,"
                                  "act=none,layout=NCHW")
                  .canonical(),
              "conv2d:N=1,C=3,H=8,W=8,K=4,R=3,S=3");
    EXPECT_EQ(WorkloadSpec::parse("dense:M=2,N=3,K=4,act=relu,bias=1").canonical(), "dense:M=2,N=3,K=4,bias=1,act=relu");
    EXPECT_EQ(WorkloadSpec::parse("pool2d:N=1,C=2,H=5,W=5,R=2,S=2,kind=max").canonical(), "pool2d:N=1,C=2,H=5,W=5,R=2,S=2");
    EXPECT_EQ(WorkloadSpec::parse("batch_matmul:B=1,M=2,N=3,K=4,trans_b=0"),
              WorkloadSpec::parse("batch_matmul:K=4,N=3,M=2,B=1"));
}

int count_op(const std::vector<PresetEntry> &entries, const std::string &op) {
    int n = 0;
    for (const PresetEntry &e : entries)
        if (e.spec.rfind(op + ":", 0) == 0) n += e.count;
    return n;
}

TEST(WorkloadTest, PresetsAreDistinctCanonicalAndBuild) {
    ASSERT_EQ(preset_names().size(), 11u);
    for (const std::string &name : preset_names()) {
        SCOPED_TRACE(name);
        const std::vector<PresetEntry> entries = preset(name);
        ASSERT_FALSE(entries.empty());
        std::set<std::string> seen;
        for (const PresetEntry &e : entries) {
            SCOPED_TRACE(e.spec);
            EXPECT_GT(e.count, 0);
            EXPECT_TRUE(seen.insert(e.spec).second) << "listed twice";
            const WorkloadSpec spec = WorkloadSpec::parse(e.spec);
            EXPECT_EQ(spec.canonical(), e.spec);
            std::unique_ptr<Workload> w = build_workload(spec);
            EXPECT_GT(w->flops, 0);
            EXPECT_TRUE(w->func_infos.back().is_output);
        }
    }
    // Layer counts of the real networks.
    EXPECT_EQ(count_op(preset("resnet50"), "conv2d"), 53);
    EXPECT_EQ(count_op(preset("resnet50"), "pool2d"), 2);
    EXPECT_EQ(count_op(preset("resnet50"), "dense"), 1);
    EXPECT_EQ(count_op(preset("mobilenet_v2"), "conv2d"), 52);
    EXPECT_EQ(count_op(preset("mobilenet_v2"), "dense"), 1);
    for (const std::string &name : {"bert_base", "gpt2"}) {
        EXPECT_EQ(count_op(preset(name), "batch_matmul"), 24) << name;
        EXPECT_EQ(count_op(preset(name), "softmax"), 12) << name;
        EXPECT_EQ(count_op(preset(name), "layernorm"), 25) << name;
        EXPECT_GE(count_op(preset(name), "dense"), 48) << name;
    }
    EXPECT_EQ(count_op(preset("resnet18"), "conv2d"), 20);
    EXPECT_EQ(count_op(preset("resnet18"), "pool2d"), 2);
    EXPECT_EQ(count_op(preset("mobilenet_v1"), "conv2d"), 27);
    EXPECT_EQ(count_op(preset("squeezenet1_1"), "conv2d"), 26);
    EXPECT_EQ(count_op(preset("squeezenet1_1"), "pool2d"), 4);
    EXPECT_EQ(count_op(preset("vit_b16"), "batch_matmul"), 24);
    EXPECT_EQ(count_op(preset("vit_b16"), "layernorm"), 25);
    EXPECT_EQ(count_op(preset("bert_large"), "batch_matmul"), 48);
    EXPECT_EQ(count_op(preset("bert_large"), "layernorm"), 49);
    EXPECT_EQ(count_op(preset("densenet121"), "conv2d"), 1 + 2 * (6 + 12 + 24 + 16) + 3);
    EXPECT_EQ(count_op(preset("t5_small_encoder"), "layernorm"), 13);
    // ResNet-50 at batch 1 is about 4.1 G multiply-adds; ResNet-18 about 1.8 G.
    double resnet18_gflop = 0;
    for (const PresetEntry &e : preset("resnet18"))
        resnet18_gflop += e.count * find_op(WorkloadSpec::parse(e.spec).op())->flops(WorkloadSpec::parse(e.spec)) * 1e-9;
    EXPECT_NEAR(resnet18_gflop, 3.6, 0.2);
    double resnet_gflop = 0;
    for (const PresetEntry &e : preset("resnet50"))
        resnet_gflop += e.count * find_op(WorkloadSpec::parse(e.spec).op())->flops(WorkloadSpec::parse(e.spec)) * 1e-9;
    EXPECT_NEAR(resnet_gflop, 8.2, 0.3);

    try {
        preset("vgg16");
        ADD_FAILURE() << "unknown network accepted";
    } catch (const SpecError &e) {
        EXPECT_NE(std::string(e.what()).find("resnet50"), std::string::npos) << e.what();
    }
}

/// The names of a stage's loops, innermost first, with "*" marking reduction loops.
std::string loops(const Workload &w, const std::string &stage) {
    const StageInfo *s = w.find_stage(stage);
    if (!s) return "<no stage " + stage + ">";
    std::string text;
    for (const LoopDim &d : s->dims) text += (text.empty() ? "" : " ") + d.name + (d.reduction ? "*" : "") + "=" + std::to_string(d.extent);
    return text;
}

std::vector<std::string> func_names(const Workload &w) {
    std::vector<std::string> names;
    for (const FuncInfo &f : w.func_infos) names.push_back(f.name);
    return names;
}

using Names = std::vector<std::string>;

/// The Funcs (not inputs) that a Func reads, sorted.
Names func_producers(const Workload &w, const std::string &name) {
    Names names;
    for (const std::string &p : w.find_func(name)->producers)
        if (w.find_func(p)) names.push_back(p);
    std::sort(names.begin(), names.end());
    return names;
}

TEST(WorkloadTest, StageFacts) {
    auto w = build_workload("batch_matmul:B=2,M=3,N=5,K=7,trans_b=1");
    EXPECT_EQ(func_names(*w), (Names{"acc", "out"}));
    EXPECT_EQ(loops(*w, "acc.u0"), "k$x*=7 n=5 m=3 b=2");
    EXPECT_TRUE(w->find_func("out")->is_pure());

    w = build_workload("dense:M=3,N=5,K=7,bias=1,act=relu");
    EXPECT_EQ(func_names(*w), (Names{"acc", "out"}));
    EXPECT_EQ(loops(*w, "acc.u0"), "k$x*=7 n=5 m=3");
    EXPECT_EQ(func_producers(*w, "out"), (Names{"acc"}));
    EXPECT_EQ(w->inputs.size(), 3u);
    EXPECT_EQ(build_workload("dense:M=3,N=5,K=7")->inputs.size(), 2u);

    w = build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=3,S=3,stride=2,pad=1,groups=2");
    EXPECT_EQ(func_names(*w), (Names{"pad", "acc", "out"}));
    EXPECT_TRUE(w->find_func("pad")->is_pure());
    EXPECT_EQ(func_producers(*w, "pad"), Names{});
    EXPECT_EQ(func_producers(*w, "acc"), (Names{"pad"}));
    EXPECT_EQ(w->find_func("pad")->consumers, (Names{"acc"}));
    EXPECT_EQ(loops(*w, "pad"), "x=11 y=11 c=4 n=1");
    EXPECT_EQ(loops(*w, "acc"), "x=5 y=5 k=6 n=1");
    EXPECT_EQ(loops(*w, "acc.u0"), "r$x*=3 r$y*=3 r$z*=2 x=5 y=5 k=6 n=1");
    EXPECT_EQ(w->output_shape, (std::vector<int>{5, 5, 6, 1}));
    EXPECT_EQ(w->input_shapes[1], (std::vector<int>{3, 3, 2, 6}));

    w = build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=3,S=3,layout=NHWC");
    EXPECT_EQ(func_names(*w), (Names{"acc", "out"}));
    EXPECT_EQ(loops(*w, "acc.u0"), "r$x*=4 r$y*=3 r$z*=3 k=6 x=7 y=7 n=1");
    EXPECT_EQ(w->input_shapes[0], (std::vector<int>{4, 9, 9, 1}));
    EXPECT_EQ(w->input_shapes[1], (std::vector<int>{6, 4, 3, 3}));

    w = build_workload("pool2d:N=1,C=3,H=13,W=11,R=3,S=3,stride=2,pad=1");
    EXPECT_EQ(func_names(*w), (Names{"pad", "acc", "out"}));
    EXPECT_EQ(loops(*w, "acc.u0"), "r$x*=3 r$y*=3 x=6 y=7 c=3 n=1");

    w = build_workload("softmax:M=4,N=6");
    EXPECT_EQ(func_names(*w), (Names{"rowmax", "expv", "rowsum", "out"}));
    EXPECT_TRUE(w->find_func("rowmax")->has_reduction());
    EXPECT_TRUE(w->find_func("rowsum")->has_reduction());
    EXPECT_TRUE(w->find_func("expv")->is_pure());
    EXPECT_EQ(loops(*w, "rowsum.u0"), "k$x*=6 m=4");
    EXPECT_EQ(w->find_func("expv")->consumers, (Names{"rowsum", "out"}));

    w = build_workload("layernorm:M=4,N=6");
    EXPECT_EQ(func_names(*w), (Names{"mean", "var", "out"}));
    EXPECT_EQ(loops(*w, "var.u0"), "k$x*=6 m=4");
    EXPECT_EQ(func_producers(*w, "out"), (Names{"mean", "var"}));
    EXPECT_EQ(func_producers(*w, "var"), (Names{"mean"}));

    EXPECT_DOUBLE_EQ(build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=3,S=3,pad=1,groups=2,bias=1,act=relu")->flops,
                     81.0 * 6 * (2.0 * 2 * 9 + 2));
}

/// The read of `input` in `stage` (the first one).
const StageRead &read_of(const Workload &w, const std::string &stage, const std::string &input) {
    for (const StageRead &r : w.find_stage(stage)->reads)
        if (r.producer == input) return r;
    throw std::runtime_error(stage + " does not read " + input);
}

TEST(WorkloadTest, ReadsThroughAViewSubstituteEveryArgumentAtOnce) {
    // v(x, y) = I(2x, y) read as v(y, x): through the view, I's dim 0 steps with y (at the stride), dim 1 with
    // x. Substituting one argument after the other would read I(2x, x).
    Workload w;
    WorkloadBuilder b(w);
    Halide::ImageParam I = b.input("I", {8, 8});
    Halide::Var x("x"), y("y");
    Halide::Func v("v"), f("f");
    v(x, y) = I(2 * x, y);
    b.view(v, {4, 8});
    f(x, y) = v(y, x);
    b.output(f, {8, 4});
    const StageRead &read = read_of(w, "f", "I");
    EXPECT_EQ(read.dim_vars, (std::vector<std::vector<std::string>>{{"y"}, {"x"}}));
    EXPECT_EQ(read.dim_of("y"), -1);
    EXPECT_EQ(read.dim_of("x"), 1);
}

TEST(WorkloadTest, StageReadsNameTheLoopsOfEachDim) {
    // dense: acc(n, m) += X(k, m) * W(k, n): W is read along n through its outer dim (a stride of K).
    auto w = build_workload("dense:M=3,N=5,K=7");
    const StageRead &weights = read_of(*w, "acc.u0", "W");
    EXPECT_EQ(weights.dim_vars, (std::vector<Names>{{"k$x"}, {"n"}}));
    EXPECT_EQ(weights.dim_of("n"), 1);
    EXPECT_EQ(weights.dim_of("k$x"), 0);
    EXPECT_EQ(weights.dim_of("m"), -1);
    EXPECT_EQ(read_of(*w, "acc.u0", "X").dim_of("m"), 1);
    EXPECT_TRUE(w->find_stage("acc")->reads.empty());

    // NCHW convolution without padding: the weights W(s, r, c, k) along k through dim 3; the input's rows
    // step by the stride, so x (stride 2) has no unit-step dim while r$x does.
    w = build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=3,S=3,stride=2");
    EXPECT_EQ(read_of(*w, "acc.u0", "W").dim_of("k"), 3);
    const StageRead &image = read_of(*w, "acc.u0", "I");
    EXPECT_EQ(image.dim_vars[0], (Names{"x", "r$x"}));
    EXPECT_EQ(image.dim_of("x"), -1);
    EXPECT_EQ(image.dim_of("r$x"), 0);

    // Grouped: the input channel is k / (K/G) * (C/G) + r$z, which does not step by one along k.
    w = build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=3,S=3,groups=2");
    EXPECT_EQ(read_of(*w, "acc.u0", "I").dim_of("k"), -1);
    // Padded: the reduction reads the Func `pad`, not the input.
    w = build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=3,S=3,pad=1");
    for (const StageRead &r : w->find_stage("acc.u0")->reads) EXPECT_NE(r.producer, "I");
    EXPECT_FALSE(read_of(*w, "acc.u0", "pad").is_input);
    EXPECT_EQ(read_of(*w, "acc.u0", "pad").dim_of("r$x"), 0);
    // A 1x1 window at a stride reads through the view `sub`; the reads are recorded as the inlined program
    // reads: the input, x at the stride (no unit step), and r$x, the window's loop of extent 1, in dim 0.
    w = build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=1,S=1,stride=2");
    ASSERT_NE(w->find_func("sub"), nullptr);
    EXPECT_TRUE(w->find_func("sub")->view);
    EXPECT_FALSE(w->find_func("acc")->view);
    EXPECT_EQ(func_producers(*w, "acc"), (Names{"sub"}));
    const StageRead &through = read_of(*w, "acc.u0", "I");
    EXPECT_TRUE(through.is_input);
    EXPECT_EQ(through.dim_vars[0], (Names{"x", "r$x"}));
    EXPECT_EQ(through.dim_of("x"), -1);
    EXPECT_EQ(read_of(*w, "sub", "I").dim_of("c"), 2);
    // Stride 1 or a wider window: no view.
    EXPECT_EQ(build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=1,S=1")->find_func("sub"), nullptr);
    EXPECT_EQ(build_workload("conv2d:N=1,C=4,H=9,W=9,K=6,R=3,S=3,stride=2")->find_func("sub"), nullptr);
    // softmax: the row sum reads the Func expv along its innermost dim.
    w = build_workload("softmax:M=4,N=6");
    EXPECT_EQ(read_of(*w, "rowsum.u0", "expv").dim_of("k$x"), 0);
    EXPECT_TRUE(read_of(*w, "rowmax.u0", "X").is_input);
}

TEST(WorkloadTest, WorkloadsCommandListsNetworks) {
    std::string out;
    EXPECT_EQ(test::run_worldtune("workloads --network resnet50", out), 0);
    ASSERT_EQ(test::count_lines(out), int(preset("resnet50").size())) << out;
    EXPECT_NE(out.substr(0, out.find('\n')).find(preset("resnet50")[0].spec), std::string::npos) << out;

    EXPECT_NE(test::run_worldtune("workloads --network vgg16", out), 0);
    ASSERT_EQ(test::count_lines(out), 1) << out;
    EXPECT_NE(out.find("unknown network 'vgg16'"), std::string::npos) << out;
}

}  // namespace
}  // namespace worldtune
