// `worldtune train` builds the world-model bundle from a dataset (every stage, or one; resumable);
// `worldtune eval` compares it with the static model, random and the ablations on the test split.
#include "cli/Commands.h"

#include "study/Evaluation.h"
#include "train/Training.h"
#include "world/WorldBundle.h"

#include <cstdio>
#include <fstream>

namespace worldtune::cli {

void add_train_commands(CLI::App &app) {
    struct TrainCli {
        TrainOptions options;
        std::string config_file;
    };
    auto tr = std::make_shared<TrainCli>();
    tr->options.out = kDefaultBundle;
    CLI::App *train = app.add_subcommand("train", "Train the world model (tokenizer, encoder, transition, rankers) from a dataset");
    train->add_option("--dataset", tr->options.datasets,
                      "Dataset file (see `worldtune dataset export`); repeat it for one file per machine")->required();
    train->add_option("--out", tr->options.out, "Bundle directory (resumes what is there)")->capture_default_str();
    train->add_option("--corpus", tr->options.corpus,
                      "Transition corpus folder (`worldtune dataset corpus`): its unmeasured trajectories join the transition's training");
    train->add_option("--stage", tr->options.stage, "texts, tokenizer, mlm, contrastive, encode, transition, ranker or all")
        ->capture_default_str();
    train->add_flag("--restart", tr->options.restart, "Redo the chosen stage(s) even when their output exists");
    train->add_option("--rankers", tr->options.rankers,
                      "Rankers the ranker stage trains, comma-separated (world, initial, final, actions); the others keep "
                      "their files, and without 'final' only the initial states are encoded")
        ->delimiter(',')->capture_default_str();
    train->add_option("--config", tr->config_file, "JSON file of WorldConfig overrides for a new bundle");
    train->add_option("--seed", tr->options.config.seed, "Seed of a new bundle")->capture_default_str();
    train->add_option("--threads", tr->options.config.threads, "Threads of a new bundle")->capture_default_str()->check(CLI::PositiveNumber);
    train->callback([tr] {
        if (!tr->config_file.empty()) {
            std::ifstream in(tr->config_file);
            if (!in) throw CommandError("cannot read config file " + tr->config_file);
            nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
            if (j.is_discarded()) throw CommandError(tr->config_file + " is not valid JSON");
            nlohmann::json merged = tr->options.config.to_json();
            for (const auto &item : j.items()) merged[item.key()] = item.value();
            try {
                tr->options.config = WorldConfig::from_json(merged);
            } catch (const std::exception &e) {
                throw CommandError(e.what());
            }
        }
        try {
            train_world_model(tr->options, [](const std::string &line) {
                std::fprintf(stderr, "%s\n", line.c_str());
                std::fflush(stderr);
            });
        } catch (const std::runtime_error &e) {
            throw CommandError(e.what());
        }
    });

    struct EvalCli {
        EvalOptions options;
        std::string out;
    };
    auto ev = std::make_shared<EvalCli>();
    CLI::App *eval = app.add_subcommand("eval", "Rank the test split with the world model, the static model, random and ablations");
    eval->add_option("--bundle", ev->options.bundle, "World-model bundle directory (default: the shipped one)");
    eval->add_option("--dataset", ev->options.dataset, "Dataset file")->required();
    eval->add_option("--out", ev->out, "Also write the markdown report to this file");
    eval->add_option("--static-per-workload", ev->options.static_per_workload,
                     "Train trajectories per workload for the static model (0: all)")->capture_default_str();
    eval->add_option("--static-train", ev->options.train_datasets,
                     "Dataset file(s) whose train split the static model learns from (default: --dataset; leave one "
                     "machine out by evaluating another machine's file)");
    eval->add_option("--split", ev->options.split, "Split to evaluate: test (claims) or val (choosing settings)")
        ->capture_default_str()->check(CLI::IsMember({"test", "val"}));
    eval->add_flag("--quick", ev->options.quick, "Only the rankers over rollouts, E(s_0), actions and random (no static model, no encoding of final states)");
    eval->add_option("--seed", ev->options.seed, "Seed")->capture_default_str();
    eval->add_option("--threads", ev->options.threads, "Threads")->capture_default_str()->check(CLI::PositiveNumber);
    eval->callback([ev, &app] {
        ev->options.bundle = WorldBundle::locate(ev->options.bundle);
        EvalReport report;
        try {
            report = evaluate_world_model(ev->options, [](const std::string &line) { std::fprintf(stderr, "%s\n", line.c_str()); });
        } catch (const std::runtime_error &e) {
            throw CommandError(e.what());
        }
        std::string command = "worldtune eval --bundle " + ev->options.bundle + " --dataset " + ev->options.dataset;
        for (const std::string &t : ev->options.train_datasets) command += " --static-train " + t;
        if (ev->options.split != "test") command += " --split " + ev->options.split;
        if (ev->options.quick) command += " --quick";
        if (ev->options.static_per_workload) command += " --static-per-workload " + std::to_string(ev->options.static_per_workload);
        const std::string md = eval_markdown(report, ev->options, command);
        std::printf("%s", md.c_str());
        if (!ev->out.empty()) {
            std::ofstream out(ev->out);
            out << md;
            if (!out) throw CommandError("cannot write " + ev->out);
        }
        (void)app;
    });
}

}  // namespace worldtune::cli
