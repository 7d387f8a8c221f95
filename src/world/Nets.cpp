#include "world/Nets.h"
#include "world/Tokenizer.h"

#include <cmath>

namespace worldtune {

torch::Tensor masked_mean(const torch::Tensor &x, const torch::Tensor &keep) {
    const torch::Tensor k = keep.to(x.dtype()).unsqueeze(-1);  // [N, L, 1]
    const torch::Tensor sum = (x * k).sum(1);
    const torch::Tensor count = k.sum(1).clamp_min(1.0);
    return sum / count;
}

EncoderLayerImpl::EncoderLayerImpl(int d_model, int heads_, int ffn, double dropout) : heads(heads_) {
    ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    qkv = register_module("qkv", torch::nn::Linear(d_model, 3 * d_model));
    out = register_module("out", torch::nn::Linear(d_model, d_model));
    ff1 = register_module("ff1", torch::nn::Linear(d_model, ffn));
    ff2 = register_module("ff2", torch::nn::Linear(ffn, d_model));
    drop = register_module("drop", torch::nn::Dropout(dropout));
}

torch::Tensor EncoderLayerImpl::forward(const torch::Tensor &x, const torch::Tensor &pad) {
    const int64_t B = x.size(0), L = x.size(1), D = x.size(2), H = heads, hd = D / H;
    torch::Tensor h = ln1->forward(x);
    const std::vector<torch::Tensor> parts = qkv->forward(h).chunk(3, -1);
    auto heads_of = [&](const torch::Tensor &t) { return t.view({B, L, H, hd}).transpose(1, 2); };  // [B, H, L, hd]
    const torch::Tensor q = heads_of(parts[0]), k = heads_of(parts[1]), v = heads_of(parts[2]);
    torch::Tensor scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(double(hd));  // [B, H, L, L]
    scores = scores.masked_fill(pad.view({B, 1, 1, L}), -1e9);
    const torch::Tensor attn = drop->forward(torch::softmax(scores, -1));
    const torch::Tensor ctx = torch::matmul(attn, v).transpose(1, 2).reshape({B, L, D});
    torch::Tensor y = x + drop->forward(out->forward(ctx));
    h = ln2->forward(y);
    return y + drop->forward(ff2->forward(torch::gelu(ff1->forward(h))));
}

StateEncoderImpl::StateEncoderImpl(const WorldConfig &c, int vocab_size) : window(c.window) {
    tokens = register_module("tokens", torch::nn::Embedding(vocab_size, c.d_model));
    positions = register_module("positions", torch::nn::Embedding(c.window, c.d_model));
    layers = register_module("layers", torch::nn::ModuleList());
    for (int i = 0; i < c.layers; i++) layers->push_back(EncoderLayer(c.d_model, c.heads, c.ffn, c.dropout));
    final_norm = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.d_model})));
    mlm_head = register_module("mlm_head", torch::nn::Linear(c.d_model, vocab_size));
    proj1 = register_module("proj1", torch::nn::Linear(c.d_model, c.d_model));
    proj2 = register_module("proj2", torch::nn::Linear(c.d_model, c.projection));
    torch::nn::init::normal_(tokens->weight, 0.0, 0.02);
    torch::nn::init::normal_(positions->weight, 0.0, 0.02);
}

torch::Tensor StateEncoderImpl::token_states(const torch::Tensor &ids, const torch::Tensor &pad) {
    const int64_t L = ids.size(1);
    const torch::Tensor pos = torch::arange(L, torch::TensorOptions().dtype(torch::kInt64)).unsqueeze(0);
    // Words appended to the tokenizer after this encoder was trained (Tokenizer::extended) read as <unk>.
    const int64_t known = tokens->weight.size(0);
    const torch::Tensor in_vocab = torch::where(ids < known, ids, torch::full_like(ids, Tokenizer::kUnk));
    torch::Tensor x = tokens->forward(in_vocab) + positions->forward(pos);
    for (const auto &layer : *layers) x = layer->as<EncoderLayer>()->forward(x, pad);
    return final_norm->forward(x);
}

torch::Tensor StateEncoderImpl::window_vectors(const torch::Tensor &ids, const torch::Tensor &pad) {
    return masked_mean(token_states(ids, pad), pad.logical_not());
}

torch::Tensor StateEncoderImpl::mlm_logits(const torch::Tensor &states) { return mlm_head->forward(states); }

torch::Tensor StateEncoderImpl::project(const torch::Tensor &z) {
    return torch::nn::functional::normalize(proj2->forward(torch::gelu(proj1->forward(z))),
                                            torch::nn::functional::NormalizeFuncOptions().dim(-1));
}

TransitionImpl::TransitionImpl(const WorldConfig &c, int vocab_size)
    : residual_scale(c.residual_scale), max_tokens(c.action_max_tokens), state_rank(c.state_rank) {
    tokens = register_module("tokens", torch::nn::Embedding(vocab_size, c.action_dim));
    positions = register_module("positions", torch::nn::Embedding(c.action_max_tokens, c.action_dim));
    context = register_module("context", torch::nn::Linear(kActionContextFeatures, c.action_dim));
    hidden = register_module("hidden", torch::nn::Linear(c.action_dim, c.action_hidden));
    to_w = register_module("to_w", torch::nn::Linear(c.action_hidden, c.d_model));
    to_d = register_module("to_d", torch::nn::Linear(c.action_hidden, c.d_model));
    to_g = register_module("to_g", torch::nn::Linear(c.action_hidden, c.d_model));
    const int r = std::max(1, c.state_rank);  // rank 0 keeps unused 1-wide layers, so the file layout is one
    state_z = register_module("state_z", torch::nn::Linear(torch::nn::LinearOptions(c.d_model, r).bias(false)));
    state_h = register_module("state_h", torch::nn::Linear(c.action_hidden, r));
    state_w = register_module("state_w", torch::nn::Linear(torch::nn::LinearOptions(r, c.d_model).bias(false)));
    state_d = register_module("state_d", torch::nn::Linear(torch::nn::LinearOptions(r, c.d_model).bias(false)));
    state_g = register_module("state_g", torch::nn::Linear(torch::nn::LinearOptions(r, c.d_model).bias(false)));
    perf_hidden = register_module("perf_hidden", torch::nn::Linear(c.d_model, c.perf_hidden));
    perf_out = register_module("perf_out", torch::nn::Linear(c.perf_hidden, 1));
    torch::nn::init::normal_(tokens->weight, 0.0, 0.1);
    torch::nn::init::normal_(positions->weight, 0.0, 0.1);
    torch::nn::init::normal_(context->weight, 0.0, 0.1);
    torch::nn::init::zeros_(context->bias);
    torch::nn::init::zeros_(to_g->weight);
    torch::nn::init::zeros_(to_g->bias);
    torch::nn::init::normal_(to_d->weight, 0.0, 0.01);
    torch::nn::init::zeros_(to_d->bias);
    // The state's influence starts small: the first steps train like the state-blind transition.
    for (torch::nn::Linear *l : {&state_w, &state_d, &state_g}) torch::nn::init::normal_((*l)->weight, 0.0, 0.01);
}

torch::Tensor TransitionImpl::action_hidden(const torch::Tensor &ids, const torch::Tensor &pad, const torch::Tensor &ctx) {
    const int64_t L = ids.size(1);
    const torch::Tensor pos = torch::arange(L, torch::TensorOptions().dtype(torch::kInt64)).unsqueeze(0);
    const torch::Tensor e = masked_mean(tokens->forward(ids) + positions->forward(pos), pad.logical_not()) + context->forward(ctx);
    return torch::gelu(hidden->forward(e));
}

torch::Tensor TransitionImpl::perf(const torch::Tensor &z) {
    return perf_out->forward(torch::gelu(perf_hidden->forward(z))).squeeze(-1);
}

torch::Tensor TransitionImpl::step(const torch::Tensor &z, const torch::Tensor &h) {
    torch::Tensor w = to_w->forward(h), d = to_d->forward(h), g = to_g->forward(h);
    if (state_rank > 0) {
        const torch::Tensor s = torch::tanh(state_z->forward(z) + state_h->forward(h));
        w = w + state_w->forward(s);
        d = d + state_d->forward(s);
        g = g + state_g->forward(s);
    }
    w = torch::nn::functional::normalize(w, torch::nn::functional::NormalizeFuncOptions().dim(-1));
    g = residual_scale * torch::tanh(g);
    const torch::Tensor p = z - (w * z).sum(-1, true) * w;
    return (1 + g) * p + d;
}

}  // namespace worldtune
