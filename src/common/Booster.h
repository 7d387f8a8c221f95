// The one wrapper of XGBoost's C API that every model uses: a booster and dense matrices freed with their
// objects, every call checked. A failure throws XgbError (a std::runtime_error) with one line: what was
// being done and XGBoost's own message.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace worldtune {

class XgbError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Dense rows of `width` floats (NaN: missing), with the training information a booster may need.
class XgbMatrix {
public:
    XgbMatrix(const std::vector<float> &rows, size_t count, size_t width);
    ~XgbMatrix();
    XgbMatrix(const XgbMatrix &) = delete;
    XgbMatrix &operator=(const XgbMatrix &) = delete;

    void set_labels(const std::vector<float> &labels);
    /// Sizes of consecutive ranking groups (one per workload).
    void set_groups(const std::vector<unsigned> &sizes);
    /// Margins the booster starts from (a correction trained on top of another model's scores).
    void set_base_margin(const std::vector<float> &margins);
    void *handle() const { return handle_; }

private:
    void *handle_ = nullptr;  ///< DMatrixHandle
};

class Booster {
public:
    Booster() = default;  ///< empty: nothing trained
    /// A fresh booster that trains on `train`, with `settings` (XGBoost parameter name, value).
    Booster(const XgbMatrix &train, const std::vector<std::pair<std::string, std::string>> &settings);
    /// A booster from XGBoost's serialized model bytes; throws XgbError naming `what` when they do not load.
    static Booster from_bytes(const std::string &bytes, const std::string &what);
    ~Booster();
    Booster(Booster &&other) noexcept;
    Booster &operator=(Booster &&other) noexcept;
    Booster(const Booster &) = delete;
    Booster &operator=(const Booster &) = delete;

    explicit operator bool() const { return handle_ != nullptr; }
    void set(const std::string &key, const std::string &value);
    /// One boosting round (`round` counts from 0) on the matrix given at construction.
    void boost(int round, const XgbMatrix &train);
    /// Raw margins of every row of `m`.
    std::vector<float> margins(const XgbMatrix &m) const;
    /// Raw margins of `count` dense rows of `width` floats, predicted in place (no matrix is built: the
    /// scoring path of the search, where building one costs more than the trees).
    std::vector<float> margins_dense(const float *rows, size_t count, size_t width) const;
    /// The first `rounds` rounds as a new booster (settings are not carried over: set them again).
    Booster first_rounds(int rounds) const;
    int rounds() const;
    /// The model in XGBoost's UBJSON format.
    std::string to_bytes() const;
    /// The model as XGBoost's JSON (for FlatForest).
    std::string to_json() const;

private:
    explicit Booster(void *handle) : handle_(handle) {}
    void *handle_ = nullptr;  ///< BoosterHandle
};

}  // namespace worldtune
