// Where evaluations fail: a Gaussian-process classifier on the additive kernel.
//
// A latent function g(x) = m + h(x), h ~ GP(0, a^2 k) with k the additive kernel (the model's
// cliques and lengthscales, k(x, x) = 1), labels success or failure through the probit link
// P(success | g) = Phi(g). The posterior of h given the labels is approximated by Laplace's
// method: the mode h^ of log p(labels | h) - h^T K^-1 h / 2 found by Newton's method, and the
// Gaussian with the curvature there (Rasmussen & Williams 2006, Gaussian Processes for Machine
// Learning, algorithms 3.1 and 3.2, probit likelihood of section 3.4). The probit likelihood is
// log-concave, so the mode is unique and Newton's method (with step halving) finds it.
//
// What an ask needs from it is additive where it can be: the latent's posterior mean is
//   m + a^2 sum_C k_C(x, X) grad,   grad = d log p(labels | h) / dh at the mode,
// a sum over the cliques, so it has exact tables over every clique's grid (mean_tables); its
// variance a^2 k(x, x) - a^4 k(X, x)^T (a^2 K + W^-1)^-1 k(X, x) is not, and is computed at a
// point (moments).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "gp/additive_kernel.hpp"

namespace addbo::core {

class ProbitClassifier {
 public:
  // The Laplace approximation for the encoded points with their labels (true: success), prior
  // amplitude a^2 = `amplitude` and prior mean m. `kernel_matrix`, when given, is the kernel's
  // matrix over the points (computed by the caller, as learning does for many candidates).
  // Nothing when a factorisation fails (only non-finite numbers can make I + W^1/2 K W^1/2,
  // whose eigenvalues are at least 1, fail).
  static std::optional<ProbitClassifier> fit(const AdditiveKernel& kernel,
                                             const std::vector<std::vector<double>>& points,
                                             const std::vector<char>& success, double amplitude,
                                             double prior_mean,
                                             const Eigen::MatrixXd* kernel_matrix = nullptr);

  double amplitude() const { return amplitude_; }
  double prior_mean() const { return prior_mean_; }
  std::size_t point_count() const { return points_.size(); }
  // The latent at the points at the mode, m + h^ (in the order given).
  const Eigen::VectorXd& latent_mode() const { return mode_; }
  // log q(labels) of the Laplace approximation (R&W eq. 3.32): how well amplitude, mean and
  // kernel explain the labels.
  double log_evidence() const { return log_evidence_; }

  struct Moments {
    double mean = 0.0;      // of the latent g, prior mean included
    double variance = 0.0;  // of the latent g
  };
  // The latent's approximate posterior at the encoded point u.
  Moments moments(const std::vector<double>& u) const;
  // P(success) at u: the probit averaged over the latent's posterior, Phi(mean / sqrt(1 + var)).
  double success_probability(const std::vector<double>& u) const;
  // P(success) at the safest point that succeeded: of the successes, the one whose latent is
  // highest at the mode (0 when none succeeded).
  double safest_success_probability() const;
  // P(success) at u by the latent's posterior mean alone, Phi(mean): the classifier's decision,
  // which mean_tables() steer by. Unlike success_probability() it does not fall towards 1/2
  // where the latent is uncertain. O(n), without the variance's triangular solve.
  double mean_success_probability(const std::vector<double>& u) const;
  // Phi of the highest latent at the mode among the successes (0 when none succeeded): the
  // safest success by mean_success_probability().
  double safest_mean_success_probability() const;

  // The latent's posterior mean without m, one table per clique of the kernel over the grid
  // `axes` (encoded values per variable), row-major, last variable fastest: their sum at a grid
  // point plus m is moments().mean there.
  std::vector<Eigen::VectorXd> mean_tables(const std::vector<std::vector<double>>& axes) const;

 private:
  ProbitClassifier(const AdditiveKernel& kernel, std::vector<std::vector<double>> points,
                   double amplitude, double prior_mean);
  bool find_mode(const Eigen::MatrixXd& gram, const std::vector<char>& success);
  Eigen::VectorXd cross_covariance(const std::vector<double>& u) const;  // a^2 k(X, u)
  // The success whose latent is highest at the mode; none when none succeeded.
  std::optional<std::size_t> safest_success() const;

  AdditiveKernel kernel_;
  std::vector<std::vector<double>> points_;
  std::vector<char> success_;
  double amplitude_;
  double prior_mean_;
  Eigen::VectorXd mode_;      // m + h^ at the points
  Eigen::VectorXd gradient_;  // d log p(labels | g) / dg at the mode
  Eigen::VectorXd sqrt_w_;    // W^1/2, W = -d^2 log p / dg^2 at the mode
  Eigen::MatrixXd factor_;    // lower Cholesky factor of I + W^1/2 (a^2 K) W^1/2
  double log_evidence_ = 0.0;
};

// Numerically stable pieces of the probit likelihood log Phi(z), for any finite z (far in
// the lower tail through its asymptotic series).
double log_normal_cdf(double z);
// phi(z) / Phi(z), the derivative of log Phi(z).
double normal_hazard(double z);
// Phi(z).
double normal_cdf(double z);
// Phi^-1(p) for p in (0, 1), to about machine precision.
double normal_quantile(double p);

}  // namespace addbo::core
