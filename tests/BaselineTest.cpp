// Baselines: every applicable peer runs in its worker process on small shapes and computes the right
// output; peers that do not apply say why; timeouts and the command line behave.
#include "baseline/Baseline.h"
#include "workload/Spec.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

using namespace worldtune;

namespace {

BaselineParams fast_params() {
    BaselineParams p;
    p.threads = 2;
    p.timing.repeats = 2;
    p.timing.min_repeat_seconds = 0.001;
    p.timing.max_total_seconds = 1;
    p.timeout_seconds = 120;
    return p;
}

BaselineResult run(const std::string &peer, const std::string &spec, const BaselineParams &params = fast_params()) {
    return run_baseline_subprocess(WORLDTUNE_BINARY, peer, WorkloadSpec::parse(spec), params);
}

void expect_ok(const BaselineResult &r) {
    SCOPED_TRACE(r.name + " on " + r.spec);
    EXPECT_TRUE(r.available) << r.unavailable_reason;
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(r.output_checked);
    EXPECT_TRUE(r.check_passed) << "max_rel_error " << r.max_rel_error;
    EXPECT_GT(r.timing.median_s, 0);
    EXPECT_GT(r.gflops, 0);
    EXPECT_EQ(r.threads, 2);
    EXPECT_TRUE(r.ok());
}

struct Case {
    const char *spec;
    std::vector<std::string> peers;  ///< peers that must run and pass; every other one must be unavailable
};

// Adams2019 runs on the matmul only: its beam search is slow on the other pipelines.
const std::vector<Case> kCases = {
    {"matmul:M=64,N=64,K=64", {"adams2019", "mullapudi2016", "li2018", "openblas", "onednn", "libtorch"}},
    {"conv2d:N=1,C=8,H=12,W=12,K=16,R=3,S=3,pad=1,bias=1,act=relu", {"mullapudi2016", "li2018", "onednn", "libtorch"}},
    {"dense:M=32,N=48,K=64,bias=1,act=gelu", {"mullapudi2016", "li2018", "openblas", "onednn", "libtorch"}},
    {"softmax:M=16,N=100", {"mullapudi2016", "li2018", "onednn", "libtorch"}},
};

// Layouts and keys the libraries map by hand: no autoscheduler needed to check them.
const std::vector<Case> kLibraryCases = {
    {"batch_matmul:B=3,M=33,N=17,K=20,trans_b=1", {"openblas", "onednn", "libtorch"}},
    {"batch_matmul:B=2,M=9,N=17,K=20", {"openblas", "onednn", "libtorch"}},
    {"dense:M=20,N=24,K=40,act=relu", {"openblas", "onednn", "libtorch"}},
    {"conv2d:N=2,C=8,H=11,W=9,K=12,R=3,S=3,stride=2,pad=1,groups=4,layout=NHWC,bias=1,act=gelu", {"onednn", "libtorch"}},
    {"conv2d:N=1,C=8,H=10,W=10,K=8,R=3,S=3,pad=2,dilation=2,groups=8", {"onednn", "libtorch"}},
    {"conv2d:N=1,C=4,H=9,W=9,K=16,R=1,S=1,layout=NHWC", {"onednn", "libtorch"}},
    {"pool2d:N=1,C=20,H=13,W=13,R=3,S=3,stride=2,pad=1", {"onednn", "libtorch"}},
    {"pool2d:N=2,C=3,H=8,W=8,R=2,S=2,stride=2,kind=avg", {"onednn", "libtorch"}},
    {"layernorm:M=16,N=100", {"onednn", "libtorch"}},
};

void run_case(const Case &c, const std::vector<std::string> &peers_to_try) {
    const WorkloadSpec spec = WorkloadSpec::parse(c.spec);
    for (const std::string &peer : peers_to_try) {
        const bool expected = std::find(c.peers.begin(), c.peers.end(), peer) != c.peers.end();
        const std::string reason = baseline_unavailable_reason(peer, spec);
        if (!expected) {
            if (peer == "adams2019") continue;  // applies, but is not run here
            EXPECT_NE(reason, "") << peer << " should not apply to " << c.spec;
            continue;
        }
        EXPECT_EQ(reason, "") << peer << " on " << c.spec;
        expect_ok(run(peer, c.spec));
    }
}

}  // namespace

TEST(Baseline, NamesAreTheSixPeers) {
    const std::vector<std::string> expected = {"adams2019", "mullapudi2016", "li2018", "openblas", "onednn", "libtorch"};
    EXPECT_EQ(baseline_names(), expected);
    EXPECT_TRUE(is_baseline_name("onednn"));
    EXPECT_FALSE(is_baseline_name("mkl"));
    EXPECT_THROW(baseline_unavailable_reason("mkl", WorkloadSpec::parse("matmul:M=4,N=4,K=4")), SpecError);
}

TEST(Baseline, EveryApplicablePeerPassesItsCheck) {
    for (const Case &c : kCases) run_case(c, baseline_names());
}

TEST(Baseline, LibrariesHandleLayoutsGroupsAndPadding) {
    for (const Case &c : kLibraryCases) run_case(c, {"openblas", "onednn", "libtorch"});
}

TEST(Baseline, InapplicablePeerIsUnavailableWithAReason) {
    const BaselineResult r = run("openblas", "softmax:M=16,N=100");
    EXPECT_FALSE(r.available);
    EXPECT_NE(r.unavailable_reason.find("softmax"), std::string::npos) << r.unavailable_reason;
    EXPECT_FALSE(r.ok());
    EXPECT_FALSE(r.output_checked);

    // libtorch refuses pooling with padding over half the window (the workload allows it).
    const BaselineResult pool = run("libtorch", "pool2d:N=1,C=2,H=8,W=8,R=3,S=3,pad=2");
    EXPECT_FALSE(pool.available);
    EXPECT_NE(pool.unavailable_reason, "");
}

TEST(Baseline, TimeoutBecomesAnError) {
    BaselineParams p = fast_params();
    p.timeout_seconds = 0.05;  // less than the worker needs to start
    const BaselineResult r = run("mullapudi2016", "matmul:M=64,N=64,K=64", p);
    EXPECT_TRUE(r.available);
    EXPECT_NE(r.error.find("timed out"), std::string::npos) << r.error;
    EXPECT_FALSE(r.ok());
}

TEST(Baseline, MissingWorkerBinaryBecomesAnError) {
    const BaselineResult r =
        run_baseline_subprocess("/nonexistent/worldtune", "openblas", WorkloadSpec::parse("matmul:M=8,N=8,K=8"), fast_params());
    EXPECT_TRUE(r.available);
    EXPECT_NE(r.error, "");
}

TEST(Baseline, ResultJsonRoundTrips) {
    const BaselineResult r = run("openblas", "matmul:M=16,N=8,K=4");
    expect_ok(r);
    const BaselineResult back = baseline_result_from_json(nlohmann::json::parse(to_json(r).dump()));
    EXPECT_EQ(to_json(back), to_json(r));
    EXPECT_EQ(back.detail, r.detail);
    EXPECT_DOUBLE_EQ(back.timing.median_s, r.timing.median_s);
}

using worldtune::test::run_command;

TEST(BaselineCli, PrintsEveryPeer) {
    std::string out;
    const int status = run_command(std::string(WORLDTUNE_BINARY) +
                                       " baseline softmax:M=8,N=32 --threads 2 --repeats 2 --min-time 0.001 --timeout 120",
                                   out);
    EXPECT_EQ(status, 0) << out;
    for (const std::string &peer : baseline_names()) EXPECT_NE(out.find("\n" + peer + " "), std::string::npos) << peer << "\n" << out;
    EXPECT_NE(out.find("n/a: OpenBLAS has no routine for softmax"), std::string::npos) << out;
    EXPECT_EQ(out.find("error"), std::string::npos) << out;
    EXPECT_EQ(out.find("FAIL"), std::string::npos) << out;
}

TEST(BaselineCli, JsonLinesForTheChosenPeers) {
    std::string out;
    const int status = run_command(std::string(WORLDTUNE_BINARY) +
                                       " baseline dense:M=8,N=16,K=32,act=relu --only openblas,onednn --threads 2 "
                                       "--repeats 2 --min-time 0.001 --json",
                                   out);
    ASSERT_EQ(status, 0) << out;
    std::istringstream lines(out);
    std::string line;
    std::vector<std::string> names;
    while (std::getline(lines, line)) {
        const nlohmann::json j = nlohmann::json::parse(line);
        names.push_back(j.at("baseline").get<std::string>());
        EXPECT_TRUE(j.at("check_passed").get<bool>()) << line;
        EXPECT_EQ(j.at("threads").get<int>(), 2);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"openblas", "onednn"}));
}

TEST(BaselineCli, UnknownPeerIsRefused) {
    std::string out;
    const int status = run_command(std::string(WORLDTUNE_BINARY) + " baseline matmul:M=8,N=8,K=8 --only mkl", out);
    EXPECT_NE(status, 0);
    EXPECT_NE(out.find("unknown baseline 'mkl'"), std::string::npos) << out;
}
