#include "world/Ranker.h"

#include "common/RankingMetrics.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>

namespace worldtune {

namespace {

std::vector<std::pair<std::string, std::string>> booster_settings(const RankerParams &p) {
    return {{"objective", p.objective}, {"tree_method", "hist"}, {"max_depth", std::to_string(p.depth)},
            {"eta", std::to_string(p.eta)}, {"min_child_weight", "0"}, {"nthread", std::to_string(std::max(1, p.threads))},
            {"seed", std::to_string(p.seed % 2147483647u)}, {"verbosity", "0"}, {"disable_default_eval_metric", "1"}};
}

/// The first `to` values of each row of `from` values.
std::vector<float> narrow_rows(const std::vector<float> &rows, size_t count, int from, int to) {
    if (from == to) return rows;
    std::vector<float> out;
    out.reserve(count * size_t(to));
    for (size_t i = 0; i < count; i++) out.insert(out.end(), rows.begin() + long(i * size_t(from)), rows.begin() + long(i * size_t(from) + size_t(to)));
    return out;
}

double mean_top1(const RankingData &data, const std::vector<float> &scores) {
    RankingMetricsMean mean;
    size_t at = 0;
    for (unsigned g : data.groups) {
        std::vector<double> lat, sc;
        for (size_t i = at; i < at + g; i++) {
            lat.push_back(data.labels[i] > 0 ? 1.0 / data.labels[i] : 0.0);
            sc.push_back(scores[i]);
        }
        mean.add(lat, sc);
        at += g;
    }
    return mean.mean().top1;
}

}  // namespace

void append_action_stats(const ActionList &actions, std::vector<float> &row) {
    float counts[10] = {0};
    float parallel = 0, vectorize = 0, unroll = 0;
    for (const Action &a : actions) {
        counts[std::min(9, int(a.kind))]++;
        if (a.kind == ActionKind::Annotate) {
            parallel += a.annotation == AnnotationKind::Parallel;
            vectorize += a.annotation == AnnotationKind::Vectorize;
            unroll += a.annotation == AnnotationKind::Unroll;
        }
    }
    row.insert(row.end(), counts, counts + 10);
    row.push_back(float(actions.size()));
    row.push_back(parallel);
    row.push_back(vectorize);
    row.push_back(unroll);
}

std::vector<float> hardware_features(const nlohmann::json &hw) {
    std::vector<float> row;
    auto number = [&](const nlohmann::json &j, const char *key) {
        return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
    };
    row.push_back(float(number(hw, "logical_cores")));
    std::string isa;
    if (hw.is_object() && hw.contains("isa")) isa = hw["isa"].is_string() ? hw["isa"].get<std::string>() : hw["isa"].dump();
    row.push_back(isa.find("avx512f") != std::string::npos ? 16.0f : isa.find("avx") != std::string::npos ? 8.0f : 4.0f);
    const nlohmann::json cache = hw.is_object() && hw.contains("cache") ? hw["cache"] : nlohmann::json::object();
    for (const char *key : {"l1d_bytes", "l2_bytes", "l3_bytes"}) row.push_back(float(std::log2(1.0 + number(cache, key))));
    return row;
}

RankerParams ranker_params(const WorldConfig &c) {
    RankerParams p;
    p.objective = c.ranker_objective;
    p.label_grades = c.ranker_label_grades;
    p.rounds = c.ranker_rounds;
    p.depth = c.ranker_depth;
    p.eta = c.ranker_eta;
    p.threads = c.threads;
    p.seed = c.seed;
    return p;
}

RankerParams online_booster_params(const WorldConfig &c, size_t measured) {
    RankerParams p = ranker_params(c);
    const bool late = c.online_late_after > 0 && measured > size_t(c.online_late_after);
    p.rounds = late ? c.online_late_rounds : c.online_rounds;
    p.depth = std::min(late ? c.online_late_depth : c.online_depth, c.ranker_depth);
    p.eta = late ? c.online_late_eta : c.online_eta;
    p.threads = 1;
    return p;
}

std::vector<float> training_labels(const std::vector<float> &throughputs, int grades) {
    if (grades <= 0) return throughputs;
    std::vector<float> out;
    out.reserve(throughputs.size());
    for (float t : throughputs) out.push_back(std::round(float(grades) * std::clamp(t, 0.0f, 1.0f)));
    return out;
}

void append_context_stats(const ActionList &actions, const std::vector<ActionContext> &contexts, std::vector<float> &row) {
    float waste = 0, not_dividing = 0, vector_extent = 0, vector_by_16 = 0, parallel_extent = 0, unrolled = 0, split_extent = 0,
          instances = 0;
    int splits = 0;
    bool vectorized = false;
    for (size_t i = 0; i < actions.size() && i < contexts.size(); i++) {
        const Action &a = actions[i];
        const ActionContext &c = contexts[i];
        if (a.kind == ActionKind::Split) {
            waste += c[3];
            not_dividing += c[7] > 0 && c[2] == 0;
            split_extent += c[0];
            splits++;
        } else if (a.kind == ActionKind::Annotate && c[7] > 0) {
            if (a.annotation == AnnotationKind::Vectorize) {
                vector_extent = std::max(vector_extent, c[0]);
                vector_by_16 = vectorized ? std::min(vector_by_16, c[6]) : c[6];
                vectorized = true;
            }
            if (a.annotation == AnnotationKind::Parallel) parallel_extent = std::max(parallel_extent, c[0]);
            if (a.annotation == AnnotationKind::Unroll) unrolled += c[0];  // log2(1 + e) summed: about log2 of the product
        } else if (a.kind == ActionKind::ComputeAt) {
            instances = std::max(instances, c[1]);
        }
    }
    const float stats[kContextStatFeatures] = {waste, not_dividing, vector_extent, vector_by_16, parallel_extent, unrolled,
                                               splits ? split_extent / float(splits) : 0.0f, instances};
    row.insert(row.end(), stats, stats + kContextStatFeatures);
}

void append_candidate_features(const ActionList &actions, const std::vector<ActionContext> &contexts,
                               const std::vector<float> &parallelism, const std::vector<float> &hardware, bool schedule_stats,
                               std::vector<float> &row) {
    append_action_stats(actions, row);
    row.insert(row.end(), hardware.begin(), hardware.end());
    if (!schedule_stats) return;
    append_context_stats(actions, contexts, row);
    row.insert(row.end(), parallelism.begin(), parallelism.end());
}

void RankingData::add_group(const std::vector<std::vector<float>> &group_rows, const std::vector<double> &latencies) {
    double best = 0;
    for (double l : latencies)
        if (l > 0 && (best == 0 || l < best)) best = l;
    if (group_rows.empty()) return;
    for (size_t i = 0; i < group_rows.size(); i++) {
        if (width == 0) width = int(group_rows[i].size());
        if (int(group_rows[i].size()) != width) throw std::invalid_argument("ranking data: rows of different widths");
        rows.insert(rows.end(), group_rows[i].begin(), group_rows[i].end());
        labels.push_back(best > 0 && latencies[i] > 0 ? float(best / latencies[i]) : 0.0f);
    }
    groups.push_back(unsigned(group_rows.size()));
}

Ranker::Ranker(std::string variant, int state_dim) : variant_(std::move(variant)), state_dim_(state_dim) {}

bool Ranker::trained() const { return bool(booster_); }

int Ranker::train(const RankingData &train, const RankingData *val, const RankerParams &params) {
    if (train.size() == 0) throw std::runtime_error("ranker: no training data");
    const int own_width = state_dim_ + kActionStatFeatures + kHardwareFeatures;
    if (train.width < own_width)
        throw std::runtime_error("ranker: rows have " + std::to_string(train.width) + " features, expected at least " + std::to_string(own_width));
    XgbMatrix dtrain(train.rows, train.size(), size_t(train.width));
    std::unique_ptr<XgbMatrix> dval;
    if (val && val->size()) dval = std::make_unique<XgbMatrix>(val->rows, val->size(), size_t(val->width));
    dtrain.set_labels(training_labels(train.labels, params.label_grades));
    dtrain.set_groups(train.groups);
    Booster b(dtrain, booster_settings(params));
    int kept = params.rounds;
    double best = -1;
    for (int round = 0; round < params.rounds; round++) {
        b.boost(round, dtrain);
        if (dval && ((round + 1) % 25 == 0 || round + 1 == params.rounds)) {
            const double top1 = mean_top1(*val, b.margins(*dval));
            if (top1 > best) {
                best = top1;
                kept = round + 1;
            }
        }
    }
    if (kept < params.rounds) {
        b = b.first_rounds(kept);
        for (const auto &[key, value] : booster_settings(params)) b.set(key, value);
    }
    booster_ = std::move(b);
    flatten();
    base_ = nullptr;
    extra_width_ = train.width - own_width;
    return kept;
}

void Ranker::train_on_top(const Ranker &base, const RankingData &data, const RankerParams &params, double base_weight,
                          size_t hidden_columns) {
    if (data.size() == 0) return;
    if (data.width < base.width())
        throw std::runtime_error("ranker: online rows have " + std::to_string(data.width) + " features, the base reads " + std::to_string(base.width()));
    // A column constant in training is one no tree splits on: the correction is blind to the hidden ones.
    std::vector<float> seen = data.rows;
    for (size_t r = 0; r < data.size(); r++)
        std::fill_n(seen.begin() + long(r * size_t(data.width)), std::min(hidden_columns, size_t(data.width)), 0.0f);
    XgbMatrix d(seen, data.size(), size_t(data.width));
    d.set_labels(training_labels(data.labels, params.label_grades));
    d.set_groups(data.groups);
    const std::vector<double> base_scores = base.predict(narrow_rows(data.rows, data.size(), data.width, base.width()), data.size());
    std::vector<float> margins(base_scores.size());
    for (size_t i = 0; i < margins.size(); i++) margins[i] = float(base_weight * base_scores[i]);
    d.set_base_margin(margins);
    Booster b(d, booster_settings(params));
    for (int round = 0; round < params.rounds; round++) b.boost(round, d);
    booster_ = std::move(b);
    flatten();
    base_ = &base;
    base_weight_ = base_weight;
    extra_width_ = data.width - (state_dim_ + kActionStatFeatures + kHardwareFeatures);
}

void Ranker::flatten() {
    try {
        forest_ = FlatForest::from_json(booster_.to_json());
    } catch (const std::exception &) {
        forest_.reset();  // XGBoost's own predictor scores it
    }
}

std::vector<double> Ranker::predict(const std::vector<float> &rows, size_t count) const {
    if (!booster_) throw std::runtime_error("ranker: not trained");
    if (count == 0) return {};
    const size_t row_width = rows.size() / count;
    if (row_width < size_t(width()) || row_width * count != rows.size())
        throw std::runtime_error("ranker: rows of " + std::to_string(rows.size()) + " values for " + std::to_string(count) +
                                 " candidates; it reads " + std::to_string(width()) + " features each");
    if (row_width > size_t(width())) return predict(narrow_rows(rows, count, int(row_width), width()), count);
    const std::vector<float> m = forest_ ? forest_->margins(rows.data(), count, size_t(width()))
                                         : booster_.margins_dense(rows.data(), count, size_t(width()));
    std::vector<double> scores(m.begin(), m.end());
    if (base_) {
        const std::vector<double> b = base_->predict(narrow_rows(rows, count, width(), base_->width()), count);
        for (size_t i = 0; i < scores.size(); i++) scores[i] += base_weight_ * b[i];
    }
    return scores;
}

void Ranker::save(const std::string &path) const {
    if (!booster_) throw std::runtime_error("ranker: nothing to save");
    const std::string bytes = booster_.to_bytes();
    const nlohmann::json header = {{"format", "worldtune-ranker"}, {"version", kFileVersion}, {"variant", variant_},
                                   {"state_dim", state_dim_}, {"feature_length", width()}};
    std::ofstream out(path, std::ios::binary);
    out << header.dump() << "\n";
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) throw std::runtime_error("ranker: cannot write " + path);
}

Ranker Ranker::load(const std::string &path, const std::string &variant, int state_dim, bool extra_columns) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("ranker " + path + " not found");
    std::string line;
    std::getline(in, line);
    const nlohmann::json header = nlohmann::json::parse(line, nullptr, false);
    if (!header.is_object() || header.value("format", "") != "worldtune-ranker")
        throw std::runtime_error("ranker " + path + ": not a worldtune ranker file");
    if (header.value("version", -1) != kFileVersion)
        throw std::runtime_error("ranker " + path + ": file version " + std::to_string(header.value("version", -1)) +
                                 ", this build reads " + std::to_string(kFileVersion));
    Ranker r(variant, state_dim);
    const int length = header.value("feature_length", -1);
    if (extra_columns && length > r.width()) r.extra_width_ = length - r.width();
    if (header.value("variant", "") != variant || header.value("state_dim", -1) != state_dim || length != r.width())
        throw std::runtime_error("ranker " + path + " is the '" + header.value("variant", std::string("?")) + "' ranker over " +
                                 std::to_string(header.value("feature_length", -1)) + " features; expected '" + variant +
                                 "' over " + std::to_string(r.width()));
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    r.booster_ = Booster::from_bytes(bytes, "ranker " + path);
    r.booster_.set("nthread", "1");  // scoring batches are small; threads cost more than they give
    r.flatten();
    return r;
}

}  // namespace worldtune
