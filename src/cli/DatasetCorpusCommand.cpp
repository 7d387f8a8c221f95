// `worldtune dataset corpus`: the unmeasured transition corpus (src/dataset/TransitionCorpus.h).
#include "cli/Commands.h"

#include "dataset/TransitionCorpus.h"

#include <cstdio>
#include <memory>

namespace worldtune::cli {

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

}  // namespace worldtune::cli
