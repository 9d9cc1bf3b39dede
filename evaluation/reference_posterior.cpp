#include "evaluation/reference_posterior.hpp"

#include <cmath>
#include <limits>

#include "util/error.hpp"

namespace addbo::core {
namespace {
constexpr std::size_t kAllCliques = std::numeric_limits<std::size_t>::max();
}

ReferencePosterior::ReferencePosterior(const AdditiveKernel& kernel,
                                       std::vector<std::vector<double>> points,
                                       const Eigen::VectorXd& y, double jitter)
    : kernel_(kernel), points_(std::move(points)), y_(y) {
  const Eigen::Index n = static_cast<Eigen::Index>(points_.size());
  Eigen::MatrixXd delta(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j)
      delta(i, j) = kernel_(points_[i].data(), points_[j].data());
    delta(i, i) += kernel_.noise_variance() + jitter;
  }
  llt_.compute(delta);
  if (llt_.info() != Eigen::Success) {
    throw Error(Status::numerical, "ReferencePosterior: Delta is not positive definite");
  }
  alpha_ = llt_.solve(y_);
}

Eigen::VectorXd ReferencePosterior::cross(std::size_t clique, const std::vector<double>& u) const {
  Eigen::VectorXd k(static_cast<Eigen::Index>(points_.size()));
  for (std::size_t i = 0; i < points_.size(); ++i) {
    k(static_cast<Eigen::Index>(i)) =
        clique == kAllCliques ? kernel_(points_[i].data(), u.data())
                              : kernel_.clique_value(clique, points_[i].data(), u.data());
  }
  return k;
}

double ReferencePosterior::mean(const std::vector<double>& u) const {
  return cross(kAllCliques, u).dot(alpha_);
}

double ReferencePosterior::variance(const std::vector<double>& u) const {
  const Eigen::VectorXd k = cross(kAllCliques, u);
  return kernel_(u.data(), u.data()) - k.dot(llt_.solve(k));
}

double ReferencePosterior::clique_mean(std::size_t c, const std::vector<double>& u) const {
  return cross(c, u).dot(alpha_);
}

double ReferencePosterior::clique_variance(std::size_t c, const std::vector<double>& u) const {
  const Eigen::VectorXd k = cross(c, u);
  return kernel_.clique_value(c, u.data(), u.data()) - k.dot(llt_.solve(k));
}

double ReferencePosterior::log_marginal_likelihood() const {
  const Eigen::MatrixXd l = llt_.matrixL();
  const double log_det = 2.0 * l.diagonal().array().log().sum();
  return -0.5 * y_.dot(alpha_) - 0.5 * log_det -
         0.5 * static_cast<double>(y_.size()) * std::log(2.0 * M_PI);
}

}  // namespace addbo::core
