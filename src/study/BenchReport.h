// The report of a bench (Bench.h): report.md in the report folder, with the tables (per workload GFLOP/s,
// geometric-mean speedups of the lead model with bootstrap intervals, ablations, sample efficiency,
// network estimates, tuning time), the plots (curves, speedups, efficiency: gnuplot data, scripts and
// PNGs) and the command that reproduces it.
#pragma once

#include "study/Bench.h"

#include <string>

namespace worldtune {

/// Writes report.md and the plots into params.out and returns the markdown; throws StudyError when the
/// folder cannot be written.
std::string write_bench_report(const BenchResults &results, const BenchParams &params);

/// The `worldtune bench` command line that reproduces a bench with these parameters.
std::string bench_command_line(const BenchParams &params);

}  // namespace worldtune
