// `worldtune dataset workloads|collect|export|stats|verify|corpus`: the collection list, the trajectory dataset
// file made from the records database (format in src/dataset/DatasetFile.h), and the unmeasured transition
// corpus (src/dataset/TransitionCorpus.h).
#include "cli/Commands.h"

#include "dataset/Collector.h"
#include "dataset/DatasetFile.h"
#include "dataset/DatasetStats.h"
#include "dataset/TransitionCorpus.h"
#include "dataset/WorkloadList.h"
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
        const CollectSummary s = collect_trajectories(store, specs, col->params, [](const std::string &line) {
            std::fprintf(stderr, "%s\n", line.c_str());
        });
        for (const auto &[key, why] : store.notes("collect-skip:"))
            std::printf("skipped %s: %s\n", key.substr(13).c_str(), why.c_str());
        std::printf("measured %lld candidates (%lld failed) in %.0f s; %s holds %lld collection records; %d of %zu workloads "
                    "complete, %d skipped%s\n",
                    (long long)s.measured, (long long)s.failed, s.wall_seconds, col->db.c_str(), (long long)s.records,
                    s.workloads_done, specs.size(), s.workloads_skipped,
                    s.time_limit_hit ? "; stopped at the time limit (run again to resume)" : "");
    });
}

void add_corpus_subcommand(CLI::App *dataset) {
    auto corpus = std::make_shared<TransitionCorpusParams>();
    auto corpus_dir = std::make_shared<std::string>();
    CLI::App *corpus_cmd = dataset->add_subcommand(
        "corpus", "Generate and lower unmeasured trajectories of ~1,000 workloads for the transition (resumable, seeded)");
    corpus_cmd->add_option("--out", *corpus_dir, "Corpus folder (resumes what is there)")->required();
    corpus_cmd->add_option("--seed", corpus->seed, "Seed of the workloads and schedules")->capture_default_str();
    corpus_cmd->add_option("--generated", corpus->generated_per_op, "Generated workloads per op kind, beside the presets")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    corpus_cmd->add_option("--schedules", corpus->schedules, "Random schedules per workload")->capture_default_str()->check(CLI::PositiveNumber);
    corpus_cmd->add_option("--max-workloads", corpus->max_workloads, "Only the first N workloads of the list (0: all)")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    corpus_cmd->add_option("--threads", corpus->threads, "Lowering threads")->capture_default_str()->check(CLI::PositiveNumber);
    corpus_cmd->add_option("--hours", corpus->hours, "Stop after this many hours (0: no limit); run again to resume")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    corpus_cmd->callback([corpus, corpus_dir] {
        TransitionCorpusReport r;
        try {
            r = generate_transition_corpus(*corpus_dir, *corpus, [](const std::string &line) { std::fprintf(stderr, "%s\n", line.c_str()); });
        } catch (const std::runtime_error &e) {
            throw CommandError(e.what());
        }
        std::printf("%s: %d workloads, %d trajectories, %lld transitions%s (%d workloads in %.0f s this run)\n", corpus_dir->c_str(),
                    r.workloads, r.trajectories, (long long)r.transitions, r.complete ? ", complete" : "", r.fresh_workloads, r.seconds);
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
