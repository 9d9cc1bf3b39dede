#include "acquisition/ucb.hpp"

#include <cmath>

namespace addbo::core {

double ucb_beta(double beta_scale, std::size_t t) {
  return beta_scale * std::log(2.0 * static_cast<double>(t < 1 ? 1 : t));
}

std::vector<Table> acquisition_tables(const AdditivePosterior& posterior, double mean_weight,
                                      double sd_weight) {
  const std::vector<VarSet>& cliques = posterior.kernel().cliques();
  std::vector<Table> tables(cliques.size());
  for (std::size_t c = 0; c < cliques.size(); ++c) {
    const Eigen::VectorXd& mean = posterior.mean_table(c);
    const Eigen::VectorXd& variance = posterior.variance_table(c);
    tables[c].vars = cliques[c];
    tables[c].values.resize(static_cast<std::size_t>(mean.size()));
    Eigen::Map<Eigen::VectorXd> values(tables[c].values.data(), mean.size());
    // Rounding can push a variance slightly below zero near the data.
    values = mean_weight * mean + sd_weight * variance.cwiseMax(0.0).cwiseSqrt();
  }
  return tables;
}

}  // namespace addbo::core
