// The prior of a learned lengthscale (kernel.lengthscale_prior, docs/configuration.md).
//
// "dimension-scaled" (the default): log l ~ Normal(sqrt(2) + ln(k) / 2, 3), where k is the
// number of variables the kernel of the variable's largest group sees (Hvarfner, Hellsten &
// Nardi 2024, "Vanilla Bayesian optimization performs great in high dimensions", for inputs in
// the unit cube). With few observations per variable, as at 20-100 variables, the likelihood
// alone prefers short lengthscales, under which the model knows nothing between the points
// and the upper confidence bound sends every variable exploring at once; the prior asks for
// evidence before a lengthscale becomes short. The lengthscales are learned on
// lengthscale_choices, so the prior is that density at the logarithms of the choices,
// normalised over them.
//
// "uniform": every choice equally likely (the paper's prior, and that of states saved before
// the key existed).
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

enum class LengthscalePrior { uniform, dimension_scaled };

// log p(lengthscale = choices[i] | the variable's largest group has k variables), for each i.
std::vector<double> lengthscale_log_prior(LengthscalePrior prior,
                                          const std::vector<double>& choices, int k);

// For every variable, the number of variables of the largest group (clique) holding it; 1 for
// a variable in no group of two or more.
std::vector<int> largest_group_sizes(int dimension, const std::vector<VarSet>& cliques);

}  // namespace addbo::core
