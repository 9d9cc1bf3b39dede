#include "acquisition/known_points.hpp"

#include <Eigen/Cholesky>
#include <algorithm>

namespace addbo::core {
namespace {

// A point is known when its posterior variance (standardised units) is at most this many noise
// variances, and at most the cap: a noisy objective may be evaluated again where it pays.
constexpr double kKnownNoiseMultiple = 10.0;
constexpr double kKnownVarianceCap = 1e-2;

}  // namespace

double known_variance(const AdditivePosterior& posterior) {
  return std::min(kKnownVarianceCap,
                  kKnownNoiseMultiple * (posterior.kernel().noise_variance() + posterior.jitter()));
}

bool is_known(const AdditivePosterior& posterior, const std::vector<double>& u,
              const CellOccupancy& occupancy, const std::vector<int>& cell, bool with_pending) {
  // The posterior variance given only the points in the cell bounds the full posterior's from
  // above (conditioning on more data never adds variance): when it is already small, the
  // point is known, at the cost of a k x k system instead of a solve against every point.
  std::vector<const std::vector<double>*> points;
  if (const CellPoints::Points* observed = occupancy.observed.find(cell)) {
    for (const std::vector<double>& point : *observed) points.push_back(&point);
  }
  if (with_pending) {
    if (const CellPoints::Points* pending = occupancy.pending.find(cell)) {
      for (const std::vector<double>& point : *pending) points.push_back(&point);
    }
  }
  if (points.empty()) return false;
  const AdditiveKernel& kernel = posterior.kernel();
  const Eigen::Index k = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd delta(k, k);
  Eigen::VectorXd cross(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    cross(i) = kernel(points[i]->data(), u.data());
    for (Eigen::Index j = 0; j <= i; ++j) {
      delta(i, j) = delta(j, i) = kernel(points[i]->data(), points[j]->data());
    }
  }
  delta.diagonal().array() += kernel.noise_variance() + posterior.jitter();
  const Eigen::LLT<Eigen::MatrixXd> factor(delta);
  if (factor.info() != Eigen::Success) return false;  // cannot tell: treat as new
  const double variance = 1.0 - cross.dot(factor.solve(cross));
  return variance <= known_variance(posterior);
}

}  // namespace addbo::core
