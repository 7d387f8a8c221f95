// `worldtune sample SPEC [--count N] [--seed S] [--space v1|...|v10]`: print random valid schedules, one JSON action list a line.
#include "cli/Commands.h"

#include "search/SketchSampler.h"

#include <iostream>

namespace worldtune::cli {

void add_sample_command(CLI::App &app) {
    struct Options {
        std::string spec;
        int count = 1;
        uint64_t seed = 1;
        SamplerParams sampler;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("sample", "Print random valid schedules from the sketch rules (JSON lines)");
    cmd->add_option("spec", opts->spec, "Workload spec")->required();
    cmd->add_option("--count", opts->count, "How many schedules")->check(CLI::PositiveNumber);
    cmd->add_option("--seed", opts->seed, "Random seed");
    add_space_option(cmd, opts->sampler);
    cmd->callback([opts] {
        SketchSampler sampler(WorkloadSpec::parse(opts->spec), opts->sampler, opts->seed);
        for (int i = 0; i < opts->count; i++) std::cout << actions_to_json(sampler.sample_valid()).dump() << "\n";
    });
}

}  // namespace worldtune::cli
