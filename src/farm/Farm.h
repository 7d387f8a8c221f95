// A measurement farm over MPI: `mpirun -np N worldtune <command>` runs the command on rank 0 (search, task
// scheduler, records store) while every other rank measures the candidates rank 0 sends it, each in its own
// worker process exactly as a local run does, and sends back records carrying its own hardware. Started
// without mpirun, or built without MPI (WORLDTUNE_WITH_MPI unset), worldtune runs as it always did.
//
// Measurers are grouped by hardware (CPU model, cores, Halide target). A run measures on one group: the one
// --hardware names (a substring of the group's name), else rank 0's machine type, else the first group.
// A measurer that dies or hangs (silent for FarmParams::silence_seconds) is dropped and its in-flight
// candidates are measured by another; with none left, rank 0 measures itself. Under Open MPI, pass
// `--enable-recovery` so that mpirun keeps the job alive when a rank dies.
#pragma once

#include "farm/FarmProtocol.h"
#include "measure/CandidateMeasurer.h"

#include <memory>
#include <string>
#include <vector>

namespace worldtune {

/// Joins the MPI job when this process was started by mpirun (and is not one of worldtune's own worker
/// subprocesses); the first thing main() makes, the last thing it destroys.
class FarmSession {
public:
    FarmSession(int &argc, char **&argv, FarmParams params = {});
    ~FarmSession();
    FarmSession(const FarmSession &) = delete;
    FarmSession &operator=(const FarmSession &) = delete;

    /// A measurer rank: serve() it and exit with its code instead of running the command.
    bool is_measurer() const { return rank_ > 0; }
    int serve();

private:
    int rank_ = 0;
    bool joined_ = false;
    bool skip_finalize_ = false;  ///< a measurer told that a rank was lost
    FarmParams params_;
};

/// Whether this process is rank 0 of an MPI job with measurer ranks.
bool farm_active();
/// One line per hardware group: "group 0: AMD EPYC, 2 cores, x86-64-linux-...: ranks 1 2"; empty when none.
std::vector<std::string> farm_groups();
/// The group runs measure on, by a part of its name (see the header comment); throws std::invalid_argument
/// naming the groups when none matches.
void farm_select_hardware(const std::string &name_part);

/// How many hardware groups the farm has (0 outside a farm).
size_t farm_group_count();
/// How many searches rank 0 runs at once (each with batches of `batch` candidates) so that the selected
/// group's measurers never wait for a search: 1 outside a farm; in a farm, enough batches to fill every
/// measurer's queue (FarmParams::queue_depth) plus one search proposing its next batch meanwhile.
int farm_concurrent_searches(int batch);
/// Makes group `i` (< farm_group_count()) the one runs measure on; returns its hardware description.
nlohmann::json farm_select_group(size_t i);

/// What measures a run's candidates: the farm's selected group when farm_active(), else one local worker.
std::unique_ptr<CandidateMeasurer> make_measurer(const MeasureParams &params);

}  // namespace worldtune
