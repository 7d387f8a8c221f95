// `worldtune replay`: how well each cost model, having seen the first N measurements of a tuning run,
// picks the fastest among the other measured schedules of the same workload. No new measurement: it
// replays a records database (a bench's, a tune's), so models can be compared on exactly the same data,
// deterministically. It isolates what the search takes from the model (its ranking after online
// learning) from the search's own luck.
//
// For each workload of the database, every run (records of one `source`, in measurement order) with at
// least max(--after) successful trials gives a training prefix; the pool is every other distinct
// successful schedule of the workload (subsampled to --pool). The model is trained on the prefix as the
// tuner would (update() with the prefix), then scores the pool. Reported per model and N, geometric means
// over runs of the pool-best latency divided by: the latency of the model's top-1 pick, the best latency of
// its batch (the B it would measure in one tuning round, --batch, picked as the search does: BatchSelection.h),
// and the geometric mean latency of that batch. Each is 1.0 when the
// model puts the pool's fastest first (all B of them, for the last).
#include "common/Defaults.h"
#include "cli/Commands.h"
#include "study/TuningRuns.h"

#include "model/ModelFactory.h"
#include "search/Evolution.h"
#include "store/RecordStore.h"
#include "workload/Spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>

namespace worldtune::cli {

namespace {

struct ReplayOptions {
    std::string db, models = "world,static", after = "0,16,32,48", bundle;
    int pool = 300;
    int runs = 4;       ///< runs per workload used as training prefixes
    int batch = 16;     ///< candidates measured per tuning round (TuneParams::measures_per_round)
    int threads = kDefaultThreads;
    uint64_t seed = 1;
    BatchDiversity diversity = EvolutionParams().batch;  ///< how the search picks a batch among its best
};

struct Schedule {
    MeasureResult result;
    std::string key;
};

struct WorkloadData {
    std::vector<Schedule> distinct;                         ///< successful, one per action list
    std::map<std::string, std::vector<MeasureResult>> runs;  ///< source -> records in measurement order
};

std::map<std::string, WorkloadData> load(const std::string &db) {
    RecordStore store(db);
    std::map<std::string, WorkloadData> data;
    std::map<std::string, std::set<std::string>> seen;
    store.for_each([&](const Record &r) {
        WorkloadData &w = data[r.result.spec];
        w.runs[r.source].push_back(r.result);
        if (!r.result.ok() || r.result.timing.median_s <= 0) return;
        const std::string key = r.result.actions.dump();
        if (seen[r.result.spec].insert(key).second) w.distinct.push_back({r.result, key});
    });
    return data;
}

struct Score {
    std::vector<double> top1, top_batch, batch_mean;
};

}  // namespace

void add_replay_command(CLI::App &app) {
    auto o = std::make_shared<ReplayOptions>();
    CLI::App *cmd = app.add_subcommand("replay", "Rank measured schedules with each model after N online measurements (no measuring)");
    cmd->add_option("--db", o->db, "Records database to replay (e.g. a bench's bench.db)")->required();
    cmd->add_option("--models", o->models, "Cost models, comma-separated")->capture_default_str();
    cmd->add_option("--after", o->after, "Online measurements the model has seen, comma-separated")->capture_default_str();
    cmd->add_option("--pool", o->pool, "Schedules scored per run (a random subset of the workload's others)")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--runs", o->runs, "Runs per workload used as training prefixes")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--batch", o->batch, "Candidates per tuning round: the top-B the model would measure")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--diversity", o->diversity.weight, "Weight of dissimilarity in the batch pick (0: the top-B by score)")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--shortlist", o->diversity.shortlist, "The batch is picked among the best B x this by score")
        ->capture_default_str()->check(CLI::Range(1.0, 1000.0));
    cmd->add_option("--bundle", o->bundle, "World-model bundle (default: the shipped models/world)");
    cmd->add_option("--threads", o->threads, "Threads for the models")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--seed", o->seed, "Seed of the pool subsample and the models")->capture_default_str();
    cmd->callback([o] {
        std::vector<int> after;
        for (const std::string &a : split_list(o->after)) {
            try {
                after.push_back(std::stoi(a));
            } catch (const std::exception &) {
                throw CommandError("--after takes counts like 0,16,32, got '" + a + "'");
            }
            if (after.back() < 0) throw CommandError("--after counts must be >= 0");
        }
        const std::vector<std::string> models = split_list(o->models);
        const std::vector<std::string> known = cost_model_names();
        for (const std::string &m : models)
            if (std::find(known.begin(), known.end(), m) == known.end()) throw CommandError("unknown model '" + m + "'");
        if (!std::filesystem::exists(o->db)) throw CommandError("no records database at " + o->db);
        const size_t batch = size_t(o->batch);
        const int need = *std::max_element(after.begin(), after.end());
        const std::map<std::string, WorkloadData> data = load(o->db);
        std::map<std::pair<std::string, int>, Score> scores;
        std::mt19937_64 rng(o->seed);
        for (const auto &[spec_text, w] : data) {
            const WorkloadSpec spec = WorkloadSpec::parse(spec_text);
            int used = 0;
            for (const auto &[source, run] : w.runs) {
                int ok = 0;
                for (const MeasureResult &r : run) ok += r.ok();
                if (int(run.size()) < need || ok < 2 || used >= o->runs) continue;
                used++;
                for (int n : after) {
                    std::set<std::string> train_keys;
                    for (int i = 0; i < n; i++) train_keys.insert(run[size_t(i)].actions.dump());
                    std::vector<const Schedule *> pool;
                    for (const Schedule &s : w.distinct)
                        if (!train_keys.count(s.key)) pool.push_back(&s);
                    std::shuffle(pool.begin(), pool.end(), rng);
                    if (int(pool.size()) > o->pool) pool.resize(size_t(o->pool));
                    if (pool.size() <= batch) continue;
                    double best = INFINITY;
                    std::vector<ActionList> lists;
                    for (const Schedule *s : pool) {
                        best = std::min(best, s->result.timing.median_s);
                        lists.push_back(actions_from_json(s->result.actions));
                    }
                    for (const std::string &m : models) {
                        CostModelParams p;
                        p.seed = o->seed;
                        p.threads = o->threads;
                        p.world_bundle = o->bundle;
                        std::unique_ptr<CostModel> model = make_cost_model(m, p);
                        model->set_task(spec);
                        for (int i = 0; i < n; i += int(batch))
                            model->update(std::vector<MeasureResult>(run.begin() + i, run.begin() + std::min(n, i + int(batch))));
                        const std::vector<double> s = model->predict(lists);
                        const std::vector<size_t> order = pick_batch(s, lists, batch, o->diversity);
                        if (order.size() < batch) continue;  // the model refused too many to fill a batch
                        double batch_best = INFINITY, log_sum = 0;
                        for (size_t i = 0; i < batch; i++) {
                            batch_best = std::min(batch_best, pool[order[i]]->result.timing.median_s);
                            log_sum += std::log(best / pool[order[i]]->result.timing.median_s);
                        }
                        Score &sc = scores[{m, n}];
                        sc.top1.push_back(best / pool[order[0]]->result.timing.median_s);
                        sc.top_batch.push_back(best / batch_best);
                        sc.batch_mean.push_back(std::exp(log_sum / double(batch)));
                    }
                }
                std::fprintf(stderr, "  %s %s done\n", spec_text.c_str(), source.c_str());
            }
        }
        std::printf("%-16s %6s %6s %10s %10s %10s\n", "model", "after", "runs", "top-1", ("top-" + std::to_string(batch)).c_str(), ("mean-" + std::to_string(batch)).c_str());
        for (const std::string &m : models)
            for (int n : after) {
                const auto it = scores.find({m, n});
                if (it == scores.end()) continue;
                std::printf("%-16s %6d %6zu %10.3f %10.3f %10.3f\n", m.c_str(), n, it->second.top1.size(), geomean(it->second.top1),
                            geomean(it->second.top_batch), geomean(it->second.batch_mean));
            }
    });
}

}  // namespace worldtune::cli
