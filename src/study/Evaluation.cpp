#include "study/Evaluation.h"

#include "common/Statistics.h"
#include "dataset/DatasetFile.h"
#include "lower/StateText.h"
#include "measure/Hardware.h"
#include "measure/Timing.h"
#include "features/ScheduleFeatures.h"
#include "model/StaticModel.h"
#include "train/StateCorpus.h"
#include "world/WorldModel.h"
#include "search/SketchSampler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

namespace worldtune {

namespace {

std::map<std::string, std::string> spec_fields(const std::string &canonical, std::string &op) {
    std::map<std::string, std::string> fields;
    const size_t colon = canonical.find(':');
    op = canonical.substr(0, colon);
    if (colon == std::string::npos) return fields;
    std::stringstream in(canonical.substr(colon + 1));
    std::string item;
    while (std::getline(in, item, ',')) {
        const size_t eq = item.find('=');
        if (eq != std::string::npos) fields[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return fields;
}

/// True when two specs of one op differ only in integer sizes, each by one in the same direction (e.g.
/// N=1024 vs N=1023, or H=W=56 vs H=W=55): the same program up to divisibility.
bool divisibility_pair(const std::string &a, const std::string &b) {
    std::string op_a, op_b;
    const auto fa = spec_fields(a, op_a), fb = spec_fields(b, op_b);
    if (op_a != op_b || fa.size() != fb.size()) return false;
    int differing = 0, direction = 0;
    for (const auto &[k, v] : fa) {
        auto it = fb.find(k);
        if (it == fb.end()) return false;
        if (it->second == v) continue;
        differing++;
        long long diff = 0;
        try {
            diff = std::stoll(v) - std::stoll(it->second);
        } catch (const std::exception &) {
            return false;
        }
        if (diff != 1 && diff != -1) return false;
        if (direction != 0 && diff != direction) return false;
        direction = int(diff);
    }
    return differing >= 1;
}

double distance(const std::vector<float> &a, const std::vector<float> &b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); i++) s += double(a[i] - b[i]) * double(a[i] - b[i]);
    return std::sqrt(s);
}

}  // namespace

/// Scoring throughput on populations of the first workload of the evaluated split: the world model on its
/// first scoring of a population (its rollout caches emptied before, so every action is new to them; the
/// median over kColdPopulations fresh populations) and on scoring the last one again (cached, as in a
/// search's later generations: the median of kWarmScorings), since one timing on shared cores swings by a
/// third; the static model beside it when given.
constexpr int kColdPopulations = 5;  ///< fresh populations timed on first sight; the report gives their median
constexpr int kWarmScorings = 3;     ///< timings of the cached scoring; the report gives their median

static ThroughputReport scoring_throughput(const Dataset &dataset, const EvalOptions &o, WorldModel &world, StaticModel *static_model) {
    ThroughputReport report;
    for (const DatasetWorkload &w : dataset.workloads) {
        if (split_name(w.split) != o.split) continue;
        const WorkloadSpec spec = WorkloadSpec::parse(w.spec);
        SketchSampler sampler(spec, SamplerParams{}, o.seed);
        world.set_task(spec);
        std::vector<ActionList> population;
        std::vector<double> cold_times;
        for (int p = 0; p < kColdPopulations; p++) {
            population.clear();
            for (int i = 0; i < o.throughput_candidates; i++) population.push_back(sampler.draw());
            world.predict({population[0]});  // z_0 encoded once, as set_task does in a search
            world.forget_rollouts();
            const double t0 = now_seconds();
            world.predict(population);
            cold_times.push_back(now_seconds() - t0);
        }
        const double cold_s = median_of(cold_times);
        double t1 = 0;
        std::vector<double> warm_times;
        for (int r = 0; r < kWarmScorings; r++) {
            t1 = now_seconds();
            world.predict(population);
            warm_times.push_back(now_seconds() - t1);
        }
        const double warm_s = median_of(warm_times);
        report = {w.spec, int(population.size()), population.size() / std::max(cold_s, 1e-9), population.size() / std::max(warm_s, 1e-9), 0.0};
        if (static_model) {
            // The trained model: an untrained one returns random scores without lowering anything.
            static_model->set_task(spec);
            t1 = now_seconds();
            static_model->predict(population);
            report.static_per_second = population.size() / std::max(now_seconds() - t1, 1e-9);
        }
        break;
    }
    return report;
}

namespace {

/// Trains the static model on the train split of `train_set` (up to o.static_per_workload per workload).
void train_static(const Dataset &train_set, const EvalOptions &o, StaticModel &static_model,
                  const std::function<void(const std::string &)> &log) {
    std::vector<MeasureResult> train;
    std::mt19937_64 rng(o.seed);
    for (const DatasetWorkload &w : train_set.workloads) {
        if (w.split != SplitKind::Train) continue;
        std::vector<size_t> order(w.trajectories.size());
        for (size_t i = 0; i < order.size(); i++) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        if (o.static_per_workload > 0 && order.size() > size_t(o.static_per_workload)) order.resize(size_t(o.static_per_workload));
        for (size_t i : order) {
            const DatasetTrajectory &t = w.trajectories[i];
            MeasureResult r;
            r.spec = w.spec;
            r.actions = t.actions;
            r.error = t.error;
            r.timing.median_s = t.latency_s;
            train.push_back(std::move(r));
        }
    }
    const double ts = now_seconds();
    log("static model: training on " + std::to_string(train.size()) + " train-split trajectories (lowering each)");
    static_model.update(train);
    log("static model trained in " + std::to_string(int(now_seconds() - ts)) + " s");
}

/// The shipped rankers of every variant the offline evaluation scores.
std::map<std::string, Ranker> load_rankers(const WorldBundle &bundle) {
    std::map<std::string, Ranker> rankers;
    const int D = bundle.config.d_model;
    const bool stats = bundle.config.ranker_schedule_stats;
    rankers.emplace("world", Ranker::load(bundle.path("ranker_world.ubj"), "world", ranker_state_dim("world", D), stats));
    rankers.emplace("initial", Ranker::load(bundle.path("ranker_initial.ubj"), "initial", D, stats));
    rankers.emplace("final", Ranker::load(bundle.path("ranker_final.ubj"), "final", D, stats));
    rankers.emplace("actions", Ranker::load(bundle.path("ranker_actions.ubj"), "actions", 0, stats));
    return rankers;
}

/// Every model's ranking metrics on the workloads of `split`, averaged into report.models.
void score_split(const Dataset &dataset, SplitKind split, const EvalOptions &o, WorldModel &world, StaticModel &static_model,
                 EvalReport &report) {
    const WorldBundle &bundle = world.bundle();
    const std::map<std::string, Ranker> rankers = load_rankers(bundle);
    Rollout rollout(RolloutTables::load(bundle.path("transition.bin")), bundle.tokenizer);
    TextCache texts(bundle.path("cache/texts.db"));
    std::map<std::string, RankingMetricsMean> means;
    std::mt19937_64 rng(o.seed * 977);
    std::uniform_real_distribution<double> unit(0, 1);
    for (const DatasetWorkload &w : dataset.workloads) {
        if (w.split != split) continue;
        std::vector<ActionList> actions;
        std::vector<nlohmann::json> actions_json;
        std::vector<double> latencies;
        for (const DatasetTrajectory &t : w.trajectories) {
            if (t.error != ErrorKind::None || t.latency_s <= 0) continue;
            actions.push_back(actions_from_json(t.actions));
            actions_json.push_back(t.actions);
            latencies.push_back(t.latency_s);
        }
        if (actions.size() < 2) continue;
        report.test_workloads++;
        report.test_trajectories += int(actions.size());
        const WorkloadSpec spec = WorkloadSpec::parse(w.spec);
        const std::vector<float> hardware = hardware_features(dataset.hardware_of(w));

        // States: E(s_0) once; E(s_T) of the lowered finals for the static-encoding ablation.
        const std::vector<float> z0 = world.encode_text(state_text(spec, {}));
        std::vector<std::pair<std::string, nlohmann::json>> finals;
        for (const nlohmann::json &a : actions_json) finals.emplace_back(w.spec, a);
        const std::vector<std::vector<float>> zT = o.quick ? std::vector<std::vector<float>>() : world.encode_texts(texts.texts(finals, o.threads));

        std::map<std::string, std::vector<float>> rows;
        std::vector<float> z;
        const TaskPrograms built(spec);
        std::vector<ActionContext> contexts;
        std::vector<float> parallelism;
        for (size_t i = 0; i < actions.size(); i++) {
            parallelism.clear();
            read_schedule(built.funcs_for(actions[i]), actions[i], built.flops(), contexts, parallelism);
            rollout.features(z0, actions[i], contexts, z);
            for (const std::string v : {"world", "initial", "final", "actions"}) {
                if (o.quick && v == "final") continue;
                std::vector<float> &r = rows[v];
                if (v == "world") r.insert(r.end(), z.begin(), z.end());
                if (v == "initial") r.insert(r.end(), z0.begin(), z0.end());
                if (v == "final") r.insert(r.end(), zT[i].begin(), zT[i].end());
                append_candidate_features(actions[i], contexts, parallelism, hardware, bundle.config.ranker_schedule_stats, r);
            }
        }
        for (const auto &[v, r] : rows) means[v].add(latencies, rankers.at(v).predict(r, actions.size()));
        if (!o.quick) {
            static_model.set_task(spec);
            means["static"].add(latencies, static_model.predict(actions));
        }
        std::vector<double> random_scores;
        for (size_t i = 0; i < actions.size(); i++) random_scores.push_back(unit(rng));
        means["random"].add(latencies, random_scores);
    }
    for (const auto &[name, m] : means) report.models[name] = m.mean();
}

/// Distances between E(s_0) of divisibility pairs (1023 vs 1024) against other workloads of the op.
void state_noise(const Dataset &dataset, WorldModel &world, std::vector<std::string> &specs, EvalReport &report) {
    std::vector<std::string> s0;
    specs.clear();
    for (const DatasetWorkload &w : dataset.workloads) {
        specs.push_back(w.spec);
        try {
            s0.push_back(state_text(WorkloadSpec::parse(w.spec), {}));
        } catch (const std::exception &) {
            s0.push_back("");
        }
    }
    const std::vector<std::vector<float>> z = world.encode_texts(s0);
    double pair_sum = 0, other_sum = 0;
    int other = 0;
    for (size_t a = 0; a < specs.size(); a++)
        for (size_t b = a + 1; b < specs.size(); b++) {
            std::string op_a, op_b;
            spec_fields(specs[a], op_a);
            spec_fields(specs[b], op_b);
            if (op_a != op_b) continue;
            const double d = distance(z[a], z[b]);
            if (divisibility_pair(specs[a], specs[b])) {
                report.noise.pairs++;
                pair_sum += d;
                if (report.noise.examples.size() < 6) {
                    char line[64];
                    std::snprintf(line, sizeof line, ": %.3f", d);
                    report.noise.examples.push_back("`" + specs[a] + "` | `" + specs[b] + "`" + line);
                }
            } else {
                other_sum += d;
                other++;
            }
        }
    report.noise.pair_distance = report.noise.pairs ? pair_sum / report.noise.pairs : 0;
    report.noise.same_op_distance = other ? other_sum / other : 0;
}

/// The same schedules applied to both workloads of a pair (where a non-dividing split adds boundary code to
/// one text), against the same schedules applied to other workloads of the op.
void scheduled_noise(const Dataset &dataset, const EvalOptions &o, WorldModel &world, const std::vector<std::string> &specs,
                     EvalReport &report) {
    std::mt19937_64 pick_rng(o.seed * 31);
    double sp_sum = 0, so_sum = 0;
    int sp_n = 0, so_n = 0;
    auto text_or_empty = [](const std::string &spec, const nlohmann::json &actions) {
        try {
            return state_text(WorkloadSpec::parse(spec), actions_from_json(actions));
        } catch (const std::exception &) {
            return std::string();
        }
    };
    for (size_t a = 0; a < specs.size(); a++)
        for (size_t b = a + 1; b < specs.size(); b++) {
            if (!divisibility_pair(specs[a], specs[b])) continue;
            std::string op;
            spec_fields(specs[a], op);
            std::vector<size_t> others;
            for (size_t c = 0; c < specs.size(); c++) {
                std::string op_c;
                spec_fields(specs[c], op_c);
                if (c != a && c != b && op_c == op && !divisibility_pair(specs[a], specs[c])) others.push_back(c);
            }
            std::shuffle(others.begin(), others.end(), pick_rng);
            if (others.size() > 3) others.resize(3);
            const DatasetWorkload &wa = dataset.workloads[a];
            int used = 0;
            for (const DatasetTrajectory &t : wa.trajectories) {
                if (used >= 3) break;
                if (t.error != ErrorKind::None) continue;
                const std::string ta = text_or_empty(specs[a], t.actions), tb = text_or_empty(specs[b], t.actions);
                if (ta.empty() || tb.empty()) continue;
                std::vector<std::string> batch = {ta, tb};
                for (size_t c : others) batch.push_back(text_or_empty(specs[c], t.actions));
                const std::vector<std::vector<float>> zs = world.encode_texts(batch);
                sp_sum += distance(zs[0], zs[1]);
                sp_n++;
                for (size_t k = 2; k < batch.size(); k++)
                    if (!batch[k].empty()) {
                        so_sum += distance(zs[0], zs[k]);
                        so_n++;
                    }
                used++;
            }
        }
    report.noise.scheduled_pairs = sp_n;
    report.noise.scheduled_pair_distance = sp_n ? sp_sum / sp_n : 0;
    report.noise.scheduled_other_distance = so_n ? so_sum / so_n : 0;
}

}  // namespace

EvalReport evaluate_world_model(const EvalOptions &o, const std::function<void(const std::string &)> &log) {
    const double t0 = now_seconds();
    EvalReport report;
    const Dataset dataset = load_dataset(o.dataset);
    // The static model learns from the train split of the datasets the bundle was trained on (leave one
    // machine out: another machine's file than the one evaluated).
    const Dataset train_set = o.train_datasets.empty() ? dataset : load_datasets(o.train_datasets);
    WorldModel world(o.bundle, WorldVariant::World, o.threads);
    if (o.split != "val" && o.split != "test") throw std::runtime_error("eval: --split is val or test, not '" + o.split + "'");
    const SplitKind split = o.split == "val" ? SplitKind::Val : SplitKind::Test;
    CostModelParams sp;
    sp.seed = o.seed;
    sp.threads = o.threads;
    StaticModel static_model(sp);
    if (!o.quick) train_static(train_set, o, static_model, log);
    score_split(dataset, split, o, world, static_model, report);
    log("evaluated " + std::to_string(report.test_workloads) + " " + o.split + " workloads, " + std::to_string(report.test_trajectories) + " trajectories");
    if (o.quick) {
        report.throughput = scoring_throughput(dataset, o, world, nullptr);
        report.seconds = now_seconds() - t0;
        return report;
    }
    std::vector<std::string> specs;
    state_noise(dataset, world, specs, report);
    scheduled_noise(dataset, o, world, specs, report);
    report.throughput = scoring_throughput(dataset, o, world, &static_model);
    report.seconds = now_seconds() - t0;
    return report;
}

static std::string throughput_markdown(const ThroughputReport &t, int threads) {
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "\nScoring throughput on populations of %d sampled candidates of `%s` (%d threads): world model %.0f "
                  "candidates/s on first sight of a population (median of %d fresh populations, the rollout's caches emptied "
                  "before each), %.0f candidates/s scoring one again (median of %d; rollout + ranker, no lowering)",
                  t.candidates, t.spec.c_str(), threads, t.world_per_second, kColdPopulations, t.world_warm_per_second, kWarmScorings);
    std::string out = buf;
    if (t.static_per_second > 0) {
        std::snprintf(buf, sizeof buf, "; static model %.0f candidates/s (lowering + features + XGBoost), side by side: %.0fx",
                      t.static_per_second, t.world_per_second / t.static_per_second);
        out += buf;
    }
    return out + ".\n";
}

std::string eval_markdown(const EvalReport &r, const EvalOptions &o, const std::string &command) {
    std::ostringstream out;
    char buf[256];
    out << (o.split == "val" ? "Validation split: " : "Held-out test split: ") << r.test_workloads << " workloads, " << r.test_trajectories
        << " measured trajectories (successful ones; one ranking group per workload). Metrics are means over workloads.\n\n";
    out << "| model | top-1 | top-5 | pairwise | NDCG@10 |\n|---|---:|---:|---:|---:|\n";
    const std::vector<std::pair<std::string, std::string>> rows = {
        {"world", "(a) world model: ranker on z^_T rolled out from E(s_0)"},
        {"static", "(b) static-feature model (Ansor-like), same train split"},
        {"random", "(c) random"},
        {"initial", "(d) ranker on E(s_0) + action statistics (no transition)"},
        {"final", "(e) ranker on E(s_T) of the lowered final state (static encoding)"},
        {"actions", "(f) ranker on action statistics alone"}};
    for (const auto &[key, label] : rows) {
        auto it = r.models.find(key);
        if (it == r.models.end()) continue;
        std::snprintf(buf, sizeof buf, "| %s | %.3f | %.3f | %.3f | %.3f |\n", label.c_str(), it->second.top1, it->second.top5,
                      it->second.pairwise, it->second.ndcg10);
        out << buf;
    }
    if (o.quick) {
        out << throughput_markdown(r.throughput, o.threads);
        out << "\nProduced by `" << command << "` in " << int(r.seconds) << " s on " << hardware_summary() << ".\n";
        return out.str();
    }
    if (r.noise.pairs == 0) {
        out << "\nDivisibility noise: no workload pair of this file differs by one unit in one size.\n";
    } else {
        out << "\nDivisibility noise: " << r.noise.pairs << " workload pairs differ only by one unit in one size. Mean latent distance ";
        std::snprintf(buf, sizeof buf, "within a pair %.3f; between different workloads of the same op kind %.3f (ratio %.2f).\n",
                      r.noise.pair_distance, r.noise.same_op_distance,
                      r.noise.same_op_distance > 0 ? r.noise.pair_distance / r.noise.same_op_distance : 0.0);
        out << buf;
        for (const std::string &e : r.noise.examples) out << "- " << e << "\n";
        std::snprintf(buf, sizeof buf,
                      "\nThe same schedules applied to both workloads of a pair (%d states; a non-dividing split adds boundary code "
                      "to one text): mean distance %.3f, against %.3f for the same schedules on other workloads of the op (ratio %.2f).\n",
                      r.noise.scheduled_pairs, r.noise.scheduled_pair_distance, r.noise.scheduled_other_distance,
                      r.noise.scheduled_other_distance > 0 ? r.noise.scheduled_pair_distance / r.noise.scheduled_other_distance : 0.0);
        out << buf;
    }
    out << throughput_markdown(r.throughput, o.threads);
    out << "\nProduced by `" << command << "` in " << int(r.seconds) << " s on " << hardware_summary() << ".\n";
    return out.str();
}

}  // namespace worldtune
