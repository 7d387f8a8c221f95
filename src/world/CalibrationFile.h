// The calibration files of a world-model bundle, as the run-time reads them: calibration_<variant>.ubj and
// calibration.json (train/Calibration.h fits and writes them, and documents their fields). A WorldModel
// applies a calibration only on the machine it names.
#pragma once

#include <string>

namespace worldtune {

constexpr const char *kCalibrationFormat = "worldtune-calibration";
constexpr int kCalibrationVersion = 1;

/// One sentence on whether the bundle is calibrated to this machine, and on how many records.
std::string calibration_summary(const std::string &bundle_dir);

}  // namespace worldtune
