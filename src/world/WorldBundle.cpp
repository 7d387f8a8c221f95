#include "world/WorldBundle.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace worldtune {

namespace {

const char *const kParts[] = {"config.json", "tokenizer.json", "encoder.pt", "transition.pt", "transition.bin",
                              "ranker_world.ubj", "ranker_initial.ubj", "ranker_final.ubj", "ranker_actions.ubj"};

nlohmann::json read_json(const std::string &path, const std::string &what) {
    std::ifstream in(path);
    if (!in) throw BundleError("world model: " + what + " " + path + " not found");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) throw BundleError("world model: " + path + " is not valid JSON");
    return j;
}

}  // namespace

std::string utc_now_iso() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

void write_json_file(const std::string &path, const nlohmann::json &j) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        out << j.dump(2) << "\n";
        if (!out) throw std::runtime_error("cannot write " + path);
    }
    std::filesystem::rename(tmp, path);
}

nlohmann::json read_json_or(const std::string &path, nlohmann::json fallback) {
    std::ifstream in(path);
    if (!in) return fallback;
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    return j.is_discarded() ? fallback : j;
}

WorldBundle WorldBundle::open(const std::string &dir) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(dir)) throw BundleError("world model: no bundle directory at " + dir + " (train one with `worldtune train`)");
    WorldBundle b;
    b.dir = dir;
    b.manifest = read_json(b.path("manifest.json"), "manifest");
    if (!b.manifest.is_object() || b.manifest.value("format", "") != kBundleFormat)
        throw BundleError("world model: " + dir + " is not a worldtune world-model bundle");
    if (b.manifest.value("version", -1) != kBundleVersion)
        throw BundleError("world model: " + dir + " has bundle version " + std::to_string(b.manifest.value("version", -1)) +
                          "; this worldtune reads version " + std::to_string(kBundleVersion) + " (retrain with `worldtune train`)");
    for (const char *part : kParts)
        if (!fs::exists(b.path(part))) throw BundleError("world model: " + dir + " lacks " + part);
    try {
        b.config = WorldConfig::from_json(read_json(b.path("config.json"), "config"));
        b.tokenizer = Tokenizer::load(b.path("tokenizer.json"));
    } catch (const BundleError &) {
        throw;
    } catch (const std::exception &e) {
        throw BundleError(std::string("world model: ") + e.what());
    }
    return b;
}

std::string WorldBundle::locate(const std::string &requested) {
    if (!requested.empty()) return requested;
    if (const char *env = std::getenv("WORLDTUNE_MODEL")) return env;
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::path at = fs::current_path(ec); !at.empty(); at = at.parent_path()) {
        if (fs::exists(at / kDefaultBundle / "manifest.json")) return (at / kDefaultBundle).string();
        if (at == at.root_path()) break;
    }
    // Next to the binary: <repo>/build/worldtune -> <repo>/models/world.
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (fs::path at = exe.parent_path(); !at.empty() && at != at.root_path(); at = at.parent_path())
            if (fs::exists(at / kDefaultBundle / "manifest.json")) return (at / kDefaultBundle).string();
    return kDefaultBundle;
}

}  // namespace worldtune
