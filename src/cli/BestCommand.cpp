// `worldtune best SPEC` prints the best measured schedule as Halide C++ code;
// `worldtune export SPEC --out DIR` compiles it ahead of time into a static library and header.
#include "cli/Commands.h"

#include "schedule/Apply.h"
#include "schedule/PrintHalide.h"
#include "store/RecordStore.h"
#include "workload/Workload.h"

#include <sys/stat.h>

#include <cstdio>

namespace worldtune::cli {

namespace {

Record best_record(const std::string &db, const WorkloadSpec &spec) {
    RecordStore store(db);
    std::optional<Record> best = store.best_for(spec.canonical());
    if (!best) throw CommandError("no successful record of " + spec.canonical() + " in " + db + " (run `worldtune tune` first)");
    return *best;
}

}  // namespace

void add_best_commands(CLI::App &app) {
    struct Options {
        std::string spec, db = RecordStore::kDefaultPath, out, name = "tuned";
        bool json = false;
    };
    auto best_opts = std::make_shared<Options>();
    CLI::App *best = app.add_subcommand("best", "Print the best measured schedule of a workload as Halide C++ code");
    best->add_option("spec", best_opts->spec, "Workload spec")->required();
    best->add_option("--db", best_opts->db, "Records database")->capture_default_str();
    best->add_flag("--json", best_opts->json, "Print the action list as JSON instead");
    best->callback([best_opts] {
        const WorkloadSpec spec = WorkloadSpec::parse(best_opts->spec);
        const Record r = best_record(best_opts->db, spec);
        if (best_opts->json) {
            std::printf("%s\n", r.result.actions.dump().c_str());
            return;
        }
        std::printf("// %s: median %s, %.1f GFLOP/s, %d threads, record %lld, measured %s\n", spec.canonical().c_str(),
                    format_seconds(r.result.timing.median_s).c_str(), r.result.gflops, r.result.threads,
                    (long long)r.id, r.result.timestamp.c_str());
        std::printf("%s", print_halide(*build_workload(spec), actions_from_json(r.result.actions)).c_str());
    });

    auto export_opts = std::make_shared<Options>();
    CLI::App *exp = app.add_subcommand("export", "Compile the best schedule ahead of time: DIR/NAME.a and DIR/NAME.h");
    exp->add_option("spec", export_opts->spec, "Workload spec")->required();
    exp->add_option("--out", export_opts->out, "Output folder (created if absent)")->required();
    exp->add_option("--name", export_opts->name, "Function and file name")->capture_default_str();
    exp->add_option("--db", export_opts->db, "Records database")->capture_default_str();
    exp->callback([export_opts] {
        const WorkloadSpec spec = WorkloadSpec::parse(export_opts->spec);
        const std::string &name = export_opts->name;
        if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
            throw CommandError("--name must be a C identifier, got '" + name + "'");
        for (char c : name)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') throw CommandError("--name must be a C identifier, got '" + name + "'");
        const Record r = best_record(export_opts->db, spec);
        std::unique_ptr<Workload> w = build_workload(spec);
        apply_actions(*w, actions_from_json(r.result.actions));
        ::mkdir(export_opts->out.c_str(), 0755);
        const std::string prefix = export_opts->out + "/" + name;
        w->pipeline().compile_to_static_library(prefix, w->arguments(), name, Halide::get_host_target());
        std::printf("wrote %s.a and %s.h\n", prefix.c_str(), prefix.c_str());
        std::printf("call: int %s(", name.c_str());
        for (const Halide::ImageParam &p : w->inputs) std::printf("halide_buffer_t *%s, ", p.name().c_str());
        std::printf("halide_buffer_t *out);  // shapes innermost first: inputs");
        for (const auto &shape : w->input_shapes) {
            std::printf(" [");
            for (size_t i = 0; i < shape.size(); i++) std::printf("%s%d", i ? "," : "", shape[i]);
            std::printf("]");
        }
        std::printf(", out [");
        for (size_t i = 0; i < w->output_shape.size(); i++) std::printf("%s%d", i ? "," : "", w->output_shape[i]);
        std::printf("]\n");
        for (size_t i = 0; i < w->inputs.size(); i++) {
            const InputBlocking &blocking = w->input_blockings[i];
            if (blocking.active()) {
                std::printf("pass %s stored in blocks of %d along dim %d, shape [", w->inputs[i].name().c_str(), blocking.block, blocking.dim);
                const std::vector<int> stored = blocked_shape(w->input_shapes[i], blocking);
                for (size_t d = 0; d < stored.size(); d++) std::printf("%s%d", d ? "," : "", stored[d]);
                std::printf("] innermost first: element c at (c[%d] %% %d, the other dims, c[%d] / %d), zeros past the end"
                            " (a weight: arrange it once)\n", blocking.dim, blocking.block, blocking.dim, blocking.block);
            }
            if (const int m = w->input_winograd_tiles[i]) {
                std::printf("pass %s transformed for Winograd's F(%d, 3): U(k, c, xi, nu) = sum over s, r of G[xi][s] G[nu][r] %s(s, r, c, k),"
                            " shape [%d,%d,%d,%d] innermost first (G: src/workload/Winograd.cpp; a weight: transform it once)\n",
                            w->inputs[i].name().c_str(), m, w->inputs[i].name().c_str(), w->input_shapes[i][3], w->input_shapes[i][2], m + 2, m + 2);
            }
            if (w->input_layouts[i].empty()) continue;
            std::printf("pass %s in the schedule's layout, strides [", w->inputs[i].name().c_str());
            const std::vector<int> strides = w->input_strides(i);
            for (size_t d = 0; d < strides.size(); d++) std::printf("%s%d", d ? "," : "", strides[d]);
            std::printf("] (a weight: arrange it once; any other layout is refused)\n");
        }
        std::printf("link with: -lpthread -ldl\n");
    });
}

}  // namespace worldtune::cli
