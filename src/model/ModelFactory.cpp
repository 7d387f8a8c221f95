#include "model/ModelFactory.h"

#include "model/BlendModel.h"
#include "model/RandomModel.h"
#include "model/StaticModel.h"
#include "world/WorldModel.h"

#include <stdexcept>

namespace worldtune {

std::vector<std::string> cost_model_names() {
    return {"random", "static", "world", "world+static", "world-initial", "world-final", "world-actions"};
}

bool uses_world_bundle(const std::string &name) { return name.rfind("world", 0) == 0; }

std::unique_ptr<CostModel> make_cost_model(const std::string &name, const CostModelParams &params) {
    if (name == "random") return std::make_unique<RandomModel>(params.seed);
    if (name == "static") return std::make_unique<StaticModel>(params);
    if (name == "world+static")
        return std::make_unique<BlendModel>(make_cost_model("world", params), std::make_unique<StaticModel>(params));
    for (WorldVariant v : {WorldVariant::World, WorldVariant::Initial, WorldVariant::Final, WorldVariant::Actions})
        if (name == world_variant_model_name(v))
            return std::make_unique<WorldModel>(WorldBundle::locate(params.world_bundle), v, params.threads);
    std::string known;
    for (const std::string &n : cost_model_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown cost model '" + name + "' (known: " + known + ")");
}

}  // namespace worldtune
