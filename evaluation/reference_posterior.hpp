// The additive GP posterior computed the slow, obvious way: Delta evaluated entry by entry from
// the kernel, one dense Cholesky, and paper eq. 5 at each query point. The fast incremental
// tables are tested against it; it is also the definition of the marginal likelihood.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

#include "gp/additive_kernel.hpp"

namespace addbo::core {

class ReferencePosterior {
 public:
  // points: encoded inputs; y: standardised observations; Delta = K + (noise + jitter) I.
  // Throws Error(Status::numerical) if Delta is not numerically positive definite.
  ReferencePosterior(const AdditiveKernel& kernel, std::vector<std::vector<double>> points,
                     const Eigen::VectorXd& y, double jitter);

  double mean(const std::vector<double>& u) const;      // E[f(u) | y]
  double variance(const std::vector<double>& u) const;  // Var[f(u) | y]
  double clique_mean(std::size_t c, const std::vector<double>& u) const;
  double clique_variance(std::size_t c, const std::vector<double>& u) const;
  double log_marginal_likelihood() const;

 private:
  Eigen::VectorXd cross(std::size_t clique, const std::vector<double>& u) const;  // all if npos
  const AdditiveKernel& kernel_;
  std::vector<std::vector<double>> points_;
  Eigen::VectorXd y_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::VectorXd alpha_;  // Delta^-1 y
};

}  // namespace addbo::core
