// `worldtune bench`: the head-to-head evaluation from one command, resumable, into a report folder.
//   1. Workloads: preset subgraphs that are not in the dataset's train split (or the given specs, checked).
//   2. Tuning: every model (world, world+static, static, random) searches each workload for --trials
//      trials with --seeds seeds, and every ablation (world-initial, world-final) the first
//      --ablation-count workloads; on the first --efficiency-count workloads the static model goes on to
//      --efficiency trials (sample efficiency: 10x the budget). Then every subgraph of each --networks
//      preset is tuned by the lead model (--network-trials, seed 1).
//      Every trial is stored at once: a resumed bench measures only what is missing.
//   3. Comparison phase, after all tuning: each run's best schedule within its budget is re-measured in
//      --rounds rounds (shuffled order), beside every peer, with the same harness and thread count; each
//      network subgraph's best beside libtorch, for the end-to-end estimate Σ occurrences × latency
//      (BenchNetworks.h).
//   4. Report: report.md (tables, ratios, geometric means, wall times, the command), curves.png (best
//      latency vs trials per model), speedups.png (world over static per workload), efficiency.png, and
//      the gnuplot data and scripts that drew them.
#include "cli/BenchNetworks.h"
#include "cli/Commands.h"
#include "cli/TuningRuns.h"

#include "baseline/Baseline.h"
#include "common/Statistics.h"
#include "dataset/DatasetFile.h"
#include "dataset/WorkloadList.h"
#include "measure/Hardware.h"
#include "model/world/Calibration.h"
#include "model/world/WorldBundle.h"
#include "measure/Timing.h"
#include "workload/Presets.h"
#include "workload/Workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

namespace worldtune::cli {

namespace {

/// A bench resumes from its database, so records measured on another machine type would be mixed into
/// this machine's runs and comparisons: refuse them (one line naming both machines).
void refuse_other_machines(const RecordStore &store) {
    std::string other;
    store.for_each([&](const Record &r) {
        if (other.empty() && !same_machine(r.result.hardware, hardware_json()))
            other = r.result.hardware.is_object() ? r.result.hardware.value("cpu_model", std::string("unknown")) : "unknown";
    });
    if (!other.empty())
        throw CommandError(store.path() + " holds records measured on another machine (" + other + "); this one is " +
                           hardware_json().value("cpu_model", std::string("unknown")) + ": use another --db");
}

struct BenchOptions {
    std::string dataset, out = "results", db = "bench.db", bundle, peers, list;
    std::vector<std::string> specs;
    std::string models = "world,world+static,static,random", ablations = "world-initial";
    std::string networks = "resnet50,mobilenet_v2,bert_base,gpt2";
    int network_trials = 64;
    int count = 12, trials = 64, efficiency = 640, efficiency_count = 3, seeds = 5, rounds = 3;
    int ablation_count = 0;  ///< the ablations run on the first N workloads (0: all; world-final lowers and
                             ///< encodes every candidate it scores, about 15x the world model's tuning time)
    uint64_t seed = 1;
    double peer_timeout = 900;
    MeasureParams measure;
    TuneParams search;  ///< the search's knobs (population, generations), the same for every model
};

std::string source_of(const std::string &model, uint64_t seed) { return "bench:" + model + ":seed" + std::to_string(seed); }

/// Preset subgraphs outside the train split, spread over the presets (round robin), seeded order.
std::vector<std::string> held_out_subgraphs(const Dataset &dataset, int count, uint64_t seed) {
    std::set<std::string> train;
    for (const DatasetWorkload &w : dataset.workloads)
        if (w.split == SplitKind::Train) train.insert(w.spec);
    std::vector<std::vector<std::string>> per_preset;
    std::set<std::string> taken;
    std::mt19937_64 rng(seed);
    for (const std::string &name : preset_names()) {
        std::vector<std::string> list;
        for (const PresetEntry &e : preset(name)) {
            const std::string canonical = WorkloadSpec::parse(e.spec).canonical();
            if (!train.count(canonical) && taken.insert(canonical).second) list.push_back(canonical);
        }
        std::shuffle(list.begin(), list.end(), rng);
        per_preset.push_back(list);
    }
    std::vector<std::string> out;
    for (size_t round = 0; int(out.size()) < count; round++) {
        bool any = false;
        for (const auto &list : per_preset)
            if (round < list.size() && int(out.size()) < count) {
                out.push_back(list[round]);
                any = true;
            }
        if (!any) break;
    }
    return out;
}

struct WorkloadResult {
    std::string spec;
    double flops = 0;
    std::map<std::string, std::vector<std::vector<double>>> curves;  ///< model -> per seed best-so-far latency
    std::map<std::string, std::vector<double>> latency;              ///< entry -> re-measured latencies
    std::map<std::string, SeedSamples> seed_latency;                 ///< entry -> per seed (a peer: one), its latencies
    std::map<std::string, std::string> peer_note;
};

struct ModelTime {
    double wall = 0, model = 0;
    int trials = 0;  ///< trials whose time is known (RunTime)
    int runs = 0;
};

double median_or_zero(std::vector<double> v) { return v.empty() ? 0.0 : median_of(v); }

/// Median over seeds of the best-so-far latency after trial t (0-based), or 0.
double curve_at(const std::vector<std::vector<double>> &seeds, size_t t) {
    std::vector<double> v;
    for (const auto &c : seeds)
        if (t < c.size() && c[t] > 0) v.push_back(c[t]);
    return median_or_zero(v);
}

bool run_gnuplot(const std::string &script) {
    const std::string cmd = "gnuplot " + script + " > /dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
}

}  // namespace

void add_bench_command(CLI::App &app) {
    auto o = std::make_shared<BenchOptions>();
    CLI::App *cmd = app.add_subcommand("bench", "World model vs static vs random vs peers on held-out subgraphs; report with plots");
    cmd->add_option("--dataset", o->dataset, "Dataset file: benchmarked workloads must be outside its train split")->required();
    cmd->add_option("--specs", o->specs, "Specs to benchmark, space-separated (default: held-out preset subgraphs)");
    cmd->add_option("--list", o->list, "File of specs to benchmark, one per line (docs/bench_workloads.txt: the fixed bench list)");
    cmd->add_option("--count", o->count, "Held-out subgraphs to benchmark")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--models", o->models, "Models compared (the first is the one whose speedups are reported)")->capture_default_str();
    cmd->add_option("--ablations", o->ablations, "Ablation models ('none' for none)")->capture_default_str();
    cmd->add_option("--trials", o->trials, "Trials per run")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--efficiency", o->efficiency, "Static model's budget on the sample-efficiency subset")->capture_default_str();
    cmd->add_option("--efficiency-count", o->efficiency_count, "Workloads in that subset (0: none)")->capture_default_str();
    cmd->add_option("--ablation-count", o->ablation_count, "The ablations run on the first N workloads (0: all)")->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--seeds", o->seeds, "Seeds per run")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--rounds", o->rounds, "Comparison rounds")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--networks", o->networks, "Presets whose end-to-end latency is estimated ('none' for none)")->capture_default_str();
    cmd->add_option("--network-trials", o->network_trials, "Trials per subgraph for the network estimate")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--peers", o->peers, "Comma-separated peers (default: all; 'none')");
    cmd->add_option("--peer-timeout", o->peer_timeout, "Seconds one peer may take")->capture_default_str();
    cmd->add_option("--db", o->db, "Records database (the bench resumes from it)")->capture_default_str();
    cmd->add_option("--out", o->out, "Report folder")->capture_default_str();
    cmd->add_option("--bundle", o->bundle, "World-model bundle (default: the shipped one)");
    cmd->add_option("--seed", o->seed, "Seed of the workload choice")->capture_default_str();
    cmd->add_option("--population", o->search.evolution.population, "Evolutionary search population")->capture_default_str()
        ->check(CLI::PositiveNumber);
    cmd->add_option_function<int>(
           "--generations",
           [o](int g) {
               o->search.evolution.generations = g;
               o->search.evolution.prior_generations = g;
           },
           "Evolutionary search generations per batch, for every model (default: 4, 1 for models with a prior)")
        ->check(CLI::PositiveNumber);
    add_measure_options(cmd, o->measure);
    cmd->callback([o] {
        const double start = now_seconds();
        Dataset dataset;
        try {
            dataset = load_dataset(o->dataset);
        } catch (const std::exception &e) {
            throw CommandError(e.what());
        }
        std::set<std::string> train;
        for (const DatasetWorkload &w : dataset.workloads)
            if (w.split == SplitKind::Train) train.insert(w.spec);
        std::vector<std::string> specs;
        std::vector<std::string> given = o->specs;
        if (!o->list.empty()) {
            try {
                for (const std::string &s : read_workload_list(o->list)) given.push_back(s);
            } catch (const std::exception &e) {
                throw CommandError(e.what());
            }
        }
        if (given.empty()) {
            specs = held_out_subgraphs(dataset, o->count, o->seed);
        } else {
            for (const std::string &s : given) {
                const std::string c = WorkloadSpec::parse(s).canonical();
                if (train.count(c)) throw CommandError(c + " is in the dataset's train split: benchmark held-out workloads only");
                specs.push_back(c);
            }
        }
        if (specs.empty()) throw CommandError("no held-out workload to benchmark");
        const std::vector<std::string> models = split_list(o->models);
        std::vector<std::string> ablations = o->ablations == "none" ? std::vector<std::string>{} : split_list(o->ablations);
        const std::vector<std::string> known = cost_model_names();
        for (const std::string &m : models)
            if (std::find(known.begin(), known.end(), m) == known.end()) throw CommandError("unknown model '" + m + "'");
        for (const std::string &m : ablations)
            if (std::find(known.begin(), known.end(), m) == known.end()) throw CommandError("unknown ablation '" + m + "'");
        const std::vector<std::string> networks = o->networks == "none" ? std::vector<std::string>{} : split_list(o->networks);
        for (const std::string &n : networks) {
            const auto &names = preset_names();
            if (std::find(names.begin(), names.end(), n) == names.end()) throw CommandError("unknown network '" + n + "'");
        }
        std::vector<std::string> peers = o->peers.empty() ? baseline_names() : split_list(o->peers);
        if (o->peers == "none") peers.clear();
        std::vector<std::string> all_models = models;
        all_models.insert(all_models.end(), ablations.begin(), ablations.end());
        const bool has_static = std::find(models.begin(), models.end(), "static") != models.end();
        const std::string lead = models.front();
        const bool efficiency_study = has_static && o->efficiency_count > 0 && o->efficiency > o->trials;

        std::filesystem::create_directories(o->out);
        RecordStore store(o->db);
        refuse_other_machines(store);
        CostModelParams model_params;
        model_params.world_bundle = o->bundle;
        const BaselineParams bp = peer_params(o->measure, o->peer_timeout);
        std::map<std::string, ModelTime> times;
        std::vector<WorkloadResult> results;
        std::mt19937_64 order_rng(o->seed * 4242);
        const std::string eff_entry = "static@" + std::to_string(o->efficiency);

        // Tuning first, every workload and network (stored, so a resumed bench skips it); the comparison
        // measurements come after, all in one invocation, so a resume never repeats them.
        std::vector<std::map<std::string, std::vector<ActionList>>> bests(specs.size());  ///< per workload: entry -> schedules
        for (size_t w = 0; w < specs.size(); w++) {
            const WorkloadSpec spec = WorkloadSpec::parse(specs[w]);
            WorkloadResult res;
            res.spec = specs[w];
            res.flops = build_workload(spec)->flops;
            std::fprintf(stderr, "[%zu/%zu] %s\n", w + 1, specs.size(), res.spec.c_str());
            const bool efficiency = efficiency_study && int(w) < o->efficiency_count;
            const bool ablated = o->ablation_count == 0 || int(w) < o->ablation_count;
            for (const std::string &m : all_models) {
                if (!ablated && std::find(ablations.begin(), ablations.end(), m) != ablations.end()) continue;
                for (int seed = 1; seed <= o->seeds; seed++) {
                    const int budget = (efficiency && m == "static") ? o->efficiency : o->trials;
                    const TuningRun run =
                        tune_run(store, spec, m, uint64_t(seed), budget, o->measure, source_of(m, uint64_t(seed)), model_params, o->search);
                    times[m].wall += run.total.wall_seconds;
                    times[m].model += run.total.model_seconds;
                    times[m].trials += run.total.trials;
                    times[m].runs++;
                    res.curves[m].push_back(best_so_far(run.records, budget));
                    if (auto a = best_within(run.records, o->trials)) bests[w][m + "@" + std::to_string(o->trials)].push_back(*a);
                    if (efficiency && m == "static")
                        if (auto a = best_within(run.records, o->efficiency)) bests[w][eff_entry].push_back(*a);
                }
            }
            results.push_back(std::move(res));
        }

        NetworkBenchParams np;
        np.model = lead;
        np.trials = o->network_trials;
        np.rounds = o->rounds;
        np.measure = o->measure;
        np.baseline = bp;
        np.model_params = model_params;
        np.source = source_of;
        std::vector<std::vector<std::optional<ActionList>>> network_bests;
        for (const std::string &n : networks) network_bests.push_back(tune_network(store, n, np));

        Measurer measurer(o->measure);
        for (size_t w = 0; w < specs.size(); w++) {
            WorkloadResult &res = results[w];
            const WorkloadSpec spec = WorkloadSpec::parse(res.spec);
            std::fprintf(stderr, "[compare %zu/%zu] %s\n", w + 1, specs.size(), res.spec.c_str());
            for (int round = 0; round < o->rounds; round++) {
                struct Entry {
                    std::string name;
                    size_t seed;
                    const ActionList *actions;
                };
                std::vector<Entry> entries;
                for (const auto &[name, list] : bests[w])
                    for (size_t k = 0; k < list.size(); k++) entries.push_back({name, k, &list[k]});
                std::shuffle(entries.begin(), entries.end(), order_rng);
                for (const Entry &e : entries) {
                    const MeasureResult r = measurer.measure_one(spec, *e.actions);
                    if (!r.ok()) continue;
                    res.latency[e.name].push_back(r.timing.median_s);
                    SeedSamples &seeds = res.seed_latency[e.name];
                    if (seeds.size() <= e.seed) seeds.resize(e.seed + 1);
                    seeds[e.seed].push_back(r.timing.median_s);
                }
                for (const std::string &peer : peers) {
                    const std::string reason = baseline_unavailable_reason(peer, spec);
                    if (!reason.empty()) {
                        res.peer_note[peer] = "n/a";
                        continue;
                    }
                    const BaselineResult r = run_baseline_subprocess(current_executable(), peer, spec, bp);
                    if (r.ok()) {
                        res.latency[peer].push_back(r.timing.median_s);
                        res.seed_latency[peer].resize(1);
                        res.seed_latency[peer][0].push_back(r.timing.median_s);
                    }
                    else res.peer_note[peer] = r.error.empty() ? "output check failed" : r.error;
                }
            }
        }
        std::vector<NetworkEstimate> estimates;
        for (size_t i = 0; i < networks.size(); i++) {
            std::fprintf(stderr, "[compare %s]\n", networks[i].c_str());
            estimates.push_back(measure_network(networks[i], network_bests[i], np));
        }

        // ---- Report ----
        const std::string T = std::to_string(o->trials);
        std::ostringstream md;
        md << "# worldtune bench\n\nGFLOP/s (higher is better), " << o->measure.threads << " threads, " << hardware_summary()
           << ". `MODEL@" << T << "`: the best schedule among a search's first " << T << " measured trials, median over "
           << o->seeds << " seeds × " << o->rounds << " rounds of re-measurement beside the peers (shuffled order); in brackets "
           << "the range. Workloads: preset subgraphs outside the train split of `" << o->dataset << "`.\n\n";
        if (std::any_of(all_models.begin(), all_models.end(), [](const std::string &m) { return m.rfind("world", 0) == 0; }))
            md << calibration_summary(WorldBundle::locate(o->bundle)) << "\n\n";
        std::vector<std::string> columns;
        std::map<std::string, std::string> model_of_column;
        for (const std::string &m : all_models) {
            columns.push_back(m + "@" + T);
            model_of_column[m + "@" + T] = m;
        }
        columns.insert(columns.end(), peers.begin(), peers.end());
        md << "| workload";
        for (const std::string &c : columns) md << " | " << c;
        md << " |\n|---";
        for (size_t i = 0; i < columns.size(); i++) md << "|---:";
        md << "|\n";
        for (const WorkloadResult &r : results) {
            md << "| `" << r.spec << "`";
            for (const std::string &c : columns) {
                auto it = r.latency.find(c);
                const auto model = model_of_column.find(c);
                const bool not_run = (r.peer_note.count(c) && r.peer_note.at(c) == "n/a") ||
                                     (model != model_of_column.end() && !r.curves.count(model->second));  // ablation subset
                if (it != r.latency.end() && !it->second.empty()) md << " | " << gflops_cell(r.flops, it->second);
                else md << " | " << (not_run ? "–" : "err");
            }
            md << " |\n";
        }
        // Geometric-mean speedup of the lead model over every other column.
        const std::string lead_col = lead + "@" + T;
        md << "| geomean speedup of " << lead_col << " over it";
        // The ratios of column `slow`'s median latency over column `fast`'s, on the workloads both have.
        auto ratios_of = [&](const std::string &fast, const std::string &slow) {
            std::vector<double> ratios;
            for (const WorkloadResult &r : results) {
                auto a = r.seed_latency.find(fast), b = r.seed_latency.find(slow);
                if (a == r.seed_latency.end() || b == r.seed_latency.end()) continue;
                const double fa = median_over_seeds(a->second), sb = median_over_seeds(b->second);
                if (fa > 0 && sb > 0) ratios.push_back(sb / fa);
            }
            return ratios;
        };
        // The same geomean with its bootstrap interval over workloads and seeds.
        auto interval_of = [&](const std::string &fast, const std::string &slow) {
            std::vector<PairedWorkload> paired;
            for (const WorkloadResult &r : results) {
                auto a = r.seed_latency.find(fast), b = r.seed_latency.find(slow);
                if (a != r.seed_latency.end() && b != r.seed_latency.end()) paired.push_back({a->second, b->second});
            }
            return bootstrap_geomean_speedup(paired, 0.95, 2000, o->seed);
        };
        for (const std::string &c : columns) {
            const std::vector<double> ratios = ratios_of(lead_col, c);
            md << " | " << (ratios.empty() ? "–" : fixed(geomean(ratios), 2) + "× (" + std::to_string(ratios.size()) + ")");
        }
        md << " |\n\n";
        const std::string static_col = "static@" + T;
        md << "Geometric-mean speedups with 95% bootstrap intervals (2,000 replicates drawing the workloads and, within "
              "each, the seeds of both sides with replacement; a workload's latency is the median over seeds of each "
              "seed's median re-measurement):\n\n| comparison | speedup | 95% interval | workloads |\n|---|---:|---:|---:|\n";
        std::vector<std::string> others;
        for (const std::string &m : all_models)
            if (m != lead) others.push_back(m + "@" + T);
        if (efficiency_study) others.push_back(eff_entry);
        for (const std::string &c : others) {
            const Interval iv = interval_of(lead_col, c);
            if (iv.workloads == 0) continue;
            md << "| " << (c == static_col ? "**" : "") << lead_col << " over " << c << (c == static_col ? "**" : "") << " | "
               << fixed(iv.point, 2) << "× | " << fixed(iv.low, 2) << "–" << fixed(iv.high, 2) << "× | " << iv.workloads << " |\n";
        }
        md << "\nThe published result to beat on CPU: 1.54× over Ansor at 64 trials.\n\n";

        // Ablations: median latency increase over the lead model.
        if (!ablations.empty()) {
            md << "## Ablations\n\nOn " << (o->ablation_count == 0 || o->ablation_count >= int(results.size()) ? std::string("every workload")
                                                : "the first " + std::to_string(o->ablation_count) + " workloads")
               << " (world-final lowers and encodes every candidate it scores, which makes it the slowest model to tune). "
                  "Per workload, the median re-measured latency of the ablation's best schedules over the lead model's.\n\n"
               << "| ablation | median latency increase over " << lead_col << " | workloads |\n|---|---:|---:|\n";
            for (const std::string &a : ablations) {
                std::vector<double> inc;
                for (const double ratio : ratios_of(lead_col, a + "@" + T)) inc.push_back(ratio - 1);
                md << "| " << a << " | " << (inc.empty() ? "–" : fixed(100 * median_of(inc), 1) + "%") << " | " << inc.size() << " |\n";
            }
            md << "\n";
        }

        // Sample efficiency: when does the lead model reach the static model's latency at 10x the budget?
        if (efficiency_study) {
            md << "## Sample efficiency\n\nTuning-time best latency (median over seeds): the static model after " << o->efficiency
               << " trials, and the first trial at which " << lead << " reaches it.\n\n| workload | static@" << o->efficiency
               << " | " << lead << "@" << T << " | " << lead << " reaches it at trial |\n|---|---:|---:|---:|\n";
            for (size_t w = 0; w < results.size() && int(w) < o->efficiency_count; w++) {
                const WorkloadResult &r = results[w];
                const double target = curve_at(r.curves.at("static"), size_t(o->efficiency - 1));
                const auto &lc = r.curves.at(lead);
                std::string reached = "> " + T;
                for (int t = 0; t < o->trials; t++) {
                    const double v = curve_at(lc, size_t(t));
                    if (v > 0 && target > 0 && v <= target) {
                        reached = std::to_string(t + 1);
                        break;
                    }
                }
                md << "| `" << r.spec << "` | " << (target > 0 ? format_seconds(target) : "–") << " | "
                   << format_seconds(curve_at(lc, size_t(o->trials - 1))) << " | " << reached << " |\n";
            }
            md << "\n";
        }

        if (!estimates.empty()) md << network_report(estimates, np);

        // Wall time of tuning and the cost model's share, over every timed trial (earlier processes included).
        md << "## Tuning time\n\nWall time of the tuning loop (search, cost model and measurement), summed over the timed trials "
              "of every run, including the parts measured by earlier, resumed invocations (a part cut off by a killed "
              "process keeps its records but not its time). The cost-model share is scoring plus training.\n\n"
           << "| model | runs | timed trials | wall s per trial | wall s per " << T << "-trial run | cost-model share |\n"
           << "|---|---:|---:|---:|---:|---:|\n";
        for (const std::string &m : all_models) {
            const ModelTime &t = times[m];
            const bool timed = t.trials > 0;
            md << "| " << m << " | " << t.runs << " | " << t.trials << " | " << (timed ? fixed(t.wall / t.trials, 2) : "–") << " | "
               << (timed ? fixed(o->trials * t.wall / t.trials, 0) : "–") << " | "
               << (t.wall > 0 ? fixed(100 * t.model / t.wall, 0) + "%" : "–") << " |\n";
        }

        // Plots: best latency vs trials (relative to the best any run found within the budget), speedups.
        const std::string dir = o->out;
        {
            std::ofstream data(dir + "/curves.dat");
            data << "# trial";
            for (const std::string &m : all_models) data << " " << m;
            data << "\n";
            for (int t = 0; t < o->trials; t++) {
                data << t + 1;
                for (const std::string &m : all_models) {
                    std::vector<double> rel;
                    for (const WorkloadResult &r : results) {
                        double ref = 0;
                        for (const auto &[mm, seeds] : r.curves) {
                            const double v = curve_at(seeds, size_t(o->trials - 1));
                            if (v > 0 && (ref == 0 || v < ref)) ref = v;
                        }
                        const auto curves = r.curves.find(m);
                        if (curves == r.curves.end()) continue;  // an ablation not run on this workload
                        const double v = curve_at(curves->second, size_t(t));
                        if (v > 0 && ref > 0) rel.push_back(v / ref);
                    }
                    data << " " << (rel.empty() ? std::string("NaN") : fixed(geomean(rel), 4));
                }
                data << "\n";
            }
            std::ofstream gp(dir + "/curves.gp");
            gp << "set terminal pngcairo noenhanced size 900,560\nset output '" << dir << "/curves.png'\n"
               << "set title 'Best latency vs trials (geomean over workloads, relative to the best found)'\n"
               << "set xlabel 'measured trials'\nset ylabel 'best latency / best found'\nset logscale y\nset key top right\n"
               << "plot ";
            for (size_t i = 0; i < all_models.size(); i++)
                gp << (i ? ", " : "") << "'" << dir << "/curves.dat' using 1:" << i + 2 << " with lines lw 2 title '" << all_models[i]
                   << (i >= models.size() && o->ablation_count > 0 && o->ablation_count < int(results.size())
                           ? " (first " + std::to_string(o->ablation_count) + " workloads)" : std::string())
                   << "'";
            gp << "\n";
        }
        {
            std::ofstream data(dir + "/speedups.dat");
            const std::string other = has_static ? "static@" + T : columns.back();
            for (const WorkloadResult &r : results) {
                auto a = r.seed_latency.find(lead_col), b = r.seed_latency.find(other);
                if (a == r.seed_latency.end() || b == r.seed_latency.end()) continue;
                const double la = median_over_seeds(a->second), lb = median_over_seeds(b->second);
                if (la <= 0 || lb <= 0) continue;
                data << '"' << r.spec.substr(0, r.spec.find(':')) << " " << &r - &results[0] << "\" " << fixed(lb / la, 4) << "\n";
            }
            std::ofstream gp(dir + "/speedups.gp");
            gp << "set terminal pngcairo noenhanced size 900,560\nset output '" << dir << "/speedups.png'\n"
               << "set title '" << lead_col << " speedup over " << other << " per workload'\nset style fill solid 0.6\n"
               << "set boxwidth 0.7\nset xtics rotate by -45\nset ylabel 'speedup (x)'\nset yrange [0:*]\n"
               << "plot '" << dir << "/speedups.dat' using 0:2:xtic(1) with boxes notitle, 1 with lines dt 2 notitle\n";
        }
        if (efficiency_study) {
            std::ofstream data(dir + "/efficiency.dat");
            data << "# trial static " << lead << "\n";
            for (int t = 0; t < o->efficiency; t++) {
                std::vector<double> s_rel, l_rel;
                for (size_t w = 0; w < results.size() && int(w) < o->efficiency_count; w++) {
                    const WorkloadResult &r = results[w];
                    const double ref = curve_at(r.curves.at("static"), size_t(o->efficiency - 1));
                    const double s = curve_at(r.curves.at("static"), size_t(t));
                    if (s > 0 && ref > 0) s_rel.push_back(s / ref);
                    if (t < o->trials) {
                        const double l = curve_at(r.curves.at(lead), size_t(t));
                        if (l > 0 && ref > 0) l_rel.push_back(l / ref);
                    }
                }
                data << t + 1 << " " << (s_rel.empty() ? "NaN" : fixed(geomean(s_rel), 4)) << " "
                     << (l_rel.empty() ? "NaN" : fixed(geomean(l_rel), 4)) << "\n";
            }
            std::ofstream gp(dir + "/efficiency.gp");
            gp << "set terminal pngcairo noenhanced size 900,560\nset output '" << dir << "/efficiency.png'\n"
               << "set title 'Sample efficiency: best latency relative to static@" << o->efficiency << "'\n"
               << "set xlabel 'measured trials'\nset ylabel 'best latency / static@" << o->efficiency << "'\nset logscale xy\n"
               << "plot '" << dir << "/efficiency.dat' using 1:2 with lines lw 2 title 'static', '" << dir
               << "/efficiency.dat' using 1:3 with lines lw 2 title '" << lead << "'\n";
        }
        std::string plots;
        for (const char *name : {"curves", "speedups", "efficiency"}) {
            const std::string script = dir + "/" + name + ".gp";
            if (!std::filesystem::exists(script)) continue;
            const bool produced = std::string(name) != "efficiency" || efficiency_study;
            if (!produced) {  // an earlier invocation's plot in the same folder
                for (const char *ext : {".gp", ".dat", ".png"}) std::filesystem::remove(dir + "/" + name + ext);
                continue;
            }
            plots += run_gnuplot(script) ? std::string("![") + name + "](" + name + ".png)\n\n"
                                         : std::string("(") + name + ".png: gnuplot failed; the data is in " + name + ".dat)\n\n";
        }
        md << "\n## Plots\n\n" << plots;
        std::ostringstream command;
        command << "worldtune bench --dataset " << o->dataset;
        if (!o->list.empty()) command << " --list " << o->list;
        if (!o->specs.empty()) {
            command << " --specs";
            for (const std::string &s : o->specs) command << " " << s;
        }
        if (o->specs.empty() && o->list.empty()) command << " --count " << o->count;
        command << " --models " << o->models << " --ablations " << o->ablations << " --trials " << o->trials << " --efficiency "
                << o->efficiency << " --efficiency-count " << o->efficiency_count << " --ablation-count " << o->ablation_count << " --seeds " << o->seeds << " --rounds "
                << o->rounds << " --networks " << o->networks << " --network-trials " << o->network_trials << " --threads "
                << o->measure.threads << " --seed " << o->seed;
        if (!o->peers.empty()) command << " --peers " << o->peers;
        command << " --population " << o->search.evolution.population;
        if (o->search.evolution.generations == o->search.evolution.prior_generations)
            command << " --generations " << o->search.evolution.generations;
        md << "Produced by `" << command.str() << "` (" << fixed((now_seconds() - start) / 60, 1) << " min in this invocation).\n";
        std::ofstream report(dir + "/report.md");
        report << md.str();
        if (!report) throw CommandError("cannot write " + dir + "/report.md");
        std::printf("%s", md.str().c_str());
    });
}

}  // namespace worldtune::cli
