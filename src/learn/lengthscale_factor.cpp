#include "learn/lengthscale_factor.hpp"

#include <cmath>
#include <limits>

#include "gp/additive_kernel.hpp"
#include "linalg/dense_cholesky.hpp"
#include "linalg/numerics.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// Pieces of the kernels' work: enough to keep any thread count busy, few enough that each
// piece's column buffers are worth their allocation.
constexpr Eigen::Index kStripes = 16;

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
                                                   double largest, std::size_t count, int threads) {
  const Eigen::Index n = data.points.rows();
  const AdditiveKernel kernel(data.types, data.cliques, data.lengthscales, data.noise_variance);
  // Every candidate's kernel matrix (lower triangles), a column at a time so that the
  // exponentials are vectorised and the candidates' columns stay in cache while every clique
  // adds to them: per clique, the product of its unscaled factors (the categorical ones) times
  // the power of its scaled ones, exp(-Q / largest^2) at the largest factor, raised to the
  // fourth for each halving; added clique by clique in order.
  std::vector<Eigen::MatrixXd> sums(count, Eigen::MatrixXd::Zero(n, n));
  // The columns in interleaved stripes, a piece of work each: every stripe holds long and
  // short columns alike, and each entry is computed the same way whichever thread runs it.
  const std::size_t stripes = static_cast<std::size_t>(std::min<Eigen::Index>(n, kStripes));
  parallel_for(stripes, threads, [&](std::size_t stripe) {
    // Column buffers, of which each column uses its first n - j entries.
    Eigen::ArrayXd q_buffer(n), fixed_buffer(n), power_buffer(n);
    for (Eigen::Index j = static_cast<Eigen::Index>(stripe); j < n;
         j += static_cast<Eigen::Index>(stripes)) {
      const Eigen::Index rows = n - j;  // points j .. n - 1
      auto q = q_buffer.head(rows);
      auto fixed = fixed_buffer.head(rows);
      auto p = power_buffer.head(rows);
      for (std::size_t c = 0; c < data.cliques.size(); ++c) {
        q.setZero();
        fixed.setConstant(kernel.clique_scale(c));
        for (int d : data.cliques[c]) {
          const auto u = data.points.col(d).segment(j, rows).array();
          const double v = data.points(j, d);
          if (data.types[static_cast<std::size_t>(d)] == VariableType::categorical) {
            for (Eigen::Index i = 0; i < rows; ++i) {
              fixed(i) *= kernel.factor(static_cast<std::size_t>(d), u(i), v);
            }
          } else {
            const double l = data.lengthscales[static_cast<std::size_t>(d)] * largest;
            q += (u - v).square() / (2.0 * l * l);
          }
        }
        p = (-q).exp();
        for (std::size_t k = 0; k < count; ++k) {
          if (k > 0) p = p.square().square();  // halving the factor: the fourth power
          sums[k].col(j).segment(j, rows).array() += fixed * p;
        }
      }
    }
  });
  std::vector<double> likelihoods(count);
  parallel_for(count, threads, [&](std::size_t k) {
    likelihoods[k] = log_likelihood(sums[k], data.noise_variance, data.y);
  });
  return likelihoods;
}

}  // namespace addbo::core
