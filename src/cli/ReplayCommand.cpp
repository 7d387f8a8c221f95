// `worldtune replay`: parses the options and replays a records database with each model (study/Replay.h
// says what it measures); prints the table.
#include "cli/Commands.h"

#include "study/Replay.h"
#include "study/TuningRuns.h"

#include <cstdio>
#include <memory>

namespace worldtune::cli {

void add_replay_command(CLI::App &app) {
    auto o = std::make_shared<ReplayParams>();
    CLI::App *cmd = app.add_subcommand("replay", "Rank measured schedules with each model after N online measurements (no measuring)");
    cmd->add_option("--db", o->db, "Records databases to replay, comma-separated (e.g. a bench's bench.db)")->required();
    cmd->add_option("--models", o->models, "Cost models, comma-separated")->capture_default_str();
    cmd->add_option("--after", o->after, "Online measurements the model has seen, comma-separated")->capture_default_str();
    cmd->add_option("--pool", o->pool, "Schedules scored per run (a random subset of the workload's others)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--near", o->near, "Pool only schedules at most this x the run's incumbent after N (0: every schedule)")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--runs", o->runs, "Runs per workload used as training prefixes")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--batch", o->batch, "Candidates per tuning round: the top-B the model would measure")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--diversity", o->diversity.weight, "Weight of dissimilarity in the batch pick (0: the top-B by score)")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--shortlist", o->diversity.shortlist, "The batch is picked among the best B x this by score")
        ->capture_default_str()->check(CLI::Range(1.0, 1000.0));
    cmd->add_option("--bundle", o->bundle, "World-model bundle (default: the shipped models/world)");
    cmd->add_option("--threads", o->threads, "Threads for the models")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--seed", o->seed, "Seed of the pool subsample and the models")->capture_default_str();
    cmd->callback([o] {
        try {
            std::printf("%s", replay_table(run_replay(*o), *o).c_str());
        } catch (const StudyError &e) {
            throw CommandError(e.what());
        }
    });
}

}  // namespace worldtune::cli
