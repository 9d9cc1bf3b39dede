#include "leave_one_out.hpp"

#include <cmath>
#include <limits>

#include "linalg/dense_cholesky.hpp"
#include "linalg/numerics.hpp"

namespace lengthscale_evidence {

LeaveOneOut leave_one_out(const addbo::core::AdditiveKernel& kernel, const Eigen::MatrixXd& points,
                          const Eigen::VectorXd& y) {
  using addbo::core::kLogTwoPi;
  const Eigen::Index n = y.size();
  const Eigen::MatrixXd columns = points.transpose();  // one column per point: kernel() reads D
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(n, n);  // lower triangle filled
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = j; i < n; ++i) gram(i, j) = kernel(&columns(0, i), &columns(0, j));
  }
  for (double jitter = 0.0; !addbo::core::past_last_jitter(jitter);
       jitter = addbo::core::next_jitter(jitter)) {
    Eigen::MatrixXd factor = gram;
    factor.diagonal().array() += kernel.noise_variance() + jitter;
    if (!addbo::core::cholesky_lower_in_place(factor)) continue;
    // A = L^-T L^-1: A_ii is the squared norm of column i of L^-1, and A y = L^-T (L^-1 y).
    const Eigen::MatrixXd inverse_factor =
        factor.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(n, n));
    const Eigen::VectorXd weights = inverse_factor.transpose() * (inverse_factor * y);
    double squares = 0.0, log_density = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double variance = 1.0 / inverse_factor.col(i).squaredNorm();
      const double miss = weights(i) * variance;
      squares += miss * miss;
      log_density += -0.5 * (kLogTwoPi + std::log(variance)) - 0.5 * miss * miss / variance;
    }
    return {std::sqrt(squares / static_cast<double>(n)), log_density};
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {nan, nan};
}

}  // namespace lengthscale_evidence
