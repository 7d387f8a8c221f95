// What several commands share: the measuring options.
#include "cli/Commands.h"

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

}  // namespace worldtune::cli
