// `worldtune train`: the whole world-model recipe from a dataset file to a bundle, stage by stage, each
// stage resumable (its output in the bundle directory means done; the encoder stages also checkpoint).
//   texts        lower the training states (StateCorpus) into <out>/cache/texts.db
//   tokenizer    learn the vocabulary                    -> tokenizer.json
//   mlm          masked-token pretraining                -> cache/encoder_mlm.pt
//   contrastive  workload-contrastive training           -> encoder.pt
//   encode       E(s) of every corpus state              -> cache/states.bin + states.keys (reused by token hash)
//   transition   TransH rollout training                 -> transition.pt, transition.bin
//   ranker       the four rankers (world, initial, final, actions) -> ranker_*.ubj
// then manifest.json, written last: a directory with a manifest is a complete bundle.
#pragma once

#include "train/EncoderTrainer.h"
#include "world/Ranker.h"
#include "world/WorldConfig.h"

#include <string>
#include <vector>

namespace worldtune {

const std::vector<std::string> &training_stages();

struct TrainOptions {
    std::vector<std::string> datasets;  ///< dataset files (DatasetFile.h), one per machine (load_datasets)
    std::string corpus;                 ///< a transition corpus folder (TransitionCorpus.h) or "": its
                                        ///< train-split trajectories join the transition's state matching
    std::string out;              ///< bundle directory
    std::string stage = "all";    ///< one of training_stages(), or "all"
    bool restart = false;         ///< redo the chosen stage(s) even if their output exists
    /// The rankers the ranker stage trains (ranker_variants(), Ranker.h); the others keep their files.
    /// Without "final" it encodes only the workloads' initial states, not every final state.
    std::vector<std::string> rankers = ranker_variants();
    WorldConfig config;           ///< used when the directory has no config.json yet
};

/// Runs the chosen stage(s). Stages need the outputs of earlier ones (a clear error names the missing
/// one). Throws std::runtime_error on failure.
void train_world_model(const TrainOptions &options, const Log &log);

}  // namespace worldtune
