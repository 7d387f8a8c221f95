// `worldtune dataset workloads|collect|export`: the collection list, collecting trajectories, and the
// dataset file made from the records database (format in src/dataset/DatasetFile.h). `dataset corpus`,
// `stats` and `verify` are added from DatasetCorpusCommand.cpp and DatasetFileCommands.cpp.
#include "cli/Commands.h"

#include "dataset/Collector.h"
#include "dataset/DatasetFile.h"
#include "dataset/WorkloadList.h"
#include "farm/Farm.h"
#include "measure/Hardware.h"
#include "store/RecordStore.h"

#include <cstdio>

namespace worldtune::cli {

namespace {

void add_workloads_subcommand(CLI::App *dataset) {
    struct ListOptions {
        uint64_t seed = kDefaultCollectionSeed;
        int generated = kDefaultGeneratedPerOp;
    };
    auto list = std::make_shared<ListOptions>();
    CLI::App *workloads = dataset->add_subcommand(
        "workloads", "Print the collection list: every preset subgraph, then seeded generated shapes per op kind");
    workloads->add_option("--seed", list->seed, "Seed of the generated shapes")->capture_default_str();
    workloads->add_option("--generated", list->generated, "Generated workloads per op kind")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    workloads->callback([list] {
        const std::vector<std::string> specs = collection_workloads(list->seed, list->generated);
        std::printf("# worldtune collection workloads: %zu specs (%zu preset subgraphs, %d generated per op kind)\n",
                    specs.size(), preset_workloads().size(), list->generated);
        std::printf("# made by: worldtune dataset workloads --seed %llu --generated %d\n", (unsigned long long)list->seed,
                    list->generated);
        for (const std::string &s : specs) std::printf("%s\n", s.c_str());
    });
}

/// The end of a collection: the skipped workloads and the counts.
void print_collect_summary(const std::string &db, size_t workloads, const RecordStore &store, const CollectSummary &s) {
    for (const auto &[key, why] : store.notes("collect-skip:"))
        std::printf("skipped %s: %s\n", key.substr(13).c_str(), why.c_str());
    std::printf("measured %lld candidates (%lld failed) in %.0f s; %s holds %lld collection records; %d of %zu workloads "
                "complete, %d skipped%s\n",
                (long long)s.measured, (long long)s.failed, s.wall_seconds, db.c_str(), (long long)s.records,
                s.workloads_done, workloads, s.workloads_skipped,
                s.time_limit_hit ? "; stopped at the time limit (run again to resume)" : "");
}

void add_collect_subcommand(CLI::App *dataset) {
    struct CollectCli {
        std::string list = "data/collection_workloads.txt", db = RecordStore::kDefaultPath, models = "random,static";
        CollectParams params;
    };
    auto col = std::make_shared<CollectCli>();
    CLI::App *collect = dataset->add_subcommand(
        "collect", "Search and measure every workload of a list with each model, storing every trajectory (resumable)");
    collect->add_option("--list", col->list, "Workload list file (one spec per line)")->capture_default_str();
    collect->add_option("--db", col->db, "Records database (collection resumes from it)")->capture_default_str();
    collect->add_option("--models", col->models, "Comma-separated models, each searching every workload")->capture_default_str();
    collect->add_option("--trials", col->params.trials, "Measured candidates per workload and model")
        ->capture_default_str()->check(CLI::PositiveNumber);
    collect->add_option("--pass-trials", col->params.pass_trials, "Trials per workload and model in each pass over the list")
        ->capture_default_str()->check(CLI::PositiveNumber);
    collect->add_option("--seed", col->params.seed, "Collection seed")->capture_default_str();
    collect->add_option("--max-run", col->params.max_run_seconds,
                        "Skip workloads whose candidates' median run takes longer (seconds)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    collect->add_option("--hours", col->params.hours, "Stop after this many hours (0: no limit); run again to resume")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    collect->add_option("--per-round", col->params.tune.measures_per_round, "Candidates measured between model updates")
        ->capture_default_str()->check(CLI::PositiveNumber);
    collect->add_option("--searches", col->params.searches,
                        "Workloads searched at once under mpirun (0: enough to keep the measurer ranks busy)")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    add_space_option(collect, col->params.tune.sampler);
    add_measure_options(collect, col->params.measure);
    collect->callback([col] {
        col->params.models = split_list(col->models);
        for (const std::string &m : col->params.models)
            if (m != "random" && m != "static") throw CommandError("collect uses the random and static models, not '" + m + "'");
        std::vector<std::string> specs;
        try {
            specs = read_workload_list(col->list);
        } catch (const std::exception &e) {
            throw CommandError(e.what());
        }
        if (specs.empty()) throw CommandError(col->list + " lists no workload");
        RecordStore store(col->db);
        std::fprintf(stderr, "collecting %zu workloads x %zu models x %d trials into %s (%d threads, %s)\n", specs.size(),
                     col->params.models.size(), col->params.trials, col->db.c_str(), col->params.measure.threads,
                     hardware_summary().c_str());
        print_farm_groups();
        // A farm collects every workload on each of its hardware groups in turn, counting each group's records.
        for (size_t group = 0; group < std::max<size_t>(1, farm_group_count()); group++) {
            if (farm_group_count() > 0) col->params.machine = farm_select_group(group);
            if (farm_group_count() > 1) std::fprintf(stderr, "collecting on farm group %zu\n", group);
            print_collect_summary(col->db, specs.size(), store, collect_trajectories(store, specs, col->params, [](const std::string &line) {
                std::fprintf(stderr, "%s\n", line.c_str());
            }));
        }
    });
}

void add_export_subcommand(CLI::App *dataset) {
    struct ExportCli {
        std::string db = RecordStore::kDefaultPath, out;
        ExportOptions options;
    };
    auto exp = std::make_shared<ExportCli>();
    CLI::App *export_cmd = dataset->add_subcommand("export", "Write the records as a dataset file with splits by workload");
    export_cmd->add_option("--db", exp->db, "Records database")->capture_default_str();
    export_cmd->add_option("--out", exp->out, "Output dataset file (.jsonl)")->required();
    export_cmd->add_option("--seed", exp->options.seed, "Split seed")->capture_default_str();
    export_cmd->add_option("--val", exp->options.val_fraction, "Share of workloads in the validation split")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    export_cmd->add_option("--test", exp->options.test_fraction, "Share of workloads in the test split")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    export_cmd->add_option("--text-sample", exp->options.text_check_sample,
                           "Trajectories given a final-state text hash for `dataset verify` (-1: all)")
        ->capture_default_str();
    export_cmd->add_option("--prefix-sample", exp->options.prefix_check_sample,
                           "Trajectories given a hash of every intermediate state text (-1: all)")
        ->capture_default_str();
    export_cmd->callback([exp] {
        RecordStore store(exp->db);
        const ExportStats s = export_dataset(store, exp->out, exp->options);
        std::printf("wrote %s: %lld workloads, %lld trajectories, %lld final-text hashes, %lld prefix hashes",
                    exp->out.c_str(), (long long)s.workloads, (long long)s.trajectories, (long long)s.text_hashes,
                    (long long)s.prefix_hashes);
        if (s.skipped_other_hardware) std::printf(" (%lld records of other machines left out)", (long long)s.skipped_other_hardware);
        std::printf("\n");
    });
}

}  // namespace

void add_dataset_commands(CLI::App &app) {
    CLI::App *dataset = app.add_subcommand("dataset", "Build and inspect the trajectory dataset");
    dataset->require_subcommand(1);
    add_workloads_subcommand(dataset);
    add_collect_subcommand(dataset);
    add_corpus_subcommand(dataset);
    add_export_subcommand(dataset);
    add_file_subcommands(dataset);
}

}  // namespace worldtune::cli
