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

double cell_variance_bound(const AdditivePosterior& posterior, const std::vector<double>& u,
                           const CellOccupancy& occupancy, const std::vector<int>& cell,
                           bool with_pending) {
  // The variance given only (some of) the points in the cell bounds the full posterior's from
  // above: a k x k system instead of a solve against every point.
  const CellPoints::Points* observed = occupancy.observed.find(cell);
  const CellPoints::Points* pending = with_pending ? occupancy.pending.find(cell) : nullptr;
  const std::size_t pending_taken = pending ? std::min(pending->size(), kMostCellPoints) : 0;
  const std::size_t observed_taken =
      observed ? std::min(observed->size(), kMostCellPoints - pending_taken) : 0;
  std::vector<const std::vector<double>*> points;
  if (observed) {
    for (std::size_t i = observed->size() - observed_taken; i < observed->size(); ++i)
      points.push_back(&(*observed)[i]);
  }
  if (pending) {
    for (std::size_t i = pending->size() - pending_taken; i < pending->size(); ++i)
      points.push_back(&(*pending)[i]);
  }
  if (points.empty()) return 1.0;
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
  if (factor.info() != Eigen::Success) return 1.0;  // cannot tell: treat as new
  return 1.0 - cross.dot(factor.solve(cross));
}

bool is_known(const AdditivePosterior& posterior, const std::vector<double>& u,
              const CellOccupancy& occupancy, const std::vector<int>& cell, bool with_pending) {
  if (!occupancy.observed.contains(cell) && !(with_pending && occupancy.pending.contains(cell)))
    return false;
  return cell_variance_bound(posterior, u, occupancy, cell, with_pending) <=
         known_variance(posterior);
}

}  // namespace addbo::core
