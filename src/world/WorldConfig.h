// Every parameter of the world model, in one place: architecture, windows, and the training recipe of
// each stage. It is saved in the model bundle (config.json) so that a bundle always runs with the
// configuration it was trained with.
#pragma once

#include "common/Defaults.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace worldtune {

struct WorldConfig {
    // Tokenizer.
    int vocab_max = 2048;          ///< vocabulary size cap (specials, numbers and learned words)
    int vocab_min_count = 2;       ///< a word seen fewer times in the corpus is <unk>

    // Encoder E(s): a RoBERTa-style pre-norm transformer over windows of the token sequence.
    int d_model = 128;             ///< width of token states and of z
    int layers = 2;
    int heads = 4;
    int ffn = 512;                 ///< feed-forward width
    int window = 128;              ///< tokens per window (the <cls> token included)
    int stride = 96;               ///< tokens between window starts (window - stride tokens overlap)
    int max_windows = 24;          ///< a longer text keeps its first max_windows windows
    double dropout = 0.1;

    // Masked-token pretraining.
    double mask_rate = 0.15;       ///< share of tokens masked (80% <mask>, 10% random, 10% kept, as BERT)
    int mlm_steps = 3000;
    int mlm_batch = 32;            ///< windows per step
    double mlm_lr = 5e-4;

    // Contrastive training: states of one workload are positives, other workloads' negatives.
    int contrastive_steps = 600;
    int contrastive_workloads = 8; ///< workloads per batch
    int contrastive_per_workload = 4;  ///< states per workload in a batch
    int contrastive_max_windows = 4;   ///< windows of a state seen per step (a random run of them)
    double temperature = 0.1;      ///< of the supervised contrastive (InfoNCE) loss
    int projection = 64;           ///< width of the projection head the contrastive loss sees
    double contrastive_lr = 2e-4;

    // Transition z_t = F(z_{t-1}, a_t): TransH step (projection onto the action's hyperplane plus a
    // translation) and a small gated residual correction.
    int action_dim = 64;           ///< action token embedding width
    int action_hidden = 256;       ///< hidden width of the action MLP
    int action_max_tokens = 48;    ///< tokens kept of one serialized action
    double residual_scale = 0.1;   ///< initial scale of the residual correction
    int state_rank = 16;           ///< width of the bottleneck through which a step reads the state it acts
                                   ///< on (Nets.h: Transition); 0: the state-blind step of the first bundles
    bool action_context = true;    ///< describe each action with the extents it acts on (ActionContext.h);
                                   ///< false: its tokens alone
    int transition_epochs = 16;
    int transition_batch = 32;     ///< trajectories per step
    double transition_lr = 1e-3;
    double margin = 0.5;           ///< of the ranking term (true state closer than negatives by this)
    double margin_weight = 0.5;    ///< weight of the ranking term against state matching
    int negatives = 4;             ///< negatives per trajectory, from other trajectories of the workload
    // Performance probe: an MLP on z^_T scoring the candidate, trained with a within-workload pairwise
    // ranking loss (logistic, faster above slower) so that the rollout keeps what decides speed; its score
    // is a feature of the world ranker. The contrastive encoder alone groups states by workload and keeps
    // too little of the schedule (docs/model.md, "Why a performance probe").
    int perf_hidden = 64;          ///< hidden width of the probe
    double perf_weight = 2.0;      ///< weight of its ranking term in the transition loss (0: off)
    int transition_per_workload = 16; ///< trajectories of one workload kept together in a batch
    int intermediate_trajectories = 2000;  ///< measured trajectories whose every intermediate state is encoded
    int corpus_trajectories = 0;   ///< with `train --corpus DIR`: its train-split trajectories used, each with
                                   ///< every state (0: all; encoding them is the stage's main cost)
    int finals_per_workload = 0;   ///< successful trajectories per workload whose final state is encoded (0: all)
    int checkpoint_every = 200;    ///< steps between checkpoints of the encoder stages

    // Ranker: XGBoost LambdaRank-family objective, one group per workload.
    // Chosen on the val split (docs/model.md, "Choices made on the val split"): rank:pairwise was ahead of
    // rank:ndcg with 4, 8 or 16 grades on pairwise accuracy on both machines' val records, and the
    // schedule statistics helped only the ablations, not the world ranker.
    std::string ranker_objective = "rank:pairwise";
    bool ranker_schedule_stats = false; ///< the ranker also reads the context statistics and parallelism
                                        ///< features (Ranker.h: kScheduleStatFeatures), read from the actions
    int ranker_label_grades = 0;   ///< 0: labels are the normalized throughput; N: integer grades 0..N
                                   ///< (RankerParams::label_grades; rank:ndcg's gain wants grades)
    int ranker_rounds = 300;
    int ranker_depth = 6;
    double ranker_eta = 0.1;
    std::string online_mode = "booster";  ///< how a run's measurements correct the prior (WorldModel.h):
                                          ///< "booster" (an XGBoost correction with the prior's scores as
                                          ///< its base margin; chosen over "latent" on the val list,
                                          ///< docs/results/v2-online), "latent" (LatentCorrection.h) or "none"
    double online_l2 = 10.0;       ///< "latent": pull of the correction toward the prior (chosen by replay
                                   ///< on the val runs of two machines among 0.1, 1, 10, 30, 100)
    // The correction's guards against extrapolation (LatentCorrection.h), off: on the val list neither
    // sped up the search (docs/results/v2-trust).
    bool online_clamp = false;     ///< "latent": bound the correction's inputs to their measured range
    double online_trust = 0;       ///< "latent": score penalty per unit of latent distance to the task's
                                   ///< fastest measured candidates (x the measured scores' spread; 0: off)
    int online_trust_top = 4;      ///< "latent": how many of the fastest measured candidates anchor it
    int online_rounds = 30;        ///< "booster": rounds of the XGBoost correction on a run's measurements
    int online_depth = 4;          ///< "booster": its trees' depth (at most ranker_depth; 6 was no better
                                   ///< in replay: docs/results/v2-online-depth)
    bool online_reads_latent = true;  ///< "booster": it also splits on the predicted final state (z^_T and
                                      ///< the probe's score); false: only on the columns after them (the
                                      ///< prior still reads them for the base margin). Replay with the
                                      ///< cascade: top-1 after 48 0.623 -> 0.688 (docs/results/v2-online-depth);
                                      ///< not yet tried in a search
    double online_eta = 0.1;       ///< "booster": its learning rate
    // The booster once a run has measured more than online_late_after candidates (0: never): by default the
    // capacity of the static model's task model (ModelFactory.h). Off: with 64 on the val list at 256
    // trials, 0.980x re-measured [0.946-1.006] (docs/results/late-booster-val-zen5).
    int online_late_after = 0;
    int online_late_rounds = 100;  ///< "booster", late: its rounds
    int online_late_depth = 6;     ///< "booster", late: its trees' depth (at most ranker_depth)
    double online_late_eta = 0.2;  ///< "booster", late: its learning rate
    double online_prior_weight = 1.0;  ///< "booster": the prior's scores, times this, are its base margin
                                       ///< (0: the correction learns from the run alone; replay on the val
                                       ///< runs among 0, 0.3, 1, 3: docs/results/v2-online)
    bool online_schedule_features = true;  ///< "booster": it also reads the schedule's simulated loop nest
                                           ///< (ScheduleFeatures.h; no lowering); false: the ranker's row only
    bool online_access_features = false;   ///< "booster", with online_schedule_features: also how the loops
                                           ///< walk each read and the bytes the innermost loops touch
                                           ///< (ScheduleFeatures.h, with_access); replay only so far
                                           ///< (docs/results/v2-online-access), not in a search
    bool online_lowered_features = false;  ///< "booster": also the lowered statement's pooled static
                                           ///< features (StaticFeatures.h) of the measured candidates and,
                                           ///< once it has trained, of a shortlist per batch (a cascade:
                                           ///< WorldModel.h); the rest keep the prior's order below them
                                           ///< (off: val search 1.047x at 64 [0.985-1.120],
                                           ///< docs/results/v2-cascade)
    int online_lowered_shortlist = 64;     ///< with online_lowered_features: the prior's best this many of a
                                           ///< batch are lowered and ranked by the correction

    uint64_t seed = 1;
    int threads = kDefaultThreads;

    nlohmann::json to_json() const;
    /// Missing keys keep their defaults; unknown keys are refused (a typo would otherwise pass silently).
    static WorldConfig from_json(const nlohmann::json &j);
};

}  // namespace worldtune
