// `worldtune lower SPEC [--actions FILE] [--prefix T]`: print the text of a program state.
#include "cli/Commands.h"

#include "lower/StateText.h"
#include "schedule/Action.h"
#include "workload/Spec.h"

#include <iostream>

namespace worldtune::cli {

void add_lower_command(CLI::App &app) {
    struct Options {
        std::string spec, actions_file;
        int prefix = -1;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("lower", "Print the lowered statement text of a state (workload + action prefix)");
    cmd->add_option("spec", opts->spec, "Workload spec, e.g. matmul:M=64,N=64,K=64")->required();
    cmd->add_option("--actions", opts->actions_file, "JSON file with the action list (default: none)");
    cmd->add_option("--prefix", opts->prefix, "Apply only the first T actions (0 = pre-schedule state; default all)");
    cmd->callback([opts] {
        WorkloadSpec spec = WorkloadSpec::parse(opts->spec);
        ActionList actions;
        if (!opts->actions_file.empty()) actions = read_actions_file(opts->actions_file);
        if (opts->prefix > int(actions.size()))
            throw CommandError("--prefix " + std::to_string(opts->prefix) + " exceeds the " +
                               std::to_string(actions.size()) + " actions given");
        std::cout << state_text(spec, actions, opts->prefix);
    });
}

}  // namespace worldtune::cli
