#include "train/Training.h"

#include "dataset/DatasetFile.h"
#include "dataset/TransitionCorpus.h"
#include "measure/Timing.h"
#include "features/ScheduleFeatures.h"
#include "train/EncodingCache.h"
#include "world/Ranker.h"
#include "world/Rollout.h"
#include "train/StateCorpus.h"
#include "train/TransitionTrainer.h"
#include "world/Windows.h"
#include "world/WorldBundle.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>

namespace worldtune {

namespace fs = std::filesystem;

const std::vector<std::string> &training_stages() {
    static const std::vector<std::string> stages = {"texts", "tokenizer", "mlm", "contrastive", "encode", "transition", "ranker"};
    return stages;
}

namespace {

constexpr int kTokenizerSampleTexts = 20000;  ///< state texts the vocabulary is learned from
constexpr size_t kEncodeCheckpointStates = 4000;  ///< states encoded between saves of the encoding cache

struct Context {
    TrainOptions options;
    Log log;
    WorldConfig config;
    Dataset dataset;
    std::string dir, cache;
    std::unique_ptr<TextCache> texts;
    StateCorpus corpus;
    bool have_corpus = false;
    Tokenizer tokenizer;
    TokenTexts ids;
    nlohmann::json stages;

    std::string path(const std::string &f) const { return dir + "/" + f; }
    std::string cached(const std::string &f) const { return cache + "/" + f; }
    bool redo(const std::string &stage) const { return options.restart && (options.stage == stage || options.stage == "all"); }

    void record(const std::string &stage, nlohmann::json report) {
        stages[stage] = std::move(report);
        write_json_file(cached("stages.json"), stages);
    }

    const StateCorpus &need_corpus() {
        if (have_corpus) return corpus;
        if (!texts) texts = std::make_unique<TextCache>(cached("texts.db"));
        CorpusOptions co;
        co.finals_per_workload = config.finals_per_workload;
        co.intermediate_trajectories = config.intermediate_trajectories;
        co.seed = config.seed;
        co.threads = config.threads;
        const double t0 = now_seconds();
        corpus = build_state_corpus(dataset, co, *texts, log);
        have_corpus = true;
        size_t empty = 0;
        for (const std::string &t : corpus.texts) empty += t.empty();
        log("corpus ready in " + std::to_string(int(now_seconds() - t0)) + " s (" + std::to_string(empty) + " states do not lower)");
        return corpus;
    }

    const Tokenizer &need_tokenizer() {
        if (tokenizer.vocab_size() > 0) return tokenizer;
        if (!fs::exists(path("tokenizer.json"))) throw std::runtime_error("stage 'tokenizer' has not run yet (no tokenizer.json)");
        tokenizer = Tokenizer::load(path("tokenizer.json"));
        return tokenizer;
    }

    const TokenTexts &need_ids() {
        if (!ids.empty()) return ids;
        need_corpus();
        need_tokenizer();
        ids.reserve(corpus.texts.size());
        for (const std::string &t : corpus.texts) ids.push_back(tokenizer.encode(t));
        return ids;
    }

    /// Per workload index, its programs' stages (what the loop-nest simulation reads: action contexts).
    std::map<int, std::unique_ptr<TaskPrograms>> built;

    const TaskPrograms &stages_of(int workload) {
        auto it = built.find(workload);
        if (it == built.end())
            it = built.emplace(workload, std::make_unique<TaskPrograms>(WorkloadSpec::parse(dataset.workloads[size_t(workload)].spec))).first;
        return *it->second;
    }
    /// The stages of the program `actions` build on a workload.
    const std::vector<FuncInfo> &funcs_of(int workload, const ActionList &actions) { return stages_of(workload).funcs_for(actions); }

    SplitKind split_of_key(size_t k) const { return dataset.workloads[size_t(corpus.keys[k].workload)].split; }
};

void stage_texts(Context &c) { c.need_corpus(); }

/// The serialized actions of the train split's trajectories, one text per trajectory.
std::vector<std::string> train_action_texts(const Context &c) {
    std::vector<std::string> texts;
    for (const DatasetWorkload &w : c.dataset.workloads) {
        if (w.split != SplitKind::Train) continue;
        for (const DatasetTrajectory &t : w.trajectories) {
            std::string text;
            try {
                for (const Action &a : actions_from_json(t.actions)) text += action_text(a) + "\n";
            } catch (const std::exception &) {
                continue;
            }
            texts.push_back(text);
        }
    }
    return texts;
}

/// An existing tokenizer gains the words of actions it has not seen (a wider search space); the encoder
/// keeps its vocabulary (Tokenizer.h, "Growing"), the transition learns the new words.
void extend_tokenizer(Context &c) {
    const Tokenizer &old = c.need_tokenizer();
    Tokenizer grown = old.extended(train_action_texts(c), c.config.vocab_max, c.config.vocab_min_count);
    if (grown.vocab_size() == old.vocab_size()) return;
    std::string added;
    for (int id = old.vocab_size(); id < grown.vocab_size(); id++) added += (added.empty() ? "" : " ") + grown.word(id);
    c.log("tokenizer: " + std::to_string(grown.vocab_size() - old.vocab_size()) + " words of new actions appended (" +
          added + "); the encoder keeps its " + std::to_string(grown.encoder_words()));
    grown.save(c.path("tokenizer.json"));
    c.record("tokenizer_extension", {{"vocab", grown.vocab_size()}, {"encoder_words", grown.encoder_words()}, {"added", added}});
    c.tokenizer = grown;
    c.ids.clear();
}

void stage_tokenizer(Context &c) {
    if (fs::exists(c.path("tokenizer.json")) && !c.redo("tokenizer")) {
        extend_tokenizer(c);
        return;
    }
    const StateCorpus &corpus = c.need_corpus();
    const double t0 = now_seconds();
    std::vector<std::string> sample;
    std::mt19937_64 rng(c.config.seed);
    std::vector<size_t> order;
    for (size_t k = 0; k < corpus.texts.size(); k++)
        if (!corpus.texts[k].empty() && c.split_of_key(k) == SplitKind::Train) order.push_back(k);
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i = 0; i < order.size() && int(i) < kTokenizerSampleTexts; i++) sample.push_back(corpus.texts[order[i]]);
    for (std::string &text : train_action_texts(c)) sample.push_back(std::move(text));
    c.tokenizer = Tokenizer::train(sample, c.config.vocab_max, c.config.vocab_min_count);
    c.tokenizer.save(c.path("tokenizer.json"));
    c.ids.clear();
    size_t tokens = 0, unknown = 0;
    for (size_t i = 0; i < std::min<size_t>(sample.size(), 2000); i++)
        for (int32_t id : c.tokenizer.encode(sample[i])) {
            tokens++;
            unknown += id == Tokenizer::kUnk;
        }
    const double unk_share = tokens ? double(unknown) / double(tokens) : 0;
    c.log("tokenizer: " + std::to_string(c.tokenizer.vocab_size()) + " words from " + std::to_string(sample.size()) +
          " texts; unknown tokens " + std::to_string(100 * unk_share) + "%");
    c.record("tokenizer", {{"vocab", c.tokenizer.vocab_size()}, {"texts", sample.size()}, {"unknown_share", unk_share},
                           {"seconds", now_seconds() - t0}});
}

/// Texts and their workload index, of the train split only.
void train_texts(Context &c, TokenTexts &texts, std::vector<int> &group) {
    const TokenTexts &ids = c.need_ids();
    std::map<std::string, int> spec_ids;
    for (size_t k = 0; k < ids.size(); k++) {
        if (c.split_of_key(k) != SplitKind::Train || ids[k].empty()) continue;
        texts.push_back(ids[k]);
        // The contrastive groups are specs: one spec measured on two machines is one workload.
        const std::string &spec = c.dataset.workloads[size_t(c.corpus.keys[k].workload)].spec;
        group.push_back(int(spec_ids.emplace(spec, int(spec_ids.size())).first->second));
    }
}

nlohmann::json report_json(const StageReport &r) {
    return {{"steps", r.steps}, {"resumed_from", r.resumed_from}, {"seconds", r.seconds}, {"first_loss", r.first_loss}, {"last_loss", r.last_loss}};
}

void stage_mlm(Context &c) {
    if (fs::exists(c.cached("encoder_mlm.pt")) && !c.redo("mlm")) return;
    if (c.need_tokenizer().encoder_words() != c.tokenizer.vocab_size())
        throw std::runtime_error("stage 'mlm': the tokenizer was extended after its encoder was trained; "
                                 "a new encoder needs a new tokenizer (--stage tokenizer --restart)");
    if (c.redo("mlm")) fs::remove(c.cached("mlm.ckpt.json"));
    TokenTexts texts;
    std::vector<int> group;
    train_texts(c, texts, group);
    EncoderTrainer enc(c.config, c.need_tokenizer().encoder_words());
    c.log("mlm: " + std::to_string(texts.size()) + " training texts, " + std::to_string(c.config.mlm_steps) + " steps of " +
          std::to_string(c.config.mlm_batch) + " windows");
    const StageReport r = enc.train_mlm(texts, c.cached("mlm.ckpt"), c.log);
    enc.save(c.cached("encoder_mlm.pt"));
    c.record("mlm", report_json(r));
}

void stage_contrastive(Context &c) {
    if (fs::exists(c.path("encoder.pt")) && !c.redo("contrastive")) return;
    if (!fs::exists(c.cached("encoder_mlm.pt"))) throw std::runtime_error("stage 'mlm' has not run yet (no cache/encoder_mlm.pt)");
    if (c.redo("contrastive")) fs::remove(c.cached("contrastive.ckpt.json"));
    TokenTexts texts;
    std::vector<int> group;
    train_texts(c, texts, group);
    EncoderTrainer enc(c.config, c.need_tokenizer().encoder_words());
    enc.load(c.cached("encoder_mlm.pt"));
    const StageReport r = enc.train_contrastive(texts, group, c.cached("contrastive.ckpt"), c.log);
    enc.save(c.path("encoder.pt"));
    c.record("contrastive", report_json(r));
}

/// E(s) of the corpus states, encoding those the cache lacks. With `wanted` (one flag per state), only the
/// wanted ones are encoded; the rows of the others are zeros unless cached.
std::vector<std::vector<float>> need_states(Context &c, const std::vector<bool> &wanted = {}) {
    const TokenTexts &ids = c.need_ids();
    if (!fs::exists(c.path("encoder.pt"))) throw std::runtime_error("stage 'contrastive' has not run yet (no encoder.pt)");
    const EncodingCache cache(c.cached("states.bin"), c.cached("states.keys"), file_fingerprint(c.path("encoder.pt")),
                              c.config.d_model);
    std::vector<size_t> missing;
    std::vector<std::vector<float>> z = cache.lookup(ids, missing);
    if (c.redo("encode")) {
        missing.resize(ids.size());
        for (size_t i = 0; i < ids.size(); i++) missing[i] = i;
    }
    if (!wanted.empty())
        missing.erase(std::remove_if(missing.begin(), missing.end(), [&](size_t i) { return !wanted[i]; }), missing.end());
    if (missing.empty()) {
        if (!fs::exists(c.cached("states.keys"))) cache.save(ids, z);  // keys for a cache from before they existed
        return z;
    }
    c.log("encoding " + std::to_string(missing.size()) + " of " + std::to_string(ids.size()) + " states (" +
          std::to_string(ids.size() - missing.size()) + " cached by this encoder)");
    EncoderTrainer enc(c.config, c.need_tokenizer().encoder_words());
    enc.load(c.path("encoder.pt"));
    std::vector<bool> known(ids.size(), true);
    for (size_t i : missing) known[i] = false;
    auto save_known = [&] {  // a checkpoint: the rows encoded so far survive a kill
        TokenTexts kept_ids;
        std::vector<std::vector<float>> kept_rows;
        for (size_t i = 0; i < ids.size(); i++)
            if (known[i]) {
                kept_ids.push_back(ids[i]);
                kept_rows.push_back(z[i]);
            }
        cache.save(kept_ids, kept_rows);
    };
    const double t0 = now_seconds();
    for (size_t begin = 0; begin < missing.size(); begin += kEncodeCheckpointStates) {
        const size_t end = std::min(missing.size(), begin + kEncodeCheckpointStates);
        TokenTexts chunk;
        for (size_t k = begin; k < end; k++) chunk.push_back(ids[missing[k]]);
        const std::vector<std::vector<float>> fresh = enc.encode(chunk);
        for (size_t k = begin; k < end; k++) {
            z[missing[k]] = fresh[k - begin];
            known[missing[k]] = true;
        }
        save_known();
        c.log("  encoded " + std::to_string(end) + " / " + std::to_string(missing.size()) + " states (" +
              std::to_string(int(now_seconds() - t0)) + " s)");
    }
    const double seconds = now_seconds() - t0;
    c.log("encoded " + std::to_string(missing.size()) + " states in " + std::to_string(int(seconds)) + " s");
    c.record("encode", {{"states", z.size()}, {"encoded", missing.size()}, {"seconds", seconds}});
    return z;
}

void stage_encode(Context &c) { need_states(c); }

std::vector<TrajectorySample> samples_of(Context &c, SplitKind split) {
    std::vector<TrajectorySample> out;
    const Tokenizer &tok = c.need_tokenizer();
    for (const auto &[wt, path] : c.corpus.path) {
        const DatasetWorkload &w = c.dataset.workloads[size_t(wt.first)];
        if (w.split != split) continue;
        if (path.back() < 0 || c.corpus.texts[size_t(path.back())].empty() || c.corpus.texts[size_t(path.front())].empty()) continue;
        TrajectorySample s;
        s.group = wt.first;
        const ActionList actions = actions_from_json(w.trajectories[size_t(wt.second)].actions);
        for (const Action &a : actions) s.actions.push_back(action_ids(tok, a, c.config.action_max_tokens));
        s.contexts = action_contexts(c.funcs_of(wt.first, actions), actions);
        s.states = path;
        s.latency = w.trajectories[size_t(wt.second)].latency_s;
        for (int &i : s.states)
            if (i >= 0 && c.corpus.texts[size_t(i)].empty()) i = -1;  // an unlowerable intermediate state
        out.push_back(std::move(s));
    }
    return out;
}

/// Whether the saved transition knows every word of the tokenizer (it does not after the tokenizer grew).
bool transition_matches_tokenizer(Context &c) {
    return RolloutTables::load(c.path("transition.bin")).vocab == c.need_tokenizer().vocab_size();
}

void stage_transition(Context &c) {
    if (fs::exists(c.path("transition.bin")) && fs::exists(c.path("transition.pt")) && !c.redo("transition")) {
        if (transition_matches_tokenizer(c)) return;
        c.log("transition: the tokenizer grew since it was trained; training it again (and the rankers after it)");
        for (const std::string &v : ranker_variants()) fs::remove(c.path("ranker_" + v + ".ubj"));
    }
    const std::vector<std::vector<float>> z = need_states(c);
    const std::vector<TrajectorySample> train = samples_of(c, SplitKind::Train), val = samples_of(c, SplitKind::Val);
    c.log("transition: " + std::to_string(train.size()) + " training and " + std::to_string(val.size()) + " validation trajectories");
    TransitionTrainer t(c.config, c.need_tokenizer().vocab_size());
    const std::string checkpoint = c.cached("transition.ckpt");
    if (c.redo("transition")) fs::remove(checkpoint + ".json");
    const StageReport r = t.train(train, val, z, c.log, checkpoint);
    t.save(c.path("transition.pt"));
    t.tables().save(c.path("transition.bin"));
    for (const char *f : {".json", ".model", ".optim", ".best"}) fs::remove(checkpoint + f);
    nlohmann::json report = report_json(r);
    if (!val.empty()) {
        const TransitionQuality q = t.evaluate(val, z);
        report["validation"] = {{"final_mse", q.final_mse}, {"identity_mse", q.identity_mse},
                                {"closer_than_negative", q.closer_than_negative}, {"probe_pairwise", q.probe_pairwise},
                                {"trajectories", q.trajectories}};
    }
    c.record("transition", report);
}

std::vector<std::string> dataset_names(const std::vector<std::string> &paths) {
    std::vector<std::string> names;
    for (const std::string &p : paths) names.push_back(fs::path(p).filename().string());
    return names;
}

/// The corpus states the chosen rankers read: every workload's s_0, and the final states only for "final".
std::vector<bool> states_rankers_read(Context &c, const std::vector<std::string> &variants) {
    const StateCorpus &corpus = c.need_corpus();
    if (std::find(variants.begin(), variants.end(), "final") != variants.end()) return std::vector<bool>(corpus.texts.size(), true);
    std::vector<bool> wanted(corpus.texts.size(), false);
    for (const auto &[workload, index] : corpus.initial) wanted[size_t(index)] = true;
    return wanted;
}

void stage_ranker(Context &c) {
    const std::vector<std::string> &variants = c.options.rankers;
    bool all_there = true;
    for (const std::string &v : variants) all_there = all_there && fs::exists(c.path("ranker_" + v + ".ubj"));
    if (all_there && !c.redo("ranker")) return;
    const std::vector<std::vector<float>> z = need_states(c, states_rankers_read(c, variants));
    if (!fs::exists(c.path("transition.bin"))) throw std::runtime_error("stage 'transition' has not run yet (no transition.bin)");
    Rollout rollout(RolloutTables::load(c.path("transition.bin")), c.need_tokenizer());
    const double t0 = now_seconds();
    nlohmann::json report = c.stages.value("ranker", nlohmann::json::object());  // the variants not retrained keep their entries
    for (const std::string &v : variants) {
        const int dim = ranker_state_dim(v, c.config.d_model);
        RankingData data[2];  // train, val
        std::map<int, std::vector<std::pair<int, int>>> by_workload;  // workload -> (trajectory, final state index)
        for (const auto &[wt, path] : c.corpus.path)
            if (path.back() >= 0 && !c.corpus.texts[size_t(path.back())].empty()) by_workload[wt.first].emplace_back(wt.second, path.back());
        std::vector<float> zt;
        for (const auto &[w, list] : by_workload) {
            const DatasetWorkload &wl = c.dataset.workloads[size_t(w)];
            if (wl.split == SplitKind::Test || list.size() < 2 || !wl.measured()) continue;
            const std::vector<float> &z0 = z[size_t(c.corpus.initial.at(w))];
            const std::vector<float> hardware = hardware_features(c.dataset.hardware_of(wl));
            std::vector<std::vector<float>> rows;
            std::vector<double> latencies;
            for (const auto &[t, final_index] : list) {
                const DatasetTrajectory &traj = wl.trajectories[size_t(t)];
                const ActionList actions = actions_from_json(traj.actions);
                std::vector<ActionContext> contexts;
                std::vector<float> parallelism;
                read_schedule(c.funcs_of(w, actions), actions, c.stages_of(w).flops(), contexts, parallelism);
                std::vector<float> row;
                if (v == "world") {
                    rollout.features(z0, actions, contexts, zt);
                    row = zt;
                } else if (v == "initial") {
                    row = z0;
                } else if (v == "final") {
                    row = z[size_t(final_index)];
                }
                append_candidate_features(actions, contexts, parallelism, hardware, c.config.ranker_schedule_stats, row);
                rows.push_back(std::move(row));
                latencies.push_back(traj.latency_s);
            }
            data[wl.split == SplitKind::Train ? 0 : 1].add_group(rows, latencies);
        }
        Ranker ranker(v, dim);
        const RankerParams p = ranker_params(c.config);
        const int kept = ranker.train(data[0], data[1].size() ? &data[1] : nullptr, p);
        ranker.save(c.path("ranker_" + v + ".ubj"));
        c.log("ranker '" + v + "': " + std::to_string(data[0].size()) + " training candidates in " + std::to_string(data[0].groups.size()) +
              " workloads, " + std::to_string(kept) + " rounds kept");
        report[v] = {{"train_candidates", data[0].size()}, {"train_groups", data[0].groups.size()}, {"rounds", kept},
                     {"datasets", dataset_names(c.options.datasets)}};
    }
    report["seconds"] = now_seconds() - t0;
    c.record("ranker", report);
}

void write_manifest(Context &c) {
    nlohmann::json files = nlohmann::json::object();
    for (const char *f : {"config.json", "tokenizer.json", "encoder.pt", "transition.pt", "transition.bin", "ranker_world.ubj",
                          "ranker_initial.ubj", "ranker_final.ubj", "ranker_actions.ubj"}) {
        if (!fs::exists(c.path(f))) return;  // not complete yet
        files[f] = fs::file_size(c.path(f));
    }
    const nlohmann::json manifest = {
        {"format", kBundleFormat},
        {"version", kBundleVersion},
        {"created_at", utc_now_iso()},
        {"dataset", {{"files", dataset_names(c.options.datasets)}, {"created_at", c.dataset.created_at},
                     {"workloads", c.dataset.workloads.size()}, {"trajectories", c.dataset.trajectory_count()},
                     {"split_seed", c.dataset.seed}}},
        {"hardware", c.dataset.hardware},
        {"machines", c.dataset.machines},
        {"stages", c.stages},
        {"files", files}};
    write_json_file(c.path("manifest.json"), manifest);
    c.log("bundle complete: " + c.dir);
}

}  // namespace

void train_world_model(const TrainOptions &options, const Log &log) {
    const std::vector<std::string> &stages = training_stages();
    if (options.stage != "all" && std::find(stages.begin(), stages.end(), options.stage) == stages.end())
        throw std::runtime_error("unknown stage '" + options.stage + "' (stages: texts, tokenizer, mlm, contrastive, encode, transition, ranker, all)");
    for (const std::string &v : options.rankers)
        if (std::find(ranker_variants().begin(), ranker_variants().end(), v) == ranker_variants().end())
            throw std::runtime_error("unknown ranker '" + v + "' (rankers: world, initial, final, actions)");
    if (options.rankers.empty()) throw std::runtime_error("no ranker chosen (rankers: world, initial, final, actions)");
    Context c;
    c.options = options;
    c.log = log;
    c.dir = options.out;
    c.cache = options.out + "/cache";
    fs::create_directories(c.cache);
    // The directory's configuration wins, so a resumed run trains with what it started with.
    if (fs::exists(c.path("config.json"))) {
        c.config = WorldConfig::from_json(read_json_or(c.path("config.json"), nlohmann::json::object()));
        log("using the configuration in " + c.path("config.json"));
    } else {
        c.config = options.config;
        write_json_file(c.path("config.json"), c.config.to_json());
    }
    c.stages = read_json_or(c.cached("stages.json"), nlohmann::json::object());
    c.dataset = load_datasets(options.datasets);
    if (!options.corpus.empty()) {
        std::vector<DatasetWorkload> extra = corpus_workloads(options.corpus, c.config.corpus_trajectories, c.config.seed);
        size_t trajectories = 0;
        for (DatasetWorkload &w : extra) {
            trajectories += w.trajectories.size();
            c.dataset.workloads.push_back(std::move(w));
        }
        TextCache cache(c.cached("texts.db"));
        cache.import_from(options.corpus + "/texts.db");
        log("transition corpus " + options.corpus + ": " + std::to_string(trajectories) + " unmeasured train-split trajectories of " +
            std::to_string(extra.size()) + " workloads (their lowered states imported)");
    }
    log("datasets " + nlohmann::json(dataset_names(options.datasets)).dump() + ": " + std::to_string(c.dataset.machines.size()) +
        " machine(s), " + std::to_string(c.dataset.workloads.size()) + " workloads, " +
        std::to_string(c.dataset.trajectory_count()) + " trajectories");
    fs::remove(c.path("manifest.json"));  // incomplete until the end
    const std::vector<std::pair<std::string, void (*)(Context &)>> runs = {
        {"texts", stage_texts}, {"tokenizer", stage_tokenizer}, {"mlm", stage_mlm}, {"contrastive", stage_contrastive},
        {"encode", stage_encode}, {"transition", stage_transition}, {"ranker", stage_ranker}};
    for (const auto &[name, run] : runs) {
        if (options.stage != "all" && options.stage != name) continue;
        const double t0 = now_seconds();
        log("stage " + name);
        run(c);
        log("stage " + name + " done in " + std::to_string(int(now_seconds() - t0)) + " s");
    }
    write_manifest(c);
}

}  // namespace worldtune
