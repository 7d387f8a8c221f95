#include "study/BenchReport.h"

#include "common/Text.h"
#include "measure/Hardware.h"
#include "measure/Timing.h"
#include "model/ModelFactory.h"
#include "study/SideBySide.h"
#include "study/TuningRuns.h"
#include "world/CalibrationFile.h"
#include "world/WorldBundle.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace worldtune {

namespace {

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

/// The ratios of column `slow`'s median latency over column `fast`'s, on the workloads both have.
std::vector<double> ratios_of(const BenchResults &results, const std::string &fast, const std::string &slow) {
    std::vector<double> ratios;
    for (const BenchWorkload &r : results.workloads) {
        auto a = r.seed_latency.find(fast), b = r.seed_latency.find(slow);
        if (a == r.seed_latency.end() || b == r.seed_latency.end()) continue;
        const double fa = median_over_seeds(a->second), sb = median_over_seeds(b->second);
        if (fa > 0 && sb > 0) ratios.push_back(sb / fa);
    }
    return ratios;
}

/// The same geomean with its bootstrap interval over workloads and seeds.
Interval interval_of(const BenchResults &results, const std::string &fast, const std::string &slow, uint64_t seed) {
    std::vector<PairedWorkload> paired;
    for (const BenchWorkload &r : results.workloads) {
        auto a = r.seed_latency.find(fast), b = r.seed_latency.find(slow);
        if (a != r.seed_latency.end() && b != r.seed_latency.end()) paired.push_back({a->second, b->second});
    }
    return bootstrap_geomean_speedup(paired, 0.95, 2000, seed);
}

std::string at_trials(const std::string &model, const BenchParams &p) { return model + "@" + std::to_string(p.trials); }

void write_intro(const BenchResults &results, const BenchParams &p, std::ostream &md) {
    const std::string T = std::to_string(p.trials);
    md << "# worldtune bench\n\nGFLOP/s (higher is better), " << p.measure.threads << " threads, " << hardware_summary()
       << ". `MODEL@" << T << "`: the best schedule among a search's first " << T << " measured trials, median over "
       << p.seeds << " seeds × " << p.rounds << " rounds of re-measurement beside the peers (shuffled order); in brackets "
       << "the range. Workloads: preset subgraphs outside the train split of `" << p.dataset << "`.\n\n";
    const std::vector<std::string> &models = results.plan.all_models;
    if (std::any_of(models.begin(), models.end(), [](const std::string &m) { return uses_world_bundle(m); }))
        md << calibration_summary(WorldBundle::locate(p.bundle)) << "\n\n";
}

/// Per workload GFLOP/s of every model and peer, and the lead model's geometric-mean speedup over each.
void write_table(const BenchResults &results, const BenchParams &p, std::ostream &md) {
    const BenchPlan &plan = results.plan;
    std::vector<std::string> columns;
    std::map<std::string, std::string> model_of_column;
    for (const std::string &m : plan.all_models) {
        columns.push_back(at_trials(m, p));
        model_of_column[at_trials(m, p)] = m;
    }
    columns.insert(columns.end(), plan.peers.begin(), plan.peers.end());
    md << workload_table_header(columns);
    for (const BenchWorkload &r : results.workloads) {
        md << "| `" << r.spec << "`";
        for (const std::string &c : columns) {
            auto it = r.latency.find(c);
            const auto model = model_of_column.find(c);
            const bool not_run = (r.peer_note.count(c) && peer_not_applicable(r.peer_note.at(c))) ||
                                 (model != model_of_column.end() && !r.curves.count(model->second));  // ablation subset
            if (it != r.latency.end() && !it->second.empty()) md << " | " << gflops_cell(r.flops, it->second);
            else md << " | " << (not_run ? "–" : "err");
        }
        md << " |\n";
    }
    const std::string lead_col = at_trials(plan.lead, p);
    md << "| geomean speedup of " << lead_col << " over it";
    for (const std::string &c : columns) {
        const std::vector<double> ratios = ratios_of(results, lead_col, c);
        md << " | " << (ratios.empty() ? "–" : fixed(geomean(ratios), 2) + "× (" + std::to_string(ratios.size()) + ")");
    }
    md << " |\n\n";
}

void write_intervals(const BenchResults &results, const BenchParams &p, std::ostream &md) {
    const BenchPlan &plan = results.plan;
    const std::string lead_col = at_trials(plan.lead, p), static_col = at_trials("static", p);
    md << "Geometric-mean speedups with 95% bootstrap intervals (2,000 replicates drawing the workloads and, within "
          "each, the seeds of both sides with replacement; a workload's latency is the median over seeds of each "
          "seed's median re-measurement):\n\n| comparison | speedup | 95% interval | workloads |\n|---|---:|---:|---:|\n";
    std::vector<std::string> others;
    for (const std::string &m : plan.all_models)
        if (m != plan.lead) others.push_back(at_trials(m, p));
    if (plan.efficiency_study) others.push_back(plan.efficiency_entry);
    for (const std::string &c : others) {
        const Interval iv = interval_of(results, lead_col, c, p.seed);
        if (iv.workloads == 0) continue;
        md << "| " << (c == static_col ? "**" : "") << lead_col << " over " << c << (c == static_col ? "**" : "") << " | "
           << fixed(iv.point, 2) << "× | " << fixed(iv.low, 2) << "–" << fixed(iv.high, 2) << "× | " << iv.workloads << " |\n";
    }
    md << "\nThe published result to beat on CPU: 1.54× over Ansor at 64 trials.\n\n";
}

/// Ablations: median latency increase over the lead model.
void write_ablations(const BenchResults &results, const BenchParams &p, std::ostream &md) {
    const BenchPlan &plan = results.plan;
    if (plan.ablations.empty()) return;
    const std::string lead_col = at_trials(plan.lead, p);
    md << "## Ablations\n\nOn " << (p.ablation_count == 0 || p.ablation_count >= int(results.workloads.size()) ? std::string("every workload")
                                        : "the first " + std::to_string(p.ablation_count) + " workloads")
       << " (world-final lowers and encodes every candidate it scores, which makes it the slowest model to tune). "
          "Per workload, the median re-measured latency of the ablation's best schedules over the lead model's.\n\n"
       << "| ablation | median latency increase over " << lead_col << " | workloads |\n|---|---:|---:|\n";
    for (const std::string &a : plan.ablations) {
        std::vector<double> inc;
        for (const double ratio : ratios_of(results, lead_col, at_trials(a, p))) inc.push_back(ratio - 1);
        md << "| " << a << " | " << (inc.empty() ? "–" : fixed(100 * median_of(inc), 1) + "%") << " | " << inc.size() << " |\n";
    }
    md << "\n";
}

/// Sample efficiency: when does the lead model reach the static model's latency at 10x the budget?
void write_efficiency(const BenchResults &results, const BenchParams &p, std::ostream &md) {
    const BenchPlan &plan = results.plan;
    if (!plan.efficiency_study) return;
    const std::string T = std::to_string(p.trials);
    md << "## Sample efficiency\n\nTuning-time best latency (median over seeds): the static model after " << p.efficiency
       << " trials, and the first trial at which " << plan.lead << " reaches it.\n\n| workload | static@" << p.efficiency
       << " | " << plan.lead << "@" << T << " | " << plan.lead << " reaches it at trial |\n|---|---:|---:|---:|\n";
    for (size_t w = 0; w < results.workloads.size() && int(w) < p.efficiency_count; w++) {
        const BenchWorkload &r = results.workloads[w];
        const double target = curve_at(r.curves.at("static"), size_t(p.efficiency - 1));
        const auto &lc = r.curves.at(plan.lead);
        std::string reached = "> " + T;
        for (int t = 0; t < p.trials; t++) {
            const double v = curve_at(lc, size_t(t));
            if (v > 0 && target > 0 && v <= target) {
                reached = std::to_string(t + 1);
                break;
            }
        }
        md << "| `" << r.spec << "` | " << (target > 0 ? format_seconds(target) : "–") << " | "
           << format_seconds(curve_at(lc, size_t(p.trials - 1))) << " | " << reached << " |\n";
    }
    md << "\n";
}

/// Wall time of tuning and the cost model's share, over every timed trial (earlier processes included).
void write_times(const BenchResults &results, const BenchParams &p, std::ostream &md) {
    const std::string T = std::to_string(p.trials);
    md << "## Tuning time\n\nWall time of the tuning loop (search, cost model and measurement), summed over the timed trials "
          "of every run, including the parts measured by earlier, resumed invocations (a part cut off by a killed "
          "process keeps its records but not its time). The cost-model share is scoring plus training.\n\n"
       << "| model | runs | timed trials | wall s per trial | wall s per " << T << "-trial run | cost-model share |\n"
       << "|---|---:|---:|---:|---:|---:|\n";
    for (const std::string &m : results.plan.all_models) {
        const auto found = results.times.find(m);
        const ModelTime t = found == results.times.end() ? ModelTime{} : found->second;
        const bool timed = t.trials > 0;
        md << "| " << m << " | " << t.runs << " | " << t.trials << " | " << (timed ? fixed(t.wall / t.trials, 2) : "–") << " | "
           << (timed ? fixed(p.trials * t.wall / t.trials, 0) : "–") << " | "
           << (t.wall > 0 ? fixed(100 * t.model / t.wall, 0) + "%" : "–") << " |\n";
    }
}

/// Best latency vs trials per model, relative to the best any run found within the budget.
void write_curves_plot(const BenchResults &results, const BenchParams &p, const std::string &dir) {
    const std::vector<std::string> &models = results.plan.all_models;
    std::ofstream data(dir + "/curves.dat");
    data << "# trial";
    for (const std::string &m : models) data << " " << m;
    data << "\n";
    for (int t = 0; t < p.trials; t++) {
        data << t + 1;
        for (const std::string &m : models) {
            std::vector<double> rel;
            for (const BenchWorkload &r : results.workloads) {
                double ref = 0;
                for (const auto &[mm, seeds] : r.curves) {
                    const double v = curve_at(seeds, size_t(p.trials - 1));
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
    for (size_t i = 0; i < models.size(); i++)
        gp << (i ? ", " : "") << "'" << dir << "/curves.dat' using 1:" << i + 2 << " with lines lw 2 title '" << models[i]
           << (i >= results.plan.models.size() && p.ablation_count > 0 && p.ablation_count < int(results.workloads.size())
                   ? " (first " + std::to_string(p.ablation_count) + " workloads)" : std::string())
           << "'";
    gp << "\n";
}

void write_speedups_plot(const BenchResults &results, const BenchParams &p, const std::string &dir) {
    const BenchPlan &plan = results.plan;
    const std::string lead_col = at_trials(plan.lead, p);
    const std::string other = plan.has_static ? at_trials("static", p) : plan.peers.empty() ? plan.all_models.back() + "@" + std::to_string(p.trials)
                                                                                            : plan.peers.back();
    std::ofstream data(dir + "/speedups.dat");
    for (size_t w = 0; w < results.workloads.size(); w++) {
        const BenchWorkload &r = results.workloads[w];
        auto a = r.seed_latency.find(lead_col), b = r.seed_latency.find(other);
        if (a == r.seed_latency.end() || b == r.seed_latency.end()) continue;
        const double la = median_over_seeds(a->second), lb = median_over_seeds(b->second);
        if (la <= 0 || lb <= 0) continue;
        data << '"' << r.spec.substr(0, r.spec.find(':')) << " " << w << "\" " << fixed(lb / la, 4) << "\n";
    }
    std::ofstream gp(dir + "/speedups.gp");
    gp << "set terminal pngcairo noenhanced size 900,560\nset output '" << dir << "/speedups.png'\n"
       << "set title '" << lead_col << " speedup over " << other << " per workload'\nset style fill solid 0.6\n"
       << "set boxwidth 0.7\nset xtics rotate by -45\nset ylabel 'speedup (x)'\nset yrange [0:*]\n"
       << "plot '" << dir << "/speedups.dat' using 0:2:xtic(1) with boxes notitle, 1 with lines dt 2 notitle\n";
}

void write_efficiency_plot(const BenchResults &results, const BenchParams &p, const std::string &dir) {
    const std::string &lead = results.plan.lead;
    std::ofstream data(dir + "/efficiency.dat");
    data << "# trial static " << lead << "\n";
    for (int t = 0; t < p.efficiency; t++) {
        std::vector<double> s_rel, l_rel;
        for (size_t w = 0; w < results.workloads.size() && int(w) < p.efficiency_count; w++) {
            const BenchWorkload &r = results.workloads[w];
            const double ref = curve_at(r.curves.at("static"), size_t(p.efficiency - 1));
            const double s = curve_at(r.curves.at("static"), size_t(t));
            if (s > 0 && ref > 0) s_rel.push_back(s / ref);
            if (t < p.trials) {
                const double l = curve_at(r.curves.at(lead), size_t(t));
                if (l > 0 && ref > 0) l_rel.push_back(l / ref);
            }
        }
        data << t + 1 << " " << (s_rel.empty() ? "NaN" : fixed(geomean(s_rel), 4)) << " "
             << (l_rel.empty() ? "NaN" : fixed(geomean(l_rel), 4)) << "\n";
    }
    std::ofstream gp(dir + "/efficiency.gp");
    gp << "set terminal pngcairo noenhanced size 900,560\nset output '" << dir << "/efficiency.png'\n"
       << "set title 'Sample efficiency: best latency relative to static@" << p.efficiency << "'\n"
       << "set xlabel 'measured trials'\nset ylabel 'best latency / static@" << p.efficiency << "'\nset logscale xy\n"
       << "plot '" << dir << "/efficiency.dat' using 1:2 with lines lw 2 title 'static', '" << dir
       << "/efficiency.dat' using 1:3 with lines lw 2 title '" << lead << "'\n";
}

/// Writes the plots' data and scripts, runs gnuplot, and returns the report's Plots section.
std::string write_plots(const BenchResults &results, const BenchParams &p) {
    const std::string &dir = p.out;
    write_curves_plot(results, p, dir);
    write_speedups_plot(results, p, dir);
    if (results.plan.efficiency_study) write_efficiency_plot(results, p, dir);
    std::string plots;
    for (const char *name : {"curves", "speedups", "efficiency"}) {
        const std::string script = dir + "/" + name + ".gp";
        if (!std::filesystem::exists(script)) continue;
        const bool produced = std::string(name) != "efficiency" || results.plan.efficiency_study;
        if (!produced) {  // an earlier invocation's plot in the same folder
            for (const char *ext : {".gp", ".dat", ".png"}) std::filesystem::remove(dir + "/" + name + ext);
            continue;
        }
        plots += run_gnuplot(script) ? std::string("![") + name + "](" + name + ".png)\n\n"
                                     : std::string("(") + name + ".png: gnuplot failed; the data is in " + name + ".dat)\n\n";
    }
    return "\n## Plots\n\n" + plots;
}

}  // namespace

std::string bench_command_line(const BenchParams &p) {
    std::ostringstream command;
    command << "worldtune bench --dataset " << p.dataset;
    if (!p.list.empty()) command << " --list " << p.list;
    if (!p.specs.empty()) {
        command << " --specs";
        for (const std::string &s : p.specs) command << " " << s;
    }
    if (p.specs.empty() && p.list.empty()) command << " --count " << p.count;
    command << " --models " << p.models << " --ablations " << p.ablations << " --trials " << p.trials << " --efficiency "
            << p.efficiency << " --efficiency-count " << p.efficiency_count << " --ablation-count " << p.ablation_count << " --seeds "
            << p.seeds << " --rounds " << p.rounds << " --networks " << p.networks << " --network-trials " << p.network_trials
            << " --threads " << p.measure.threads << " --seed " << p.seed;
    if (!p.peers.empty()) command << " --peers " << p.peers;
    command << " --population " << p.search.evolution.population << " --neighbourhood "
            << p.search.evolution.neighbourhood_tapes << " --neighbourhood-share " << p.search.evolution.neighbourhood_share;
    if (p.search.evolution.generations == p.search.evolution.prior_generations)
        command << " --generations " << p.search.evolution.generations;
    return command.str();
}

std::string write_bench_report(const BenchResults &results, const BenchParams &p) {
    std::error_code ec;
    std::filesystem::create_directories(p.out, ec);
    std::ostringstream md;
    write_intro(results, p, md);
    write_table(results, p, md);
    write_intervals(results, p, md);
    write_ablations(results, p, md);
    write_efficiency(results, p, md);
    if (!results.estimates.empty()) md << network_report(results.estimates, results.network);
    write_times(results, p, md);
    md << write_plots(results, p);
    md << "Produced by `" << bench_command_line(p) << "` (" << fixed(results.seconds / 60, 1) << " min in this invocation).\n";
    std::ofstream report(p.out + "/report.md");
    report << md.str();
    if (!report) throw StudyError("cannot write " + p.out + "/report.md");
    return md.str();
}

}  // namespace worldtune
