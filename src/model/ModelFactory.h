// Builds the cost model the search is given, by name, and holds every knob of the models.
//
// How to add a model: subclass CostModel (search/CostModel.h) in src/model/<Name>Model.{h,cpp}, add it to
// make_cost_model() and cost_model_names() (ModelFactory.cpp), and give it a test in tests/ModelTest.cpp.
#pragma once

#include "common/Defaults.h"
#include "search/CostModel.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace worldtune {

/// Every knob of the models, with defaults; the command line fills it.
struct CostModelParams {
    uint64_t seed = 1;
    int threads = kDefaultThreads;                 ///< threads for training and feature extraction
    int xgb_rounds = 100;            ///< boosting rounds per (re)training
    int xgb_max_depth = 6;           ///< tree depth (Ansor uses 10 on its larger per-statement data)
    double xgb_eta = 0.2;            ///< Ansor's learning rate
    int retrain_every = 1;           ///< retrain after this many update() calls with new data
    std::string world_bundle;        ///< world-model bundle directory ("": WorldBundle::locate's default)
};

/// The models the search can use.
std::vector<std::string> cost_model_names();
/// Whether a model of that name loads a world-model bundle (world and its variants, world+static).
bool uses_world_bundle(const std::string &name);
/// Builds a model by name; throws std::invalid_argument naming the known models.
std::unique_ptr<CostModel> make_cost_model(const std::string &name, const CostModelParams &params = {});

}  // namespace worldtune
