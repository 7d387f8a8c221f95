// `worldtune workloads [--network NAME [--dataset FILE]]`: list the known ops, or a network preset's
// subgraphs (with the split each falls in under a dataset's seed and fractions).
#include "cli/Commands.h"

#include "dataset/DatasetFile.h"
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

/// One line per distinct subgraph: occurrences, canonical spec, GFLOP of one run, and with a dataset, the
/// split the subgraph falls in (split_for with the dataset's seed and fractions, whether or not it holds it).
void print_network(const std::string &name, const std::string &dataset_path) {
    const std::vector<PresetEntry> entries = preset(name);
    Dataset dataset;
    if (!dataset_path.empty()) {
        try {
            dataset = load_dataset(dataset_path);
        } catch (const std::exception &e) {
            throw CommandError(e.what());
        }
    }
    size_t width = 0;
    for (const PresetEntry &e : entries) width = std::max(width, e.spec.size());
    for (const PresetEntry &e : entries) {
        const WorkloadSpec spec = WorkloadSpec::parse(e.spec);
        const double gflop = find_op(spec.op())->flops(spec) * 1e-9;
        std::cout << std::setw(4) << e.count << "  " << std::left << std::setw(int(width)) << e.spec << std::right
                  << "  " << std::fixed << std::setprecision(4) << gflop;
        if (!dataset_path.empty())
            std::cout << "  " << split_name(split_for(e.spec, dataset.seed, dataset.val_fraction, dataset.test_fraction));
        std::cout << "\n";
    }
}

}  // namespace

void add_workloads_command(CLI::App &app) {
    auto network = std::make_shared<std::string>();
    auto dataset = std::make_shared<std::string>();
    std::string names;
    for (const std::string &n : preset_names()) names += (names.empty() ? "" : ", ") + n;
    CLI::App *cmd = app.add_subcommand("workloads", "List the known ops and their keys, or a network's subgraphs");
    cmd->add_option("--network", *network,
                    "Print a network's distinct subgraphs (count, spec, GFLOP of one run); one of: " + names);
    cmd->add_option("--dataset", *dataset, "With --network: also print each subgraph's split under this dataset's seed");
    cmd->callback([network, dataset] {
        if (network->empty())
            print_ops();
        else
            print_network(*network, *dataset);
    });
}

}  // namespace worldtune::cli
