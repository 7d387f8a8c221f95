#include "common/Booster.h"

#include <xgboost/c_api.h>

#include <cstdint>
#include <cstdio>
#include <limits>

namespace worldtune {

namespace {

/// XGBoost's last error without the stack trace it appends on the following lines.
std::string last_error() {
    const std::string message = XGBGetLastError();
    return message.substr(0, message.find('\n'));
}

void check(int rc, const char *what) {
    if (rc != 0) throw XgbError(std::string("XGBoost: ") + what + ": " + last_error());
}

}  // namespace

XgbMatrix::XgbMatrix(const std::vector<float> &rows, size_t count, size_t width) {
    if (rows.size() < count * width) throw XgbError("XGBoost: a matrix of " + std::to_string(count) + " x " + std::to_string(width) +
                                                    " from " + std::to_string(rows.size()) + " values");
    check(XGDMatrixCreateFromMat(rows.data(), bst_ulong(count), bst_ulong(width), std::numeric_limits<float>::quiet_NaN(), &handle_),
          "creating a matrix");
}

XgbMatrix::~XgbMatrix() {
    if (handle_) XGDMatrixFree(handle_);
}

void XgbMatrix::set_labels(const std::vector<float> &labels) {
    check(XGDMatrixSetFloatInfo(handle_, "label", labels.data(), bst_ulong(labels.size())), "setting labels");
}

void XgbMatrix::set_groups(const std::vector<unsigned> &sizes) {
    check(XGDMatrixSetUIntInfo(handle_, "group", sizes.data(), bst_ulong(sizes.size())), "setting groups");
}

void XgbMatrix::set_base_margin(const std::vector<float> &margins) {
    check(XGDMatrixSetFloatInfo(handle_, "base_margin", margins.data(), bst_ulong(margins.size())), "setting the base margin");
}

Booster::Booster(const XgbMatrix &train, const std::vector<std::pair<std::string, std::string>> &settings) {
    DMatrixHandle cache[] = {train.handle()};
    check(XGBoosterCreate(cache, 1, &handle_), "creating a booster");
    for (const auto &[key, value] : settings) set(key, value);
}

Booster Booster::from_bytes(const std::string &bytes, const std::string &what) {
    BoosterHandle h = nullptr;
    check(XGBoosterCreate(nullptr, 0, &h), "creating a booster");
    Booster b(h);  // freed on the throw below
    if (XGBoosterLoadModelFromBuffer(h, bytes.data(), bst_ulong(bytes.size())) != 0)
        throw XgbError(what + ": XGBoost cannot load it: " + last_error());
    return b;
}

Booster::~Booster() {
    if (handle_) XGBoosterFree(handle_);
}

Booster::Booster(Booster &&other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }

Booster &Booster::operator=(Booster &&other) noexcept {
    if (this != &other) {
        if (handle_) XGBoosterFree(handle_);
        handle_ = other.handle_;
        other.handle_ = nullptr;
    }
    return *this;
}

void Booster::set(const std::string &key, const std::string &value) {
    check(XGBoosterSetParam(handle_, key.c_str(), value.c_str()), key.c_str());
}

void Booster::boost(int round, const XgbMatrix &train) { check(XGBoosterUpdateOneIter(handle_, round, train.handle()), "boosting"); }

std::vector<float> Booster::margins(const XgbMatrix &m) const {
    const char *config = "{\"type\": 1, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false}";
    const bst_ulong *shape = nullptr;
    bst_ulong dim = 0;
    const float *out = nullptr;
    check(XGBoosterPredictFromDMatrix(handle_, m.handle(), config, &shape, &dim, &out), "predicting");
    bst_ulong n = 1;
    for (bst_ulong d = 0; d < dim; d++) n *= shape[d];
    return std::vector<float>(out, out + n);
}

std::vector<float> Booster::margins_dense(const float *rows, size_t count, size_t width) const {
    if (count == 0) return {};
    char array[256];  // the rows as an __array_interface__ (read-only float32, row major)
    std::snprintf(array, sizeof array, "{\"data\": [%llu, true], \"shape\": [%llu, %llu], \"typestr\": \"<f4\", \"version\": 3}",
                  (unsigned long long)reinterpret_cast<uintptr_t>(rows), (unsigned long long)count, (unsigned long long)width);
    const char *config =
        "{\"type\": 1, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false, \"cache_id\": 0, "
        "\"missing\": NaN}";
    const bst_ulong *shape = nullptr;
    bst_ulong dim = 0;
    const float *out = nullptr;
    check(XGBoosterPredictFromDense(handle_, array, config, nullptr, &shape, &dim, &out), "predicting in place");
    bst_ulong n = 1;
    for (bst_ulong d = 0; d < dim; d++) n *= shape[d];
    return std::vector<float>(out, out + n);
}

Booster Booster::first_rounds(int rounds) const {
    BoosterHandle sliced = nullptr;
    check(XGBoosterSlice(handle_, 0, rounds, 1, &sliced), "keeping the first rounds");
    return Booster(sliced);
}

int Booster::rounds() const {
    int n = 0;
    check(XGBoosterBoostedRounds(handle_, &n), "counting rounds");
    return n;
}

std::string Booster::to_bytes() const {
    bst_ulong len = 0;
    const char *bytes = nullptr;
    check(XGBoosterSaveModelToBuffer(handle_, "{\"format\": \"ubj\"}", &len, &bytes), "saving");
    return std::string(bytes, size_t(len));
}

std::string Booster::to_json() const {
    bst_ulong len = 0;
    const char *bytes = nullptr;
    check(XGBoosterSaveModelToBuffer(handle_, "{\"format\": \"json\"}", &len, &bytes), "saving as JSON");
    return std::string(bytes, size_t(len));
}

}  // namespace worldtune
