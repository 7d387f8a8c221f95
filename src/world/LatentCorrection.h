// Online learning through the world model itself: a run's measurements correct the prior's ranking with
// a pairwise logistic model on the candidates' rolled-out latents (z^_T and the performance probe's score)
// and their parallelism features (ScheduleFeatures.h), anchored to the prior:
//     score = a * prior~ + b . phi~        (~: standardized over the run's measured candidates)
// fitted on the pairs of one task's measurements (faster above slower; a failed run is slowest) by Newton's
// method on   mean over pairs of softplus(-(score_i - score_j))  +  l2/2 * ((a - 1)^2 + |b|^2).
// With no data it is the prior (a = 1, b = 0); a large l2 keeps it there, a small one lets a run's own
// measurements override the prior where they disagree with it. No tree, no model learned from scratch.
//
// A linear correction extrapolates without bound: a candidate whose latent lies far outside what the run
// measured gets the largest correction of all, and becomes the search's confident pick far from any
// measured schedule. Two guards (CorrectionGuard, off by default) keep it to where it has data: `clamp`
// bounds each standardized input to its measured range before the correction reads it; `trust` lowers
// a candidate's score by its latent distance to the task's fastest measured candidates (a trust region).
#pragma once

#include <cstddef>
#include <vector>

namespace worldtune {

/// One task's measured candidates: the prior's scores, their feature rows (`width` floats each) and their
/// latencies (<= 0: failed).
struct CorrectionGroup {
    std::vector<double> prior;
    std::vector<float> features;
    std::vector<double> latencies;
};

/// The guards against extrapolation (one home: WorldConfig::online_clamp, online_trust, online_trust_top).
struct CorrectionGuard {
    bool clamp = false;  ///< bound each standardized input to the range the fit saw
    double trust = 0;    ///< penalty per unit of latent distance, in units of the measured scores' spread
};

class LatentCorrection {
public:
    /// Fits on the groups; `l2` is the pull toward the prior (WorldConfig::online_l2). Returns whether
    /// there was a pair to learn from (otherwise the correction stays the prior).
    bool fit(const std::vector<CorrectionGroup> &groups, int width, double l2, CorrectionGuard guard = {});
    /// Scores of candidates from their prior scores and feature rows (`width` floats each). With the trust
    /// guard, `anchors` (feature rows of the task's fastest measured candidates) define the trust region.
    std::vector<double> score(const std::vector<double> &prior, const std::vector<float> &features,
                              const std::vector<float> &anchors = {}) const;
    /// Per candidate, the root-mean-square standardized distance of its feature row to the nearest anchor
    /// row (0 with no anchors).
    std::vector<double> distances(const std::vector<float> &features, const std::vector<float> &anchors) const;

    bool fitted() const { return fitted_; }
    double prior_weight() const { return weights_.empty() ? 1.0 : weights_[0]; }

private:
    /// Input `input` (0: the prior) of a raw value, standardized, and clamped with the clamp guard.
    double standardized(size_t input, double raw) const;
    bool fitted_ = false;
    int width_ = 0;
    CorrectionGuard guard_;
    std::vector<double> mean_, scale_;  ///< per input (the prior first): standardization
    std::vector<double> low_, high_;    ///< per input: the standardized range the fit saw (clamp)
    std::vector<double> weights_;       ///< a, then b
    double spread_ = 0;                 ///< standard deviation of the corrected scores of the measured rows
};

}  // namespace worldtune
