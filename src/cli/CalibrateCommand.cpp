// `worldtune calibrate`: fits the world model's calibration to this machine from records measured here
// (Calibration.h), using only workloads of the training split of the bundle's dataset, so the workloads
// the model is evaluated on never reach it.
#include "cli/Commands.h"

#include "dataset/DatasetFile.h"
#include "train/Calibration.h"
#include "world/WorldBundle.h"
#include "world/WorldModel.h"
#include "workload/Spec.h"

#include <cstdio>
#include <filesystem>
#include <map>

namespace worldtune::cli {

void add_calibrate_command(CLI::App &app) {
    struct CalibrateCli {
        std::string db, dataset = "data/dataset.jsonl.gz", bundle, variants = "world,initial,actions";
        CalibrationParams params;
    };
    auto o = std::make_shared<CalibrateCli>();
    CLI::App *cmd = app.add_subcommand(
        "calibrate", "Fit the world model to this machine from records measured here on training-split workloads");
    cmd->add_option("--db", o->db, "Records database measured on this machine (e.g. by `dataset collect` on the training list)")
        ->required();
    cmd->add_option("--dataset", o->dataset, "The bundle's dataset: only workloads of its training split are used")->capture_default_str();
    cmd->add_option("--bundle", o->bundle, "World-model bundle to calibrate (default: the shipped one); written in place");
    cmd->add_option("--variants", o->variants, "Ranker variants to calibrate (world, initial, final, actions)")->capture_default_str();
    cmd->add_option("--depth", o->params.depth, "Tree depth of the correction")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--eta", o->params.eta, "Learning rate of the correction")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--holdout", o->params.holdout, "Share of the workloads held out to choose the rounds")
        ->capture_default_str()->check(CLI::Range(0.05, 0.5));
    cmd->add_option("--seed", o->params.seed, "Which workloads are held out")->capture_default_str();
    cmd->add_option("--threads", o->params.threads, "Threads")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->callback([o] {
        if (!std::filesystem::exists(o->db)) throw CommandError("records database " + o->db + " not found");
        if (!std::filesystem::exists(o->dataset)) throw CommandError("dataset " + o->dataset + " not found (needed for its training split)");
        o->params.variants = split_list(o->variants);
        for (const std::string &v : o->params.variants) {
            try {
                world_variant_from_ranker(v);
            } catch (const std::invalid_argument &e) {
                throw CommandError(e.what());
            }
        }
        const std::string bundle = WorldBundle::locate(o->bundle);
        Dataset dataset;
        try {
            dataset = load_dataset(o->dataset);
        } catch (const std::exception &e) {
            throw CommandError(e.what());
        }
        std::map<std::string, SplitKind> splits;
        for (const DatasetWorkload &w : dataset.workloads) splits[w.spec] = w.split;
        auto training_split = [&](const std::string &spec) {
            auto it = splits.find(spec);
            const SplitKind split = it != splits.end() ? it->second
                                                       : split_for(spec, dataset.seed, dataset.val_fraction, dataset.test_fraction);
            return split == SplitKind::Train;
        };
        try {
            const RecordStore store(o->db);
            const CalibrationReport r = calibrate_bundle(bundle, store, training_split, o->params, [](const std::string &line) {
                std::fprintf(stderr, "%s\n", line.c_str());
                std::fflush(stderr);
            });
            std::printf("calibrated %s on %lld records of %d workloads (%lld records of other machines skipped)\n", bundle.c_str(),
                        (long long)r.records, r.workloads, (long long)r.other_machines);
            for (const CalibratedVariant &v : r.variants)
                std::printf("  %-8s %s: held-out pairwise %.3f -> %.3f, top-1 %.3f -> %.3f\n", v.variant.c_str(),
                            v.rounds ? (std::to_string(v.rounds) + " rounds").c_str() : "uncalibrated", v.before.pairwise, v.after.pairwise,
                            v.before.top1, v.after.top1);
        } catch (const std::exception &e) {
            throw CommandError(e.what());
        }
    });
}

}  // namespace worldtune::cli
