// What several commands share: the measuring options, list parsing, number formatting.
#include "cli/Commands.h"

#include <iomanip>
#include <sstream>

namespace worldtune::cli {

std::vector<std::string> split_list(const std::string &text) {
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) items.push_back(item);
    return items;
}

std::string fixed(double value, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

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
