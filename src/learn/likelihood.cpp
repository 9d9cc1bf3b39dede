#include "learn/likelihood.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>

#include "gp/additive_kernel.hpp"

namespace addbo {
namespace {

constexpr double kLogTwoPi = 1.8378770664093454836;

}  // namespace

LikelihoodEvaluator::LikelihoodEvaluator(std::vector<VariableType> types, Eigen::MatrixXd points,
                                         Eigen::VectorXd y)
    : types_(std::move(types)), points_(std::move(points)), y_(std::move(y)) {}

const Eigen::MatrixXd& LikelihoodEvaluator::factor(int d, double lengthscale) {
  const FactorKey key{d, lengthscale};
  auto found = factors_.find(key);
  if (found != factors_.end()) return found->second;
  const Eigen::Index n = y_.size();
  Eigen::MatrixXd matrix(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = j; i < n; ++i) {
      matrix(i, j) = variable_factor(types_[d], lengthscale, points_(i, d), points_(j, d));
    }
  }
  matrix.triangularView<Eigen::StrictlyUpper>() = matrix.transpose();
  return factors_.emplace(key, std::move(matrix)).first->second;
}

const Eigen::MatrixXd& LikelihoodEvaluator::clique_product(const VarSet& clique,
                                                           const std::vector<double>& lengthscales) {
  CliqueKey key;
  for (int d : clique) key.emplace_back(d, lengthscales[d]);
  auto found = products_.find(key);
  if (found != products_.end()) return found->second;
  Eigen::MatrixXd product = factor(clique[0], lengthscales[clique[0]]);
  for (std::size_t j = 1; j < clique.size(); ++j) {
    product.array() *= factor(clique[j], lengthscales[clique[j]]).array();
  }
  return products_.emplace(std::move(key), std::move(product)).first->second;
}

double LikelihoodEvaluator::log_likelihood(const std::vector<VarSet>& cliques,
                                           const std::vector<double>& lengthscales,
                                           double noise_variance) {
  ++evaluations_;
  const Eigen::Index n = y_.size();
  if (n == 0) return 0.0;
  double total_size = 0.0;
  for (const VarSet& clique : cliques) total_size += static_cast<double>(clique.size());
  Eigen::MatrixXd kernel = Eigen::MatrixXd::Zero(n, n);
  for (const VarSet& clique : cliques) {
    kernel.noalias() += (static_cast<double>(clique.size()) / total_size) *
                        clique_product(clique, lengthscales);
  }
  // Escalate the jitter as the optimizer does, so a model is judged by the same numerics.
  for (double jitter = 0.0; jitter <= 1.5e-4; jitter = jitter == 0.0 ? 1e-10 : jitter * 10.0) {
    delta_ = kernel;
    delta_.diagonal().array() += noise_variance + jitter;
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(delta_);
    if (llt.info() != Eigen::Success) continue;
    const Eigen::VectorXd z = llt.matrixL().solve(y_);
    const double log_determinant = 2.0 * delta_.diagonal().array().log().sum();
    const double value = -0.5 * z.squaredNorm() - 0.5 * log_determinant -
                         0.5 * static_cast<double>(n) * kLogTwoPi;
    if (std::isfinite(value)) return value;
  }
  return -std::numeric_limits<double>::infinity();
}

void LikelihoodEvaluator::retain(const std::vector<VarSet>& cliques,
                                 const std::vector<double>& lengthscales) {
  std::map<CliqueKey, Eigen::MatrixXd> kept;
  for (const VarSet& clique : cliques) {
    CliqueKey key;
    for (int d : clique) key.emplace_back(d, lengthscales[d]);
    auto found = products_.find(key);
    if (found != products_.end()) kept.emplace(std::move(key), std::move(found->second));
  }
  products_.swap(kept);
  for (auto it = factors_.begin(); it != factors_.end();) {
    it = it->first.second == lengthscales[it->first.first] ? std::next(it) : factors_.erase(it);
  }
}

}  // namespace addbo
