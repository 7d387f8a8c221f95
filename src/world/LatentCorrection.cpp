#include "world/LatentCorrection.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace worldtune {

namespace {

constexpr double kTieTolerance = 0.01;  ///< latencies within 1% are not ordered
constexpr int kNewtonSteps = 20;
constexpr double kMaxStep = 2.0;

/// Solves A x = b for a symmetric positive definite A (n x n, row-major) by Cholesky; A is overwritten.
std::vector<double> solve_spd(std::vector<double> A, std::vector<double> b, size_t n) {
    for (size_t j = 0; j < n; j++) {
        double d = A[j * n + j];
        for (size_t k = 0; k < j; k++) d -= A[j * n + k] * A[j * n + k];
        d = std::sqrt(std::max(d, 1e-12));
        A[j * n + j] = d;
        for (size_t i = j + 1; i < n; i++) {
            double s = A[i * n + j];
            for (size_t k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = s / d;
        }
    }
    for (size_t i = 0; i < n; i++) {  // L y = b
        double s = b[i];
        for (size_t k = 0; k < i; k++) s -= A[i * n + k] * b[k];
        b[i] = s / A[i * n + i];
    }
    for (size_t i = n; i-- > 0;) {  // L^T x = y
        double s = b[i];
        for (size_t k = i + 1; k < n; k++) s -= A[k * n + i] * b[k];
        b[i] = s / A[i * n + i];
    }
    return b;
}

double sigmoid(double x) { return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }

}  // namespace

bool LatentCorrection::fit(const std::vector<CorrectionGroup> &groups, int width, double l2, CorrectionGuard guard) {
    width_ = width;
    guard_ = guard;
    const size_t n = size_t(width) + 1;
    // Standardize every input over all measured candidates.
    mean_.assign(n, 0.0);
    scale_.assign(n, 1.0);
    std::vector<std::vector<double>> rows;  // inputs per candidate, per group in order
    std::vector<std::pair<size_t, size_t>> pairs;  // (faster, slower) row indices
    for (const CorrectionGroup &g : groups) {
        const size_t first = rows.size();
        for (size_t i = 0; i < g.prior.size(); i++) {
            std::vector<double> x(n);
            x[0] = g.prior[i];
            for (size_t k = 0; k < size_t(width); k++) x[k + 1] = g.features[i * size_t(width) + k];
            rows.push_back(std::move(x));
        }
        for (size_t i = 0; i < g.latencies.size(); i++)
            for (size_t j = 0; j < g.latencies.size(); j++) {
                const double li = g.latencies[i], lj = g.latencies[j];
                if (i == j || li <= 0) continue;
                if (lj <= 0 || li < lj * (1 - kTieTolerance)) pairs.emplace_back(first + i, first + j);
            }
    }
    fitted_ = false;
    weights_.assign(n, 0.0);
    weights_[0] = 1.0;
    if (pairs.empty() || rows.size() < 2) return false;
    for (size_t k = 0; k < n; k++) {
        double sum = 0, sq = 0;
        for (const auto &x : rows) sum += x[k], sq += x[k] * x[k];
        mean_[k] = sum / double(rows.size());
        const double var = sq / double(rows.size()) - mean_[k] * mean_[k];
        scale_[k] = var > 1e-12 ? std::sqrt(var) : 0.0;  // a constant input is left out (weight stays at its prior)
    }
    low_.assign(n, 0.0);
    high_.assign(n, 0.0);
    for (auto &x : rows)
        for (size_t k = 0; k < n; k++) {
            x[k] = scale_[k] > 0 ? (x[k] - mean_[k]) / scale_[k] : 0.0;
            low_[k] = std::min(low_[k], x[k]);
            high_[k] = std::max(high_[k], x[k]);
        }
    // The prior enters standardized: its weight's anchor is the prior's own scale, so a = 1 means "as is".
    std::vector<double> anchor(n, 0.0);
    anchor[0] = scale_[0] > 0 ? scale_[0] : 1.0;
    std::vector<double> w = anchor;
    const double inv_pairs = 1.0 / double(pairs.size());
    std::vector<double> diff(n);
    for (int step = 0; step < kNewtonSteps; step++) {
        std::vector<double> grad(n, 0.0), hess(n * n, 0.0);
        for (size_t k = 0; k < n; k++) {
            grad[k] = l2 * (w[k] - anchor[k]);
            hess[k * n + k] = l2 + 1e-9;
        }
        for (const auto &[f, s] : pairs) {
            double margin = 0;
            for (size_t k = 0; k < n; k++) {
                diff[k] = rows[f][k] - rows[s][k];
                margin += w[k] * diff[k];
            }
            const double p = sigmoid(-margin);  // d/dmargin softplus(-margin) = -p
            const double curvature = p * (1 - p) * inv_pairs;
            for (size_t a = 0; a < n; a++) {
                if (diff[a] == 0) continue;
                grad[a] -= p * diff[a] * inv_pairs;
                for (size_t b = 0; b <= a; b++) hess[a * n + b] += curvature * diff[a] * diff[b];
            }
        }
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) hess[a * n + b] = hess[b * n + a];
        std::vector<double> delta = solve_spd(hess, grad, n);
        // A damped step (at most kMaxStep in standardized units per input): separable pairs would send
        // plain Newton steps far out.
        double change = 0;
        for (double d : delta) change = std::max(change, std::abs(d));
        const double damp = change > kMaxStep ? kMaxStep / change : 1.0;
        for (size_t k = 0; k < n; k++) w[k] -= damp * delta[k];
        change *= damp;
        if (change < 1e-6) break;
    }
    // Back to raw inputs: the prior's weight as a multiple of the prior itself.
    weights_ = w;
    weights_[0] = scale_[0] > 0 ? w[0] / scale_[0] : 1.0;
    fitted_ = true;
    double sum = 0, sq = 0;
    for (const auto &x : rows) {
        double s = 0;
        for (size_t k = 0; k < n; k++) s += w[k] * x[k];
        sum += s, sq += s * s;
    }
    const double mean = sum / double(rows.size());
    spread_ = std::sqrt(std::max(0.0, sq / double(rows.size()) - mean * mean));
    return true;
}

double LatentCorrection::standardized(size_t input, double raw) const {
    const double x = (raw - mean_[input]) / scale_[input];
    return guard_.clamp ? std::clamp(x, low_[input], high_[input]) : x;
}

std::vector<double> LatentCorrection::score(const std::vector<double> &prior, const std::vector<float> &features,
                                            const std::vector<float> &anchors) const {
    if (!fitted_) return prior;
    std::vector<double> out(prior.size());
    for (size_t i = 0; i < prior.size(); i++) {
        double s = weights_[0] * prior[i];
        for (size_t k = 0; k < size_t(width_); k++)
            if (scale_[k + 1] > 0) s += weights_[k + 1] * standardized(k + 1, double(features[i * size_t(width_) + k]));
        out[i] = s;
    }
    if (guard_.trust > 0 && !anchors.empty()) {
        const std::vector<double> far = distances(features, anchors);
        for (size_t i = 0; i < out.size(); i++) out[i] -= guard_.trust * spread_ * far[i];
    }
    return out;
}

std::vector<double> LatentCorrection::distances(const std::vector<float> &features, const std::vector<float> &anchors) const {
    const size_t width = size_t(width_), n = width ? features.size() / width : 0, m = width ? anchors.size() / width : 0;
    std::vector<double> out(n, 0.0);
    if (!fitted_ || m == 0) return out;
    size_t used = 0;
    for (size_t k = 0; k < width; k++) used += scale_[k + 1] > 0;
    if (used == 0) return out;
    for (size_t i = 0; i < n; i++) {
        double nearest = std::numeric_limits<double>::infinity();
        for (size_t a = 0; a < m; a++) {
            double sq = 0;
            for (size_t k = 0; k < width; k++) {
                const double sc = scale_[k + 1];
                if (sc <= 0) continue;
                const double d = (double(features[i * width + k]) - double(anchors[a * width + k])) / sc;
                sq += d * d;
            }
            nearest = std::min(nearest, sq);
        }
        out[i] = std::sqrt(nearest / double(used));
    }
    return out;
}

}  // namespace worldtune
