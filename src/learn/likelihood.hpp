// The GP log marginal likelihood log p(y | graph, lengthscales, noise) that every Gibbs
// conditional is computed from (paper section 4):
//   -1/2 y^T Delta^-1 y - 1/2 log|Delta| - n/2 log 2 pi,  Delta = sum_C s_C P_C + noise I,
// where P_C = prod_{d in C} F_d and F_d is variable d's factor matrix between the data points.
// Learning asks for thousands of these with one coordinate changed at a time, so the factor
// matrices F_d and the clique products P_C are cached, and so is S = sum_C |C| P_C of the
// current sample (Delta = S / sum_C |C| + noise I): a candidate that differs from it in a few
// cliques (an edge flip, a lengthscale, a label) costs those cliques' products added to or
// taken from S, then one Cholesky (linalg/dense_cholesky.hpp), however many cliques the graph
// has. S is rebuilt from scratch for every new evaluator (every learning round), so its
// rounding depends only on the round's own history and a restored optimizer learns the same.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "graph/graph.hpp"
#include "space/variable.hpp"

namespace addbo::core {

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

  // Makes the given model the current sample that candidates are compared with, and forgets
  // cached products it does not use but a dozen at its lengthscales. The cache never holds
  // more than the current sample's products and about twenty others.
  void retain(const std::vector<VarSet>& cliques, const std::vector<double>& lengthscales);

 private:
  using FactorKey = std::pair<int, double>;               // variable, lengthscale
  using CliqueKey = std::vector<std::pair<int, double>>;  // its variables with lengthscales
  struct Term {
    const double* matrix;  // n x n, column-major; only the lower triangle is read
    double weight;
  };
  const Eigen::MatrixXd& factor(int d, double lengthscale);
  const Eigen::MatrixXd& clique_product(const CliqueKey& key);
  // A matrix of n x n for a cache entry: a recycled one when there is one (no page faults).
  Eigen::MatrixXd new_matrix();
  void recycle(Eigen::MatrixXd&& matrix);
  // Keeps the products of the current sample and a dozen more at `lengthscales`.
  void trim_products(const std::vector<double>& lengthscales);
  void trim_if_large(const std::vector<double>& lengthscales);
  // sum_ = S of `keys` (sorted), from base_sum_ when that is cheaper than from zero.
  void build_sum(const std::vector<CliqueKey>& keys);
  // Lower triangle of target = sum of the terms (and of `start` when not null), column blocks
  // on several threads; each element is summed in the same order on any thread.
  void accumulate(Eigen::MatrixXd& target, const double* start, const std::vector<Term>& terms);

  std::vector<VariableType> types_;
  Eigen::MatrixXd points_;
  Eigen::VectorXd y_;
  std::map<FactorKey, Eigen::MatrixXd> factors_;
  std::map<CliqueKey, Eigen::MatrixXd> products_;
  std::vector<Eigen::MatrixXd> spare_;  // released cache matrices, reused before allocating
  int threads_ = 1;
  std::vector<CliqueKey> base_keys_;  // the current sample's cliques (sorted); S in base_sum_
  bool base_valid_ = false;
  Eigen::MatrixXd base_sum_;
  std::vector<CliqueKey> sum_keys_;  // the last evaluated model's cliques; S in sum_
  Eigen::MatrixXd sum_;
  Eigen::MatrixXd delta_;  // workspace, factorised in place
  std::size_t evaluations_ = 0;
};

}  // namespace addbo::core
