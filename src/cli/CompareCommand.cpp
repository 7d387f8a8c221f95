// `worldtune compare`: parses the options and runs the comparison of study/Compare.h (what it does is
// said there); prints the markdown report and writes it to --out.
#include "cli/Commands.h"

#include "search/SketchSampler.h"
#include "study/Compare.h"

#include <cstdio>
#include <fstream>
#include <memory>

namespace worldtune::cli {

void add_compare_command(CLI::App &app) {
    struct Options : CompareParams {
        std::string out;
    };
    auto opts = std::make_shared<Options>();
    CLI::App *cmd = app.add_subcommand("compare", "Tune workloads per cost model and budget, compare with every peer side by side; write a markdown report");
    cmd->add_option("specs", opts->specs, "Workload specs")->required();
    cmd->add_option("--models", opts->models, "Comma-separated cost models, each optionally with the search space it searches: "
                                          "MODEL[/SPACE][@BUNDLE], SPACE v1 to v10 (default " + default_search_space() +
                                          "), BUNDLE a world model's folder (default --bundle), "
                                          "e.g. random/v1,random/v2 or world@models/world,world@retrained")->capture_default_str();
    cmd->add_option("--trials", opts->trials, "Comma-separated trial budgets (each run tunes to the largest)")->capture_default_str();
    cmd->add_option("--seeds", opts->seeds, "Search seeds per workload and model (1..N)")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--rounds", opts->rounds, "Comparison rounds (each re-measures every entry)")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--peers", opts->peers, "Comma-separated peers (default: all; 'none' for none)");
    cmd->add_option("--peer-timeout", opts->peer_timeout, "Seconds one peer may take (search + timing)")->capture_default_str();
    cmd->add_option("--db", opts->db, "Records database (tuning resumes from it)")->capture_default_str();
    cmd->add_option("--out", opts->out, "Markdown file to write (default: stdout only)");
    cmd->add_option("--bundle", opts->bundle, "World-model bundle for the world* models (default: the shipped one)");
    add_measure_options(cmd, opts->measure);
    cmd->callback([opts] {
        std::string md;
        try {
            md = compare_report(run_compare(*opts), *opts);
        } catch (const StudyError &e) {
            throw CommandError(e.what());
        }
        std::printf("%s", md.c_str());
        if (!opts->out.empty()) {
            std::ofstream file(opts->out);
            if (!file) throw CommandError("cannot write '" + opts->out + "'");
            file << md;
        }
    });
}

}  // namespace worldtune::cli
