// Online learning through the world model itself: a run's measurements correct the prior's ranking with
// a pairwise logistic model on the candidates' rolled-out latents (z^_T and the performance probe's score)
// and their parallelism features (ScheduleFeatures.h), anchored to the prior:
//     score = a * prior~ + b . phi~        (~: standardized over the run's measured candidates)
// fitted on the pairs of one task's measurements (faster above slower; a failed run is slowest) by Newton's
// method on   mean over pairs of softplus(-(score_i - score_j))  +  l2/2 * ((a - 1)^2 + |b|^2).
// With no data it is the prior (a = 1, b = 0); a large l2 keeps it there, a small one lets a run's own
// measurements override the prior where they disagree with it. No tree, no model learned from scratch.
#pragma once

#include <vector>

namespace worldtune {

/// One task's measured candidates: the prior's scores, their feature rows (`width` floats each) and their
/// latencies (<= 0: failed).
struct CorrectionGroup {
    std::vector<double> prior;
    std::vector<float> features;
    std::vector<double> latencies;
};

class LatentCorrection {
public:
    /// Fits on the groups; `l2` is the pull toward the prior (WorldConfig::online_l2). Returns whether
    /// there was a pair to learn from (otherwise the correction stays the prior).
    bool fit(const std::vector<CorrectionGroup> &groups, int width, double l2);
    /// Scores of candidates from their prior scores and feature rows (`width` floats each).
    std::vector<double> score(const std::vector<double> &prior, const std::vector<float> &features) const;

    bool fitted() const { return fitted_; }
    double prior_weight() const { return weights_.empty() ? 1.0 : weights_[0]; }

private:
    bool fitted_ = false;
    int width_ = 0;
    std::vector<double> mean_, scale_;  ///< per input (the prior first): standardization
    std::vector<double> weights_;       ///< a, then b
};

}  // namespace worldtune
