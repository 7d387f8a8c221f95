// Measurement in worker processes: a good schedule measures; every failure mode (refused actions, runtime
// errors, wrong output, hangs, crashes) becomes its error kind and the rest of the batch still measures.
#include "measure/BlasCore.h"
#include "measure/Hardware.h"
#include "measure/Measurer.h"
#include "measure/OutputCheck.h"
#include "measure/Timing.h"
#include "schedule/Apply.h"
#include "workload/Workload.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace worldtune;

namespace {

const char *kSpec = "matmul:M=64,N=64,K=64";
const char *kGoodSchedule =
    R"([["SP","out","n",[8],"auto"],["AN","out","n_1","vectorize"],["AN","out","m","parallel"],["CA","acc","out","n_0"]])";

ActionList parse(const std::string &text) { return actions_from_json(nlohmann::json::parse(text)); }

MeasureParams fast_params() {
    MeasureParams p;
    p.worker_binary = WORLDTUNE_BINARY;
    p.timing.repeats = 3;
    p.timing.min_repeat_seconds = 0.002;
    p.timeout_seconds = 20;
    return p;
}

/// Sets WORLDTUNE_TEST_FAULT for the workers started while it lives.
struct ScopedFault {
    explicit ScopedFault(const char *value) { setenv("WORLDTUNE_TEST_FAULT", value, 1); }
    ~ScopedFault() { unsetenv("WORLDTUNE_TEST_FAULT"); }
};

void expect_ok(const MeasureResult &r) {
    EXPECT_EQ(r.error, ErrorKind::None) << error_kind_name(r.error) << ": " << r.error_msg;
    EXPECT_GT(r.timing.median_s, 0);
    EXPECT_GT(r.gflops, 0);
}

TEST(Measure, ErrorKindNamesRoundTrip) {
    for (ErrorKind k : {ErrorKind::None, ErrorKind::Schedule, ErrorKind::Compile, ErrorKind::Runtime,
                        ErrorKind::WrongOutput, ErrorKind::Timeout, ErrorKind::Crash})
        EXPECT_EQ(error_kind_from_name(error_kind_name(k)), k);
    EXPECT_STREQ(error_kind_name(ErrorKind::WrongOutput), "wrong_output");
    EXPECT_THROW(error_kind_from_name("bogus"), std::invalid_argument);
}

TEST(Measure, HardwareDescribesThisMachine) {
    const nlohmann::json &hw = hardware_json();
    EXPECT_GT(hw.value("logical_cores", 0), 0);
    EXPECT_FALSE(hw.value("halide_target", std::string()).empty());
    EXPECT_FALSE(hardware_summary().empty());
}

// A cache descriptor as CPUID gives it: an 8-way 32 KiB L1d with 64-byte lines and 64 sets, a 16-way
// 1 MiB unified L2 (1024 sets), and the end of the list.
TEST(Measure, CpuidCacheDescriptorsGiveSizes) {
    const CpuidCache l1 = decode_cpuid_cache((1u << 5) | 1u, (7u << 22) | 63u, 63u);
    EXPECT_EQ(l1.level, 1);
    EXPECT_EQ(l1.type, 1);
    EXPECT_EQ(l1.bytes, 32 * 1024);
    const CpuidCache l2 = decode_cpuid_cache((2u << 5) | 3u | (1u << 8), (15u << 22) | 63u, 1023u);
    EXPECT_EQ(l2.level, 2);
    EXPECT_EQ(l2.type, 3);
    EXPECT_EQ(l2.bytes, 1024 * 1024);
    EXPECT_EQ(decode_cpuid_cache(0, 0, 0).type, 0);
    // AMD's older leaves as a Firecracker guest on an EPYC Zen 5 gave them: 48 KiB L1d, 1 MiB L2, 508 MiB L3.
    const std::vector<CpuidCache> legacy = decode_amd_legacy_caches(0x300c0140u, 0x04006140u, 0x0fe09140u);
    ASSERT_EQ(legacy.size(), 3u);
    EXPECT_EQ(legacy[0].bytes, 48 * 1024);
    EXPECT_EQ(legacy[1].bytes, 1024 * 1024);
    EXPECT_EQ(legacy[2].bytes, int64_t(508) << 20);
    EXPECT_EQ(legacy[2].level, 3);
    if (hardware_json().value("halide_target", std::string()).rfind("x86", 0) == 0)
        EXPECT_TRUE(hardware_json().contains("cache")) << "sysfs or CPUID names this x86 machine's caches";
}

// CPUs a hypervisor names alike ("AMD EPYC") differ by family and model numbers; records from before
// those fields still match a description that has them.
TEST(Measure, SameMachineTellsFamiliesApart) {
    nlohmann::json zen4 = {{"cpu_model", "AMD EPYC"}, {"logical_cores", 2}, {"isa", {"avx2", "avx512f"}},
                           {"halide_target", "x86-64-linux-avx-avx2-avx512"}, {"cpu_family", 25}, {"cpu_model_number", 17}};
    nlohmann::json zen5 = zen4, older = zen4;
    zen5["cpu_family"] = 26;
    zen5["cpu_model_number"] = 2;
    older.erase("cpu_family");
    older.erase("cpu_model_number");
    EXPECT_TRUE(same_machine(zen4, zen4));
    EXPECT_FALSE(same_machine(zen4, zen5));
    EXPECT_TRUE(same_machine(older, zen5));
    EXPECT_TRUE(same_machine(zen4, older));
}

// OpenBLAS's kernels follow the machine's vector width when the core it chose from the CPU model is
// narrower; never narrower than its own choice, never for a name it does not know.
TEST(Measure, OpenBlasCoreFollowsTheVectorWidth) {
    EXPECT_EQ(openblas_core_width("Prescott"), 128);
    EXPECT_EQ(openblas_core_width("HASWELL"), 256);
    EXPECT_EQ(openblas_core_width("SkylakeX"), 512);
    EXPECT_EQ(openblas_core_width("riscv"), 0);
    EXPECT_EQ(openblas_core_for("Prescott", 512), "SkylakeX");
    EXPECT_EQ(openblas_core_for("Haswell", 512), "SkylakeX");
    EXPECT_EQ(openblas_core_for("Nehalem", 256), "Haswell");
    EXPECT_EQ(openblas_core_for("SkylakeX", 512), "");
    EXPECT_EQ(openblas_core_for("Zen", 256), "");
    EXPECT_EQ(openblas_core_for("SkylakeX", 256), "") << "never narrower than OpenBLAS's own choice";
    EXPECT_EQ(openblas_core_for("SomethingNew", 512), "");
    EXPECT_EQ(openblas_core_for("Prescott", 128), "");
    const int width = machine_vector_width();
    EXPECT_TRUE(width == 128 || width == 256 || width == 512) << width;
}

/// Code that is slow over its first calls, as a library that sets itself up lazily (libtorch): 4 calls of
/// 30 ms, then 0.5 ms each.
TimingStats time_slow_starter(double warmup_min_seconds) {
    int calls = 0;
    auto run = [&calls] {
        const auto pause = calls++ < 4 ? std::chrono::microseconds(30000) : std::chrono::microseconds(500);
        std::this_thread::sleep_for(pause);
    };
    TimingParams params;
    params.repeats = 5;
    params.min_repeat_seconds = 0.01;
    params.warmup_min_seconds = warmup_min_seconds;
    return time_callable(run, params);
}

TEST(Measure, WarmupTimeKeepsASlowStartOutOfTheMedian) {
    // One warm-up run leaves the slow calls among the timed repeats (a repeat of 1 run each);
    // warming up for 0.3 s times the steady state, in repeats of several runs.
    const TimingStats one_run = time_slow_starter(0);
    EXPECT_GT(one_run.median_s, 0.02);
    EXPECT_EQ(one_run.runs_per_repeat, 1);
    const TimingStats warmed = time_slow_starter(0.3);
    EXPECT_LT(warmed.median_s, 0.005);
    EXPECT_GT(warmed.runs_per_repeat, 1);
}

TEST(Measure, ValidScheduleMeasures) {
    Measurer m(fast_params());
    const MeasureResult r = m.measure_one(WorkloadSpec::parse(kSpec), parse(kGoodSchedule));
    expect_ok(r);
    EXPECT_EQ(r.spec, kSpec);
    EXPECT_EQ(r.actions, nlohmann::json::parse(kGoodSchedule));
    EXPECT_GT(r.compile_seconds, 0);
    EXPECT_EQ(r.timing.repeats, 3);
    EXPECT_EQ(r.threads, 2);
    EXPECT_EQ(r.version, WORLDTUNE_VERSION);
    EXPECT_FALSE(r.target.empty());
    EXPECT_EQ(r.timestamp.size(), 24u) << r.timestamp;
    EXPECT_TRUE(r.hardware.contains("logical_cores"));
}

TEST(Measure, LongReductionPassesTheCheck) {
    // K=1024: float32 sums drift; the tolerance must accept a correct schedule (and the unscheduled one).
    Measurer m(fast_params());
    const auto results = m.measure(WorkloadSpec::parse("matmul:M=33,N=70,K=1024"),
                                   {parse(kGoodSchedule), ActionList{},
                                    parse(R"([["SP","acc.u0","k$x",[16],"auto"],["RE","acc.u0",["n","k_x_1","k_x_0","m"]]])")});
    for (const MeasureResult &r : results) expect_ok(r);
}

TEST(Measure, WeightsInBlocksAndPlainShareOneWorker) {
    // One worker keeps each blocking's arranged weight: every candidate must read the arrangement it asked for.
    Measurer m(fast_params());
    const auto results = m.measure(WorkloadSpec::parse("dense:M=16,N=40,K=24,bias=1"),
                                   {parse(R"([["BL","W","_1",8]])"), ActionList{}, parse(R"([["BL","W","_0",8]])"),
                                    parse(R"([["BL","W","_1",8],["SP","out","n",[8],"guard"]])"),
                                    parse(R"([["BL","W","_0",16]])"), ActionList{}});
    for (const MeasureResult &r : results) expect_ok(r);
}

TEST(Measure, RefusedActionGivesScheduleErrorWithIndex) {
    Measurer m(fast_params());
    const WorkloadSpec spec = WorkloadSpec::parse(kSpec);
    // Refused when applied: no loop named "nope".
    const MeasureResult applied = m.measure_one(spec, parse(R"([["SP","out","n",[8],"auto"],["AN","out","nope","vectorize"]])"));
    EXPECT_EQ(applied.error, ErrorKind::Schedule);
    EXPECT_EQ(applied.error_action, 1);
    EXPECT_NE(applied.error_msg.find("nope"), std::string::npos) << applied.error_msg;
    // Refused only when the whole list is lowered (store_at inside the compute level): the worker lowers
    // prefixes to find the action to blame.
    const MeasureResult lowered = m.measure_one(
        spec, parse(R"([["SP","out","n",[8],"auto"],["AN","out","n_1","vectorize"],["SA","acc","out","n_0"],["CA","acc","out","m"]])"));
    EXPECT_EQ(lowered.error, ErrorKind::Schedule) << error_kind_name(lowered.error) << ": " << lowered.error_msg;
    EXPECT_EQ(lowered.error_action, 2) << lowered.error_msg;
    // A race on a reduction loop.
    const MeasureResult race = m.measure_one(spec, parse(R"([["AN","acc.u0","k$x","parallel"]])"));
    EXPECT_EQ(race.error, ErrorKind::Schedule);
    EXPECT_EQ(race.error_action, 0);
    EXPECT_NE(race.error_msg.find("race condition"), std::string::npos) << race.error_msg;
    // The worker goes on measuring.
    expect_ok(m.measure_one(spec, parse(kGoodSchedule)));
}

TEST(Measure, OutOfBoundsTailIsARuntimeError) {
    // RoundUp on 60 = 7.5 x 8 writes out(60..63), beyond the fixed output buffer.
    Measurer m(fast_params());
    const MeasureResult r = m.measure_one(WorkloadSpec::parse("matmul:M=60,N=60,K=64"),
                                          parse(R"([["SP","out","n",[8],"round"],["AN","out","n_1","vectorize"]])"));
    EXPECT_EQ(r.error, ErrorKind::Runtime) << error_kind_name(r.error) << ": " << r.error_msg;
    EXPECT_FALSE(r.error_msg.empty());
    EXPECT_EQ(r.gflops, 0);
}

TEST(Measure, WrongOutputIsFlagged) {
    ScopedFault fault("wrong@1");
    Measurer m(fast_params());
    const ActionList good = parse(kGoodSchedule);
    const auto results = m.measure(WorkloadSpec::parse(kSpec), {good, good, good});
    ASSERT_EQ(results.size(), 3u);
    expect_ok(results[0]);
    EXPECT_EQ(results[1].error, ErrorKind::WrongOutput) << results[1].error_msg;
    EXPECT_NE(results[1].error_msg.find("reference"), std::string::npos) << results[1].error_msg;
    expect_ok(results[2]);
}

TEST(Measure, CheckFindsWrongValuesInBigOutputs) {
    // Outputs over 4096 points are sampled: corners and random points, and a wrong value is caught.
    auto w = build_workload("matmul:M=100,N=90,K=1024");
    const auto inputs = random_inputs(*w, 7);
    for (size_t i = 0; i < w->inputs.size(); i++) w->inputs[i].set(inputs[i]);
    Halide::Buffer<float> out(w->output_shape);
    w->pipeline().realize(out);
    EXPECT_TRUE(check_output(*w, inputs, out, 1e-3, 1e-3, 7).ok);
    const auto points = check_points(w->output_shape, 7);
    EXPECT_GE(points.size(), 512u);
    EXPECT_LT(points.size(), 700u);
    out(89, 99) += 0.5f;  // the last corner
    const CheckReport report = check_output(*w, inputs, out, 1e-3, 1e-3, 7);
    EXPECT_FALSE(report.ok);
    EXPECT_EQ(report.mismatches, 1);
    EXPECT_NE(report.first_mismatch.find("out(89, 99)"), std::string::npos) << report.first_mismatch;
}

TEST(Measure, HangTimesOutAndTheNextCandidateMeasures) {
    ScopedFault fault("hang@0");
    MeasureParams p = fast_params();
    p.timeout_seconds = 2;
    Measurer m(p);
    const ActionList good = parse(kGoodSchedule);
    const auto results = m.measure(WorkloadSpec::parse(kSpec), {good, good});
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].error, ErrorKind::Timeout) << results[0].error_msg;
    EXPECT_GE(results[0].wall_seconds, 2.0);
    EXPECT_LT(results[0].wall_seconds, 4.0);
    expect_ok(results[1]);
}

TEST(Measure, CrashesAreRecordedAndTheBatchGoesOn) {
    ScopedFault fault("crash@0,segv@1");
    Measurer m(fast_params());
    const ActionList good = parse(kGoodSchedule);
    const auto results = m.measure(WorkloadSpec::parse(kSpec), {good, good, good});
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].error, ErrorKind::Crash);
    EXPECT_NE(results[0].error_msg.find("signal 6"), std::string::npos) << results[0].error_msg;
    EXPECT_EQ(results[1].error, ErrorKind::Crash);
    EXPECT_NE(results[1].error_msg.find("signal 11"), std::string::npos) << results[1].error_msg;
    expect_ok(results[2]);
}

TEST(Measure, MissingWorkerBinaryIsASetupError) {
    MeasureParams p = fast_params();
    p.worker_binary = "/nonexistent/worldtune";
    Measurer m(p);
    EXPECT_THROW(m.measure_one(WorkloadSpec::parse(kSpec), {}), MeasureError);
}

}  // namespace
