#include "learn/likelihood.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "gp/additive_kernel.hpp"
#include "learn/dense_cholesky.hpp"
#include "util/parallel.hpp"

namespace addbo {
namespace {

constexpr double kLogTwoPi = 1.8378770664093454836;

}  // namespace

LikelihoodEvaluator::LikelihoodEvaluator(std::vector<VariableType> types, Eigen::MatrixXd points,
                                         Eigen::VectorXd y, int threads)
    : types_(std::move(types)),
      points_(std::move(points)),
      y_(std::move(y)),
      threads_(std::max(1, threads)) {}

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
  // A single variable's product is its factor matrix (cached there; no copy).
  if (clique.size() == 1) return factor(clique[0], lengthscales[clique[0]]);
  CliqueKey key;
  for (int d : clique) key.emplace_back(d, lengthscales[d]);
  auto found = products_.find(key);
  if (found != products_.end()) return found->second;
  Eigen::MatrixXd product = factor(clique[0], lengthscales[clique[0]])
                                .cwiseProduct(factor(clique[1], lengthscales[clique[1]]));
  for (std::size_t j = 2; j < clique.size(); ++j) {
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
  // The weighted clique products (built once and cached; map nodes do not move).
  std::vector<std::pair<const double*, double>> terms;
  terms.reserve(cliques.size());
  for (const VarSet& clique : cliques) {
    terms.emplace_back(clique_product(clique, lengthscales).data(),
                       static_cast<double>(clique.size()) / total_size);
  }
  delta_.resize(n, n);
  // Escalate the jitter as the optimizer does, so a model is judged by the same numerics.
  for (double jitter = 0.0; jitter <= 1.5e-4; jitter = jitter == 0.0 ? 1e-10 : jitter * 10.0) {
    // Delta's lower triangle (all the factorisation reads), a column at a time so that each
    // column stays in cache while the products are added in clique order; blocks of columns
    // may go to different threads (each element is computed the same way on any of them).
    const Eigen::Index columns_per_block = 64;
    const std::size_t blocks =
        static_cast<std::size_t>((n + columns_per_block - 1) / columns_per_block);
    const int assembly_threads = n >= 400 ? threads_ : 1;
    parallel_for(blocks, assembly_threads, [&](std::size_t block) {
      const Eigen::Index first = static_cast<Eigen::Index>(block) * columns_per_block;
      const Eigen::Index last = std::min(n, first + columns_per_block);
      for (Eigen::Index j = first; j < last; ++j) {
        double* column = delta_.data() + j * n;
        for (Eigen::Index i = j; i < n; ++i) column[i] = 0.0;
        for (const auto& [product, weight] : terms) {
          const double* source = product + j * n;
          for (Eigen::Index i = j; i < n; ++i) column[i] += weight * source[i];
        }
        column[j] += noise_variance + jitter;
      }
    });
    if (!cholesky_lower_in_place(delta_, threads_)) continue;
    const Eigen::VectorXd z = delta_.triangularView<Eigen::Lower>().solve(y_);
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
