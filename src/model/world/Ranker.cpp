#include "model/world/Ranker.h"

#include "model/RankingMetrics.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace worldtune {

namespace {

void check(int rc, const char *what) {
    if (rc != 0) throw std::runtime_error(std::string("XGBoost: ") + what + ": " + XGBGetLastError());
}

DMatrixHandle matrix(const std::vector<float> &rows, size_t count, int width) {
    DMatrixHandle h = nullptr;
    check(XGDMatrixCreateFromMat(rows.data(), count, bst_ulong(width), std::numeric_limits<float>::quiet_NaN(), &h), "creating a matrix");
    return h;
}

std::vector<float> margins(BoosterHandle b, DMatrixHandle m) {
    const char *config = "{\"type\": 1, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false}";
    const bst_ulong *shape = nullptr;
    bst_ulong dim = 0;
    const float *out = nullptr;
    check(XGBoosterPredictFromDMatrix(b, m, config, &shape, &dim, &out), "predicting");
    bst_ulong n = 1;
    for (bst_ulong d = 0; d < dim; d++) n *= shape[d];
    return std::vector<float>(out, out + n);
}

void set_params(BoosterHandle b, const RankerParams &p) {
    const std::pair<const char *, std::string> settings[] = {
        {"objective", p.objective}, {"tree_method", "hist"}, {"max_depth", std::to_string(p.depth)},
        {"eta", std::to_string(p.eta)}, {"min_child_weight", "0"}, {"nthread", std::to_string(std::max(1, p.threads))},
        {"seed", std::to_string(p.seed % 2147483647u)}, {"verbosity", "0"}, {"disable_default_eval_metric", "1"}};
    for (const auto &[key, value] : settings) check(XGBoosterSetParam(b, key, value.c_str()), key);
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

void append_hardware(const nlohmann::json &hw, std::vector<float> &row) {
    auto number = [&](const nlohmann::json &j, const char *key) {
        return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
    };
    row.push_back(float(number(hw, "logical_cores")));
    std::string isa;
    if (hw.is_object() && hw.contains("isa")) isa = hw["isa"].is_string() ? hw["isa"].get<std::string>() : hw["isa"].dump();
    row.push_back(isa.find("avx512f") != std::string::npos ? 16.0f : isa.find("avx") != std::string::npos ? 8.0f : 4.0f);
    const nlohmann::json cache = hw.is_object() && hw.contains("cache") ? hw["cache"] : nlohmann::json::object();
    for (const char *key : {"l1d_bytes", "l2_bytes", "l3_bytes"}) row.push_back(float(std::log2(1.0 + number(cache, key))));
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
                               const std::vector<float> &parallelism, const nlohmann::json &hardware, bool schedule_stats,
                               std::vector<float> &row) {
    append_action_stats(actions, row);
    append_hardware(hardware, row);
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
Ranker::~Ranker() {
    if (booster_) XGBoosterFree(booster_);
}
Ranker::Ranker(Ranker &&o) noexcept : variant_(std::move(o.variant_)), state_dim_(o.state_dim_), booster_(o.booster_), base_(o.base_), extra_width_(o.extra_width_) {
    o.booster_ = nullptr;
}
Ranker &Ranker::operator=(Ranker &&o) noexcept {
    if (this != &o) {
        if (booster_) XGBoosterFree(booster_);
        variant_ = std::move(o.variant_);
        state_dim_ = o.state_dim_;
        booster_ = o.booster_;
        base_ = o.base_;
        extra_width_ = o.extra_width_;
        o.booster_ = nullptr;
    }
    return *this;
}

bool Ranker::trained() const { return booster_ != nullptr; }

int Ranker::train(const RankingData &train, const RankingData *val, const RankerParams &params) {
    if (train.size() == 0) throw std::runtime_error("ranker: no training data");
    const int own_width = state_dim_ + kActionStatFeatures + kHardwareFeatures;
    if (train.width < own_width)
        throw std::runtime_error("ranker: rows have " + std::to_string(train.width) + " features, expected at least " + std::to_string(own_width));
    DMatrixHandle dtrain = matrix(train.rows, train.size(), train.width);
    DMatrixHandle dval = val && val->size() ? matrix(val->rows, val->size(), val->width) : nullptr;
    BoosterHandle b = nullptr;
    int kept = params.rounds;
    try {
        const std::vector<float> labels = training_labels(train.labels, params.label_grades);
        check(XGDMatrixSetFloatInfo(dtrain, "label", labels.data(), train.size()), "labels");
        check(XGDMatrixSetUIntInfo(dtrain, "group", train.groups.data(), train.groups.size()), "groups");
        DMatrixHandle cache[] = {dtrain};
        check(XGBoosterCreate(cache, 1, &b), "creating a booster");
        set_params(b, params);
        double best = -1;
        for (int round = 0; round < params.rounds; round++) {
            check(XGBoosterUpdateOneIter(b, round, dtrain), "boosting");
            if (dval && ((round + 1) % 25 == 0 || round + 1 == params.rounds)) {
                const double top1 = mean_top1(*val, margins(b, dval));
                if (top1 > best) {
                    best = top1;
                    kept = round + 1;
                }
            }
        }
        if (kept < params.rounds) {
            BoosterHandle sliced = nullptr;
            check(XGBoosterSlice(b, 0, kept, 1, &sliced), "keeping the best rounds");
            XGBoosterFree(b);
            b = sliced;
            set_params(b, params);
        }
    } catch (...) {
        if (b) XGBoosterFree(b);
        XGDMatrixFree(dtrain);
        if (dval) XGDMatrixFree(dval);
        throw;
    }
    XGDMatrixFree(dtrain);
    if (dval) XGDMatrixFree(dval);
    if (booster_) XGBoosterFree(booster_);
    booster_ = b;
    base_ = nullptr;
    extra_width_ = train.width - own_width;
    return kept;
}

void Ranker::train_on_top(const Ranker &base, const RankingData &data, const RankerParams &params) {
    if (data.size() == 0) return;
    if (data.width < base.width())
        throw std::runtime_error("ranker: online rows have " + std::to_string(data.width) + " features, the base reads " + std::to_string(base.width()));
    DMatrixHandle d = matrix(data.rows, data.size(), data.width);
    BoosterHandle b = nullptr;
    try {
        const std::vector<float> labels = training_labels(data.labels, params.label_grades);
        check(XGDMatrixSetFloatInfo(d, "label", labels.data(), data.size()), "labels");
        check(XGDMatrixSetUIntInfo(d, "group", data.groups.data(), data.groups.size()), "groups");
        const std::vector<double> base_scores = base.predict(narrow_rows(data.rows, data.size(), data.width, base.width()), data.size());
        const std::vector<float> base_margin(base_scores.begin(), base_scores.end());
        check(XGDMatrixSetFloatInfo(d, "base_margin", base_margin.data(), base_margin.size()), "base margin");
        DMatrixHandle cache[] = {d};
        check(XGBoosterCreate(cache, 1, &b), "creating a booster");
        set_params(b, params);
        for (int round = 0; round < params.rounds; round++) check(XGBoosterUpdateOneIter(b, round, d), "boosting");
    } catch (...) {
        if (b) XGBoosterFree(b);
        XGDMatrixFree(d);
        throw;
    }
    XGDMatrixFree(d);
    if (booster_) XGBoosterFree(booster_);
    booster_ = b;
    base_ = &base;
    extra_width_ = data.width - (state_dim_ + kActionStatFeatures + kHardwareFeatures);
}

std::vector<double> Ranker::predict(const std::vector<float> &rows, size_t count) const {
    if (!booster_) throw std::runtime_error("ranker: not trained");
    if (count == 0) return {};
    const size_t row_width = rows.size() / count;
    if (row_width < size_t(width()) || row_width * count != rows.size())
        throw std::runtime_error("ranker: rows of " + std::to_string(rows.size()) + " values for " + std::to_string(count) +
                                 " candidates; it reads " + std::to_string(width()) + " features each");
    if (row_width > size_t(width())) return predict(narrow_rows(rows, count, int(row_width), width()), count);
    DMatrixHandle d = matrix(rows, count, width());
    std::vector<float> m;
    try {
        m = margins(booster_, d);
    } catch (...) {
        XGDMatrixFree(d);
        throw;
    }
    XGDMatrixFree(d);
    std::vector<double> scores(m.begin(), m.end());
    if (base_) {
        const std::vector<double> b = base_->predict(narrow_rows(rows, count, width(), base_->width()), count);
        for (size_t i = 0; i < scores.size(); i++) scores[i] += b[i];
    }
    return scores;
}

void Ranker::save(const std::string &path) const {
    if (!booster_) throw std::runtime_error("ranker: nothing to save");
    bst_ulong len = 0;
    const char *bytes = nullptr;
    check(XGBoosterSaveModelToBuffer(booster_, "{\"format\": \"ubj\"}", &len, &bytes), "saving");
    const nlohmann::json header = {{"format", "worldtune-ranker"}, {"version", kFileVersion}, {"variant", variant_},
                                   {"state_dim", state_dim_}, {"feature_length", width()}};
    std::ofstream out(path, std::ios::binary);
    out << header.dump() << "\n";
    out.write(bytes, std::streamsize(len));
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
    BoosterHandle b = nullptr;
    check(XGBoosterCreate(nullptr, 0, &b), "creating a booster");
    if (XGBoosterLoadModelFromBuffer(b, bytes.data(), bytes.size()) != 0) {
        const std::string why = XGBGetLastError();
        XGBoosterFree(b);
        throw std::runtime_error("ranker " + path + ": XGBoost cannot load it: " + why);
    }
    check(XGBoosterSetParam(b, "nthread", "1"), "nthread");  // scoring batches are small; threads cost more than they give
    r.booster_ = b;
    return r;
}

}  // namespace worldtune
