#include "model/StaticModel.h"

#include "common/OnThreads.h"
#include "schedule/Apply.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace worldtune {

namespace {

std::string state_key(const WorkloadSpec &spec, const ActionList &actions) {
    return spec.canonical() + "\n" + actions_to_json(actions).dump();
}

}  // namespace

StaticModel::StaticModel(const CostModelParams &params) : params_(params), rng_(params.seed) {}

void StaticModel::set_task(const WorkloadSpec &spec) {
    task_ = spec;
    has_task_ = true;
}

size_t StaticModel::successful_samples() const {
    return size_t(std::count_if(samples_.begin(), samples_.end(), [](const Sample &s) { return s.latency > 0; }));
}

std::vector<const StaticModel::CacheEntry *> StaticModel::lookup(
    const std::vector<std::pair<WorkloadSpec, ActionList>> &states) {
    // Make room first: pointers handed out by this call stay valid until the next one.
    while (cache_.size() > kFeatureCacheSize && !cache_order_.empty()) {
        cache_.erase(cache_order_.front());
        cache_order_.pop_front();
    }
    std::vector<std::string> keys;
    std::vector<size_t> misses;  // first index of each missing key
    std::map<std::string, size_t> missing;
    for (size_t i = 0; i < states.size(); i++) {
        keys.push_back(state_key(states[i].first, states[i].second));
        if (!cache_.count(keys.back()) && missing.emplace(keys.back(), i).second) misses.push_back(i);
    }

    std::vector<std::unique_ptr<CacheEntry>> fresh(misses.size());
    for_each_on_threads(misses.size(), params_.threads, [&](size_t m) {
        auto entry = std::make_unique<CacheEntry>();
        try {
            const auto &[spec, actions] = states[misses[m]];
            entry->rows = extract_features(spec, actions);
            entry->valid = true;
        } catch (...) {
            // ScheduleError: Halide refuses the state. Anything else: not scorable either.
            entry->valid = false;
        }
        fresh[m] = std::move(entry);
    });
    for (size_t m = 0; m < misses.size(); m++) {
        const std::string &key = keys[misses[m]];
        cache_[key] = std::move(fresh[m]);
        cache_order_.push_back(key);
    }

    std::vector<const CacheEntry *> out;
    for (const std::string &k : keys) out.push_back(cache_.at(k).get());
    return out;
}

std::vector<const FeatureRows *> StaticModel::features(const std::vector<ActionList> &candidates, std::vector<bool> *valid) {
    if (!has_task_) throw std::logic_error("StaticModel: set_task() before features()");
    std::vector<std::pair<WorkloadSpec, ActionList>> states;
    for (const ActionList &c : candidates) states.emplace_back(task_, c);
    std::vector<const FeatureRows *> out;
    if (valid) valid->clear();
    for (const CacheEntry *e : lookup(states)) {
        out.push_back(e->valid ? &e->rows : nullptr);
        if (valid) valid->push_back(e->valid);
    }
    return out;
}

std::vector<double> StaticModel::predict(const std::vector<ActionList> &candidates) {
    if (!has_task_) throw std::logic_error("StaticModel: set_task() before predict()");
    if (!trained()) {
        // Nothing learned yet: random scores, without lowering anyone (the search validates what it picks).
        std::uniform_real_distribution<double> small(0, 1e-3);
        std::vector<double> scores(candidates.size());
        for (double &s : scores) s = small(rng_);
        return scores;
    }
    std::vector<bool> valid;
    const std::vector<const FeatureRows *> rows = features(candidates, &valid);
    std::vector<double> scores(candidates.size(), -std::numeric_limits<double>::infinity());
    std::vector<const FeatureRows *> scorable;
    std::vector<size_t> where;
    for (size_t i = 0; i < candidates.size(); i++) {
        if (!valid[i]) continue;
        scorable.push_back(rows[i]);
        where.push_back(i);
    }
    const std::vector<double> sums = predict_rows(scorable);
    for (size_t k = 0; k < where.size(); k++) scores[where[k]] = sums[k];
    return scores;
}

std::vector<double> StaticModel::predict_rows(const std::vector<const FeatureRows *> &candidates) const {
    if (candidates.empty()) return {};
    std::vector<float> data;
    data.reserve(candidates.size() * kPooledLength);
    for (const FeatureRows *c : candidates) append_pooled(*c, data);
    const std::vector<float> margins = booster_.margins(XgbMatrix(data, candidates.size(), kPooledLength));
    return std::vector<double>(margins.begin(), margins.end());
}

void StaticModel::update(const std::vector<MeasureResult> &results) {
    std::vector<std::pair<WorkloadSpec, ActionList>> states;
    std::vector<const MeasureResult *> measured;
    for (const MeasureResult &r : results) {
        if (r.error == ErrorKind::Schedule) continue;  // Halide refuses it: no features to learn from
        try {
            states.emplace_back(WorkloadSpec::parse(r.spec), actions_from_json(r.actions));
            measured.push_back(&r);
        } catch (const std::exception &) {
            continue;  // a record this build cannot read
        }
    }
    const std::vector<const CacheEntry *> entries = lookup(states);
    bool added = false;
    for (size_t i = 0; i < entries.size(); i++) {
        if (!entries[i]->valid) continue;
        const MeasureResult &r = *measured[i];
        Sample s;
        s.spec = states[i].first.canonical();
        s.latency = r.ok() && r.timing.median_s > 0 ? r.timing.median_s : 0;
        sample_rows_.push_back(entries[i]->rows);
        s.rows = &sample_rows_.back();
        samples_.push_back(std::move(s));
        added = true;
    }
    if (!added) return;
    if (++updates_since_training_ < std::max(1, params_.retrain_every)) return;
    if (successful_samples() < size_t(kMinTrainSamples)) return;
    train();
}

std::vector<std::pair<std::string, std::string>> StaticModel::booster_settings() const {
    return {
        {"booster", "gbtree"},
        {"tree_method", "hist"},
        {"objective", "rank:pairwise"},
        {"max_depth", std::to_string(params_.xgb_max_depth)},
        {"eta", std::to_string(params_.xgb_eta)},
        {"min_child_weight", "0"},
        {"nthread", std::to_string(xgb_threads_)},
        {"seed", std::to_string(params_.seed % 2147483647u)},
        {"verbosity", "0"},
    };
}

void StaticModel::train() {
    if (successful_samples() == 0) return;
    // One ranking group per workload, its candidates contiguous; labels: throughput normalized within it.
    std::map<std::string, std::vector<const Sample *>> groups;
    for (const Sample &s : samples_) groups[s.spec].push_back(&s);
    std::vector<float> data, labels;
    std::vector<unsigned> group_sizes;
    for (const auto &[spec, members] : groups) {
        double best = 0;
        for (const Sample *s : members)
            if (s->latency > 0 && (best == 0 || s->latency < best)) best = s->latency;
        if (best == 0 || members.size() < 2) continue;  // nothing to rank
        for (const Sample *s : members) {
            append_pooled(*s->rows, data);
            labels.push_back(s->latency > 0 ? float(best / s->latency) : 0.0f);
        }
        group_sizes.push_back(unsigned(members.size()));
    }
    if (labels.empty()) return;

    XgbMatrix dtrain(data, labels.size(), kPooledLength);
    dtrain.set_labels(labels);
    dtrain.set_groups(group_sizes);
    // Small data gains nothing from threads, and OpenMP barriers cost dearly on a busy machine.
    xgb_threads_ = labels.size() >= size_t(kParallelTrainRows) ? std::max(1, params_.threads) : 1;
    Booster booster(dtrain, booster_settings());
    const int rounds = std::max(1, params_.xgb_rounds);
    for (int round = 0; round < rounds; round++) booster.boost(round, dtrain);
    booster_ = std::move(booster);
    rounds_ = rounds;
    updates_since_training_ = 0;
}

void StaticModel::save(const std::string &path) const {
    if (!booster_) throw ModelError("static model: nothing to save, the model has not been trained");
    const std::string bytes = booster_.to_bytes();
    nlohmann::json header = {{"format", "worldtune-static-model"},
                             {"version", kFileVersion},
                             {"feature_version", StaticFeatures::version()},
                             {"feature_length", kPooledLength},
                             {"rounds", rounds_}};
    std::ofstream out(path, std::ios::binary);
    out << header.dump() << "\n";
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) throw ModelError("static model: cannot write " + path);
}

void StaticModel::load(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ModelError("static model: cannot read " + path);
    std::string line;
    std::getline(in, line);
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(line);
    } catch (const std::exception &) {
        throw ModelError("static model: " + path + " is not a worldtune static model file");
    }
    if (header.value("format", "") != "worldtune-static-model")
        throw ModelError("static model: " + path + " is not a worldtune static model file");
    if (header.value("version", -1) != kFileVersion)
        throw ModelError("static model: " + path + " has file version " + std::to_string(header.value("version", -1)) +
                         ", this build reads version " + std::to_string(kFileVersion));
    if (header.value("feature_version", -1) != StaticFeatures::version() ||
        header.value("feature_length", -1) != kPooledLength)
        throw ModelError("static model: " + path + " was trained on static features version " +
                         std::to_string(header.value("feature_version", -1)) + " (" +
                         std::to_string(header.value("feature_length", -1)) + " values); this build has version " +
                         std::to_string(StaticFeatures::version()) + " (" + std::to_string(kPooledLength) +
                         " values): retrain it");
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Booster booster;
    try {
        booster = Booster::from_bytes(bytes, "static model " + path);
    } catch (const XgbError &e) {
        throw ModelError(e.what());
    }
    for (const auto &[key, value] : booster_settings()) booster.set(key, value);
    rounds_ = booster.rounds();
    booster_ = std::move(booster);
}

ScoringThroughput measure_scoring_throughput(CostModel &model, const WorkloadSpec &spec,
                                             const std::vector<ActionList> &population) {
    using clock = std::chrono::steady_clock;
    ScoringThroughput t;
    t.candidates = int(population.size());
    model.set_task(spec);
    const auto t0 = clock::now();
    const std::vector<double> scores = model.predict(population);
    const auto t1 = clock::now();
    model.predict(population);
    const auto t2 = clock::now();
    for (double s : scores) t.invalid += std::isinf(s) && s < 0;
    const double first = std::chrono::duration<double>(t1 - t0).count();
    const double second = std::chrono::duration<double>(t2 - t1).count();
    t.candidates_per_second = population.size() / std::max(first, 1e-9);
    t.cached_candidates_per_second = population.size() / std::max(second, 1e-9);
    return t;
}

}  // namespace worldtune
