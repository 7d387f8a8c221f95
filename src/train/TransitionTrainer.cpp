#include "train/TransitionTrainer.h"

#include "measure/Timing.h"
#include "world/Nets.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>

namespace worldtune {

namespace {

constexpr double kTieTolerance = 0.01;  ///< latencies within 1% are not ordered by the performance term

torch::Tensor rows_of(const std::vector<std::vector<float>> &states, const std::vector<int> &index, int D) {
    std::vector<float> data(index.size() * size_t(D), 0.0f);
    for (size_t i = 0; i < index.size(); i++)
        if (index[i] >= 0) std::copy(states[size_t(index[i])].begin(), states[size_t(index[i])].end(), data.begin() + long(i * size_t(D)));
    return torch::from_blob(data.data(), {int64_t(index.size()), int64_t(D)}, torch::kFloat).clone();
}

std::vector<float> flat(const torch::Tensor &t) {
    const torch::Tensor c = t.detach().contiguous().to(torch::kFloat);
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

/// Where an interrupted training resumes: the epochs done and the state of their bookkeeping. The files
/// PATH.model, PATH.optim and PATH.best (the best epoch's weights so far) are written first, PATH.json last.
struct EpochCheckpoint {
    int epochs = 0;
    double best = std::numeric_limits<double>::infinity();
    StageReport report;
    std::string rng;
};

/// The inputs a checkpoint belongs to: another data set or vocabulary starts over.
nlohmann::json checkpoint_inputs(size_t trajectories, int vocab, int epochs) {
    return {{"trajectories", trajectories}, {"vocab", vocab}, {"epochs", epochs}};
}

}  // namespace

struct TransitionTrainer::Impl {
    WorldConfig config;
    int vocab_size;
    Transition net;

    Impl(const WorldConfig &c, int v) : config(c), vocab_size(v), net(c, v) {
        torch::manual_seed(c.seed + 17);
        torch::set_num_threads(std::max(1, c.threads));
    }

    /// Writes an epoch checkpoint (EpochCheckpoint): the weight files first, the JSON that names them last.
    void save_checkpoint(const std::string &path, const nlohmann::json &inputs, torch::optim::AdamW &opt,
                         const std::stringstream &best_weights, const EpochCheckpoint &c) {
        torch::save(net, path + ".model.tmp");
        torch::save(opt, path + ".optim.tmp");
        {
            std::ofstream out(path + ".best.tmp", std::ios::binary);
            out << best_weights.str();
        }
        for (const char *f : {".model", ".optim", ".best"}) std::filesystem::rename(path + f + ".tmp", path + f);
        const nlohmann::json j = {{"inputs", inputs}, {"epochs", c.epochs}, {"best", c.best}, {"rng", c.rng},
                                  {"first_loss", c.report.first_loss}, {"last_loss", c.report.last_loss}};
        {
            std::ofstream out(path + ".json.tmp");
            out << j.dump() << "\n";
        }
        std::filesystem::rename(path + ".json.tmp", path + ".json");
    }

    /// The checkpoint at `path` when it exists and belongs to these inputs (its weights loaded), else none.
    std::optional<EpochCheckpoint> resume(const std::string &path, const nlohmann::json &inputs, torch::optim::AdamW &opt,
                                          std::stringstream &best_weights) {
        std::ifstream in(path + ".json");
        if (!in) return std::nullopt;
        const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        if (!j.is_object() || j.value("inputs", nlohmann::json()) != inputs) return std::nullopt;
        for (const char *f : {".model", ".optim", ".best"})
            if (!std::filesystem::exists(path + f)) return std::nullopt;
        EpochCheckpoint c;
        try {
            c.epochs = j.at("epochs").get<int>();
            c.best = j.at("best").is_number() ? j.at("best").get<double>() : std::numeric_limits<double>::infinity();
            c.rng = j.at("rng").get<std::string>();
            c.report.first_loss = j.at("first_loss").get<double>();
            c.report.last_loss = j.at("last_loss").get<double>();
        } catch (const std::exception &) {
            return std::nullopt;
        }
        torch::load(net, path + ".model");
        torch::load(opt, path + ".optim");
        best_weights.str("");
        if (std::filesystem::file_size(path + ".best") > 0) {
            std::ifstream b(path + ".best", std::ios::binary);
            best_weights << b.rdbuf();
        }
        return c;
    }

    /// Rolls out a batch; returns the predictions z^_0..z^_Tmax as [Tmax + 1] tensors [B, D] (a finished
    /// trajectory keeps its last state).
    std::vector<torch::Tensor> rollout(const std::vector<const TrajectorySample *> &batch, const std::vector<std::vector<float>> &states) {
        const int D = config.d_model;
        std::vector<int> first;
        size_t T = 0;
        for (const TrajectorySample *s : batch) {
            first.push_back(s->states.front());
            T = std::max(T, s->actions.size());
        }
        std::vector<torch::Tensor> z{rows_of(states, first, D)};
        const int64_t B = int64_t(batch.size());
        for (size_t t = 0; t < T; t++) {
            size_t L = 1;
            for (const TrajectorySample *s : batch)
                if (t < s->actions.size()) L = std::max(L, std::min(s->actions[t].size(), size_t(config.action_max_tokens)));
            std::vector<int64_t> ids(size_t(B) * L, Tokenizer::kPad);
            std::vector<uint8_t> pad(size_t(B) * L, 1), active(size_t(B), 0);
            std::vector<float> ctx(size_t(B) * kActionContextFeatures, 0.0f);
            for (size_t b = 0; b < batch.size(); b++) {
                if (t >= batch[b]->actions.size()) continue;
                active[b] = 1;
                const std::vector<int32_t> &a = batch[b]->actions[t];
                for (size_t i = 0; i < a.size() && i < L; i++) {
                    ids[b * L + i] = a[i];
                    pad[b * L + i] = 0;
                }
                if (config.action_context && t < batch[b]->contexts.size())
                    std::copy(batch[b]->contexts[t].begin(), batch[b]->contexts[t].end(), ctx.begin() + long(b * kActionContextFeatures));
            }
            const torch::Tensor tid = torch::from_blob(ids.data(), {B, int64_t(L)}, torch::kInt64).clone();
            const torch::Tensor tpad = torch::from_blob(pad.data(), {B, int64_t(L)}, torch::kUInt8).clone().to(torch::kBool);
            const torch::Tensor tctx = torch::from_blob(ctx.data(), {B, int64_t(kActionContextFeatures)}, torch::kFloat).clone();
            const torch::Tensor tactive = torch::from_blob(active.data(), {B}, torch::kUInt8).clone().to(torch::kBool).unsqueeze(1);
            const torch::Tensor next = net->step(z.back(), net->action_hidden(tid, tpad, tctx));
            z.push_back(torch::where(tactive, next, z.back()));
        }
        return z;
    }

    /// The batch loss (state matching + margin ranking), with the final predictions.
    torch::Tensor loss(const std::vector<const TrajectorySample *> &batch, const std::vector<std::vector<float>> &states,
                       const std::map<int, std::vector<int>> &finals_of_group, std::mt19937_64 &rng) {
        const int D = config.d_model;
        const std::vector<torch::Tensor> z = rollout(batch, states);
        torch::Tensor match = torch::zeros({});
        int64_t known = 0;
        for (size_t t = 1; t < z.size(); t++) {
            std::vector<int> target(batch.size(), -1);
            std::vector<float> use(batch.size(), 0.0f);
            for (size_t b = 0; b < batch.size(); b++)
                if (t < batch[b]->states.size() && batch[b]->states[t] >= 0) {
                    target[b] = batch[b]->states[t];
                    use[b] = 1;
                    known++;
                }
            const torch::Tensor m = torch::from_blob(use.data(), {int64_t(use.size())}, torch::kFloat).clone();
            if (m.sum().item<float>() == 0) continue;
            match = match + (((z[t] - rows_of(states, target, D)).pow(2).mean(1)) * m).sum();
        }
        match = match / double(std::max<int64_t>(1, known));

        // Final predictions of each trajectory and its negatives.
        std::vector<torch::Tensor> finals;
        for (size_t b = 0; b < batch.size(); b++) finals.push_back(z[batch[b]->actions.size()][int64_t(b)]);
        std::vector<int64_t> anchor;
        std::vector<int> positive, negative;
        for (size_t b = 0; b < batch.size(); b++) {
            auto it = finals_of_group.find(batch[b]->group);
            if (it == finals_of_group.end() || it->second.size() < 2) continue;
            std::uniform_int_distribution<size_t> pick(0, it->second.size() - 1);
            for (int k = 0, tries = 0; k < config.negatives && tries < 4 * config.negatives; tries++) {
                const int n = it->second[pick(rng)];
                if (n == batch[b]->states.back()) continue;
                anchor.push_back(int64_t(b));
                positive.push_back(batch[b]->states.back());
                negative.push_back(n);
                k++;
            }
        }
        torch::Tensor total = match;
        const torch::Tensor stacked = torch::stack(finals);
        if (!anchor.empty() && config.margin_weight > 0) {
            const torch::Tensor pred = stacked.index_select(0, torch::from_blob(anchor.data(), {int64_t(anchor.size())}, torch::kInt64).clone());
            const torch::Tensor dpos = (pred - rows_of(states, positive, D)).pow(2).mean(1);
            const torch::Tensor dneg = (pred - rows_of(states, negative, D)).pow(2).mean(1);
            total = total + config.margin_weight * torch::relu(config.margin + dpos - dneg).mean();
        }
        if (config.perf_weight > 0) {
            std::vector<int64_t> faster, slower;
            ordered_pairs(batch, faster, slower);
            if (!faster.empty()) {
                const torch::Tensor s = net->perf(stacked);
                const torch::Tensor f = s.index_select(0, torch::from_blob(faster.data(), {int64_t(faster.size())}, torch::kInt64).clone());
                const torch::Tensor w = s.index_select(0, torch::from_blob(slower.data(), {int64_t(slower.size())}, torch::kInt64).clone());
                total = total + config.perf_weight * torch::softplus(w - f).mean();
            }
        }
        return total;
    }

    /// Pairs (i, j) of one workload in the batch where i ran clearly faster than j (a failed run is slowest).
    static void ordered_pairs(const std::vector<const TrajectorySample *> &batch, std::vector<int64_t> &faster, std::vector<int64_t> &slower) {
        for (size_t i = 0; i < batch.size(); i++)
            for (size_t j = 0; j < batch.size(); j++) {
                if (i == j || batch[i]->group != batch[j]->group || batch[i]->latency <= 0) continue;
                if (batch[j]->latency <= 0 || batch[i]->latency < batch[j]->latency * (1 - kTieTolerance)) {
                    faster.push_back(int64_t(i));
                    slower.push_back(int64_t(j));
                }
            }
    }

    /// Batches of config.transition_batch trajectories made of runs of transition_per_workload
    /// trajectories of one workload, in a fresh random order every epoch.
    std::vector<std::vector<const TrajectorySample *>> batches(const std::vector<TrajectorySample> &samples, std::mt19937_64 &rng) const {
        std::map<int, std::vector<const TrajectorySample *>> by_group;
        for (const TrajectorySample &s : samples) by_group[s.group].push_back(&s);
        std::vector<std::vector<const TrajectorySample *>> runs;
        const size_t per = size_t(std::max(1, config.transition_per_workload));
        for (auto &[g, list] : by_group) {
            std::shuffle(list.begin(), list.end(), rng);
            for (size_t i = 0; i < list.size(); i += per)
                runs.emplace_back(list.begin() + long(i), list.begin() + long(std::min(list.size(), i + per)));
        }
        std::shuffle(runs.begin(), runs.end(), rng);
        std::vector<std::vector<const TrajectorySample *>> out(1);
        for (const auto &run : runs) {
            if (int(out.back().size()) >= std::max(1, config.transition_batch)) out.emplace_back();
            out.back().insert(out.back().end(), run.begin(), run.end());
        }
        return out;
    }
};

TransitionTrainer::TransitionTrainer(const WorldConfig &config, int vocab_size) : impl_(std::make_unique<Impl>(config, vocab_size)) {}
TransitionTrainer::~TransitionTrainer() = default;

StageReport TransitionTrainer::train(const std::vector<TrajectorySample> &train, const std::vector<TrajectorySample> &val,
                                     const std::vector<std::vector<float>> &states, const Log &log,
                                     const std::string &checkpoint) {
    Impl &m = *impl_;
    StageReport report;
    report.stage = "transition";
    if (train.empty()) throw std::runtime_error("transition training: no trajectories");
    std::map<int, std::vector<int>> finals_of_group;
    for (const TrajectorySample &s : train) finals_of_group[s.group].push_back(s.states.back());
    torch::optim::AdamW opt(m.net->parameters(), torch::optim::AdamWOptions(m.config.transition_lr).weight_decay(0.01));
    std::mt19937_64 rng(m.config.seed * 31 + 5);
    const double start = now_seconds();
    double best = std::numeric_limits<double>::infinity();
    std::stringstream best_weights;
    const nlohmann::json inputs = checkpoint_inputs(train.size(), m.vocab_size, m.config.transition_epochs);
    int first_epoch = 0;
    if (!checkpoint.empty()) {
        const std::optional<EpochCheckpoint> c = m.resume(checkpoint, inputs, opt, best_weights);
        if (c) {
            first_epoch = c->epochs;
            best = c->best;
            report.first_loss = c->report.first_loss;
            report.last_loss = c->report.last_loss;
            report.resumed_from = c->epochs;
            std::istringstream(c->rng) >> rng;
            log("  transition: resuming after epoch " + std::to_string(c->epochs));
        }
    }
    for (int epoch = first_epoch; epoch < m.config.transition_epochs; epoch++) {
        m.net->train();
        double total = 0;
        int batches = 0;
        for (const std::vector<const TrajectorySample *> &batch : m.batches(train, rng)) {
            const torch::Tensor loss = m.loss(batch, states, finals_of_group, rng);
            opt.zero_grad();
            loss.backward();
            torch::nn::utils::clip_grad_norm_(m.net->parameters(), 1.0);
            opt.step();
            total += loss.item<double>();
            batches++;
            report.steps++;
        }
        const double mean = total / std::max(1, batches);
        if (epoch == 0) report.first_loss = mean;
        report.last_loss = mean;
        std::string line = "  transition epoch " + std::to_string(epoch + 1) + "/" + std::to_string(m.config.transition_epochs) +
                           ": loss " + std::to_string(mean);
        if (!val.empty()) {
            const TransitionQuality q = evaluate(val, states);
            line += "; validation: final mse " + std::to_string(q.final_mse) + " (identity " + std::to_string(q.identity_mse) +
                    "), closer than a negative " + std::to_string(q.closer_than_negative) + ", probe pairwise " +
                    std::to_string(q.probe_pairwise);
            // The kept epoch: the best probe ordering when the probe is trained, else the best state match.
            const double badness = m.config.perf_weight > 0 ? -q.probe_pairwise : q.final_mse;
            if (badness < best) {
                best = badness;
                best_weights.str("");
                torch::save(m.net, best_weights);
            }
        }
        log(line + " (" + std::to_string(int(now_seconds() - start)) + " s)");
        if (!checkpoint.empty()) {
            std::ostringstream r;
            r << rng;
            m.save_checkpoint(checkpoint, inputs, opt, best_weights, {epoch + 1, best, report, r.str()});
        }
    }
    if (best_weights.tellp() > 0) {
        std::stringstream in(best_weights.str());
        torch::load(m.net, in);
    }
    report.seconds = now_seconds() - start;
    return report;
}

TransitionQuality TransitionTrainer::evaluate(const std::vector<TrajectorySample> &samples, const std::vector<std::vector<float>> &states) const {
    Impl &m = *impl_;
    torch::NoGradGuard no_grad;
    m.net->eval();
    TransitionQuality q;
    std::map<int, std::vector<int>> finals_of_group;
    for (const TrajectorySample &s : samples) finals_of_group[s.group].push_back(s.states.back());
    const int D = m.config.d_model;
    double final_sum = 0, identity_sum = 0, closer = 0, pairs = 0;
    std::vector<double> probe(samples.size(), 0.0);
    std::mt19937_64 rng(12345);
    for (size_t i = 0; i < samples.size(); i += 64) {
        std::vector<const TrajectorySample *> batch;
        for (size_t j = i; j < std::min(samples.size(), i + 64); j++) batch.push_back(&samples[j]);
        const std::vector<torch::Tensor> z = m.rollout(batch, states);
        for (size_t b = 0; b < batch.size(); b++) {
            const torch::Tensor pred = z[batch[b]->actions.size()][int64_t(b)];
            probe[i + b] = m.net->perf(pred.unsqueeze(0))[0].item<double>();
            const torch::Tensor truth = rows_of(states, {batch[b]->states.back()}, D)[0];
            const torch::Tensor start = rows_of(states, {batch[b]->states.front()}, D)[0];
            const double dpos = (pred - truth).pow(2).mean().item<double>();
            final_sum += dpos;
            identity_sum += (start - truth).pow(2).mean().item<double>();
            const std::vector<int> &finals = finals_of_group[batch[b]->group];
            std::uniform_int_distribution<size_t> pick(0, finals.size() - 1);
            for (int k = 0; k < 4 && finals.size() > 1; k++) {
                const int n = finals[pick(rng)];
                if (n == batch[b]->states.back()) continue;
                const double dneg = (pred - rows_of(states, {n}, D)[0]).pow(2).mean().item<double>();
                closer += dpos < dneg;
                pairs++;
            }
        }
    }
    q.trajectories = int(samples.size());
    q.final_mse = final_sum / std::max<size_t>(1, samples.size());
    q.identity_mse = identity_sum / std::max<size_t>(1, samples.size());
    q.closer_than_negative = pairs > 0 ? closer / pairs : 0;
    std::vector<const TrajectorySample *> all;
    for (const TrajectorySample &s : samples) all.push_back(&s);
    std::vector<int64_t> faster, slower;
    Impl::ordered_pairs(all, faster, slower);
    double right = 0;
    for (size_t k = 0; k < faster.size(); k++) right += probe[size_t(faster[k])] > probe[size_t(slower[k])];
    q.probe_pairwise = faster.empty() ? 0 : right / double(faster.size());
    return q;
}

std::vector<std::vector<float>> TransitionTrainer::predict_finals(const std::vector<TrajectorySample> &samples,
                                                                  const std::vector<std::vector<float>> &states) const {
    Impl &m = *impl_;
    torch::NoGradGuard no_grad;
    m.net->eval();
    std::vector<std::vector<float>> out;
    for (size_t i = 0; i < samples.size(); i += 64) {
        std::vector<const TrajectorySample *> batch;
        for (size_t j = i; j < std::min(samples.size(), i + 64); j++) batch.push_back(&samples[j]);
        const std::vector<torch::Tensor> z = m.rollout(batch, states);
        for (size_t b = 0; b < batch.size(); b++) out.push_back(flat(z[batch[b]->actions.size()][int64_t(b)]));
    }
    return out;
}

std::vector<double> TransitionTrainer::probe_scores(const std::vector<std::vector<float>> &z) const {
    Impl &m = *impl_;
    torch::NoGradGuard no_grad;
    m.net->eval();
    std::vector<int> all(z.size());
    for (size_t i = 0; i < z.size(); i++) all[i] = int(i);
    const torch::Tensor s = m.net->perf(rows_of(z, all, m.config.d_model)).contiguous();
    return std::vector<double>(s.data_ptr<float>(), s.data_ptr<float>() + s.numel());
}

RolloutTables TransitionTrainer::tables() const {
    const Impl &m = *impl_;
    RolloutTables t;
    t.d_model = m.config.d_model;
    t.action_dim = m.config.action_dim;
    t.action_hidden = m.config.action_hidden;
    t.max_tokens = m.config.action_max_tokens;
    t.vocab = m.vocab_size;
    t.state_rank = m.config.state_rank;
    t.action_context = m.config.action_context;
    t.residual_scale = float(m.config.residual_scale);
    t.tokens = flat(m.net->tokens->weight);
    t.positions = flat(m.net->positions->weight);
    t.context_w = flat(m.net->context->weight);
    t.context_b = flat(m.net->context->bias);
    t.hidden_w = flat(m.net->hidden->weight);
    t.hidden_b = flat(m.net->hidden->bias);
    t.w_w = flat(m.net->to_w->weight);
    t.w_b = flat(m.net->to_w->bias);
    t.d_w = flat(m.net->to_d->weight);
    t.d_b = flat(m.net->to_d->bias);
    t.g_w = flat(m.net->to_g->weight);
    t.g_b = flat(m.net->to_g->bias);
    if (t.state_rank > 0) {
        t.state_z_w = flat(m.net->state_z->weight);
        t.state_h_w = flat(m.net->state_h->weight);
        t.state_h_b = flat(m.net->state_h->bias);
        t.state_w_w = flat(m.net->state_w->weight);
        t.state_d_w = flat(m.net->state_d->weight);
        t.state_g_w = flat(m.net->state_g->weight);
    }
    t.perf_hidden = m.config.perf_hidden;
    t.perf_hidden_w = flat(m.net->perf_hidden->weight);
    t.perf_hidden_b = flat(m.net->perf_hidden->bias);
    t.perf_out_w = flat(m.net->perf_out->weight);
    t.perf_out_b = flat(m.net->perf_out->bias);
    return t;
}

void TransitionTrainer::save(const std::string &path) const { torch::save(impl_->net, path); }

void TransitionTrainer::load(const std::string &path) {
    if (!std::filesystem::exists(path)) throw std::runtime_error("transition weights " + path + " not found");
    try {
        torch::load(impl_->net, path);
    } catch (const std::exception &e) {
        const std::string what = e.what();  // libtorch's message: its first line, without the backtrace
        throw std::runtime_error("transition weights " + path + " do not fit this configuration: " +
                                 what.substr(0, std::min(what.find('\n'), size_t(200))));
    }
}

}  // namespace worldtune
