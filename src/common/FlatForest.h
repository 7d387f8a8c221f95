// An XGBoost tree ensemble (gbtree, one output, numerical splits) read from its JSON model into flat node
// arrays, to score dense float rows without XGBoost's adapters: the margins XGBoost's own prediction gives
// (base score, then every tree's leaf added in tree order, in float). Eight rows walk a tree side by side,
// each step without a branch, so their chains of dependent loads overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace worldtune {

class FlatForest {
public:
    /// Reads an XGBoost JSON model (Booster::to_json). Throws std::runtime_error for a model it cannot
    /// score exactly (not gbtree, several outputs, categorical splits): the caller keeps XGBoost's predictor.
    static FlatForest from_json(const std::string &json);
    /// Margins of `count` rows of `width` floats (width >= the model's features; NaN is missing).
    std::vector<float> margins(const float *rows, size_t count, size_t width) const;
    size_t trees() const { return roots_.size(); }
    int features() const { return features_; }

private:
    /// A split, or a leaf made absorbing: a leaf leads to itself whatever the row holds, so a row can take
    /// a tree's full depth of steps without asking whether it has arrived.
    struct Node {
        int32_t feature;
        float threshold;  ///< left when x < threshold (or x is missing and default_left)
        int32_t child[2];  ///< left, right
        int32_t default_left;  ///< 1 or 0
    };
    /// Walks `Rows` consecutive rows through the tree at `root` (`depth` steps) and adds their leaves to out.
    template <size_t Rows>
    void walk(const float *rows, size_t width, int32_t root, int32_t depth, float *out) const;

    std::vector<Node> nodes_;
    std::vector<float> leaf_values_;  ///< per node (0 at splits)
    std::vector<int32_t> roots_, depths_;  ///< per tree: its root's node and its depth (steps to any leaf)
    float base_score_ = 0;
    int features_ = 0;
};

}  // namespace worldtune
