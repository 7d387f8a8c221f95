#include "train/Calibration.h"

#include "common/Hash.h"
#include "dataset/DatasetFile.h"
#include "measure/Hardware.h"
#include "world/WorldBundle.h"
#include "world/WorldModel.h"
#include "workload/Spec.h"

#include <filesystem>
#include <map>

namespace worldtune {

namespace {

/// One workload's records: candidates and latencies (<= 0: failed).
struct Group {
    std::string spec;
    std::vector<ActionList> actions;
    std::vector<double> latencies;
    bool held_out = false;
};

nlohmann::json metrics_json(const RankingMetrics &m) {
    return {{"top1", m.top1}, {"pairwise", m.pairwise}, {"ndcg10", m.ndcg10}, {"groups", m.groups}};
}

/// The rows of every group for one variant, computed once: as ranking data of the fitted groups, of all
/// groups, and per held-out group.
struct VariantRows {
    RankingData fit, all;
    std::vector<std::vector<float>> held_rows;  ///< per held-out group
    std::vector<const Group *> held_groups;
};

VariantRows rows_for(WorldModel &model, const std::vector<Group> &groups) {
    VariantRows out;
    const size_t width = size_t(model.row_width());
    for (const Group &g : groups) {
        model.set_task(WorkloadSpec::parse(g.spec));
        std::vector<float> rows = model.feature_rows(g.actions);
        std::vector<std::vector<float>> split;
        for (size_t i = 0; i < g.actions.size(); i++) split.emplace_back(rows.begin() + long(i * width), rows.begin() + long((i + 1) * width));
        out.all.add_group(split, g.latencies);
        if (g.held_out) {
            out.held_rows.push_back(std::move(rows));
            out.held_groups.push_back(&g);
        } else {
            out.fit.add_group(split, g.latencies);
        }
    }
    return out;
}

RankingMetrics held_out_metrics(const Ranker &ranker, const VariantRows &v) {
    RankingMetricsMean mean;
    for (size_t i = 0; i < v.held_groups.size(); i++)
        mean.add(v.held_groups[i]->latencies, ranker.predict(v.held_rows[i], v.held_groups[i]->latencies.size()));
    return mean.mean();
}

}  // namespace

CalibrationReport calibrate_bundle(const std::string &bundle_dir, const RecordStore &store,
                                   const std::function<bool(const std::string &)> &use_workload, const CalibrationParams &params,
                                   const Log &log) {
    CalibrationReport report;
    const nlohmann::json &here = hardware_json();
    std::map<std::string, Group> by_spec;
    store.for_each([&](const Record &r) {
        if (r.result.error == ErrorKind::Schedule) return;  // refused before running: says nothing about speed
        if (!same_machine(r.result.hardware, here)) {
            report.other_machines++;
            return;
        }
        if (!use_workload(r.result.spec)) return;
        Group &g = by_spec[r.result.spec];
        g.spec = r.result.spec;
        g.actions.push_back(actions_from_json(r.result.actions));
        g.latencies.push_back(r.result.ok() ? r.result.timing.median_s : 0.0);
    });
    std::vector<Group> groups;
    for (auto &[spec, g] : by_spec) {
        int ok = 0;
        for (double l : g.latencies) ok += l > 0;
        if (ok < params.min_successes) continue;
        g.held_out = double(fnv1a64(std::to_string(params.seed) + "\n" + spec) % 10000) < params.holdout * 10000.0;
        report.records += int64_t(g.latencies.size());
        groups.push_back(std::move(g));
    }
    report.workloads = int(groups.size());
    int held = 0;
    for (const Group &g : groups) held += g.held_out;
    if (held < 2 || report.workloads - held < 2)
        throw std::runtime_error("calibration: " + std::to_string(report.workloads) + " usable workloads measured on this machine (" +
                                 std::to_string(params.min_successes) + "+ successful records each) is too few to learn from");
    log("calibrating on " + std::to_string(report.records) + " records of " + std::to_string(report.workloads) + " workloads (" +
        std::to_string(held) + " held out to choose the rounds)");

    nlohmann::json variants = nlohmann::json::object();
    for (const std::string &variant : params.variants) {
        WorldModel model(bundle_dir, world_variant_from_ranker(variant), params.threads, /*use_calibration=*/false);
        const VariantRows rows = rows_for(model, groups);
        CalibratedVariant cv;
        cv.variant = variant;
        cv.before = held_out_metrics(model.prior(), rows);
        cv.after = cv.before;
        RankerParams p = ranker_params(model.bundle().config);
        p.depth = params.depth;
        p.eta = params.eta;
        p.threads = params.threads;
        p.seed = params.seed;
        for (int rounds : params.round_choices) {
            Ranker correction(variant, model.prior().state_dim());
            p.rounds = rounds;
            correction.train_on_top(model.prior(), rows.fit, p);
            const RankingMetrics m = held_out_metrics(correction, rows);
            log("  " + variant + ", " + std::to_string(rounds) + " rounds: held-out pairwise " + std::to_string(m.pairwise) + ", top-1 " +
                std::to_string(m.top1) + " (shipped: " + std::to_string(cv.before.pairwise) + ", " + std::to_string(cv.before.top1) + ")");
            if (m.pairwise > cv.after.pairwise) {
                cv.after = m;
                cv.rounds = rounds;
            }
        }
        const std::string file = bundle_dir + "/calibration_" + variant + ".ubj";
        if (cv.rounds > 0) {
            Ranker correction(variant, model.prior().state_dim());
            p.rounds = cv.rounds;
            correction.train_on_top(model.prior(), rows.all, p);
            correction.save(file);
        } else {
            std::filesystem::remove(file);
            log("  " + variant + ": no round count beat the shipped ranker on the held-out workloads; left uncalibrated");
        }
        variants[variant] = {{"rounds", cv.rounds}, {"held_out_before", metrics_json(cv.before)}, {"held_out_after", metrics_json(cv.after)}};
        report.variants.push_back(cv);
    }
    const nlohmann::json out = {{"format", kCalibrationFormat},
                                {"version", kCalibrationVersion},
                                {"created_at", utc_now_iso()},
                                {"hardware", here},
                                {"records", report.records},
                                {"workloads", report.workloads},
                                {"held_out_workloads", held},
                                {"depth", params.depth},
                                {"eta", params.eta},
                                {"variants", variants}};
    write_json_file(bundle_dir + "/calibration.json", out);
    return report;
}

}  // namespace worldtune
