// What several commands share: the measuring options and the search space.
#include "cli/Commands.h"

#include "farm/Farm.h"

#include <cstdio>

namespace worldtune::cli {

void add_measure_options(CLI::App *cmd, MeasureParams &params) {
    cmd->add_option("--threads", params.threads, "Halide threads")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--repeats", params.timing.repeats, "Timed repeats (median is the latency)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--min-time", params.timing.min_repeat_seconds, "Minimum seconds of one repeat")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--timeout", params.timeout_seconds, "Seconds allowed for one candidate's compile + run + check")
        ->capture_default_str()->check(CLI::PositiveNumber);
}

void add_hardware_option(CLI::App *cmd) {
    cmd->add_option_function<std::string>("--hardware", [](const std::string &name) { farm_select_hardware(name); },
                                          "Under mpirun: measure on the measurer group whose hardware name contains this "
                                          "(default: rank 0's machine type)");
}

void print_farm_groups() {
    for (const std::string &line : farm_groups()) std::fprintf(stderr, "farm %s\n", line.c_str());
}

void add_space_option(CLI::App *cmd, SamplerParams &sampler) {
    const std::vector<std::string> names = search_space_names();
    cmd->add_option_function<std::string>(
           "--space", [&sampler](const std::string &name) { sampler = sampler_params_for_space(name); },
           "Search space: the sketch rules candidates are sampled from (v1: before packed inputs, register tiles "
           "and rfactored row reductions; v3: v2 with weights asked for in a packed layout, arranged once "
           "before the runs; v4: v3 with vector loops of several vectors unrolled by vector and weights packed "
           "more often; v5: v4 with the register-fill rule, a register tile that fills the register file over a "
           "small reduction block; v6: v5 with that rule only on updates that reduce over a short loop it keeps "
           "whole and a long one it blocks, such as a convolution's window and input channels; v7: v6 with a 1x1 "
           "convolution's strided input read through a dense subsampled copy when a schedule computes it; v8: v7 "
           "with weights asked for stored in blocks of a vector along the vector loop, arranged once before the "
           "runs; v9: v8 with dense 3x3 convolutions at stride 1 computed by Winograd's F(2, 3) or F(4, 3) when "
           "drawn, the weights passed transformed; v10: v9 with a Winograd output vectorized along the channels it "
           "reads densely when drawn; default " + default_search_space() + ")")
        ->check(CLI::IsMember(names));
}

}  // namespace worldtune::cli
