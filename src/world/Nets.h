// The world model's networks in libtorch: the state encoder E(s) and the action-conditioned transition
// F(z, a). Include only from the few .cpp files that train or run them (torch headers compile slowly).
#pragma once

#include "features/ActionContext.h"
#include "world/Encoder.h"
#include "world/WorldConfig.h"

#include <torch/torch.h>

namespace worldtune {

/// Mean of x [N, L, D] over L, counting only positions where keep [N, L] is true; a row with nothing kept
/// gives zeros. The pooling of tokens within a window and of windows within a text.
torch::Tensor masked_mean(const torch::Tensor &x, const torch::Tensor &keep);

/// One pre-norm transformer encoder layer: x + attention(LN(x)), then x + FFN(LN(x)) with GELU.
struct EncoderLayerImpl : torch::nn::Module {
    EncoderLayerImpl(int d_model, int heads, int ffn, double dropout);
    /// x [B, L, D]; pad [B, L] true where the token is padding (never attended to).
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &pad);

    int heads;
    torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
    torch::nn::Linear qkv{nullptr}, out{nullptr}, ff1{nullptr}, ff2{nullptr};
    torch::nn::Dropout drop{nullptr};
};
TORCH_MODULE(EncoderLayer);

/// E(s): token + position embeddings, pre-norm layers, final LayerNorm; a window's vector is the masked mean
/// of its token states, a text's vector the masked mean of its windows' vectors. Heads: masked-token
/// prediction (pretraining) and a projection for the contrastive loss.
struct StateEncoderImpl : torch::nn::Module {
    StateEncoderImpl(const WorldConfig &config, int vocab_size);
    /// Token states [B, L, D] of windows ids [B, L] (int64), pad [B, L] (bool, true = padding).
    torch::Tensor token_states(const torch::Tensor &ids, const torch::Tensor &pad);
    /// One vector per window [B, D].
    torch::Tensor window_vectors(const torch::Tensor &ids, const torch::Tensor &pad);
    /// Logits over the vocabulary for every token [B, L, V].
    torch::Tensor mlm_logits(const torch::Tensor &states);
    /// The contrastive head, L2-normalized [N, P].
    torch::Tensor project(const torch::Tensor &z);

    torch::nn::Embedding tokens{nullptr}, positions{nullptr};
    torch::nn::ModuleList layers{nullptr};
    torch::nn::LayerNorm final_norm{nullptr};
    torch::nn::Linear mlm_head{nullptr};
    torch::nn::Linear proj1{nullptr}, proj2{nullptr};
    int window;
};
TORCH_MODULE(StateEncoder);

/// F(z, a): an action's tokens are embedded (token + position) and mean-pooled, its context (the extents
/// it acts on, ScheduleFeatures.h: ActionContext) is projected and added, and an MLP gives the action's
/// hidden vector h_a. The current state enters through a small bottleneck, s = tanh(S_z z + S_h h_a) of
/// `state_rank` values, so the step reads the state it acts on:
///     w = normalize(W_w h_a + C_w s),  d = W_d h_a + C_d s,  g = r * tanh(W_g h_a + C_g s)
///     p = z - (w . z) w,   z' = (1 + g) * p + d,
/// TransH's projection onto the action's hyperplane plus a translation, with a per-dimension residual
/// scaling (g starts near zero). state_rank 0 gives the state-blind step (w, d, g from the action alone).
struct TransitionImpl : torch::nn::Module {
    TransitionImpl(const WorldConfig &config, int vocab_size);
    /// The actions' hidden vectors [A, H] from token ids [A, L] (int64), pad [A, L] and contexts [A, K].
    torch::Tensor action_hidden(const torch::Tensor &ids, const torch::Tensor &pad, const torch::Tensor &context);
    /// One step for a batch: states z [B, D] and the batch's action hidden vectors h [B, H].
    torch::Tensor step(const torch::Tensor &z, const torch::Tensor &h);
    /// The performance probe's score of states z [B, D]: [B] (higher = faster).
    torch::Tensor perf(const torch::Tensor &z);

    torch::nn::Embedding tokens{nullptr}, positions{nullptr};
    torch::nn::Linear context{nullptr}, hidden{nullptr}, to_w{nullptr}, to_d{nullptr}, to_g{nullptr};
    torch::nn::Linear state_z{nullptr}, state_h{nullptr}, state_w{nullptr}, state_d{nullptr}, state_g{nullptr};
    torch::nn::Linear perf_hidden{nullptr}, perf_out{nullptr};
    double residual_scale;
    int max_tokens;
    int state_rank;
};
TORCH_MODULE(Transition);

/// A batch of windows as tensors: ids [B, L] int64 padded with <pad>, pad [B, L] bool (true = padding).
struct WindowBatch {
    torch::Tensor ids, pad;
};
WindowBatch to_window_batch(const std::vector<const std::vector<int32_t> *> &windows);

/// z = E(s) for each text with `encoder` in eval mode, no gradients (world/Encoder.cpp).
std::vector<std::vector<float>> encode_texts(StateEncoder &encoder, const WorldConfig &config, const TokenTexts &texts,
                                             const EncodeProgress &progress);
/// Loads `path` into `encoder`; throws std::runtime_error naming the file when it is missing or does not fit.
void load_encoder_weights(StateEncoder &encoder, const std::string &path);

}  // namespace worldtune
