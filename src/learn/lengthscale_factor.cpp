#include "learn/lengthscale_factor.hpp"

#include <cmath>
#include <limits>

#include "gp/additive_kernel.hpp"
#include "linalg/dense_cholesky.hpp"
#include "linalg/numerics.hpp"

namespace addbo::core {
namespace {

// The log marginal likelihood with Delta = kernel + noise I (lower triangle of `kernel`), on
// the jitter ladder; -infinity past its last rung.
double log_likelihood(const Eigen::MatrixXd& kernel, double noise_variance,
                      const Eigen::VectorXd& y) {
  const Eigen::Index n = kernel.rows();
  for (double jitter = 0.0; !past_last_jitter(jitter); jitter = next_jitter(jitter)) {
    Eigen::MatrixXd delta = kernel;
    delta.diagonal().array() += noise_variance + jitter;
    if (!cholesky_lower_in_place(delta)) continue;
    const Eigen::VectorXd z = delta.triangularView<Eigen::Lower>().solve(y);
    const double log_determinant = 2.0 * delta.diagonal().array().log().sum();
    return -0.5 * z.squaredNorm() - 0.5 * log_determinant -
           0.5 * static_cast<double>(n) * kLogTwoPi;
  }
  return -std::numeric_limits<double>::infinity();
}

}  // namespace

std::vector<double> lengthscale_factor_likelihoods(const LengthscaleFactorData& data,
                                                   double largest, std::size_t count) {
  const Eigen::Index n = data.points.rows();
  const AdditiveKernel kernel(data.types, data.cliques, data.lengthscales, data.noise_variance);
  // Per clique, the product of its unscaled factors (the categorical ones) and the power of
  // its scaled ones at the largest factor, exp(-Q / largest^2); lower triangles only.
  std::vector<Eigen::MatrixXd> fixed(data.cliques.size()), scaled(data.cliques.size());
  for (std::size_t c = 0; c < data.cliques.size(); ++c) {
    fixed[c] = Eigen::MatrixXd::Zero(n, n);
    scaled[c] = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      for (Eigen::Index i = j; i < n; ++i) {
        double product = 1.0, distance = 0.0;
        for (int d : data.cliques[c]) {
          const double u = data.points(i, d), v = data.points(j, d);
          if (data.types[static_cast<std::size_t>(d)] == VariableType::categorical) {
            product *= kernel.factor(static_cast<std::size_t>(d), u, v);
          } else {
            const double l = data.lengthscales[static_cast<std::size_t>(d)] * largest;
            distance += (u - v) * (u - v) / (2.0 * l * l);
          }
        }
        fixed[c](i, j) = kernel.clique_scale(c) * product;
        scaled[c](i, j) = std::exp(-distance);
      }
    }
  }
  std::vector<double> likelihoods;
  for (std::size_t k = 0; k < count; ++k) {
    if (k > 0) {
      // Halving the factor raises each exponential to the fourth power.
      for (Eigen::MatrixXd& power : scaled) {
        power = power.cwiseProduct(power);
        power = power.cwiseProduct(power);
      }
    }
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(n, n);
    for (std::size_t c = 0; c < data.cliques.size(); ++c) sum += fixed[c].cwiseProduct(scaled[c]);
    likelihoods.push_back(log_likelihood(sum, data.noise_variance, data.y));
  }
  return likelihoods;
}

}  // namespace addbo::core
