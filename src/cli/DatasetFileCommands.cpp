// `worldtune dataset stats|verify|split`: what a dataset file holds, whether its state texts regenerate, and
// which workloads of a list fall in a split.
#include "cli/Commands.h"

#include "dataset/DatasetFile.h"
#include "dataset/DatasetStats.h"
#include "dataset/WorkloadList.h"
#include "workload/Spec.h"

#include <cstdio>
#include <memory>

namespace worldtune::cli {

namespace {

/// `dataset split`: the workloads of a list in one split, as `dataset export` assigns them (so a new machine
/// can measure the training split alone: scripts/collect_machine.sh).
void add_split_subcommand(CLI::App *dataset) {
    struct SplitOptions {
        std::string list = "data/collection_workloads.txt", split;
        uint64_t seed = 1;
        double val = 0.1, test = 0.15;
    };
    auto o = std::make_shared<SplitOptions>();
    CLI::App *cmd = dataset->add_subcommand("split", "Print the workloads of a list that fall in one split (train, val or test)");
    cmd->add_option("--list", o->list, "Workload list file")->capture_default_str();
    cmd->add_option("--split", o->split, "train, val or test")->required();
    cmd->add_option("--seed", o->seed, "Split seed (as export's)")->capture_default_str();
    cmd->add_option("--val", o->val, "Fraction of workloads in the val split (as export's)")->capture_default_str();
    cmd->add_option("--test", o->test, "Fraction of workloads in the test split (as export's)")->capture_default_str();
    cmd->callback([o] {
        const SplitKind want = split_from_name(o->split);
        for (const std::string &spec : read_workload_list(o->list)) {
            const std::string canonical = WorkloadSpec::parse(spec).canonical();
            if (split_for(canonical, o->seed, o->val, o->test) == want) std::printf("%s\n", canonical.c_str());
        }
    });
}

}  // namespace

/// `dataset stats`, `dataset verify` and `dataset split`.
void add_file_subcommands(CLI::App *dataset) {
    add_split_subcommand(dataset);
    struct FileOptions {
        std::string file;
        int sample = 50;
    };
    auto stats = std::make_shared<FileOptions>();
    CLI::App *stats_cmd = dataset->add_subcommand("stats", "Report what a dataset file holds");
    stats_cmd->add_option("file", stats->file, "Dataset file")->required();
    stats_cmd->add_option("--sample", stats->sample, "Final states lowered to count tokens (-1: all)")->capture_default_str();
    stats_cmd->callback([stats] {
        const Dataset d = load_dataset(stats->file);
        std::printf("%s: format version %d, %s, split seed %llu\n", stats->file.c_str(), d.version,
                    (d.hardware.is_object() ? d.hardware.value("cpu_model", std::string("unknown cpu")) : std::string("unknown cpu")).c_str(), (unsigned long long)d.seed);
        std::printf("%s", format_stats(dataset_stats(d, stats->sample)).c_str());
    });

    auto verify = std::make_shared<FileOptions>();
    verify->sample = -1;
    CLI::App *verify_cmd = dataset->add_subcommand(
        "verify", "Check the file, and that regenerated state texts match the hashes stored at export");
    verify_cmd->add_option("file", verify->file, "Dataset file")->required();
    verify_cmd->add_option("--sample", verify->sample, "Hashed trajectories to check (-1: all)")->capture_default_str();
    verify_cmd->callback([verify] {
        const Dataset d = load_dataset(verify->file);
        const TextCheck check = verify_texts(d, verify->sample);
        for (const std::string &p : check.problems) std::printf("mismatch: %s\n", p.c_str());
        if (!check.ok())
            throw CommandError(std::to_string(check.mismatched) + " of " + std::to_string(check.checked) +
                               " regenerated state texts differ from the stored hashes");
        std::printf("ok: %lld workloads, %lld trajectories; %d trajectories' regenerated texts match their stored hashes\n",
                    (long long)d.workloads.size(), (long long)d.trajectory_count(), check.checked);
    });
}

}  // namespace worldtune::cli
