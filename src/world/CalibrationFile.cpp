#include "world/CalibrationFile.h"

#include "measure/Hardware.h"
#include "world/WorldBundle.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace worldtune {

namespace {

/// Every machine whose records trained the bundle ("machines" of the manifest, one per dataset file; a
/// bundle that predates it names its first file's "hardware"), each once (machine_name), in file order, and
/// whether this machine's type (same_machine) is among them.
std::string training_machines(const nlohmann::json &manifest) {
    if (!manifest.is_object()) return "another machine";
    nlohmann::json machines = manifest.value("machines", nlohmann::json::array());
    if (!machines.is_array() || machines.empty()) machines = nlohmann::json::array({manifest.value("hardware", nlohmann::json())});
    std::vector<std::string> names;
    bool this_machine = false;
    for (const nlohmann::json &m : machines) {
        if (!m.is_object() || !m.contains("cpu_model")) continue;
        const std::string name = machine_name(m);
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        this_machine = this_machine || same_machine(m, hardware_json());
    }
    if (names.empty()) return "another machine";
    std::string joined;
    for (size_t i = 0; i < names.size(); i++) joined += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return joined + (this_machine ? "; this machine's type among them" : "; this machine's type not among them");
}

}  // namespace

std::string calibration_summary(const std::string &bundle_dir) {
    const nlohmann::json about = read_json_or(bundle_dir + "/calibration.json", nullptr);
    const nlohmann::json manifest = read_json_or(bundle_dir + "/manifest.json", nullptr);
    const std::string trained_on = training_machines(manifest);
    if (!about.is_object() || about.value("format", "") != kCalibrationFormat || !same_machine(about.value("hardware", nlohmann::json()), hardware_json()))
        return "The world model is not calibrated to this machine (its training records come from " + trained_on + ").";
    std::string variants;
    const nlohmann::json calibrated_variants = about.value("variants", nlohmann::json::object());
    for (const auto &[name, v] : calibrated_variants.items())
        if (v.value("rounds", 0) > 0) variants += (variants.empty() ? "" : ", ") + name;
    return "The world model (trained on records of " + trained_on + ") is calibrated to this machine on " +
           std::to_string(about.value("records", 0)) + " records of " + std::to_string(about.value("workloads", 0)) +
           " training-split workloads measured here (variants: " + (variants.empty() ? "none" : variants) + "; `worldtune calibrate`).";
}

}  // namespace worldtune
