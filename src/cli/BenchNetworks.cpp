#include "cli/BenchNetworks.h"

#include "cli/Commands.h"
#include "cli/TuningRuns.h"
#include "measure/Timing.h"
#include "workload/Presets.h"

#include <cstdio>
#include <stdexcept>
#include <sstream>

namespace worldtune::cli {

double NetworkEstimate::total(bool libtorch) const {
    double sum = 0;
    for (const SubgraphEstimate &s : subgraphs)
        if (!s.tuned.empty() && !s.libtorch.empty()) sum += s.count * median_of(libtorch ? s.libtorch : s.tuned);
    return sum;
}

std::vector<std::optional<ActionList>> tune_network(RecordStore &store, const std::string &network, const NetworkBenchParams &p) {
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
    NetworkEstimate est;
    est.network = network;
    for (const PresetEntry &e : preset(network)) {
        const WorkloadSpec spec = WorkloadSpec::parse(e.spec);
        SubgraphEstimate s;
        s.spec = spec.canonical();
        s.count = e.count;
        s.libtorch_note = baseline_unavailable_reason("libtorch", spec);
        est.subgraphs.push_back(s);
    }
    if (bests.size() != est.subgraphs.size()) throw std::logic_error("measure_network: one best schedule per subgraph expected");
    Measurer measurer(p.measure);
    for (int round = 0; round < p.rounds; round++)
        for (size_t i = 0; i < est.subgraphs.size(); i++) {
            SubgraphEstimate &s = est.subgraphs[i];
            const WorkloadSpec spec = WorkloadSpec::parse(s.spec);
            if (bests[i]) {
                const MeasureResult r = measurer.measure_one(spec, *bests[i]);
                if (r.ok()) s.tuned.push_back(r.timing.median_s);
            }
            if (s.libtorch_note.empty()) {  // available, and has not failed
                const BaselineResult r = run_baseline_subprocess(current_executable(), "libtorch", spec, p.baseline);
                if (r.ok()) s.libtorch.push_back(r.timing.median_s);
                else if (s.libtorch.empty()) s.libtorch_note = r.error.empty() ? "output check failed" : r.error;
            }
        }
    return est;
}

std::string network_report(const std::vector<NetworkEstimate> &estimates, const NetworkBenchParams &p) {
    std::ostringstream md;
    md << "## End-to-end network estimate\n\nEstimated network latency = Σ over distinct subgraphs of occurrences × "
          "median latency. worldtune: every subgraph tuned by `"
       << p.model << "` for " << p.trials << " trials (seed 1), its best schedule re-measured in " << p.rounds
       << " rounds; libtorch: the same subgraphs as separate operators, in the same rounds and thread count. The sums "
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
            md << "| `" << s.spec << "` | " << s.count << " | " << (a ? format_seconds(median_of(s.tuned)) : "err") << " | "
               << (b ? format_seconds(median_of(s.libtorch)) : (s.libtorch_note.empty() ? "err" : "– (" + s.libtorch_note + ")"))
               << " | " << (a && b ? fixed(median_of(s.libtorch) / median_of(s.tuned), 2) + "×" : "–") << " |\n";
        }
        md << "\n</details>\n\n";
    }
    return md.str();
}

}  // namespace worldtune::cli
