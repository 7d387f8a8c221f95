// `worldtune workloads [--network NAME]`: list the known ops, or a network preset's subgraphs.
#include "cli/Commands.h"

#include "workload/OpRegistry.h"
#include "workload/Presets.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace worldtune::cli {

namespace {

void print_ops() {
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
}

/// One line per distinct subgraph: occurrences, canonical spec, GFLOP of one run.
void print_network(const std::string &name) {
    const std::vector<PresetEntry> entries = preset(name);
    size_t width = 0;
    for (const PresetEntry &e : entries) width = std::max(width, e.spec.size());
    for (const PresetEntry &e : entries) {
        const WorkloadSpec spec = WorkloadSpec::parse(e.spec);
        const double gflop = find_op(spec.op())->flops(spec) * 1e-9;
        std::cout << std::setw(4) << e.count << "  " << std::left << std::setw(int(width)) << e.spec << std::right
                  << "  " << std::fixed << std::setprecision(4) << gflop << "\n";
    }
}

}  // namespace

void add_workloads_command(CLI::App &app) {
    auto network = std::make_shared<std::string>();
    std::string names;
    for (const std::string &n : preset_names()) names += (names.empty() ? "" : ", ") + n;
    CLI::App *cmd = app.add_subcommand("workloads", "List the known ops and their keys, or a network's subgraphs");
    cmd->add_option("--network", *network,
                    "Print a network's distinct subgraphs (count, spec, GFLOP of one run); one of: " + names);
    cmd->callback([network] {
        if (network->empty())
            print_ops();
        else
            print_network(*network);
    });
}

}  // namespace worldtune::cli
