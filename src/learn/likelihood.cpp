#include "learn/likelihood.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "gp/additive_kernel.hpp"
#include "linalg/dense_cholesky.hpp"
#include "linalg/numerics.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// Released cache matrices kept for reuse: enough for one step's candidates.
constexpr std::size_t kSpareMatrices = 8;
// Cached clique products kept beyond the current sample's (n x n doubles each).
constexpr std::size_t kExtraProducts = 12;

using CliqueKeyList = std::vector<std::vector<std::pair<int, double>>>;

CliqueKeyList sorted_keys(const std::vector<VarSet>& cliques,
                          const std::vector<double>& lengthscales) {
  CliqueKeyList keys;
  keys.reserve(cliques.size());
  for (const VarSet& clique : cliques) {
    std::vector<std::pair<int, double>> key;
    for (int d : clique) key.emplace_back(d, lengthscales[d]);
    keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

LikelihoodEvaluator::LikelihoodEvaluator(std::vector<VariableType> types, Eigen::MatrixXd points,
                                         Eigen::VectorXd y, int threads)
    : types_(std::move(types)),
      points_(std::move(points)),
      y_(std::move(y)),
      threads_(std::max(1, threads)) {}

Eigen::MatrixXd LikelihoodEvaluator::new_matrix() {
  if (spare_.empty()) return Eigen::MatrixXd(y_.size(), y_.size());
  Eigen::MatrixXd matrix = std::move(spare_.back());
  spare_.pop_back();
  return matrix;
}

void LikelihoodEvaluator::recycle(Eigen::MatrixXd&& matrix) {
  if (spare_.size() < kSpareMatrices) spare_.push_back(std::move(matrix));
}

const Eigen::MatrixXd& LikelihoodEvaluator::factor(int d, double lengthscale) {
  const FactorKey key{d, lengthscale};
  auto found = factors_.find(key);
  if (found != factors_.end()) return found->second;
  const Eigen::Index n = y_.size();
  Eigen::MatrixXd matrix = new_matrix();
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = j; i < n; ++i) {
      matrix(i, j) = variable_factor(types_[d], lengthscale, points_(i, d), points_(j, d));
    }
  }
  return factors_.emplace(key, std::move(matrix)).first->second;
}

const Eigen::MatrixXd& LikelihoodEvaluator::clique_product(const CliqueKey& key) {
  // A single variable's product is its factor matrix (cached there; no copy).
  if (key.size() == 1) return factor(key[0].first, key[0].second);
  auto found = products_.find(key);
  if (found != products_.end()) return found->second;
  const Eigen::Index n = y_.size();
  std::vector<const double*> factors;
  for (const auto& [d, lengthscale] : key) factors.push_back(factor(d, lengthscale).data());
  Eigen::MatrixXd product = new_matrix();
  for (Eigen::Index j = 0; j < n; ++j) {  // the lower triangle, as everything here
    double* column = product.data() + j * n;
    for (Eigen::Index i = j; i < n; ++i) column[i] = factors[0][j * n + i] * factors[1][j * n + i];
    for (std::size_t f = 2; f < factors.size(); ++f) {
      for (Eigen::Index i = j; i < n; ++i) column[i] *= factors[f][j * n + i];
    }
  }
  return products_.emplace(key, std::move(product)).first->second;
}

void LikelihoodEvaluator::accumulate(Eigen::MatrixXd& target, const double* start,
                                     const std::vector<Term>& terms) {
  const Eigen::Index n = y_.size();
  target.resize(n, n);
  // A column at a time, so that each column stays in cache while the terms are added in
  // order; blocks of columns may go to different threads.
  const Eigen::Index columns_per_block = 64;
  const std::size_t blocks =
      static_cast<std::size_t>((n + columns_per_block - 1) / columns_per_block);
  parallel_for(blocks, n >= 400 ? threads_ : 1, [&](std::size_t block) {
    const Eigen::Index first = static_cast<Eigen::Index>(block) * columns_per_block;
    const Eigen::Index last = std::min(n, first + columns_per_block);
    for (Eigen::Index j = first; j < last; ++j) {
      double* column = target.data() + j * n;
      if (start != nullptr) {
        for (Eigen::Index i = j; i < n; ++i) column[i] = start[j * n + i];
      } else {
        for (Eigen::Index i = j; i < n; ++i) column[i] = 0.0;
      }
      for (const Term& term : terms) {
        const double* source = term.matrix + j * n;
        for (Eigen::Index i = j; i < n; ++i) column[i] += term.weight * source[i];
      }
    }
  });
}

void LikelihoodEvaluator::build_sum(const std::vector<CliqueKey>& keys) {
  if (sum_keys_ == keys && sum_.size() > 0) return;
  std::vector<Term> terms;
  if (base_valid_) {
    // The cliques in which the model differs from the current sample (multiset difference
    // of two sorted lists).
    std::vector<Term> changes;
    std::size_t a = 0, b = 0;
    while (a < base_keys_.size() || b < keys.size()) {
      if (b == keys.size() || (a < base_keys_.size() && base_keys_[a] < keys[b])) {
        const CliqueKey& removed = base_keys_[a++];
        changes.push_back({clique_product(removed).data(), -static_cast<double>(removed.size())});
      } else if (a == base_keys_.size() || keys[b] < base_keys_[a]) {
        const CliqueKey& added = keys[b++];
        changes.push_back({clique_product(added).data(), static_cast<double>(added.size())});
      } else {
        ++a;
        ++b;
      }
    }
    if (changes.size() < keys.size()) {
      accumulate(sum_, base_sum_.data(), changes);
      sum_keys_ = keys;
      return;
    }
  }
  for (const CliqueKey& key : keys) {
    terms.push_back({clique_product(key).data(), static_cast<double>(key.size())});
  }
  accumulate(sum_, nullptr, terms);
  sum_keys_ = keys;
}

void LikelihoodEvaluator::trim_if_large(const std::vector<double>& lengthscales) {
  // One step's candidates (a hub variable's lengthscale changes every clique it is in, for
  // each choice) can need many new products: keep the memory bounded within the step too.
  if (products_.size() > base_keys_.size() + kExtraProducts + kSpareMatrices) {
    trim_products(lengthscales);
  }
}

double LikelihoodEvaluator::log_likelihood(const std::vector<VarSet>& cliques,
                                           const std::vector<double>& lengthscales,
                                           double noise_variance) {
  ++evaluations_;
  const Eigen::Index n = y_.size();
  if (n == 0) return 0.0;
  const CliqueKeyList keys = sorted_keys(cliques, lengthscales);
  build_sum(keys);
  if (!base_valid_) {  // the first model evaluated is where the chain starts
    base_sum_ = sum_;
    base_keys_ = keys;
    base_valid_ = true;
  }
  double total_size = 0.0;
  for (const CliqueKey& key : keys) total_size += static_cast<double>(key.size());
  const double scale = 1.0 / total_size;
  // The optimizer's jitter ladder, so that a model is judged by the numerics it is used with.
  for (double jitter = 0.0; !past_last_jitter(jitter); jitter = next_jitter(jitter)) {
    accumulate(delta_, nullptr, {{sum_.data(), scale}});
    delta_.diagonal().array() += noise_variance + jitter;
    if (!cholesky_lower_in_place(delta_, threads_)) continue;
    const Eigen::VectorXd z = delta_.triangularView<Eigen::Lower>().solve(y_);
    const double log_determinant = 2.0 * delta_.diagonal().array().log().sum();
    const double value =
        -0.5 * z.squaredNorm() - 0.5 * log_determinant - 0.5 * static_cast<double>(n) * kLogTwoPi;
    if (std::isfinite(value)) {
      trim_if_large(lengthscales);
      return value;
    }
  }
  trim_if_large(lengthscales);
  return -std::numeric_limits<double>::infinity();
}

void LikelihoodEvaluator::trim_products(const std::vector<double>& lengthscales) {
  std::map<CliqueKey, Eigen::MatrixXd> kept;
  for (const CliqueKey& key : base_keys_) {
    auto found = products_.find(key);
    if (found != products_.end()) kept.emplace(key, std::move(found->second));
  }
  // A few more products at the given lengthscales: the next sweep proposes the same edges
  // again, and a rejected candidate's product would otherwise be rebuilt every time.
  std::size_t extra = 0;
  for (auto& entry : products_) {
    if (extra == kExtraProducts) break;
    if (entry.second.size() == 0) continue;
    const bool current = std::all_of(entry.first.begin(), entry.first.end(), [&](const auto& v) {
      return lengthscales[static_cast<std::size_t>(v.first)] == v.second;
    });
    if (current) {
      kept.emplace(entry.first, std::move(entry.second));
      ++extra;
    }
  }
  for (auto& entry : products_) {
    if (entry.second.size() > 0) recycle(std::move(entry.second));
  }
  products_.swap(kept);
}

void LikelihoodEvaluator::retain(const std::vector<VarSet>& cliques,
                                 const std::vector<double>& lengthscales) {
  const CliqueKeyList keys = sorted_keys(cliques, lengthscales);
  if (!base_valid_ || keys != base_keys_) {
    if (y_.size() > 0) build_sum(keys);  // usually the candidate just evaluated: no work
    std::swap(base_sum_, sum_);
    base_keys_ = keys;
    base_valid_ = true;
    sum_keys_.clear();  // sum_ now holds the old base
  }
  trim_products(lengthscales);
  for (auto it = factors_.begin(); it != factors_.end();) {
    if (it->first.second == lengthscales[it->first.first]) {
      ++it;
    } else {
      recycle(std::move(it->second));
      it = factors_.erase(it);
    }
  }
}

}  // namespace addbo::core
