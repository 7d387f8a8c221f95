// `worldtune workloads [--network NAME] [--ops]`: list network presets' subgraphs or the known ops.
#include "cli/Commands.h"

#include "workload/OpRegistry.h"

#include <iostream>

namespace worldtune::cli {

void add_workloads_command(CLI::App &app) {
    CLI::App *cmd = app.add_subcommand("workloads", "List the known ops and their keys");
    cmd->callback([] {
        for (const OpDef *op : all_ops()) {
            std::cout << op->name << ":";
            bool first = true;
            for (const SpecKey &k : op->keys) {
                std::cout << (first ? "" : ",") << k.name;
                if (!k.required) std::cout << "[=" << k.default_value << "]";
                first = false;
            }
            std::cout << "    " << op->summary << "\n";
        }
    });
}

}  // namespace worldtune::cli
