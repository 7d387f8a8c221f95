#include "world/CalibrationFile.h"

#include "measure/Hardware.h"
#include "world/WorldBundle.h"

#include <nlohmann/json.hpp>

namespace worldtune {

std::string calibration_summary(const std::string &bundle_dir) {
    const nlohmann::json about = read_json_or(bundle_dir + "/calibration.json", nullptr);
    const nlohmann::json manifest = read_json_or(bundle_dir + "/manifest.json", nullptr);
    const nlohmann::json trained_hardware = manifest.is_object() ? manifest.value("hardware", nlohmann::json()) : nlohmann::json();
    const std::string trained_on = trained_hardware.is_object() ? trained_hardware.value("cpu_model", std::string("another machine"))
                                                                : std::string("another machine");
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
