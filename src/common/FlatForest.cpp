#include "common/FlatForest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace worldtune {

namespace {

constexpr size_t kRowBlock = 64;     ///< rows walked through one tree before the next tree
constexpr size_t kSideBySide = 8;   ///< rows walking a tree together

float number(const nlohmann::json &v) { return v.is_string() ? std::stof(v.get<std::string>()) : v.get<float>(); }

}  // namespace

FlatForest FlatForest::from_json(const std::string &text) {
    FlatForest f;
    try {
        const nlohmann::json model = nlohmann::json::parse(text);
        const nlohmann::json &learner = model.at("learner");
        const nlohmann::json &param = learner.at("learner_model_param");
        const nlohmann::json &booster = learner.at("gradient_booster");
        if (booster.at("name") != "gbtree") throw std::runtime_error("not a gbtree model");
        if (number(param.value("num_class", nlohmann::json("0"))) > 1 || number(param.value("num_target", nlohmann::json("1"))) > 1)
            throw std::runtime_error("more than one output");
        f.base_score_ = number(param.at("base_score"));
        f.features_ = int(number(param.at("num_feature")));
        for (const nlohmann::json &tree : booster.at("model").at("trees")) {
            const auto left = tree.at("left_children").get<std::vector<int32_t>>();
            const auto right = tree.at("right_children").get<std::vector<int32_t>>();
            const auto feature = tree.at("split_indices").get<std::vector<int32_t>>();
            const auto value = tree.at("split_conditions").get<std::vector<float>>();
            const auto default_left = tree.at("default_left").get<std::vector<int>>();
            if (tree.contains("split_type"))
                for (int t : tree.at("split_type").get<std::vector<int>>())
                    if (t != 0) throw std::runtime_error("categorical split");
            const size_t n = left.size();
            if (right.size() != n || feature.size() != n || value.size() != n || default_left.size() != n || n == 0)
                throw std::runtime_error("inconsistent tree");
            const int32_t offset = int32_t(f.nodes_.size());
            f.roots_.push_back(offset);
            std::vector<int32_t> depth(n, 0);  // parents come before their children in XGBoost's numbering
            int32_t deepest = 0;
            for (size_t i = 0; i < n; i++) {
                const bool leaf = left[i] < 0;
                if (leaf) {
                    f.nodes_.push_back({0, 0.0f, {offset + int32_t(i), offset + int32_t(i)}, 1});  // absorbing
                    f.leaf_values_.push_back(value[i]);
                    deepest = std::max(deepest, depth[i]);
                    continue;
                }
                if (left[i] <= int32_t(i) || left[i] >= int32_t(n) || right[i] <= int32_t(i) || right[i] >= int32_t(n) ||
                    feature[i] < 0 || feature[i] >= f.features_)
                    throw std::runtime_error("bad node");
                depth[size_t(left[i])] = depth[size_t(right[i])] = depth[i] + 1;
                f.nodes_.push_back({feature[i], value[i], {offset + left[i], offset + right[i]}, default_left[i] != 0 ? 1 : 0});
                f.leaf_values_.push_back(0.0f);
            }
            f.depths_.push_back(deepest);
        }
    } catch (const nlohmann::json::exception &e) {
        throw std::runtime_error(std::string("XGBoost model: ") + e.what());
    }
    return f;
}

template <size_t Rows>
void FlatForest::walk(const float *rows, size_t width, int32_t root, int32_t depth, float *out) const {
    const Node *nodes = nodes_.data();
    int32_t at[Rows];
    for (size_t k = 0; k < Rows; k++) at[k] = root;
    for (int32_t level = 0; level < depth; level++)
        for (size_t k = 0; k < Rows; k++) {
            const Node &node = nodes[at[k]];
            const float v = rows[k * width + size_t(node.feature)];
            const int32_t right = int32_t(!(v < node.threshold)) & ~(int32_t(v != v) & node.default_left);
            at[k] = node.child[right];
        }
    for (size_t k = 0; k < Rows; k++) out[k] += leaf_values_[size_t(at[k])];
}

std::vector<float> FlatForest::margins(const float *rows, size_t count, size_t width) const {
    if (width < size_t(features_)) throw std::runtime_error("flat forest: rows narrower than the model's features");
    std::vector<float> out(count, base_score_);
    for (size_t begin = 0; begin < count; begin += kRowBlock) {
        const size_t end = std::min(count, begin + kRowBlock);
        for (size_t tree = 0; tree < roots_.size(); tree++) {
            const int32_t root = roots_[tree], depth = depths_[tree];
            size_t r0 = begin;
            for (; r0 + kSideBySide <= end; r0 += kSideBySide) walk<kSideBySide>(rows + r0 * width, width, root, depth, &out[r0]);
            for (; r0 < end; r0++) walk<1>(rows + r0 * width, width, root, depth, &out[r0]);
        }
    }
    return out;
}

}  // namespace worldtune
