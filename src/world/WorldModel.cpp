#include "world/WorldModel.h"

#include "lower/StateText.h"
#include "features/StaticFeatures.h"
#include "measure/Hardware.h"
#include "world/CalibrationFile.h"
#include "world/Encoder.h"
#include "world/Windows.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <thread>

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

constexpr size_t kParallelRowsFrom = 256;  ///< batches this large build and score their rows on every thread
constexpr size_t kRowBlock = 64;           ///< candidates a thread takes at a time from the sorted order

/// work(t) for t = 0..workers-1, t = 0 on the calling thread and the others each on a thread of its own.
void on_threads(size_t workers, const std::function<void(size_t)> &work) {
    std::vector<std::thread> pool;
    for (size_t t = 1; t < workers; t++) pool.emplace_back(work, t);
    work(0);
    for (std::thread &t : pool) t.join();
}

/// The [begin, end) of part t of `count` items split into `parts` contiguous parts.
std::pair<size_t, size_t> part_of(size_t count, size_t parts, size_t t) {
    const size_t size = (count + parts - 1) / parts, begin = std::min(count, t * size);
    return {begin, std::min(count, begin + size)};
}

/// A ranker's scores of `count` rows, split over `workers` threads in contiguous parts (a flat forest,
/// and XGBoost's in-place prediction where it stands in, may run on several threads at once).
std::vector<double> scores_on_threads(const Ranker &ranker, const std::vector<float> &rows, size_t count, size_t workers) {
    if (workers <= 1 || count < workers) return ranker.predict(rows, count);
    const size_t width = rows.size() / count;
    std::vector<std::vector<double>> parts(workers);
    on_threads(workers, [&](size_t t) {
        const auto [begin, end] = part_of(count, workers, t);
        if (begin == end) return;
        const std::vector<float> slice(rows.begin() + long(begin * width), rows.begin() + long(end * width));
        parts[t] = ranker.predict(slice, end - begin);
    });
    std::vector<double> scores;
    scores.reserve(count);
    for (const std::vector<double> &p : parts) scores.insert(scores.end(), p.begin(), p.end());
    return scores;
}

std::vector<size_t> identity_order(size_t n) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; i++) order[i] = i;
    return order;
}

/// Every candidate's action_hash values, computed on `workers` threads.
std::vector<std::vector<uint64_t>> action_hashes(const std::vector<ActionList> &candidates, size_t workers) {
    std::vector<std::vector<uint64_t>> hashes(candidates.size());
    on_threads(workers, [&](size_t t) {
        const auto [begin, end] = part_of(candidates.size(), workers, t);
        for (size_t i = begin; i < end; i++) {
            hashes[i].reserve(candidates[i].size());
            for (const Action &a : candidates[i]) hashes[i].push_back(action_hash(a));
        }
    });
    return hashes;
}

/// How many first entries two hash lists have in common.
size_t common_prefix(const std::vector<uint64_t> &a, const std::vector<uint64_t> &b) {
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) n++;
    return n;
}

/// Candidate indices in the lexicographic order of their action hashes: candidates with a common prefix
/// of actions end up next to each other.
std::vector<size_t> sorted_by_actions(const std::vector<std::vector<uint64_t>> &hashes) {
    std::vector<size_t> order = identity_order(hashes.size());
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return hashes[a] < hashes[b]; });
    return order;
}

int state_dim_of(WorldVariant v, int d_model) { return ranker_state_dim(world_variant_ranker(v), d_model); }

/// The rows (`width` floats each) of the `count` fastest successful latencies, fastest first.
std::vector<float> fastest_rows(const std::vector<float> &rows, const std::vector<double> &latencies, size_t width, size_t count) {
    std::vector<size_t> order;
    for (size_t i = 0; i < latencies.size(); i++)
        if (latencies[i] > 0) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return latencies[a] < latencies[b]; });
    order.resize(std::min(order.size(), count));
    std::vector<float> out;
    for (size_t i : order) out.insert(out.end(), rows.begin() + long(i * width), rows.begin() + long((i + 1) * width));
    return out;
}

}  // namespace

WorldModel::WorldModel(const std::string &bundle_dir, WorldVariant variant, int threads, bool use_calibration)
    : bundle_(WorldBundle::open(bundle_dir)), variant_(variant), threads_(threads),
      ranker_(world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model)),
      calibration_(world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model)),
      online_(world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model)), lowered_(threads) {
    try {
        WorldConfig c = bundle_.config;
        c.threads = threads;
        encoder_ = std::make_unique<Encoder>(c, bundle_.tokenizer.encoder_words());
        encoder_->load(bundle_.path("encoder.pt"));
        const RolloutTables tables = RolloutTables::load(bundle_.path("transition.bin"));
        rollout_ = std::make_unique<Rollout>(tables, bundle_.tokenizer);
        for (int t = 1; t < threads; t++) rollouts_.push_back(std::make_unique<Rollout>(tables, bundle_.tokenizer));
        ranker_ = Ranker::load(bundle_.path(std::string("ranker_") + world_variant_ranker(variant) + ".ubj"),
                               world_variant_ranker(variant), state_dim_of(variant, bundle_.config.d_model),
                               bundle_.config.ranker_schedule_stats);
    } catch (const BundleError &) {
        throw;
    } catch (const std::exception &e) {
        throw BundleError(std::string("world model: ") + e.what());
    }
    hardware_ = hardware_json();
    hardware_row_ = hardware_features(hardware_);
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
    if (f == stages_cache_.end()) f = stages_cache_.emplace(key, std::make_unique<TaskPrograms>(spec)).first;
    stages_ = f->second.get();
}

std::vector<float> WorldModel::online_rows(const std::vector<KeyedFeatures> &schedules, const std::vector<float> &rows,
                                           size_t columns, const std::vector<const std::vector<float> *> *lowered) const {
    if (columns == 0 && !lowered) return rows;
    const size_t base = size_t(row_width()), n = rows.size() / base;
    std::vector<float> out;
    out.reserve(n * (base + columns + (lowered ? kPooledLength : 0)));
    for (size_t i = 0; i < n; i++) {
        out.insert(out.end(), rows.begin() + long(i * base), rows.begin() + long((i + 1) * base));
        if (columns > 0) online_columns_.append_row(schedules[i], columns, out);
        if (!lowered) continue;
        const std::vector<float> *pooled = (*lowered)[i];
        if (pooled) out.insert(out.end(), pooled->begin(), pooled->end());
        else out.resize(out.size() + kPooledLength, 0.0f);
    }
    return out;
}

std::vector<float> WorldModel::latent_inputs(const std::vector<float> &rows) const {
    // The state part (z^_T and the probe's score, or an ablation's vector) and the parallelism features.
    const size_t width = size_t(row_width()), state = size_t(prior().state_dim()), n = rows.size() / width;
    std::vector<float> out;
    out.reserve(n * size_t(latent_width()));
    for (size_t i = 0; i < n; i++) {
        const auto row = rows.begin() + long(i * width);
        out.insert(out.end(), row, row + long(state));
        out.insert(out.end(), row + long(width - kParallelismFeatures), row + long(width));
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
    // Rows are independent: large batches are split over the model's threads, one rollout (with its own
    // action cache) per thread. Candidates are visited sorted by their actions, so that a rollout shares
    // the steps of a common prefix with the candidate before it.
    const size_t width = size_t(row_width()), n = candidates.size();
    rows.assign(n * width, 0.0f);
    const size_t workers = row_workers(n);
    const bool rolled = variant_ == WorldVariant::World;
    const std::vector<std::vector<uint64_t>> hashes = rolled ? action_hashes(candidates, workers) : std::vector<std::vector<uint64_t>>{};
    const std::vector<size_t> order = rolled ? sorted_by_actions(hashes) : identity_order(n);
    std::atomic<size_t> next_block{0};
    auto build = [&](Rollout &rollout) {
        std::vector<float> row;
        std::vector<std::vector<ActionContext>> contexts(kRowBlock);
        std::vector<std::vector<float>> parallelism(kRowBlock), states;
        std::vector<RolloutInput> inputs;
        std::vector<const ActionList *> lists;
        std::vector<size_t> shared;  // first actions each candidate has in common with the one before it
        ScheduleReader reader(*stages_);
        // Blocks of the sorted order, each taken by whichever thread is free first: the block's schedules
        // read, its candidates rolled out together, then its rows written.
        for (size_t begin = next_block.fetch_add(kRowBlock); begin < n; begin = next_block.fetch_add(kRowBlock)) {
            const size_t size = std::min(n, begin + kRowBlock) - begin;
            inputs.clear();
            lists.clear();
            shared.clear();
            for (size_t j = 0; j < size; j++) {
                const size_t i = order[begin + j];
                parallelism[j].clear();
                lists.push_back(&candidates[i]);
                shared.push_back(rolled && j > 0 ? common_prefix(hashes[order[begin + j - 1]], hashes[i]) : 0);
                inputs.push_back({&candidates[i], &contexts[j], rolled ? &hashes[i] : nullptr});
            }
            reader.read_block(lists, shared, stages_->flops(), contexts, parallelism);
            if (rolled) rollout.features_block(z0_, inputs, states);
            for (size_t j = 0; j < size; j++) {
                const size_t i = order[begin + j];
                row.clear();
                switch (variant_) {
                case WorldVariant::World: row.insert(row.end(), states[j].begin(), states[j].end()); break;
                case WorldVariant::Initial: row.insert(row.end(), z0_.begin(), z0_.end()); break;
                case WorldVariant::Final: row.insert(row.end(), finals[i].begin(), finals[i].end()); break;
                case WorldVariant::Actions: break;
                }
                append_candidate_features(candidates[i], contexts[j], parallelism[j], hardware_row_, bundle_.config.ranker_schedule_stats, row);
                if (!bundle_.config.ranker_schedule_stats) row.insert(row.end(), parallelism[j].begin(), parallelism[j].end());
                std::copy(row.begin(), row.end(), rows.begin() + long(i * width));
            }
        }
    };
    on_threads(workers, [&](size_t t) { build(t == 0 ? *rollout_ : *rollouts_[t - 1]); });
    return rows;
}

void WorldModel::forget_rollouts() {
    rollout_->forget();
    for (auto &r : rollouts_) r->forget();
}

size_t WorldModel::row_workers(size_t candidates) const {
    return candidates >= kParallelRowsFrom ? std::min<size_t>(rollouts_.size() + 1, size_t(std::max(1, threads_))) : 1;
}

std::vector<double> WorldModel::predict(const std::vector<ActionList> &candidates) {
    std::vector<bool> valid;
    const std::vector<float> rows = feature_rows(candidates, &valid);
    const size_t workers = row_workers(candidates.size());
    std::vector<double> scores;
    if (online_trained_ && bundle_.config.online_lowered_features) {
        scores = cascade_scores(candidates, rows, valid, workers);
    } else if (online_trained_) {
        scores = corrected_scores(candidates, rows, workers);
    } else {
        scores = scores_on_threads(prior(), rows, candidates.size(), workers);
        if (latent_.fitted()) {
            static const std::vector<float> kNoAnchors;
            const auto found = anchors_.find(task_.canonical());
            const std::vector<float> &anchors = found == anchors_.end() ? kNoAnchors : found->second;  // no copy per batch
            scores = latent_.score(scores, latent_inputs(rows), anchors);
        }
    }
    for (size_t i = 0; i < scores.size(); i++)
        if (!valid[i]) scores[i] = -std::numeric_limits<double>::infinity();
    return scores;
}

std::vector<double> WorldModel::corrected_scores(const std::vector<ActionList> &candidates, const std::vector<float> &rows, size_t workers) {
    const bool lowering = bundle_.config.online_lowered_features;
    if (online_width_ == 0 && !lowering) return scores_on_threads(online_, rows, candidates.size(), workers);
    std::vector<KeyedFeatures> schedules;
    if (online_width_ > 0)
        for (const ActionList &c : candidates) schedules.push_back(schedule_features(stages_->funcs_for(c), c, bundle_.config.online_access_features));
    std::vector<const std::vector<float> *> lowered;
    if (lowering) {
        std::vector<const ActionList *> lists;
        for (const ActionList &c : candidates) lists.push_back(&c);
        lowered = lowered_.rows(task_, lists);
    }
    std::vector<double> scores =
        scores_on_threads(online_, online_rows(schedules, rows, online_width_, lowering ? &lowered : nullptr), candidates.size(), workers);
    for (size_t i = 0; i < lowered.size(); i++)
        if (!lowered[i]) scores[i] = -std::numeric_limits<double>::infinity();  // Halide refuses the state
    return scores;
}

std::vector<double> WorldModel::cascade_scores(const std::vector<ActionList> &candidates, const std::vector<float> &rows,
                                               const std::vector<bool> &valid, size_t workers) {
    std::vector<double> scores = scores_on_threads(prior(), rows, candidates.size(), workers);
    std::vector<size_t> order = identity_order(candidates.size());
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    std::set<std::string> measured;
    if (const auto found = measured_.find(task_.canonical()); found != measured_.end())
        for (const auto &entry : found->second) measured.insert(actions_to_json(entry.first).dump());
    const size_t width = size_t(row_width()), size = size_t(bundle_.config.online_lowered_shortlist);
    std::vector<ActionList> listed_actions;
    std::vector<float> listed_rows;
    std::map<std::string, size_t> listed_keys;  // action-list JSON -> place in the shortlist
    std::vector<long> slot(candidates.size(), -1);  // each candidate's place in the shortlist (repeats share one)
    double last_listed = std::numeric_limits<double>::infinity();
    for (size_t i : order) {
        // Once the shortlist is full, only repeats of its candidates (same actions, same score) join.
        if (listed_actions.size() >= size && scores[i] < last_listed) break;
        if (!valid[i]) continue;
        const std::string key = actions_to_json(candidates[i]).dump();
        if (measured.count(key)) continue;
        if (const auto found = listed_keys.find(key); found != listed_keys.end()) {
            slot[i] = long(found->second);
            continue;
        }
        if (listed_actions.size() >= size) continue;
        slot[i] = long(listed_actions.size());
        last_listed = scores[i];
        listed_keys.emplace(key, listed_actions.size());
        listed_actions.push_back(candidates[i]);
        listed_rows.insert(listed_rows.end(), rows.begin() + long(i * width), rows.begin() + long((i + 1) * width));
    }
    if (listed_actions.empty()) return scores;
    const std::vector<double> corrected = corrected_scores(listed_actions, listed_rows, 1);
    // The shortlist goes on top, in the correction's order: shifted above every other finite score.
    double others = -std::numeric_limits<double>::infinity(), lowest = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < candidates.size(); i++)
        if (slot[i] < 0 && std::isfinite(scores[i])) others = std::max(others, scores[i]);
    for (double c : corrected)
        if (std::isfinite(c)) lowest = std::min(lowest, c);
    const double shift = std::isfinite(others) && std::isfinite(lowest) ? std::max(0.0, others - lowest + 1.0) : 0.0;
    for (size_t i = 0; i < candidates.size(); i++)
        if (slot[i] >= 0) scores[i] = corrected[size_t(slot[i])] + shift;
    return scores;
}

struct WorldModel::OnlineGroup {
    std::string task;                      ///< canonical spec
    std::vector<ActionList> actions;
    std::vector<double> latencies;
    std::vector<float> rows;              ///< feature_rows
    std::vector<KeyedFeatures> schedules;  ///< schedule features (the booster, when it reads them)
};

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
    const std::string &mode = bundle_.config.online_mode;
    if (!added || mode == "none") return;
    // Online learning reads every task measured in this run, one group per task.
    const WorkloadSpec current = task_;
    const bool had_task = has_task_;
    const bool booster = mode == "booster";
    std::vector<OnlineGroup> groups;
    for (const auto &[spec, list] : measured_) {
        int ok = 0;
        for (const auto &entry : list) ok += entry.second > 0;
        if (ok < 2) continue;
        set_task(WorkloadSpec::parse(spec));
        OnlineGroup g;
        g.task = task_.canonical();
        for (const auto &entry : list) {
            g.actions.push_back(entry.first);
            g.latencies.push_back(entry.second);
            if (booster && bundle_.config.online_schedule_features) {
                g.schedules.push_back(schedule_features(stages_->funcs_for(entry.first), entry.first, bundle_.config.online_access_features));
                online_columns_.add_keys(g.schedules.back());
            }
        }
        g.rows = feature_rows(g.actions);
        groups.push_back(std::move(g));
    }
    if (had_task) set_task(current);
    if (groups.empty()) return;
    if (booster) update_booster(groups);
    else update_latent(groups);
}

void WorldModel::update_latent(const std::vector<OnlineGroup> &groups) {
    const WorldConfig &c = bundle_.config;
    std::vector<CorrectionGroup> data;
    for (const OnlineGroup &g : groups) {
        data.push_back({prior().predict(g.rows, g.latencies.size()), latent_inputs(g.rows), g.latencies});
        if (c.online_trust > 0) anchors_[g.task] = fastest_rows(data.back().features, g.latencies, size_t(latent_width()), size_t(c.online_trust_top));
    }
    latent_.fit(data, latent_width(), c.online_l2, CorrectionGuard{c.online_clamp, c.online_trust});
}

void WorldModel::update_booster(const std::vector<OnlineGroup> &groups) {
    const size_t columns = bundle_.config.online_schedule_features ? online_columns_.size() : 0;
    const bool lowering = bundle_.config.online_lowered_features;
    const size_t width = size_t(row_width()) + columns + (lowering ? kPooledLength : 0);
    RankingData data;
    for (const OnlineGroup &g : groups) {
        std::vector<const std::vector<float> *> lowered;
        if (lowering) {
            std::vector<const ActionList *> lists;
            for (const ActionList &a : g.actions) lists.push_back(&a);
            lowered = lowered_.rows(WorkloadSpec::parse(g.task), lists);
        }
        const std::vector<float> rows = online_rows(g.schedules, g.rows, columns, lowering ? &lowered : nullptr);
        std::vector<std::vector<float>> group;
        for (size_t i = 0; i < g.latencies.size(); i++)
            group.emplace_back(rows.begin() + long(i * width), rows.begin() + long((i + 1) * width));
        data.add_group(group, g.latencies);
    }
    if (data.size() == 0) return;
    const RankerParams p = online_booster_params(bundle_.config, data.size());
    const size_t hidden = bundle_.config.online_reads_latent ? 0 : size_t(prior().state_dim());
    online_.train_on_top(prior(), data, p, bundle_.config.online_prior_weight, hidden);
    online_width_ = columns;
    online_trained_ = true;
}

}  // namespace worldtune
