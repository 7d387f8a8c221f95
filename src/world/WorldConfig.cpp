#include "world/WorldConfig.h"

#include "common/Text.h"

#include <stdexcept>

namespace worldtune {

namespace {

// One list of every field, used both ways.
template <typename Config, typename Visit>
void for_each_field(Config &c, Visit &&visit) {
    visit("vocab_max", c.vocab_max);
    visit("vocab_min_count", c.vocab_min_count);
    visit("d_model", c.d_model);
    visit("layers", c.layers);
    visit("heads", c.heads);
    visit("ffn", c.ffn);
    visit("window", c.window);
    visit("stride", c.stride);
    visit("max_windows", c.max_windows);
    visit("dropout", c.dropout);
    visit("mask_rate", c.mask_rate);
    visit("mlm_steps", c.mlm_steps);
    visit("mlm_batch", c.mlm_batch);
    visit("mlm_lr", c.mlm_lr);
    visit("contrastive_steps", c.contrastive_steps);
    visit("contrastive_workloads", c.contrastive_workloads);
    visit("contrastive_per_workload", c.contrastive_per_workload);
    visit("contrastive_max_windows", c.contrastive_max_windows);
    visit("temperature", c.temperature);
    visit("projection", c.projection);
    visit("contrastive_lr", c.contrastive_lr);
    visit("action_dim", c.action_dim);
    visit("action_hidden", c.action_hidden);
    visit("action_max_tokens", c.action_max_tokens);
    visit("residual_scale", c.residual_scale);
    visit("state_rank", c.state_rank);
    visit("action_context", c.action_context);
    visit("transition_epochs", c.transition_epochs);
    visit("transition_batch", c.transition_batch);
    visit("transition_lr", c.transition_lr);
    visit("margin", c.margin);
    visit("margin_weight", c.margin_weight);
    visit("negatives", c.negatives);
    visit("perf_hidden", c.perf_hidden);
    visit("perf_weight", c.perf_weight);
    visit("transition_per_workload", c.transition_per_workload);
    visit("intermediate_trajectories", c.intermediate_trajectories);
    visit("corpus_trajectories", c.corpus_trajectories);
    visit("finals_per_workload", c.finals_per_workload);
    visit("checkpoint_every", c.checkpoint_every);
    visit("ranker_objective", c.ranker_objective);
    visit("ranker_schedule_stats", c.ranker_schedule_stats);
    visit("ranker_label_grades", c.ranker_label_grades);
    visit("ranker_rounds", c.ranker_rounds);
    visit("ranker_depth", c.ranker_depth);
    visit("ranker_eta", c.ranker_eta);
    visit("online_mode", c.online_mode);
    visit("online_l2", c.online_l2);
    visit("online_clamp", c.online_clamp);
    visit("online_trust", c.online_trust);
    visit("online_trust_top", c.online_trust_top);
    visit("online_rounds", c.online_rounds);
    visit("online_depth", c.online_depth);
    visit("online_reads_latent", c.online_reads_latent);
    visit("online_eta", c.online_eta);
    visit("online_late_after", c.online_late_after);
    visit("online_late_rounds", c.online_late_rounds);
    visit("online_late_depth", c.online_late_depth);
    visit("online_late_eta", c.online_late_eta);
    visit("online_prior_weight", c.online_prior_weight);
    visit("online_schedule_features", c.online_schedule_features);
    visit("online_access_features", c.online_access_features);
    visit("online_lowered_features", c.online_lowered_features);
    visit("online_lowered_shortlist", c.online_lowered_shortlist);
    visit("seed", c.seed);
    visit("threads", c.threads);
}

}  // namespace

nlohmann::json WorldConfig::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for_each_field(*this, [&](const char *key, const auto &value) { j[key] = value; });
    return j;
}

WorldConfig WorldConfig::from_json(const nlohmann::json &j) {
    if (!j.is_object()) throw std::invalid_argument("world model config: not a JSON object");
    WorldConfig c;
    size_t known = 0;
    for_each_field(c, [&](const char *key, auto &value) {
        if (!j.contains(key)) return;
        known++;
        try {
            j.at(key).get_to(value);
        } catch (const std::exception &) {
            throw std::invalid_argument(std::string("world model config: bad value for '") + key + "'");
        }
    });
    if (known != j.size()) {
        const nlohmann::json defaults = WorldConfig().to_json();
        for (const auto &item : j.items())
            if (!defaults.contains(item.key()))
                throw std::invalid_argument("world model config: unknown key '" + printable(item.key()) + "'");
    }
    if (c.d_model <= 0 || c.heads <= 0 || c.d_model % c.heads != 0)
        throw std::invalid_argument("world model config: d_model must be a positive multiple of heads");
    if (c.window < 2 || c.stride <= 0 || c.stride > c.window - 1)
        throw std::invalid_argument("world model config: need window >= 2 and 0 < stride < window");
    if (c.online_mode != "latent" && c.online_mode != "booster" && c.online_mode != "none")
        throw std::invalid_argument("world model config: online_mode is latent, booster or none, not '" + printable(c.online_mode) + "'");
    if (!(c.online_trust >= 0) || c.online_trust_top < 1)
        throw std::invalid_argument("world model config: need online_trust >= 0 and online_trust_top >= 1");
    if (!(c.online_prior_weight >= 0) || c.online_rounds < 0 || !(c.online_eta >= 0))
        throw std::invalid_argument("world model config: need online_prior_weight, online_rounds and online_eta >= 0");
    if (c.online_late_after < 0 || c.online_late_rounds < 0 || c.online_late_depth < 1 || !(c.online_late_eta >= 0))
        throw std::invalid_argument("world model config: need online_late_after, online_late_rounds, online_late_eta >= 0 and online_late_depth >= 1");
    if (c.online_lowered_shortlist < 1 || c.online_depth < 1)
        throw std::invalid_argument("world model config: need online_lowered_shortlist >= 1 and online_depth >= 1");
    return c;
}

}  // namespace worldtune
