#include "study/Replay.h"

#include "common/Statistics.h"
#include "common/Text.h"
#include "model/ModelFactory.h"
#include "search/BatchSelection.h"
#include "store/RecordStore.h"
#include "study/TuningRuns.h"
#include "workload/Spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <set>

namespace worldtune {

namespace {

struct Schedule {
    MeasureResult result;
    std::string key;
};

struct WorkloadData {
    std::vector<Schedule> distinct;                         ///< successful, one per action list
    std::map<std::string, std::vector<MeasureResult>> runs;  ///< source -> records in measurement order
};

std::map<std::string, WorkloadData> load(const std::vector<std::string> &dbs) {
    std::map<std::string, WorkloadData> data;
    std::map<std::string, std::set<std::string>> seen;
    for (size_t d = 0; d < dbs.size(); d++) {
        if (!std::filesystem::exists(dbs[d])) throw StudyError("no records database at " + dbs[d]);
        RecordStore store(dbs[d]);
        store.for_each([&](const Record &r) {
            WorkloadData &w = data[r.result.spec];
            w.runs[dbs.size() > 1 ? std::to_string(d) + ":" + r.source : r.source].push_back(r.result);
            if (!r.result.ok() || r.result.timing.median_s <= 0) return;
            const std::string key = r.result.actions.dump();
            if (seen[r.result.spec].insert(key).second) w.distinct.push_back({r.result, key});
        });
    }
    return data;
}

std::vector<int> parse_after(const std::string &text) {
    std::vector<int> after;
    for (const std::string &a : split_list(text)) {
        try {
            after.push_back(std::stoi(a));
        } catch (const std::exception &) {
            throw StudyError("--after takes counts like 0,16,32, got '" + a + "'");
        }
        if (after.back() < 0) throw StudyError("--after counts must be >= 0");
    }
    if (after.empty()) throw StudyError("--after needs at least one count");
    return after;
}

/// The pool of one run after `n` measurements: the workload's other distinct schedules, subsampled.
std::vector<const Schedule *> pool_after(const WorkloadData &w, const std::vector<MeasureResult> &run, int n, int size,
                                         double near, std::mt19937_64 &rng) {
    std::set<std::string> train_keys;
    double incumbent = INFINITY;
    for (int i = 0; i < n; i++) {
        train_keys.insert(run[size_t(i)].actions.dump());
        if (run[size_t(i)].ok() && run[size_t(i)].timing.median_s > 0) incumbent = std::min(incumbent, run[size_t(i)].timing.median_s);
    }
    const double bound = near > 0 && std::isfinite(incumbent) ? near * incumbent : INFINITY;
    std::vector<const Schedule *> pool;
    for (const Schedule &s : w.distinct)
        if (!train_keys.count(s.key) && s.result.timing.median_s <= bound) pool.push_back(&s);
    std::shuffle(pool.begin(), pool.end(), rng);
    if (int(pool.size()) > size) pool.resize(size_t(size));
    return pool;
}

/// Trains `model_name` on the run's first n measurements and scores the pool into `score`.
void score_model(const ReplayParams &p, const std::string &model_name, const WorkloadSpec &spec, const std::vector<MeasureResult> &run,
                 int n, const std::vector<const Schedule *> &pool, ReplayScore &score) {
    const size_t batch = size_t(p.batch);
    double best = INFINITY;
    std::vector<ActionList> lists;
    for (const Schedule *s : pool) {
        best = std::min(best, s->result.timing.median_s);
        lists.push_back(actions_from_json(s->result.actions));
    }
    CostModelParams cp;
    cp.seed = p.seed;
    cp.threads = p.threads;
    cp.world_bundle = p.bundle;
    std::unique_ptr<CostModel> model = make_cost_model(model_name, cp);
    model->set_task(spec);
    for (int i = 0; i < n; i += int(batch))
        model->update(std::vector<MeasureResult>(run.begin() + i, run.begin() + std::min(n, i + int(batch))));
    const std::vector<size_t> order = pick_batch(model->predict(lists), lists, batch, p.diversity);
    if (order.size() < batch) return;  // the model refused too many to fill a batch
    double batch_best = INFINITY, log_sum = 0;
    for (size_t i = 0; i < batch; i++) {
        batch_best = std::min(batch_best, pool[order[i]]->result.timing.median_s);
        log_sum += std::log(best / pool[order[i]]->result.timing.median_s);
    }
    score.top1.push_back(best / pool[order[0]]->result.timing.median_s);
    score.top_batch.push_back(best / batch_best);
    score.batch_mean.push_back(std::exp(log_sum / double(batch)));
}

}  // namespace

ReplayResults run_replay(const ReplayParams &p) {
    ReplayResults results;
    results.after = parse_after(p.after);
    results.models = split_list(p.models);
    const std::vector<std::string> known = cost_model_names();
    for (const std::string &m : results.models)
        if (std::find(known.begin(), known.end(), m) == known.end()) throw StudyError("unknown model '" + m + "'");
    const int need = *std::max_element(results.after.begin(), results.after.end());
    std::mt19937_64 rng(p.seed);
    for (const auto &[spec_text, w] : load(split_list(p.db))) {
        const WorkloadSpec spec = WorkloadSpec::parse(spec_text);
        int used = 0;
        for (const auto &[source, run] : w.runs) {
            int ok = 0;
            for (const MeasureResult &r : run) ok += r.ok();
            if (int(run.size()) < need || ok < 2 || used >= p.runs) continue;
            used++;
            for (int n : results.after) {
                const std::vector<const Schedule *> pool = pool_after(w, run, n, p.pool, p.near, rng);
                if (pool.size() <= size_t(p.batch)) continue;
                for (const std::string &m : results.models) score_model(p, m, spec, run, n, pool, results.scores[{m, n}]);
            }
            std::fprintf(stderr, "  %s %s done\n", spec_text.c_str(), source.c_str());
        }
    }
    return results;
}

std::string replay_table(const ReplayResults &results, const ReplayParams &p) {
    char line[256];
    const std::string b = std::to_string(p.batch);
    std::snprintf(line, sizeof line, "%-16s %6s %6s %10s %10s %10s\n", "model", "after", "runs", "top-1", ("top-" + b).c_str(),
                  ("mean-" + b).c_str());
    std::string out = line;
    for (const std::string &m : results.models)
        for (int n : results.after) {
            const auto it = results.scores.find({m, n});
            if (it == results.scores.end() || it->second.top1.empty()) continue;
            std::snprintf(line, sizeof line, "%-16s %6d %6zu %10.3f %10.3f %10.3f\n", m.c_str(), n, it->second.top1.size(),
                          geomean(it->second.top1), geomean(it->second.top_batch), geomean(it->second.batch_mean));
            out += line;
        }
    return out;
}

}  // namespace worldtune
