// Entry point of the `worldtune` command line: every failure becomes one clear line and exit code 1.
#include "cli/Commands.h"
#include "farm/Farm.h"

#include "measure/BlasCore.h"
#include "schedule/Apply.h"

#include "Halide.h"

#include <iostream>

int main(int argc, char **argv) {
    worldtune::FarmSession farm(argc, argv);  // under mpirun: rank 0 runs the command, the others measure
    if (farm.is_measurer()) return farm.serve();
    worldtune::use_full_width_openblas(argv);  // before anything runs on OpenBLAS (measure/BlasCore.h)
    CLI::App app{"worldtune: an auto-scheduler for Halide pipelines guided by a compiler world model"};
    app.require_subcommand(1);
    app.set_version_flag("--version", WORLDTUNE_VERSION);
    using namespace worldtune::cli;
    add_lower_command(app);
    add_workloads_command(app);
    add_sample_command(app);
    add_measure_command(app);
    add_tune_command(app);
    add_compare_command(app);
    add_best_commands(app);
    add_estimate_command(app);
    add_records_commands(app);
    add_dataset_commands(app);
    add_train_commands(app);
    add_bench_command(app);
    add_replay_command(app);
    add_calibrate_command(app);
    add_remeasure_command(app);
    add_worker_command(app);
    add_baseline_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e);
    } catch (const worldtune::ScheduleError &e) {
        std::cerr << "worldtune: invalid schedule: " << worldtune::one_line(e.what()) << "\n";
        return 1;
    } catch (const Halide::Error &e) {
        std::cerr << "worldtune: Halide error: " << worldtune::one_line(e.what()) << "\n";
        return 1;
    } catch (const std::exception &e) {  // SpecError, ActionFormatError, CommandError and the rest: one line
        std::cerr << "worldtune: " << worldtune::one_line(e.what()) << "\n";
        return 1;
    }
    return 0;
}
