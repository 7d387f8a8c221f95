// The `worldtune` subcommands: each file in src/cli adds one (or a family) to the app.
#pragma once

#include "common/OneLineError.h"
#include "common/Text.h"
#include "measure/Measurer.h"
#include "search/SketchSampler.h"

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace worldtune::cli {

/// A user-facing failure: printed as one line "worldtune: <message>", exit code 1.
struct CommandError : OneLineError {
    using OneLineError::OneLineError;
};

/// --threads, --repeats, --min-time, --timeout into `params`.
void add_measure_options(CLI::App *cmd, MeasureParams &params);
/// --space v1|v2: the sketch rules the search samples from (SamplerParams::space), into `sampler`.
/// `--hardware NAME`: the measurement farm's group a run measures on (farm/Farm.h).
void add_hardware_option(CLI::App *cmd);
/// The farm's hardware groups, one line each on stderr (nothing outside a farm).
void print_farm_groups();
void add_space_option(CLI::App *cmd, SamplerParams &sampler);

void add_lower_command(CLI::App &app);
void add_workloads_command(CLI::App &app);
void add_measure_command(CLI::App &app);
void add_tune_command(CLI::App &app);
void add_records_commands(CLI::App &app);
void add_baseline_command(CLI::App &app);
void add_worker_command(CLI::App &app);
void add_sample_command(CLI::App &app);
void add_compare_command(CLI::App &app);
void add_best_commands(CLI::App &app);
void add_estimate_command(CLI::App &app);
void add_dataset_commands(CLI::App &app);
void add_corpus_subcommand(CLI::App *dataset);  ///< `dataset corpus`
void add_file_subcommands(CLI::App *dataset);   ///< `dataset stats` and `dataset verify`
void add_train_commands(CLI::App &app);
void add_bench_command(CLI::App &app);
void add_replay_command(CLI::App &app);
void add_calibrate_command(CLI::App &app);
void add_remeasure_command(CLI::App &app);

}  // namespace worldtune::cli
