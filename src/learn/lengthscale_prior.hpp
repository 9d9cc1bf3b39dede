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
//
// kernel.lengthscale_spread (tau > 0) joins the variables' lengthscales by a factor of the
// joint prior, exp(-sum_d (ln l_d - m)^2 / (2 tau^2)) with m the mean of ln l_d over the
// learned variables: the lengthscales of one problem share a scale (a hierarchical prior whose
// common log-scale has a flat prior and is integrated out, as SAASBO's global shrinkage shares
// one scale). Why: at 20-100 variables a search's own data, crowded where it looked, identify
// each variable's lengthscale poorly, and a variable whose points lie in one basin looks smooth;
// learned alone the lengthscales scatter over every choice (on Styblinski-Tang at D = 50, from
// 0.05 to 0.8 though every variable is the same function) and the long ones hide the other
// basins from the model. Together they are judged by all the variables' evidence; one that the
// data set apart (an irrelevant variable, a rougher one) still moves away when its likelihood
// pays for it. 0 leaves the lengthscales independent.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

enum class LengthscalePrior { uniform, dimension_scaled };

// log p(lengthscale = choices[i] | the variable's largest group has k variables), for each i.
std::vector<double> lengthscale_log_prior(LengthscalePrior prior,
                                          const std::vector<double>& choices, int k);

// The joining factor's logarithm, -sum_d (ln l_d - mean ln l)^2 / (2 spread^2), for the
// given lengthscales (all of them learned); 0 when spread is 0 or there are fewer than two.
double lengthscale_spread_log_prior(const std::vector<double>& lengthscales, double spread);

// For every variable, the number of variables of the largest group (clique) holding it; 1 for
// a variable in no group of two or more.
std::vector<int> largest_group_sizes(int dimension, const std::vector<VarSet>& cliques);

}  // namespace addbo::core
