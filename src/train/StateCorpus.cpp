#include "train/StateCorpus.h"

#include "common/Hash.h"
#include "lower/StateText.h"
#include "workload/Spec.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

namespace worldtune {

nlohmann::json prefix_actions(const Dataset &dataset, const StateKey &key) {
    if (key.trajectory < 0) return nlohmann::json::array();
    const nlohmann::json &all = dataset.workloads[size_t(key.workload)].trajectories[size_t(key.trajectory)].actions;
    nlohmann::json prefix = nlohmann::json::array();
    for (int i = 0; i < key.prefix && i < int(all.size()); i++) prefix.push_back(all[size_t(i)]);
    return prefix;
}

std::vector<size_t> intermediate_order(const Dataset &dataset, const std::vector<std::pair<int, int>> &trajectories, uint64_t seed) {
    std::vector<std::pair<uint64_t, size_t>> keyed(trajectories.size());
    for (size_t i = 0; i < trajectories.size(); i++) {
        const auto [w, t] = trajectories[i];
        const DatasetWorkload &wl = dataset.workloads[size_t(w)];
        uint64_t h = mix64(kHashBasis, seed);
        h = fnv1a64_bytes(h, wl.spec.data(), wl.spec.size());
        const std::string actions = wl.trajectories[size_t(t)].actions.dump();
        keyed[i] = {fnv1a64_bytes(h, actions.data(), actions.size()), i};
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<size_t> order(keyed.size());
    for (size_t i = 0; i < keyed.size(); i++) order[i] = keyed[i].second;
    return order;
}

StateCorpus build_state_corpus(const Dataset &dataset, const CorpusOptions &options, TextCache &cache,
                               const std::function<void(const std::string &)> &log) {
    StateCorpus corpus;
    std::mt19937_64 rng(options.seed);
    auto wanted = [&](SplitKind s) { return std::find(options.splits.begin(), options.splits.end(), s) != options.splits.end(); };

    // Candidates for intermediate states: every successful trajectory of the wanted splits.
    std::vector<std::pair<int, int>> successful, unmeasured;
    for (size_t w = 0; w < dataset.workloads.size(); w++) {
        const DatasetWorkload &wl = dataset.workloads[w];
        corpus.initial[int(w)] = int(corpus.keys.size());
        corpus.keys.push_back({int(w), -1, 0});
        if (!wanted(wl.split)) continue;
        if (!wl.measured()) {  // a transition corpus's trajectories: every state, outside the sample below
            for (size_t t = 0; t < wl.trajectories.size(); t++) unmeasured.emplace_back(int(w), int(t));
            continue;
        }
        std::vector<int> ok;
        for (size_t t = 0; t < wl.trajectories.size(); t++)
            if (wl.trajectories[t].error == ErrorKind::None) ok.push_back(int(t));
        if (options.finals_per_workload > 0 && int(ok.size()) > options.finals_per_workload) {
            std::shuffle(ok.begin(), ok.end(), rng);
            ok.resize(size_t(options.finals_per_workload));
            std::sort(ok.begin(), ok.end());
        }
        for (int t : ok) successful.emplace_back(int(w), t);
    }
    const std::vector<size_t> order = intermediate_order(dataset, successful, options.seed);
    std::vector<bool> with_intermediates(successful.size(), false);
    for (size_t i = 0; i < order.size() && int(i) < options.intermediate_trajectories; i++) with_intermediates[order[i]] = true;
    const size_t measured = successful.size();
    successful.insert(successful.end(), unmeasured.begin(), unmeasured.end());
    with_intermediates.resize(successful.size(), true);

    for (size_t i = 0; i < successful.size(); i++) {
        const auto [w, t] = successful[i];
        const int T = int(dataset.workloads[size_t(w)].trajectories[size_t(t)].length());
        std::vector<int> path(size_t(T) + 1, -1);
        path[0] = corpus.initial[w];
        for (int p = 1; p <= T; p++) {
            if (p < T && !with_intermediates[i]) continue;
            path[size_t(p)] = int(corpus.keys.size());
            corpus.keys.push_back({w, t, p});
        }
        corpus.path[{w, t}] = std::move(path);
    }

    std::vector<std::pair<std::string, nlohmann::json>> states;
    states.reserve(corpus.keys.size());
    for (const StateKey &k : corpus.keys) states.emplace_back(dataset.workloads[size_t(k.workload)].spec, prefix_actions(dataset, k));
    log("states: " + std::to_string(corpus.keys.size()) + " (" + std::to_string(dataset.workloads.size()) + " initial, " +
        std::to_string(measured) + " measured trajectories, " +
        std::to_string(std::min<size_t>(measured, size_t(std::max(0, options.intermediate_trajectories)))) +
        " with every intermediate state; " + std::to_string(unmeasured.size()) + " unmeasured corpus trajectories, all with every state)");
    size_t last_report = 0;
    corpus.texts = cache.texts(states, options.threads, [&](size_t done, size_t total) {
        if (done == total || done >= last_report + 5000) {
            last_report = done;
            log("  lowered " + std::to_string(done) + " / " + std::to_string(total) + " new states");
        }
    });
    return corpus;
}

}  // namespace worldtune
