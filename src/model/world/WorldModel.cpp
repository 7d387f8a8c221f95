#include "model/world/WorldModel.h"

#include "lower/StateText.h"
#include "measure/Hardware.h"
#include "model/BlendModel.h"
#include "model/world/Calibration.h"
#include "model/world/EncoderTrainer.h"
#include "model/world/Windows.h"

#include <cmath>
#include <filesystem>
#include <limits>

namespace worldtune {

const char *world_variant_model_name(WorldVariant v) {
    switch (v) {
    case WorldVariant::World: return "world";
    case WorldVariant::Initial: return "world-initial";
    case WorldVariant::Final: return "world-final";
    case WorldVariant::Actions: return "world-actions";
    }
    return "world";
}

const char *world_variant_ranker(WorldVariant v) {
    switch (v) {
    case WorldVariant::World: return "world";
    case WorldVariant::Initial: return "initial";
    case WorldVariant::Final: return "final";
    case WorldVariant::Actions: return "actions";
    }
    return "world";
}

WorldVariant world_variant_from_ranker(const std::string &ranker) {
    for (WorldVariant v : {WorldVariant::World, WorldVariant::Initial, WorldVariant::Final, WorldVariant::Actions})
        if (ranker == world_variant_ranker(v)) return v;
    throw std::invalid_argument("unknown ranker variant '" + ranker + "' (world, initial, final, actions)");
}

namespace {

constexpr int kTaskModelMinSuccesses = 8;  ///< as the static model's first training (StaticModel::kMinTrainSamples)

int state_dim_of(WorldVariant v, int d_model) { return ranker_state_dim(world_variant_ranker(v), d_model); }

}  // namespace

WorldModel::WorldModel(const std::string &bundle_dir, WorldVariant variant, int threads, bool use_calibration)
    : bundle_(WorldBundle::open(bundle_dir)), variant_(variant), threads_(threads),
      ranker_(world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model)),
      calibration_(world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model)),
      task_model_("actions", 0),
      online_(world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model)) {
    try {
        WorldConfig c = bundle_.config;
        c.threads = threads;
        encoder_ = std::make_unique<EncoderTrainer>(c, bundle_.tokenizer.vocab_size());
        encoder_->load(bundle_.path("encoder.pt"));
        rollout_ = std::make_unique<Rollout>(RolloutTables::load(bundle_.path("transition.bin")), bundle_.tokenizer);
        ranker_ = Ranker::load(bundle_.path(std::string("ranker_") + world_variant_ranker(variant) + ".ubj"),
                               world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model));
    } catch (const BundleError &) {
        throw;
    } catch (const std::exception &e) {
        throw BundleError(std::string("world model: ") + e.what());
    }
    hardware_ = hardware_json();
    task_weight_ = same_machine(bundle_.manifest.value("hardware", nlohmann::json()), hardware_) ? 0.0 : bundle_.config.online_task_weight;
    const std::string calibration = bundle_.path(std::string("calibration_") + world_variant_ranker(variant) + ".ubj");
    if (use_calibration && std::filesystem::exists(calibration)) {
        const nlohmann::json about = read_json_or(bundle_.path("calibration.json"), nullptr);
        if (about.is_object() && about.value("format", "") == kCalibrationFormat && about.value("version", 0) == kCalibrationVersion &&
            same_machine(about.value("hardware", nlohmann::json()), hardware_)) {
            try {
                calibration_ = Ranker::load(calibration, world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model), true);
            } catch (const std::exception &e) {
                throw BundleError(std::string("world model: ") + e.what());
            }
            calibration_.set_base(&ranker_);
            calibrated_ = true;
        }
    }
}

WorldModel::~WorldModel() = default;

std::vector<float> WorldModel::encode_text(const std::string &text) const { return encode_texts({text})[0]; }

std::vector<std::vector<float>> WorldModel::encode_texts(const std::vector<std::string> &texts) const {
    TokenTexts ids;
    for (const std::string &t : texts) ids.push_back(bundle_.tokenizer.encode(t));
    return encoder_->encode(ids);
}

void WorldModel::set_task(const WorkloadSpec &spec) {
    task_ = spec;
    has_task_ = true;
    const std::string key = spec.canonical();
    auto it = z0_cache_.find(key);
    if (it == z0_cache_.end()) it = z0_cache_.emplace(key, encode_text(state_text(spec, {}))).first;
    z0_ = it->second;
    auto f = stages_cache_.find(key);
    if (f == stages_cache_.end()) {
        const auto workload = build_workload(spec);
        f = stages_cache_.emplace(key, TaskStages{workload->func_infos, workload->flops}).first;
    }
    stages_ = &f->second;
}

std::vector<float> WorldModel::online_rows(const std::vector<KeyedFeatures> &schedules, const std::vector<float> &rows,
                                           size_t columns) const {
    if (columns == 0) return rows;
    const size_t base = size_t(row_width());
    std::vector<float> out;
    out.reserve(schedules.size() * (base + columns));
    for (size_t i = 0; i < schedules.size(); i++) {
        out.insert(out.end(), rows.begin() + long(i * base), rows.begin() + long((i + 1) * base));
        online_columns_.append_row(schedules[i], columns, out);
    }
    return out;
}

std::vector<float> WorldModel::task_rows(const std::vector<float> &rows, const std::vector<KeyedFeatures> &schedules,
                                         size_t columns) const {
    // The task model reads the tail of each feature row: everything after the state vector.
    const size_t width = size_t(row_width()), tail = size_t(kTaskRowFeatures), n = rows.size() / width;
    std::vector<float> out;
    out.reserve(n * (tail + columns));
    for (size_t i = 0; i < n; i++) {
        out.insert(out.end(), rows.begin() + long((i + 1) * width - tail), rows.begin() + long((i + 1) * width));
        if (columns) online_columns_.append_row(schedules[i], columns, out);
    }
    return out;
}

std::vector<float> WorldModel::feature_rows(const std::vector<ActionList> &candidates, std::vector<bool> *valid) {
    if (!has_task_) throw std::logic_error("WorldModel: set_task() before scoring");
    std::vector<float> rows;
    rows.reserve(candidates.size() * size_t(row_width()));
    if (valid) valid->assign(candidates.size(), true);
    std::vector<std::vector<float>> finals;
    if (variant_ == WorldVariant::Final) {
        std::vector<std::string> texts;
        for (size_t i = 0; i < candidates.size(); i++) {
            try {
                texts.push_back(state_text(task_, candidates[i]));
            } catch (const std::exception &) {
                texts.push_back("");
                if (valid) (*valid)[i] = false;
            }
        }
        finals = encode_texts(texts);
    }
    std::vector<float> z;
    for (size_t i = 0; i < candidates.size(); i++) {
        switch (variant_) {
        case WorldVariant::World:
            rollout_->features(z0_, candidates[i], z);
            rows.insert(rows.end(), z.begin(), z.end());
            break;
        case WorldVariant::Initial: rows.insert(rows.end(), z0_.begin(), z0_.end()); break;
        case WorldVariant::Final: rows.insert(rows.end(), finals[i].begin(), finals[i].end()); break;
        case WorldVariant::Actions: break;
        }
        append_action_stats(candidates[i], rows);
        append_hardware(hardware_, rows);
        append_parallelism_features(stages_->funcs, candidates[i], stages_->flops, rows);
    }
    return rows;
}

std::vector<double> WorldModel::predict(const std::vector<ActionList> &candidates) {
    std::vector<bool> valid;
    const std::vector<float> rows = feature_rows(candidates, &valid);
    std::vector<double> scores;
    std::vector<KeyedFeatures> schedules;
    if (online_trained_ && online_width_ > 0) {
        schedules.reserve(candidates.size());
        for (const ActionList &c : candidates) schedules.push_back(schedule_features(stages_->funcs, c));
    }
    if (!online_trained_) {
        scores = prior().predict(rows, candidates.size());
    } else if (online_width_ == 0) {
        scores = online_.predict(rows, candidates.size());
    } else {
        scores = online_.predict(online_rows(schedules, rows, online_width_), candidates.size());
    }
    const double w = task_weight_;
    if (task_trained_ && w > 0) {
        const std::vector<double> a = normalized_ranks(scores),
                                  b = normalized_ranks(task_model_.predict(task_rows(rows, schedules, online_width_), candidates.size()));
        for (size_t i = 0; i < scores.size(); i++) scores[i] = (1 - w) * a[i] + w * b[i];
    }
    for (size_t i = 0; i < scores.size(); i++)
        if (!valid[i]) scores[i] = -std::numeric_limits<double>::infinity();
    return scores;
}

void WorldModel::update(const std::vector<MeasureResult> &results) {
    bool added = false;
    for (const MeasureResult &r : results) {
        if (r.error == ErrorKind::Schedule) continue;
        try {
            measured_[r.spec].emplace_back(actions_from_json(r.actions), r.ok() ? r.timing.median_s : 0.0);
            added = true;
        } catch (const std::exception &) {
            continue;
        }
    }
    if (!added) return;
    // The online correction learns from every task measured in this run, one group per task.
    const WorkloadSpec current = task_;
    const bool had_task = has_task_;
    struct Group {
        std::vector<ActionList> actions;
        std::vector<double> latencies;
        std::vector<float> rows;              ///< feature_rows
        std::vector<KeyedFeatures> schedules;  ///< schedule features (when the correction reads them)
    };
    std::vector<Group> groups;
    for (const auto &[spec, list] : measured_) {
        int ok = 0;
        for (const auto &entry : list) ok += entry.second > 0;
        if (ok < 2) continue;
        set_task(WorkloadSpec::parse(spec));
        Group g;
        std::vector<ActionList> &actions = g.actions;
        for (const auto &entry : list) {
            actions.push_back(entry.first);
            g.latencies.push_back(entry.second);
            if (bundle_.config.online_schedule_features) {
                g.schedules.push_back(schedule_features(stages_->funcs, entry.first));
                online_columns_.add_keys(g.schedules.back());
            }
        }
        g.rows = feature_rows(actions);
        groups.push_back(std::move(g));
    }
    const size_t columns = bundle_.config.online_schedule_features ? online_columns_.size() : 0;
    const size_t width = size_t(row_width()) + columns;
    RankingData data;
    for (const Group &g : groups) {
        const std::vector<float> rows = online_rows(g.schedules, g.rows, columns);
        std::vector<std::vector<float>> group;
        for (size_t i = 0; i < g.latencies.size(); i++)
            group.emplace_back(rows.begin() + long(i * width), rows.begin() + long((i + 1) * width));
        data.add_group(group, g.latencies);
    }
    if (had_task) set_task(current);
    if (data.size() == 0) return;
    RankerParams p;
    p.objective = bundle_.config.ranker_objective;
    p.rounds = bundle_.config.online_rounds;
    p.depth = std::min(4, bundle_.config.ranker_depth);
    p.eta = bundle_.config.online_eta;
    p.threads = 1;
    p.seed = bundle_.config.seed;
    online_.train_on_top(prior(), data, p);
    online_width_ = columns;
    online_trained_ = true;

    // The task model: from scratch, no prior, once the run has enough successful measurements.
    if (task_weight_ <= 0) return;
    RankingData task;
    int successes = 0;
    const size_t task_width = size_t(kTaskRowFeatures) + columns;
    for (const Group &g : groups) {
        const std::vector<float> rows = task_rows(g.rows, g.schedules, columns);
        std::vector<std::vector<float>> group;
        for (size_t i = 0; i < g.latencies.size(); i++) {
            group.emplace_back(rows.begin() + long(i * task_width), rows.begin() + long((i + 1) * task_width));
            successes += g.latencies[i] > 0;
        }
        task.add_group(group, g.latencies);
    }
    if (successes < kTaskModelMinSuccesses) return;
    p.rounds = bundle_.config.online_task_rounds;
    p.depth = bundle_.config.ranker_depth;
    task_model_.train(task, nullptr, p);
    task_trained_ = true;
}

}  // namespace worldtune
