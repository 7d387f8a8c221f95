// `worldtune records export|import|list`: move records between databases as JSON Lines, and look at them.
#include "cli/Commands.h"

#include "measure/Measurer.h"
#include "store/RecordStore.h"
#include "workload/Spec.h"

#include <cstdio>

namespace worldtune::cli {

namespace {

std::string shorten(const std::string &text, size_t width) {
    return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

void print_table(const RecordStore &store, const std::string &spec, bool only_ok, int64_t limit) {
    std::vector<Record> rows;
    store.for_each([&](const Record &r) {
        if (!only_ok || r.result.ok()) rows.push_back(r);
    }, spec);
    const size_t first = limit > 0 && int64_t(rows.size()) > limit ? rows.size() - size_t(limit) : 0;
    std::printf("%6s  %-36s  %7s  %10s  %9s  %-12s  %-14s  %s\n", "id", "spec", "actions", "median", "GFLOP/s", "error",
                "source", "created_at");
    for (size_t i = first; i < rows.size(); i++) {
        const Record &rec = rows[i];
        const MeasureResult &r = rec.result;
        const std::string median = r.ok() ? format_seconds(r.timing.median_s) : "-";
        char gflops[32] = "-";
        if (r.ok()) std::snprintf(gflops, sizeof gflops, "%.2f", r.gflops);
        std::printf("%6lld  %-36s  %7zu  %10s  %9s  %-12s  %-14s  %s\n", (long long)rec.id, shorten(r.spec, 36).c_str(),
                    r.actions.is_array() ? r.actions.size() : size_t(0), median.c_str(), gflops,
                    error_kind_name(r.error), shorten(rec.source, 14).c_str(), r.timestamp.c_str());
    }
    if (first > 0) std::printf("(%zu older records not shown; --limit 0 shows all)\n", first);
}

}  // namespace

void add_records_commands(CLI::App &app) {
    CLI::App *records = app.add_subcommand("records", "Inspect, export and import measured records");
    records->require_subcommand(1);

    auto db = std::make_shared<std::string>(RecordStore::kDefaultPath);

    auto export_out = std::make_shared<std::string>();
    CLI::App *exp = records->add_subcommand("export", "Write every record to a JSON Lines file");
    exp->add_option("--out", *export_out, "Output .jsonl file (.jsonl.gz: gzip-compressed)")->required();
    exp->add_option("--db", *db, "Records database")->capture_default_str();
    exp->callback([db, export_out] {
        RecordStore store(*db);
        const int64_t n = store.export_jsonl(*export_out);
        std::printf("exported %lld records to %s\n", (long long)n, export_out->c_str());
    });

    auto import_in = std::make_shared<std::string>();
    CLI::App *imp = records->add_subcommand("import", "Add the records of a JSON Lines file (duplicates are skipped)");
    imp->add_option("file", *import_in, "Input .jsonl or .jsonl.gz file")->required();
    imp->add_option("--db", *db, "Records database")->capture_default_str();
    imp->callback([db, import_in] {
        RecordStore store(*db);
        const ImportStats stats = store.import_jsonl(*import_in);
        std::printf("imported %lld records, skipped %lld already present (%s now holds %lld)\n", (long long)stats.added,
                    (long long)stats.skipped, db->c_str(), (long long)store.count());
    });

    struct ListOptions {
        std::string spec;
        bool only_ok = false;
        int64_t limit = 50;
    };
    auto list = std::make_shared<ListOptions>();
    CLI::App *ls = records->add_subcommand("list", "Print records as a table (oldest first)");
    ls->add_option("spec", list->spec, "Only records of this workload spec");
    ls->add_option("--db", *db, "Records database")->capture_default_str();
    ls->add_flag("--ok", list->only_ok, "Only records without error");
    ls->add_option("--limit", list->limit, "Show at most the newest N records (0 = all)")->capture_default_str();
    ls->callback([db, list] {
        RecordStore store(*db);
        const std::string spec = list->spec.empty() ? "" : WorkloadSpec::parse(list->spec).canonical();
        print_table(store, spec, list->only_ok, list->limit);
        if (!spec.empty())
            if (auto best = store.best_for(spec))
                std::printf("best: record %lld, %s, %.2f GFLOP/s\n", (long long)best->id,
                            format_seconds(best->result.timing.median_s).c_str(), best->result.gflops);
    });
}

}  // namespace worldtune::cli
