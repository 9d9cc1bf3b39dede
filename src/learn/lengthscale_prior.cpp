#include "learn/lengthscale_prior.hpp"

#include <algorithm>
#include <cmath>

namespace addbo::core {

std::vector<double> lengthscale_log_prior(LengthscalePrior prior,
                                          const std::vector<double>& choices, int k) {
  std::vector<double> log_prior(choices.size(), 0.0);
  if (choices.empty()) return log_prior;
  if (prior == LengthscalePrior::uniform) {
    std::fill(log_prior.begin(), log_prior.end(), -std::log(static_cast<double>(choices.size())));
    return log_prior;
  }
  const double median_log = std::sqrt(2.0) + 0.5 * std::log(static_cast<double>(std::max(k, 1)));
  const double variance = 3.0;
  double largest = -INFINITY;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const double z = std::log(choices[i]) - median_log;
    log_prior[i] = -0.5 * z * z / variance;
    largest = std::max(largest, log_prior[i]);
  }
  double total = 0.0;
  for (double value : log_prior) total += std::exp(value - largest);
  const double log_normaliser = largest + std::log(total);
  for (double& value : log_prior) value -= log_normaliser;
  return log_prior;
}

double lengthscale_spread_log_prior(const std::vector<double>& lengthscales, double spread) {
  if (spread <= 0.0 || lengthscales.size() < 2) return 0.0;
  double mean = 0.0;
  for (double lengthscale : lengthscales) mean += std::log(lengthscale);
  mean /= static_cast<double>(lengthscales.size());
  double squares = 0.0;
  for (double lengthscale : lengthscales) {
    const double deviation = std::log(lengthscale) - mean;
    squares += deviation * deviation;
  }
  return -0.5 * squares / (spread * spread);
}

std::vector<int> largest_group_sizes(int dimension, const std::vector<VarSet>& cliques) {
  std::vector<int> sizes(static_cast<std::size_t>(dimension), 1);
  for (const VarSet& clique : cliques) {
    for (int d : clique) {
      sizes[static_cast<std::size_t>(d)] =
          std::max(sizes[static_cast<std::size_t>(d)], static_cast<int>(clique.size()));
    }
  }
  return sizes;
}

}  // namespace addbo::core
