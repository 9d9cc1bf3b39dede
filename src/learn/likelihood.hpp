// The GP log marginal likelihood log p(y | graph, lengthscales, noise) that every Gibbs
// conditional is computed from (paper section 4):
//   -1/2 y^T Delta^-1 y - 1/2 log|Delta| - n/2 log 2 pi,  Delta = sum_C s_C P_C + noise I,
// where P_C = prod_{d in C} F_d and F_d is variable d's factor matrix between the data points.
// Learning asks for thousands of these with one coordinate changed at a time, so the factor
// matrices F_d and the clique products P_C are cached: an edge flip rebuilds only the cliques
// it changes, and every evaluation costs one Cholesky (learn/dense_cholesky.hpp).
#pragma once

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "config/config.hpp"
#include "graph/graph.hpp"

namespace addbo {

class LikelihoodEvaluator {
 public:
  // points: n x D encoded inputs; y: standardised observations. threads: how many threads each
  // Cholesky may use (the value does not change any result, bit for bit).
  LikelihoodEvaluator(std::vector<VariableType> types, Eigen::MatrixXd points, Eigen::VectorXd y,
                      int threads = 1);

  // Counts as one likelihood evaluation. Returns -infinity when Delta is not numerically
  // positive definite even with jitter 1e-4 (such a model is never chosen).
  double log_likelihood(const std::vector<VarSet>& cliques, const std::vector<double>& lengthscales,
                        double noise_variance);
  std::size_t evaluations() const { return evaluations_; }
  std::size_t point_count() const { return static_cast<std::size_t>(y_.size()); }

  // Forgets cached products that the given model does not use (bounds the memory to the
  // current sample plus one candidate).
  void retain(const std::vector<VarSet>& cliques, const std::vector<double>& lengthscales);

 private:
  using FactorKey = std::pair<int, double>;                  // variable, lengthscale
  using CliqueKey = std::vector<std::pair<int, double>>;     // its variables with lengthscales
  const Eigen::MatrixXd& factor(int d, double lengthscale);
  const Eigen::MatrixXd& clique_product(const VarSet& clique, const std::vector<double>& lengthscales);

  std::vector<VariableType> types_;
  Eigen::MatrixXd points_;
  Eigen::VectorXd y_;
  std::map<FactorKey, Eigen::MatrixXd> factors_;
  std::map<CliqueKey, Eigen::MatrixXd> products_;
  int threads_ = 1;
  Eigen::MatrixXd delta_;  // workspace, factorised in place
  std::size_t evaluations_ = 0;
};

}  // namespace addbo
