// The additive UCB acquisition (paper eq. 3-4): one table per clique,
//   phi_C = mean_weight * mu_C + sd_weight * sigma_C,
// with mean_weight 1 and sd_weight = sqrt(beta_t) for GP-UCB.
#pragma once

#include <cstddef>
#include <vector>

#include "gp/additive_posterior.hpp"
#include "graph/table.hpp"

namespace addbo::core {

// beta_t = beta_scale * log(2 t), t >= 1 the index of the evaluation being chosen.
double ucb_beta(double beta_scale, std::size_t t);

std::vector<Table> acquisition_tables(const AdditivePosterior& posterior, double mean_weight,
                                      double sd_weight);

}  // namespace addbo::core
