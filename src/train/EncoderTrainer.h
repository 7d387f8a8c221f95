// Training the state encoder E(s) (torch stays inside the .cpp; world/Encoder runs the trained network).
//   Stage 1, masked-token pretraining: random windows of the corpus, 15% of tokens masked (BERT's 80/10/10),
//            cross-entropy on the masked ones.
//   Stage 2, contrastive: batches of `contrastive_workloads` workloads x `contrastive_per_workload` states;
//            each state is encoded from a random run of up to contrastive_max_windows windows; the supervised
//            contrastive loss (InfoNCE with every other state of the same workload as a positive) on the
//            projection head, at `temperature`.
// Both stages checkpoint every config.checkpoint_every steps (weights, optimizer, step) and resume from it.
#pragma once

#include "world/Encoder.h"
#include "world/WorldConfig.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace worldtune {

/// What a training stage did.
struct StageReport {
    std::string stage;
    int steps = 0;            ///< steps run by this call (resumed steps not counted)
    int resumed_from = 0;     ///< the step a checkpoint resumed from
    double seconds = 0;
    double first_loss = 0;    ///< mean loss of the first logged interval
    double last_loss = 0;     ///< mean loss of the last one
};

using Log = std::function<void(const std::string &)>;

class EncoderTrainer {
public:
    EncoderTrainer(const WorldConfig &config, int vocab_size);
    ~EncoderTrainer();
    EncoderTrainer(const EncoderTrainer &) = delete;
    EncoderTrainer &operator=(const EncoderTrainer &) = delete;

    /// Masked-token pretraining for config.mlm_steps in all (resuming from `checkpoint` when it exists).
    StageReport train_mlm(const TokenTexts &texts, const std::string &checkpoint, const Log &log);
    /// Contrastive training; group[i] is the workload of texts[i] (texts of workloads with one state are skipped).
    StageReport train_contrastive(const TokenTexts &texts, const std::vector<int> &group, const std::string &checkpoint,
                                  const Log &log);
    /// z = E(s) for each text (eval mode, no gradients), each of config.d_model floats. `progress(done,
    /// total)` is called every few thousand texts when given.
    std::vector<std::vector<float>> encode(const TokenTexts &texts, const EncodeProgress &progress = nullptr) const;
    /// The masked-token loss of a fixed sample of windows (eval mode), for tests and reports.
    double mlm_loss(const TokenTexts &texts, int windows, uint64_t seed) const;

    void save(const std::string &path) const;  ///< the encoder's weights
    void load(const std::string &path);        ///< throws std::runtime_error naming the file

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace worldtune
