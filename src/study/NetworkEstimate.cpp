#include "study/NetworkEstimate.h"

#include "common/Text.h"
#include "study/SideBySide.h"
#include "study/TuningRuns.h"
#include "measure/Timing.h"
#include "workload/Presets.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <sstream>

namespace worldtune {

double NetworkEstimate::total(bool libtorch) const {
    double sum = 0;
    for (const SubgraphEstimate &s : subgraphs)
        if (!s.tuned.empty() && !s.libtorch.empty()) sum += s.count * median_of(libtorch ? s.libtorch : s.tuned);
    return sum;
}

std::vector<std::optional<ActionList>> tune_network_subgraphs(RecordStore &store, const std::string &network, const NetworkBenchParams &p) {
    const std::vector<PresetEntry> entries = preset(network);
    std::vector<std::optional<ActionList>> bests;
    for (size_t i = 0; i < entries.size(); i++) {
        const WorkloadSpec spec = WorkloadSpec::parse(entries[i].spec);
        std::fprintf(stderr, "[%s %zu/%zu] %s\n", network.c_str(), i + 1, entries.size(), spec.canonical().c_str());
        const TuningRun run = tune_run(store, spec, p.model, 1, p.trials, p.measure, p.source(p.model, 1), p.model_params);
        bests.push_back(best_within(run.records, p.trials));
    }
    return bests;
}

NetworkEstimate measure_network(const std::string &network, const std::vector<std::optional<ActionList>> &bests,
                                const NetworkBenchParams &p) {
    const std::vector<PresetEntry> entries = preset(network);
    if (bests.size() != entries.size()) throw std::logic_error("measure_network: one best schedule per subgraph expected");
    NetworkEstimate est;
    est.network = network;
    const SideBySideParams side{p.rounds, {"libtorch"}, p.baseline, p.measure.worker_binary};
    Measurer measurer(side_by_side_measure(p.measure, side.baseline));
    std::mt19937_64 order_rng(4242);
    for (size_t i = 0; i < entries.size(); i++) {
        const WorkloadSpec spec = WorkloadSpec::parse(entries[i].spec);
        std::vector<SideBySideEntry> schedules;
        if (bests[i]) schedules.push_back({"tuned", 0, &*bests[i]});
        SideBySide measured;
        remeasure_side_by_side(spec, schedules, side, measurer, order_rng, measured);
        SubgraphEstimate s;
        s.spec = spec.canonical();
        s.count = entries[i].count;
        s.has_schedule = bool(bests[i]);
        s.tuned = measured.latency["tuned"];
        s.libtorch = measured.latency["libtorch"];
        const std::string note = measured.peer_note["libtorch"];
        if (s.libtorch.empty()) s.libtorch_note = peer_note_reason(note);
        est.subgraphs.push_back(s);
    }
    return est;
}

std::string network_report(const std::vector<NetworkEstimate> &estimates, const NetworkBenchParams &p) {
    std::ostringstream md;
    const std::string tuned = p.tuned_as.empty() ? "every subgraph tuned by `" + p.model + "` for " + std::to_string(p.trials) + " trials (seed 1)"
                                                 : p.tuned_as;
    md << "## End-to-end network estimate\n\nEstimated network latency = Σ over distinct subgraphs of occurrences × "
          "median latency. worldtune: "
       << tuned << ", its best schedule re-measured in " << p.rounds << (p.rounds == 1 ? " round" : " rounds")
       << "; libtorch: the same subgraphs as separate operators, in the same rounds and thread count. The sums "
          "compare only subgraphs both ran (\"covered\").\n\n"
       << "| network | subgraphs covered | worldtune | libtorch | speedup over libtorch |\n|---|---:|---:|---:|---:|\n";
    for (const NetworkEstimate &e : estimates) {
        int both = 0;
        for (const SubgraphEstimate &s : e.subgraphs) both += !s.tuned.empty() && !s.libtorch.empty();
        const double mine = e.total(false), theirs = e.total(true);
        md << "| " << e.network << " | " << both << " / " << e.subgraphs.size() << " | " << format_seconds(mine) << " | "
           << format_seconds(theirs) << " | " << (mine > 0 && theirs > 0 ? fixed(theirs / mine, 2) + "×" : "–") << " |\n";
    }
    md << "\nPer subgraph (median latency; × occurrences):\n\n";
    for (const NetworkEstimate &e : estimates) {
        md << "<details><summary>" << e.network << "</summary>\n\n| subgraph | × | worldtune | libtorch | speedup |\n"
           << "|---|---:|---:|---:|---:|\n";
        for (const SubgraphEstimate &s : e.subgraphs) {
            const bool a = !s.tuned.empty(), b = !s.libtorch.empty();
            md << "| `" << s.spec << "` | " << s.count << " | " << (a ? format_seconds(median_of(s.tuned)) : s.has_schedule ? "err" : "– (no schedule)") << " | "
               << (b ? format_seconds(median_of(s.libtorch)) : (s.libtorch_note.empty() ? "err" : "– (" + s.libtorch_note + ")"))
               << " | " << (a && b ? fixed(median_of(s.libtorch) / median_of(s.tuned), 2) + "×" : "–") << " |\n";
        }
        md << "\n</details>\n\n";
    }
    return md.str();
}

}  // namespace worldtune
