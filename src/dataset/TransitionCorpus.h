// The transition corpus: program states and the actions between them, generated and lowered without
// measuring anything, so the world model can learn the dynamics at scale (latency labels are only needed
// by the ranker and the performance probe).
//
// Workloads: every preset subgraph and `generated_per_op` generated shapes of every op kind, odd sizes and
// divisibility pairs included (WorkloadList.h: collection_workloads); with the defaults 209 + 7 x 120 =
// 1,049 workloads. Per workload, `schedules` random sketch instances (SketchSampler, seeded by the corpus
// seed and the spec), every prefix state s_0 .. s_T lowered into the folder's TextCache; a trajectory is
// kept when all of its states lower. Everything follows from the seed: rerunning the same command on an
// empty folder gives the same corpus.
//
// Folder layout:
//   corpus.json         {"format": "worldtune-transition-corpus", "version": 1, "seed", "generated_per_op",
//                        "schedules", "val_fraction", "test_fraction"}: a resumed run must match it
//   trajectories.jsonl  one line per finished workload, written after its states are in the cache:
//                       {"spec", "split", "trajectories": [[action JSON, ...], ...]}
//   texts.db            the lowered states (TextCache)
// A killed run loses at most the workload it was on; its next run resumes after the last complete line.
#pragma once

#include "common/Defaults.h"
#include "dataset/DatasetFile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace worldtune {

struct TransitionCorpusParams {
    uint64_t seed = 1;             ///< workloads, schedules (the splits use the dataset's seed 1 and fractions)
    int generated_per_op = 120;    ///< generated shapes per op kind, beside every preset subgraph
    int schedules = 32;            ///< random schedules per workload
    int max_workloads = 0;         ///< stop after this many workloads of the list (0: all)
    int threads = kDefaultThreads;               ///< lowering threads
    double hours = 0;              ///< stop after this long (0: no limit); run again to resume
    double val_fraction = 0.1;     ///< as the shipped dataset splits (split_for)
    double test_fraction = 0.15;
};

struct TransitionCorpusReport {
    int workloads = 0;             ///< finished workloads in the folder
    int trajectories = 0;          ///< kept trajectories
    int64_t transitions = 0;       ///< (state, action, next state) triples: the kept trajectories' actions
    int fresh_workloads = 0;       ///< finished by this run
    double seconds = 0;            ///< this run
    bool complete = false;         ///< every workload of the list is in the folder
};

/// The train-split trajectories of a corpus folder as dataset workloads with no measurement (machine -1,
/// latency 0), at most `max_trajectories` of them (0: all; a seeded sample otherwise). For training the
/// transition's state matching (DatasetFile.h: kUnmeasuredMachine).
std::vector<DatasetWorkload> corpus_workloads(const std::string &dir, int max_trajectories, uint64_t seed);

/// Generates (or resumes) the corpus in `dir`. Throws std::runtime_error with one line for a folder made
/// with other parameters or a file that cannot be written.
TransitionCorpusReport generate_transition_corpus(const std::string &dir, const TransitionCorpusParams &params,
                                                  const std::function<void(const std::string &)> &log);

}  // namespace worldtune
