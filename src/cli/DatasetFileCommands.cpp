// `worldtune dataset stats|verify`: what a dataset file holds, and whether its state texts regenerate.
#include "cli/Commands.h"

#include "dataset/DatasetFile.h"
#include "dataset/DatasetStats.h"

#include <cstdio>
#include <memory>

namespace worldtune::cli {

/// `dataset stats` and `dataset verify`.
void add_file_subcommands(CLI::App *dataset) {
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
