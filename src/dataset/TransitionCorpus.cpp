#include "dataset/TransitionCorpus.h"

#include "common/Hash.h"
#include "dataset/DatasetFile.h"
#include "dataset/TextCache.h"
#include "dataset/WorkloadList.h"
#include "measure/Timing.h"
#include "search/SketchSampler.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

namespace worldtune {

namespace fs = std::filesystem;

namespace {

constexpr const char *kCorpusFormat = "worldtune-transition-corpus";
constexpr int kCorpusVersion = 1;

nlohmann::json manifest_of(const TransitionCorpusParams &p) {
    return {{"format", kCorpusFormat}, {"version", kCorpusVersion}, {"seed", p.seed}, {"generated_per_op", p.generated_per_op},
            {"schedules", p.schedules}, {"val_fraction", p.val_fraction}, {"test_fraction", p.test_fraction}};
}

/// Checks (or writes) the folder's manifest.
void check_manifest(const std::string &dir, const TransitionCorpusParams &p) {
    const std::string path = dir + "/corpus.json";
    const nlohmann::json wanted = manifest_of(p);
    if (fs::exists(path)) {
        std::ifstream in(path);
        const nlohmann::json found = nlohmann::json::parse(in, nullptr, false);
        if (found != wanted)
            throw std::runtime_error(dir + " holds a corpus made with other parameters (" + path + "); use another folder");
        return;
    }
    std::ofstream out(path);
    out << wanted.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

/// The finished workloads of the folder; a torn last line (a killed run) is cut off the file.
std::set<std::string> finished_workloads(const std::string &path, TransitionCorpusReport &report) {
    std::set<std::string> done;
    std::ifstream in(path);
    std::string line;
    std::streamoff good = 0;
    while (std::getline(in, line)) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("spec") || !j.contains("trajectories")) break;
        done.insert(j["spec"].get<std::string>());
        report.trajectories += int(j["trajectories"].size());
        for (const nlohmann::json &t : j["trajectories"]) report.transitions += int64_t(t.size());
        good += std::streamoff(line.size() + 1);
    }
    in.close();
    if (fs::exists(path) && std::streamoff(fs::file_size(path)) > good) fs::resize_file(path, uintmax_t(good));
    report.workloads = int(done.size());
    return done;
}

}  // namespace

std::vector<DatasetWorkload> corpus_workloads(const std::string &dir, int max_trajectories, uint64_t seed) {
    const std::string path = dir + "/trajectories.jsonl";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("no transition corpus in " + dir + " (" + path + ")");
    std::vector<std::pair<std::string, nlohmann::json>> all;  // (spec, actions) of the train split
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("trajectories")) break;  // a torn last line
        if (j.value("split", "") != "train") continue;
        for (const nlohmann::json &t : j["trajectories"]) all.emplace_back(j["spec"].get<std::string>(), t);
    }
    if (max_trajectories > 0 && int(all.size()) > max_trajectories) {
        std::mt19937_64 rng(seed);
        std::shuffle(all.begin(), all.end(), rng);
        all.resize(size_t(max_trajectories));
    }
    std::map<std::string, DatasetWorkload> by_spec;
    for (auto &[spec, actions] : all) {
        DatasetWorkload &w = by_spec[spec];
        w.spec = spec;
        w.split = SplitKind::Train;
        w.machine = kUnmeasuredMachine;
        DatasetTrajectory t;
        t.actions = std::move(actions);
        w.trajectories.push_back(std::move(t));
    }
    std::vector<DatasetWorkload> out;
    for (auto &entry : by_spec) out.push_back(std::move(entry.second));
    return out;
}

TransitionCorpusReport generate_transition_corpus(const std::string &dir, const TransitionCorpusParams &p,
                                                  const std::function<void(const std::string &)> &log) {
    if (p.schedules <= 0 || p.generated_per_op < 0 || p.threads <= 0) throw std::runtime_error("corpus: schedules and threads must be positive");
    const double start = now_seconds();
    fs::create_directories(dir);
    check_manifest(dir, p);
    TransitionCorpusReport report;
    const std::string lines_path = dir + "/trajectories.jsonl";
    const std::set<std::string> done = finished_workloads(lines_path, report);
    std::vector<std::string> workloads = collection_workloads(p.seed, p.generated_per_op);
    if (p.max_workloads > 0 && int(workloads.size()) > p.max_workloads) workloads.resize(size_t(p.max_workloads));
    TextCache cache(dir + "/texts.db");
    std::ofstream out(lines_path, std::ios::app);
    if (!out) throw std::runtime_error("cannot write " + lines_path);
    log("corpus " + dir + ": " + std::to_string(workloads.size()) + " workloads, " + std::to_string(done.size()) + " finished before");
    for (size_t w = 0; w < workloads.size(); w++) {
        const std::string &spec = workloads[w];
        if (done.count(spec)) continue;
        if (p.hours > 0 && now_seconds() - start > p.hours * 3600) {
            log("corpus: stopping after " + std::to_string(p.hours) + " h; run again to resume");
            break;
        }
        SketchSampler sampler(WorkloadSpec::parse(spec), SamplerParams{}, p.seed * 0x9e3779b97f4a7c15ull ^ fnv1a64(spec));
        std::vector<nlohmann::json> lists;
        std::vector<std::pair<std::string, nlohmann::json>> states;
        for (int k = 0; k < p.schedules; k++) {
            const nlohmann::json actions = actions_to_json(sampler.draw());
            lists.push_back(actions);
            for (size_t t = 0; t <= actions.size(); t++)
                states.emplace_back(spec, nlohmann::json(std::vector<nlohmann::json>(actions.begin(), actions.begin() + long(t))));
        }
        const std::vector<std::string> texts = cache.texts(states, p.threads);
        nlohmann::json kept = nlohmann::json::array();
        size_t at = 0;
        for (const nlohmann::json &actions : lists) {
            bool lowers = true;
            for (size_t t = 0; t <= actions.size(); t++) lowers = lowers && !texts[at + t].empty();
            at += actions.size() + 1;
            if (!lowers || std::find(kept.begin(), kept.end(), actions) != kept.end()) continue;
            kept.push_back(actions);
            report.trajectories++;
            report.transitions += int64_t(actions.size());
        }
        const SplitKind split = split_for(spec, 1, p.val_fraction, p.test_fraction);
        out << nlohmann::json{{"spec", spec}, {"split", split_name(split)}, {"trajectories", kept}}.dump() << "\n";
        out.flush();
        report.workloads++;
        report.fresh_workloads++;
        log("[" + std::to_string(w + 1) + "/" + std::to_string(workloads.size()) + "] " + spec + ": " + std::to_string(kept.size()) +
            " trajectories; " + std::to_string(report.transitions) + " transitions in all (" +
            std::to_string(int(now_seconds() - start)) + " s)");
    }
    report.complete = report.workloads >= int(workloads.size());
    report.seconds = now_seconds() - start;
    return report;
}

}  // namespace worldtune
