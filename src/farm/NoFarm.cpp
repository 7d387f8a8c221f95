// The farm in a build without MPI (farm/MpiFarm.cpp otherwise): every run measures locally. See farm/Farm.h.
#include "farm/Farm.h"

#include <stdexcept>

namespace worldtune {

FarmSession::FarmSession(int &, char **&, FarmParams params) : params_(params) {}
FarmSession::~FarmSession() = default;
int FarmSession::serve() { return 0; }

bool farm_active() { return false; }
std::vector<std::string> farm_groups() { return {}; }
void farm_select_hardware(const std::string &name_part) {
    if (!name_part.empty()) throw std::invalid_argument("--hardware needs a build with MPI, started by mpirun");
}

size_t farm_group_count() { return 0; }
int farm_concurrent_searches(int) { return 1; }
nlohmann::json farm_select_group(size_t) { throw std::invalid_argument("no measurement farm in this build"); }

std::unique_ptr<CandidateMeasurer> make_measurer(const MeasureParams &params) { return std::make_unique<LocalMeasurer>(params); }

}  // namespace worldtune
