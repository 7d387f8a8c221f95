// End-to-end tests of the command line: the main job works, and bad input gets one clear line and exit 1.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

using worldtune::test::count_lines;
using worldtune::test::run_worldtune;

namespace {

std::string temp_path(const std::string &name) { return testing::TempDir() + "/cli_" + name; }

}  // namespace

TEST(Cli, TuneMeasuresStoresAndPrintsTheBestSchedule) {
    const std::string db = temp_path("tune.db");
    std::remove(db.c_str());
    std::string out;
    ASSERT_EQ(run_worldtune("tune matmul:M=48,N=40,K=24 --trials 4 --repeats 2 --min-time 0.001 --db " + db, out), 0) << out;
    EXPECT_NE(out.find("4 measured"), std::string::npos) << out;
    EXPECT_NE(out.find("GFLOP/s"), std::string::npos);
    EXPECT_NE(out.find("out.split(Var(\"n\")"), std::string::npos) << "the best schedule is printed as Halide code";
    // A second run resumes: the four states in the database are not measured again.
    ASSERT_EQ(run_worldtune("tune matmul:M=48,N=40,K=24 --trials 3 --space v1 --repeats 2 --min-time 0.001 --db " + db, out), 0) << out;
    EXPECT_NE(out.find("4 states already"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("records list matmul:M=48,N=40,K=24 --db " + db, out), 0) << out;
    EXPECT_GE(count_lines(out), 7);
}

TEST(Cli, LowerPrintsTheStateAndItsPrefixes) {
    const std::string actions = temp_path("actions.json");
    std::ofstream(actions) << R"([["SP","out","n",[8],"auto"],["AN","out","m","parallel"]])";
    std::string s0, s1, s2, full;
    ASSERT_EQ(run_worldtune("lower matmul:M=16,N=16,K=16 --actions " + actions + " --prefix 0", s0), 0);
    ASSERT_EQ(run_worldtune("lower matmul:M=16,N=16,K=16 --actions " + actions + " --prefix 1", s1), 0);
    ASSERT_EQ(run_worldtune("lower matmul:M=16,N=16,K=16 --actions " + actions, full), 0);
    ASSERT_EQ(run_worldtune("lower matmul:M=16,N=16,K=16", s2), 0);
    EXPECT_EQ(s0, s2);
    EXPECT_NE(s0, s1);
    EXPECT_NE(s1, full);
    EXPECT_NE(full.find("parallel"), std::string::npos);
}

TEST(Cli, BadInputGivesOneClearLine) {
    const std::string bad_json = temp_path("bad.json");
    std::ofstream(bad_json) << "[[\"SP\", \"out\"";
    const std::string bad_action = temp_path("bad_action.json");
    std::ofstream(bad_action) << R"([["AN","out","nowhere","parallel"]])";
    struct Case {
        std::string args, expected;
    } cases[] = {
        {"lower conv9d:N=1", "unknown op 'conv9d'"},
        {"lower matmul:M=4,N=4", "missing key 'K'"},
        {"lower matmul:M=4,N=0,K=4", "must be positive"},
        {"lower matmul:M=4,N=4,K=4,Q=3", "unknown key 'Q'"},
        {"lower matmul:M=4,N=4,K=4 --actions /nonexistent.json", "cannot read"},
        {"lower matmul:M=4,N=4,K=4 --actions " + bad_json, "not valid JSON"},
        {"lower matmul:M=4,N=4,K=4 --actions " + bad_action, "action 0"},
        {"lower matmul:M=4,N=4,K=4 --actions " + bad_action + " --prefix 5", "exceeds"},
        {"measure matmul:M=4,N=4,K=4 --no-store --actions " + bad_action, "schedule"},
        {"tune matmul:M=4,N=4,K=4 --model oracle", "oracle"},
        {"tune matmul:M=4,N=4,K=4 --space v99", "v99"},
        {"dataset collect --space v0", "v0"},
        {"workloads --network alexnet", "alexnet"},
        {"sample matmul:M=4,N=4,K=4 --space v11", "v11"},
        {"tune --network bert_base --hours -1", "--hours"},
        {"estimate --network alexnet", "alexnet"},
        {"estimate --network resnet50 --db /nonexistent.db", "no database"},
        {"records import /nonexistent.jsonl --db " + temp_path("x.db"), "nonexistent"},
        {"dataset split --split bogus", "unknown split 'bogus'"},
    };
    for (const Case &c : cases) {
        std::string out;
        EXPECT_NE(run_worldtune(c.args, out), 0) << c.args;
        EXPECT_NE(out.find(c.expected), std::string::npos) << c.args << " printed: " << out;
        EXPECT_EQ(out.find("terminate called"), std::string::npos) << c.args;
        EXPECT_EQ(out.find("Aborted"), std::string::npos) << c.args;
    }
}

TEST(Cli, DatasetSplitPartitionsAListAsExportDoes) {
    // Every workload of the list lands in exactly one split; the counts follow the fractions roughly.
    const std::string path = std::string(WORLDTUNE_SOURCE_DIR) + "/data/collection_workloads.txt";
    std::string train, val, test;
    ASSERT_EQ(run_worldtune("dataset split --split train --list " + path, train), 0) << train;
    ASSERT_EQ(run_worldtune("dataset split --split val --list " + path, val), 0) << val;
    ASSERT_EQ(run_worldtune("dataset split --split test --list " + path, test), 0) << test;
    const int total = count_lines(train) + count_lines(val) + count_lines(test);
    std::ifstream list(path);
    int specs = 0;
    for (std::string line; std::getline(list, line);) specs += !line.empty() && line[0] != '#';
    EXPECT_EQ(total, specs);
    EXPECT_GT(count_lines(train), specs / 2);
    for (const std::string &other : {val, test}) {
        std::istringstream lines(other);
        for (std::string spec; std::getline(lines, spec);) EXPECT_EQ(train.find(spec + "\n"), std::string::npos) << spec;
    }
}

TEST(Cli, SampleGivesValidSchedulesForEveryOp) {
    const char *specs[] = {"batch_matmul:B=2,M=16,N=24,K=8,trans_b=1", "dense:M=8,N=40,K=16,bias=1,act=gelu",
                           "conv2d:N=1,C=8,H=9,W=9,K=8,R=3,S=3,pad=1", "conv2d:N=1,C=8,H=9,W=9,K=8,R=3,S=3,pad=1,groups=8,layout=NHWC",
                           "pool2d:N=1,C=4,H=9,W=9,R=3,S=3,stride=2,pad=1", "softmax:M=12,N=40", "layernorm:M=12,N=40"};
    for (const char *spec : specs) {
        std::string out;
        ASSERT_EQ(run_worldtune(std::string("sample ") + spec + " --count 5 --seed 7", out), 0) << spec << ": " << out;
        EXPECT_EQ(count_lines(out), 5) << out;
    }
}

/// Compiles DIR/main.cpp against an exported kernel DIR/NAME.a and runs it; `out` holds what it printed.
void link_and_run(const std::string &dir, const std::string &name, std::string &out) {
    ASSERT_EQ(worldtune::test::run_command("g++ -std=c++17 -O1 -I" + dir + " -I/usr/include/halide14 " + dir + "/main.cpp " + dir +
                                               "/" + name + ".a -o " + dir + "/main -lpthread -ldl",
                                           out),
              0)
        << out;
    ASSERT_EQ(worldtune::test::run_command(dir + "/main", out), 0) << out;
}

TEST(Cli, BestAndExportGiveCodeAndALinkableKernel) {
    const std::string db = temp_path("export.db"), dir = temp_path("export_out");
    std::remove(db.c_str());
    const std::string spec = "matmul:M=24,N=40,K=16";
    std::string out;
    ASSERT_EQ(run_worldtune("tune " + spec + " --trials 3 --repeats 2 --min-time 0.001 --quiet --db " + db, out), 0) << out;
    ASSERT_EQ(run_worldtune("best " + spec + " --db " + db, out), 0) << out;
    EXPECT_NE(out.find("out.split("), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("best " + spec + " --json --db " + db, out), 0) << out;
    EXPECT_EQ(out.rfind("[[", 0), 0u) << out;
    ASSERT_EQ(run_worldtune("export " + spec + " --out " + dir + " --name mm --db " + db, out), 0) << out;
    // Link the kernel into a small program that checks it against a plain loop.
    const std::string main_cpp = dir + "/main.cpp";
    std::ofstream(main_cpp) << R"(#include "mm.h"
#include "HalideBuffer.h"
#include <cmath>
#include <cstdio>
int main() {
    const int M = 24, N = 40, K = 16;
    Halide::Runtime::Buffer<float> A(K, M), B(N, K), C(N, M);
    for (int m = 0; m < M; m++) for (int k = 0; k < K; k++) A(k, m) = float((m * 7 + k * 3) % 11) - 5;
    for (int k = 0; k < K; k++) for (int n = 0; n < N; n++) B(n, k) = float((k * 5 + n) % 13) - 6;
    if (mm(A, B, C) != 0) return 2;
    for (int m = 0; m < M; m++) for (int n = 0; n < N; n++) {
        float ref = 0;
        for (int k = 0; k < K; k++) ref += A(k, m) * B(n, k);
        if (std::fabs(ref - C(n, m)) > 1e-3f) { std::printf("mismatch at %d %d\n", n, m); return 1; }
    }
    std::printf("kernel ok\n");
    return 0;
}
)";
    link_and_run(dir, "mm", out);
    EXPECT_NE(out.find("kernel ok"), std::string::npos);
    // Nothing to export for a workload never tuned.
    EXPECT_NE(run_worldtune("export matmul:M=5,N=5,K=5 --out " + dir + " --db " + db, out), 0);
    EXPECT_NE(out.find("no successful record"), std::string::npos) << out;
}

/// How an exported dense kernel takes its weights W (K x N): as the workload defines it, n-innermost (a
/// weight layout, search space v3) or stored in blocks of 16 along n (search space 8).
enum class WeightPassing { Plain, NInnermost, Blocks16 };

/// A program that runs the exported dense kernel NAME (M=6, N=40, K=24) and checks it against a plain loop;
/// a kernel that wants W arranged is first checked to refuse W as the workload defines it.
std::string dense_kernel_check(const std::string &name, WeightPassing passing) {
    std::string program = "#include \"" + name + ".h\"\n";
    program += R"(#include "HalideBuffer.h"
#include <cmath>
#include <cstdio>
void report(void *, const char *message) { std::printf("refused: %s\n", message); }  // instead of abort()
int main() {
    halide_set_error_handler(report);
    const int M = 6, N = 40, K = 24;
    Halide::Runtime::Buffer<float> X(K, M), W(K, N), Y(N, M);
    Halide::Runtime::Buffer<float> Wn({K, N}, {1, 0});  // n innermost
    Halide::Runtime::Buffer<float> Wb(16, K, 3);          // blocks of 16 along n, zeros past n = 40
    Wb.fill(0.0f);
    for (int m = 0; m < M; m++) for (int k = 0; k < K; k++) X(k, m) = float((m * 7 + k * 3) % 11) - 5;
    for (int n = 0; n < N; n++) for (int k = 0; k < K; k++) W(k, n) = Wn(k, n) = Wb(n % 16, k, n / 16) = float((k * 5 + n) % 13) - 6;
)";
    if (passing == WeightPassing::Plain) program += "    if (KERNEL(X, W, Y) != 0) return 2;\n";
    if (passing != WeightPassing::Plain)
        program += "    if (KERNEL(X, W, Y) == 0) { std::printf(\"the default layout was accepted\\n\"); return 3; }\n";
    if (passing == WeightPassing::NInnermost) program += "    if (KERNEL(X, Wn, Y) != 0) return 2;\n";
    if (passing == WeightPassing::Blocks16) program += "    if (KERNEL(X, Wb, Y) != 0) return 2;\n";
    program += R"(    for (int m = 0; m < M; m++) for (int n = 0; n < N; n++) {
        float ref = 0;
        for (int k = 0; k < K; k++) ref += X(k, m) * W(k, n);
        if (std::fabs(ref - Y(n, m)) > 1e-3f) { std::printf("mismatch at %d %d\n", n, m); return 1; }
    }
    std::printf("kernel ok\n");
    return 0;
}
)";
    for (size_t at = program.find("KERNEL"); at != std::string::npos; at = program.find("KERNEL", at)) program.replace(at, 6, name);
    return program;
}

TEST(Cli, ExportedKernelWithAPackedInputIsCorrect) {
    // A dense layer whose weights W[n][k] are packed per output tile into a buffer that stores n innermost
    // (search space v2's packed-input rule): measured, exported, linked and checked against a plain loop.
    const std::string db = temp_path("packed.db"), dir = temp_path("packed_out"), actions = temp_path("packed.json");
    std::remove(db.c_str());
    const std::string spec = "dense:M=6,N=40,K=24";
    std::ofstream(actions) << R"([["SP","out","n",[16],"guard"],["RE","out",["n_1","n_0","m"]],["AN","out","m","parallel"],)"
                              R"(["AN","out","n_1","vectorize"],["CA","acc","out","n_0"],["SP","acc.u0","n",[8],"guard"],)"
                              R"(["RE","acc.u0",["n_1","k$x","n_0","m"]],["AN","acc.u0","n_1","vectorize"],["CH","W","acc"],)"
                              R"(["SO","W_in_acc",["_1","_0"]],["CA","W_in_acc","out","n_0"],["SP","W_in_acc","_1",[8],"guard"],)"
                              R"(["AN","W_in_acc","_1_1","vectorize"]])";
    std::string out;
    ASSERT_EQ(run_worldtune("lower " + spec + " --actions " + actions, out), 0) << out;
    EXPECT_NE(out.find("W_im_in_acc"), std::string::npos) << out;  // Halide's name of the wrapper
    ASSERT_EQ(run_worldtune("measure " + spec + " --actions " + actions + " --repeats 1 --min-time 0 --db " + db, out), 0) << out;
    EXPECT_NE(out.find("passed"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("export " + spec + " --out " + dir + " --name dn --db " + db, out), 0) << out;
    std::ofstream(dir + "/main.cpp") << dense_kernel_check("dn", WeightPassing::Plain);
    link_and_run(dir, "dn", out);
    EXPECT_NE(out.find("kernel ok"), std::string::npos) << out;
}

TEST(Cli, ExportedKernelWithAWeightLayoutIsCorrect) {
    // The same dense layer with W asked for in the packed layout (search space v3): the caller passes W
    // n-innermost, as export says; the kernel refuses W in its default layout.
    const std::string db = temp_path("layout.db"), dir = temp_path("layout_out"), actions = temp_path("layout.json");
    std::remove(db.c_str());
    const std::string spec = "dense:M=6,N=40,K=24";
    std::ofstream(actions) << R"([["SP","out","n",[16],"guard"],["RE","out",["n_1","n_0","m"]],["AN","out","m","parallel"],)"
                              R"(["AN","out","n_1","vectorize"],["CA","acc","out","n_0"],["SP","acc.u0","n",[8],"guard"],)"
                              R"(["RE","acc.u0",["n_1","k$x","n_0","m"]],["AN","acc.u0","n_1","vectorize"],["SO","W",["_1","_0"]]])";
    std::string out;
    ASSERT_EQ(run_worldtune("measure " + spec + " --actions " + actions + " --repeats 1 --min-time 0 --db " + db, out), 0) << out;
    EXPECT_NE(out.find("passed"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("best " + spec + " --db " + db, out), 0) << out;
    EXPECT_NE(out.find("W.dim(0).set_stride(40); W.dim(1).set_stride(1);"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("export " + spec + " --out " + dir + " --name dl --db " + db, out), 0) << out;
    EXPECT_NE(out.find("pass W in the schedule's layout, strides [40,1]"), std::string::npos) << out;
    std::ofstream(dir + "/main.cpp") << dense_kernel_check("dl", WeightPassing::NInnermost);
    link_and_run(dir, "dl", out);
    EXPECT_NE(out.find("refused: "), std::string::npos) << out;
    EXPECT_NE(out.find("kernel ok"), std::string::npos) << out;
}

TEST(Cli, ExportedKernelWithWeightsInBlocksIsCorrect) {
    // The same dense layer with W asked for stored in blocks of 16 along n (search space 8), N = 40 not a
    // whole number of blocks: measured and checked, printed, exported, linked, and checked against a plain
    // loop with W passed as export says; the kernel refuses W as the workload defines it.
    const std::string db = temp_path("blocks.db"), dir = temp_path("blocks_out"), actions = temp_path("blocks.json");
    std::remove(db.c_str());
    const std::string spec = "dense:M=6,N=40,K=24";
    std::ofstream(actions) << R"([["BL","W","_1",16],["SP","out","n",[16],"guard"],["RE","out",["n_1","n_0","m"]],)"
                              R"(["AN","out","m","parallel"],["AN","out","n_1","vectorize"],["CA","acc","out","n_0"],)"
                              R"(["SP","acc.u0","n",[16],"guard"],["RE","acc.u0",["n_1","k$x","n_0","m"]],["AN","acc.u0","n_1","vectorize"]])";
    std::string out;
    ASSERT_EQ(run_worldtune("lower " + spec + " --actions " + actions, out), 0) << out;
    EXPECT_NE(out.find("W[ramp("), std::string::npos) << out;  // a dense vector load, no gather
    ASSERT_EQ(run_worldtune("measure " + spec + " --actions " + actions + " --repeats 1 --min-time 0 --db " + db, out), 0) << out;
    EXPECT_NE(out.find("passed"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("best " + spec + " --db " + db, out), 0) << out;
    EXPECT_NE(out.find("// pass W stored in blocks of 16 along _1"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("export " + spec + " --out " + dir + " --name db --db " + db, out), 0) << out;
    EXPECT_NE(out.find("pass W stored in blocks of 16 along dim 1, shape [16,24,3]"), std::string::npos) << out;
    std::ofstream(dir + "/main.cpp") << dense_kernel_check("db", WeightPassing::Blocks16);
    link_and_run(dir, "db", out);
    EXPECT_NE(out.find("refused: "), std::string::npos) << out;
    EXPECT_NE(out.find("kernel ok"), std::string::npos) << out;
}

TEST(Cli, ExportedWinogradKernelIsCorrect) {
    // A 3x3 convolution computed by Winograd's F(2, 3) (search space 9): measured and checked, printed,
    // exported, linked, and checked against plain loops with W passed transformed as export says (the
    // transform written out here from the published G); the kernel refuses the untransformed W.
    const std::string db = temp_path("winograd.db"), dir = temp_path("winograd_out"), actions = temp_path("winograd.json");
    std::remove(db.c_str());
    const std::string spec = "conv2d:N=1,C=4,H=7,W=6,K=8,R=3,S=3,pad=1";
    std::ofstream(actions) << R"([["WG","acc",2],["CR","wino_in"],["RE","wino_in",["xi","nu","c","tx","ty","n"]],)"
                              R"(["AN","wino_in","xi","unroll"],["AN","wino_in","nu","unroll"],["CR","acc"],)"
                              R"(["SP","acc.u0","k",[8],"auto"],["AN","acc.u0","k_1","vectorize"],["CR","wino_out"]])";
    std::string out;
    ASSERT_EQ(run_worldtune("measure " + spec + " --actions " + actions + " --repeats 1 --min-time 0 --db " + db, out), 0) << out;
    EXPECT_NE(out.find("passed"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("best " + spec + " --db " + db, out), 0) << out;
    EXPECT_NE(out.find("// compute acc by Winograd's F(2, 3)"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("export " + spec + " --out " + dir + " --name wg --db " + db, out), 0) << out;
    EXPECT_NE(out.find("pass W transformed for Winograd's F(2, 3)"), std::string::npos) << out;
    EXPECT_NE(out.find("shape [8,4,4,4]"), std::string::npos) << out;
    std::ofstream(dir + "/main.cpp") << R"(#include "wg.h"
#include "HalideBuffer.h"
#include <cmath>
#include <cstdio>
void report(void *, const char *message) { std::printf("refused: %s\n", message); }  // instead of abort()
int main() {
    halide_set_error_handler(report);
    const int C = 4, H = 7, Wd = 6, K = 8;
    const float G[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
    Halide::Runtime::Buffer<float> I(Wd, H, C, 1), W(3, 3, C, K), U(K, C, 4, 4), Y(Wd, H, K, 1);
    for (int c = 0; c < C; c++) for (int y = 0; y < H; y++) for (int x = 0; x < Wd; x++) I(x, y, c, 0) = float((x * 3 + y * 5 + c) % 7) - 3;
    for (int k = 0; k < K; k++) for (int c = 0; c < C; c++) for (int r = 0; r < 3; r++) for (int s = 0; s < 3; s++)
        W(s, r, c, k) = float((s + 2 * r + 3 * c + 5 * k) % 9) - 4;
    for (int k = 0; k < K; k++) for (int c = 0; c < C; c++) for (int xi = 0; xi < 4; xi++) for (int nu = 0; nu < 4; nu++) {
        float u = 0;
        for (int s = 0; s < 3; s++) for (int r = 0; r < 3; r++) u += G[xi][s] * G[nu][r] * W(s, r, c, k);
        U(k, c, xi, nu) = u;
    }
    if (wg(I, W, Y) == 0) { std::printf("the untransformed weights were accepted\n"); return 3; }
    if (wg(I, U, Y) != 0) return 2;
    for (int k = 0; k < K; k++) for (int y = 0; y < H; y++) for (int x = 0; x < Wd; x++) {
        float ref = 0;
        for (int c = 0; c < C; c++) for (int r = 0; r < 3; r++) for (int s = 0; s < 3; s++) {
            const int ix = x + s - 1, iy = y + r - 1;
            if (ix >= 0 && ix < Wd && iy >= 0 && iy < H) ref += I(ix, iy, c, 0) * W(s, r, c, k);
        }
        if (std::fabs(ref - Y(x, y, k, 0)) > 1e-3f) { std::printf("mismatch at %d %d %d\n", x, y, k); return 1; }
    }
    std::printf("kernel ok\n");
    return 0;
}
)";
    link_and_run(dir, "wg", out);
    EXPECT_NE(out.find("refused: "), std::string::npos) << out;
    EXPECT_NE(out.find("kernel ok"), std::string::npos) << out;
}

TEST(Cli, NetworkTuningReportsEverySubgraph) {
    const std::string db = temp_path("network.db");
    std::remove(db.c_str());
    std::string out;
    ASSERT_EQ(run_worldtune("tune --network nosuchnet --trials 4 --db " + db, out), 1);
    EXPECT_NE(out.find("nosuchnet"), std::string::npos) << out;
    ASSERT_EQ(run_worldtune("tune matmul:M=4,N=4,K=4 --network bert_base --db " + db, out), 1);
    // A tiny budget (4 trials, 8 subgraphs): the warm-up shrinks to one trial per subgraph and goes largest
    // expected cost first, so the two largest dense layers are reached; every subgraph is listed, and the
    // estimate says plainly that it is partial and which subgraphs it misses.
    ASSERT_EQ(run_worldtune("tune --network bert_base --trials 4 --per-round 2 --repeats 1 --min-time 0 --quiet --db " + db, out), 0) << out;
    EXPECT_NE(out.find("PARTIAL estimate"), std::string::npos) << out;
    EXPECT_NE(out.find("4 of 8 subgraphs"), std::string::npos) << out;
    EXPECT_NE(out.find("missing: layernorm:M=128,N=768 (x25)"), std::string::npos) << out;
    EXPECT_EQ(out.find("missing: dense:M=128,N=3072,K=768"), std::string::npos) << out;
    EXPECT_EQ(out.find("missing: dense:M=128,N=768,K=3072"), std::string::npos) << out;
    EXPECT_NE(out.find("batch_matmul:B=12"), std::string::npos) << out;
    // Resumed: the next run sees the 4 stored trials and gives the next round to another subgraph.
    ASSERT_EQ(run_worldtune("tune --network bert_base --trials 2 --per-round 2 --repeats 1 --min-time 0 --quiet --db " + db, out), 0) << out;
    ASSERT_EQ(run_worldtune("records list --db " + db, out), 0) << out;
    // The end-to-end estimate re-measures the tuned subgraphs beside libtorch and says what it lacks.
    ASSERT_EQ(run_worldtune("estimate --network bert_base --rounds 1 --repeats 1 --min-time 0 --db " + db, out), 0) << out;
    EXPECT_NE(out.find("6 of 8 subgraphs have one"), std::string::npos) << out;
    EXPECT_NE(out.find("| bert_base | 6 / 8 |"), std::string::npos) << out;
    EXPECT_NE(out.find("`layernorm:M=128,N=768` | 25 | – (no schedule)"), std::string::npos) << out;
}

TEST(Cli, CompareWritesAReportPerModelBudgetAndPeer) {
    const std::string db = temp_path("compare.db"), report = temp_path("compare.md");
    std::remove(db.c_str());
    std::string out;
    ASSERT_EQ(run_worldtune("compare matmul:M=32,N=24,K=16 --models random,static/v1 --trials 2,4 --peers openblas,li2018 "
                            "--repeats 1 --min-time 0 --db " + db + " --out " + report, out),
              0)
        << out;
    std::ifstream in(report);
    const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char *expected : {"random@2", "static/v1@2", "random@4", "static/v1@4", "openblas", "li2018", "geomean", "Produced by"})
        EXPECT_NE(md.find(expected), std::string::npos) << expected << "\n" << md;
    // Resumed: nothing left to tune, the comparison phase runs again and the report is still whole.
    ASSERT_EQ(run_worldtune("compare matmul:M=32,N=24,K=16 --models random,static/v1 --trials 2,4 --peers none "
                            "--repeats 1 --min-time 0 --db " + db, out),
              0)
        << out;
    EXPECT_EQ(out.find("trials to measure"), std::string::npos) << out;
    EXPECT_NE(out.find("static/v1@4"), std::string::npos) << out;
    // A search space that does not exist: one line, before anything is tuned.
    EXPECT_EQ(run_worldtune("compare matmul:M=32,N=24,K=16 --models random/v11 --db " + db, out), 1);
    EXPECT_NE(out.find("unknown search space 'v11'"), std::string::npos) << out;
    // A bundle per entry (two world models side by side): only for world models, and it must exist.
    EXPECT_EQ(run_worldtune("compare matmul:M=32,N=24,K=16 --models static@models/world --db " + db, out), 1);
    EXPECT_NE(out.find("only the world models load a bundle"), std::string::npos) << out;
    EXPECT_EQ(run_worldtune("compare matmul:M=32,N=24,K=16 --models world/v2@/no/such/bundle --db " + db, out), 1);
    EXPECT_NE(out.find("bundle directory '/no/such/bundle' not found"), std::string::npos) << out;
}
