#include "train/EncoderTrainer.h"

#include "measure/Timing.h"
#include "world/Nets.h"
#include "world/Tokenizer.h"
#include "world/Windows.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>

namespace worldtune {

namespace {

constexpr int kLogEvery = 50;        ///< steps between progress lines

struct Checkpoint {
    int step = 0;
};

Checkpoint read_checkpoint(const std::string &path) {
    Checkpoint c;
    std::ifstream in(path + ".json");
    if (!in) return c;
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_object()) c.step = j.value("step", 0);
    return c;
}

void write_checkpoint_meta(const std::string &path, int step) {
    const std::string tmp = path + ".json.tmp";
    {
        std::ofstream out(tmp);
        out << nlohmann::json{{"step", step}}.dump() << "\n";
    }
    std::filesystem::rename(tmp, path + ".json");
}

/// One optimizer step on `loss`, then the stage's bookkeeping: mean loss per logging interval (every
/// `log_every` steps and at the last), first and last interval means in the report.
class StepLog {
public:
    StepLog(const char *stage, int total, int log_every, const Log &log, StageReport &report)
        : stage_(stage), total_(total), log_every_(std::max(1, log_every)), log_(log), report_(report), start_(now_seconds()) {}

    template <typename Optimizer>
    void step(torch::Tensor loss, Optimizer &opt, torch::nn::Module &net, int step) {
        opt.zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(net.parameters(), 1.0);
        opt.step();
        sum_ += loss.item<double>();
        count_++;
        report_.steps++;
        if (count_ < log_every_ && step + 1 != total_) return;
        const double mean = sum_ / count_;
        if (report_.first_loss == 0) report_.first_loss = mean;
        report_.last_loss = mean;
        char line[160];
        std::snprintf(line, sizeof line, "  %s step %d/%d: loss %.3f (%.1f s)", stage_, step + 1, total_, mean, seconds());
        log_(line);
        sum_ = 0;
        count_ = 0;
    }
    double seconds() const { return now_seconds() - start_; }

private:
    const char *stage_;
    int total_, log_every_;
    const Log &log_;
    StageReport &report_;
    double start_, sum_ = 0;
    int count_ = 0;
};

}  // namespace

struct EncoderTrainer::Impl {
    WorldConfig config;
    int vocab_size;
    StateEncoder encoder;
    std::mt19937_64 rng;

    Impl(const WorldConfig &c, int v) : config(c), vocab_size(v), encoder(c, v), rng(c.seed) {
        torch::manual_seed(c.seed);
        torch::set_num_threads(std::max(1, c.threads));
    }

    /// Saves weights + optimizer atomically enough for resume: files first, then the step.
    template <typename Optimizer>
    void save_checkpoint(const std::string &path, Optimizer &opt, int step) {
        torch::save(encoder, path + ".model.tmp");
        torch::save(opt, path + ".optim.tmp");
        std::filesystem::rename(path + ".model.tmp", path + ".model");
        std::filesystem::rename(path + ".optim.tmp", path + ".optim");
        write_checkpoint_meta(path, step);
    }

    template <typename Optimizer>
    int resume(const std::string &path, Optimizer &opt) {
        const Checkpoint c = read_checkpoint(path);
        if (c.step <= 0 || !std::filesystem::exists(path + ".model") || !std::filesystem::exists(path + ".optim")) return 0;
        torch::load(encoder, path + ".model");
        torch::load(opt, path + ".optim");
        return c.step;
    }

    /// BERT masking of one batch in place; returns labels (-100 where not masked).
    torch::Tensor mask_batch(WindowBatch &b, std::mt19937_64 &r) const {
        const int64_t n = b.ids.numel();
        std::vector<int64_t> ids(static_cast<size_t>(n)), labels(static_cast<size_t>(n), -100);
        std::memcpy(ids.data(), b.ids.data_ptr<int64_t>(), size_t(n) * sizeof(int64_t));
        std::uniform_real_distribution<double> unit(0, 1);
        const int first_word = 4;  // after the specials
        std::uniform_int_distribution<int> any_word(first_word, std::max(first_word, vocab_size - 1));
        bool any = false;
        for (int64_t i = 0; i < n; i++) {
            if (ids[size_t(i)] == Tokenizer::kPad || ids[size_t(i)] == Tokenizer::kCls) continue;
            if (unit(r) >= config.mask_rate) continue;
            labels[size_t(i)] = ids[size_t(i)];
            any = true;
            const double u = unit(r);
            if (u < 0.8) ids[size_t(i)] = Tokenizer::kMask;
            else if (u < 0.9) ids[size_t(i)] = any_word(r);
        }
        if (!any) {  // at least one target, so the loss is defined
            for (int64_t i = 0; i < n; i++)
                if (ids[size_t(i)] != Tokenizer::kPad && ids[size_t(i)] != Tokenizer::kCls) {
                    labels[size_t(i)] = ids[size_t(i)];
                    ids[size_t(i)] = Tokenizer::kMask;
                    break;
                }
        }
        b.ids = torch::from_blob(ids.data(), b.ids.sizes(), torch::kInt64).clone();
        return torch::from_blob(labels.data(), b.ids.sizes(), torch::kInt64).clone();
    }

    /// A random window of a random non-empty text.
    std::vector<std::vector<int32_t>> sample_windows(const TokenTexts &texts, int count, std::mt19937_64 &r) const {
        std::vector<std::vector<int32_t>> out;
        std::uniform_int_distribution<size_t> pick(0, texts.size() - 1);
        while (int(out.size()) < count) {
            const std::vector<int32_t> &t = texts[pick(r)];
            if (t.empty()) continue;
            std::vector<std::vector<int32_t>> ws = make_windows(t, config.window, config.stride, config.max_windows);
            std::uniform_int_distribution<size_t> w(0, ws.size() - 1);
            out.push_back(std::move(ws[w(r)]));
        }
        return out;
    }

    torch::Tensor mlm_loss_of(const std::vector<std::vector<int32_t>> &windows, std::mt19937_64 &r) {
        std::vector<const std::vector<int32_t> *> ptrs;
        for (const auto &w : windows) ptrs.push_back(&w);
        WindowBatch b = to_window_batch(ptrs);
        const torch::Tensor labels = mask_batch(b, r);
        const torch::Tensor logits = encoder->mlm_logits(encoder->token_states(b.ids, b.pad));
        return torch::nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}), labels.view({-1}),
                                                    torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
    }

    /// z of texts whose windows are given (grouped: owner[i] = text of window i), in training mode.
    torch::Tensor pooled(const std::vector<std::vector<int32_t>> &windows, const std::vector<int64_t> &owner, int64_t texts) {
        std::vector<const std::vector<int32_t> *> ptrs;
        for (const auto &w : windows) ptrs.push_back(&w);
        const WindowBatch b = to_window_batch(ptrs);
        const torch::Tensor wv = encoder->window_vectors(b.ids, b.pad);  // [Nw, D]
        const torch::Tensor idx = torch::from_blob(const_cast<int64_t *>(owner.data()), {int64_t(owner.size())}, torch::kInt64).clone();
        const torch::Tensor sum = torch::zeros({texts, wv.size(1)}).index_add(0, idx, wv);
        const torch::Tensor count = torch::zeros({texts}).index_add(0, idx, torch::ones({int64_t(owner.size())})).clamp_min(1);
        return sum / count.unsqueeze(1);
    }
};

EncoderTrainer::EncoderTrainer(const WorldConfig &config, int vocab_size) : impl_(std::make_unique<Impl>(config, vocab_size)) {}
EncoderTrainer::~EncoderTrainer() = default;

StageReport EncoderTrainer::train_mlm(const TokenTexts &texts, const std::string &checkpoint, const Log &log) {
    Impl &m = *impl_;
    StageReport report;
    report.stage = "mlm";
    if (texts.empty()) throw std::runtime_error("masked-token pretraining: no texts");
    torch::optim::AdamW opt(m.encoder->parameters(), torch::optim::AdamWOptions(m.config.mlm_lr).weight_decay(0.01));
    report.resumed_from = m.resume(checkpoint, opt);
    m.encoder->train();
    StepLog steps("mlm", m.config.mlm_steps, kLogEvery, log, report);
    std::mt19937_64 r(m.config.seed * 1000003 + uint64_t(report.resumed_from));
    for (int step = report.resumed_from; step < m.config.mlm_steps; step++) {
        // Linear warm-up over the first 5% of steps, then linear decay.
        const double warm = std::max(1.0, 0.05 * m.config.mlm_steps);
        const double scale = step < warm ? (step + 1) / warm : std::max(0.05, 1.0 - (step - warm) / (m.config.mlm_steps - warm + 1));
        for (auto &group : opt.param_groups()) static_cast<torch::optim::AdamWOptions &>(group.options()).lr(m.config.mlm_lr * scale);
        steps.step(m.mlm_loss_of(m.sample_windows(texts, m.config.mlm_batch, r), r), opt, *m.encoder, step);
        if ((step + 1) % std::max(1, m.config.checkpoint_every) == 0 || step + 1 == m.config.mlm_steps)
            m.save_checkpoint(checkpoint, opt, step + 1);
    }
    report.seconds = steps.seconds();
    return report;
}

StageReport EncoderTrainer::train_contrastive(const TokenTexts &texts, const std::vector<int> &group, const std::string &checkpoint,
                                              const Log &log) {
    Impl &m = *impl_;
    StageReport report;
    report.stage = "contrastive";
    std::map<int, std::vector<size_t>> members;
    for (size_t i = 0; i < texts.size() && i < group.size(); i++)
        if (!texts[i].empty()) members[group[i]].push_back(i);
    std::vector<int> groups;
    for (const auto &[g, list] : members)
        if (list.size() >= 2) groups.push_back(g);
    if (groups.size() < 2) throw std::runtime_error("contrastive training needs two workloads with two states each");

    torch::optim::AdamW opt(m.encoder->parameters(), torch::optim::AdamWOptions(m.config.contrastive_lr).weight_decay(0.01));
    report.resumed_from = m.resume(checkpoint, opt);
    m.encoder->train();
    StepLog steps("contrastive", m.config.contrastive_steps, kLogEvery / 5, log, report);
    std::mt19937_64 r(m.config.seed * 7919 + uint64_t(report.resumed_from));
    const int K = std::min<int>(m.config.contrastive_workloads, int(groups.size()));
    const int P = std::max(2, m.config.contrastive_per_workload);
    for (int step = report.resumed_from; step < m.config.contrastive_steps; step++) {
        std::vector<int> chosen = groups;
        std::shuffle(chosen.begin(), chosen.end(), r);
        chosen.resize(size_t(K));
        std::vector<std::vector<int32_t>> windows;
        std::vector<int64_t> owner, label;
        int64_t n = 0;
        for (int g : chosen) {
            const std::vector<size_t> &list = members[g];
            std::uniform_int_distribution<size_t> pick(0, list.size() - 1);
            for (int p = 0; p < P; p++) {
                std::vector<std::vector<int32_t>> ws = make_windows(texts[list[pick(r)]], m.config.window, m.config.stride, m.config.max_windows);
                const size_t keep = std::min(ws.size(), size_t(std::max(1, m.config.contrastive_max_windows)));
                std::uniform_int_distribution<size_t> from(0, ws.size() - keep);
                const size_t first = from(r);
                for (size_t w = first; w < first + keep; w++) {
                    windows.push_back(std::move(ws[w]));
                    owner.push_back(n);
                }
                label.push_back(g);
                n++;
            }
        }
        const torch::Tensor z = m.pooled(windows, owner, n);
        const torch::Tensor p = m.encoder->project(z);                       // [n, P], unit rows
        const torch::Tensor sim = torch::matmul(p, p.t()) / m.config.temperature;
        const torch::Tensor labels = torch::from_blob(label.data(), {n}, torch::kInt64).clone();
        const torch::Tensor self = torch::eye(n, torch::kBool);
        const torch::Tensor positive = labels.unsqueeze(0).eq(labels.unsqueeze(1)).logical_and(self.logical_not());
        const torch::Tensor logits = sim.masked_fill(self, -1e9);
        const torch::Tensor log_prob = logits - torch::logsumexp(logits, 1, true);
        const torch::Tensor pos = positive.to(torch::kFloat);
        steps.step(-((log_prob * pos).sum(1) / pos.sum(1).clamp_min(1)).mean(), opt, *m.encoder, step);
        if ((step + 1) % std::max(1, m.config.checkpoint_every / 4) == 0 || step + 1 == m.config.contrastive_steps)
            m.save_checkpoint(checkpoint, opt, step + 1);
    }
    report.seconds = steps.seconds();
    return report;
}

std::vector<std::vector<float>> EncoderTrainer::encode(const TokenTexts &texts, const EncodeProgress &progress) const {
    return encode_texts(impl_->encoder, impl_->config, texts, progress);
}

double EncoderTrainer::mlm_loss(const TokenTexts &texts, int windows, uint64_t seed) const {
    Impl &m = *impl_;
    torch::NoGradGuard no_grad;
    m.encoder->eval();
    std::mt19937_64 r(seed);
    return m.mlm_loss_of(m.sample_windows(texts, windows, r), r).item<double>();
}

void EncoderTrainer::save(const std::string &path) const { torch::save(impl_->encoder, path); }

void EncoderTrainer::load(const std::string &path) { load_encoder_weights(impl_->encoder, path); }

}  // namespace worldtune
