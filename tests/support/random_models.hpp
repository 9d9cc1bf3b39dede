// Random models for the GP and optimizer tests: mixed variable types, random overlapping
// cliques and hyperparameters, all from a seeded generator.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "config/config.hpp"
#include "gp/additive_kernel.hpp"
#include "graph/graph.hpp"

namespace addbo::core::testing {

struct RandomModel {
  std::vector<VariableType> types;
  std::vector<std::vector<double>> axes;  // encoded grid values per variable
  std::vector<VarSet> cliques;
  std::vector<double> lengthscales;
  double noise = 1e-4;
};

inline RandomModel random_model(std::mt19937_64& rng, int dimension) {
  RandomModel model;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int d = 0; d < dimension; ++d) {
    const int kind = static_cast<int>(rng() % 3);
    const int size = 3 + static_cast<int>(rng() % 4);
    std::vector<double> axis;
    if (kind == 2) {
      model.types.push_back(VariableType::categorical);
      for (int g = 0; g < size; ++g) axis.push_back(g);
    } else {
      model.types.push_back(kind == 0 ? VariableType::continuous : VariableType::integer);
      for (int g = 0; g < size; ++g) axis.push_back(static_cast<double>(g) / (size - 1));
    }
    model.axes.push_back(axis);
    model.lengthscales.push_back(0.1 + unit(rng));
  }
  // Overlapping groups: random edges, then the maximal cliques of that graph.
  Graph graph(dimension);
  for (int a = 0; a < dimension; ++a) {
    for (int b = a + 1; b < dimension; ++b) {
      if (unit(rng) < 0.4) graph.add_edge(a, b);
    }
  }
  model.cliques = maximal_cliques(graph);
  model.noise = std::pow(10.0, -1.0 - 4.0 * unit(rng));
  return model;
}

// A point whose coordinates are grid values (on_grid) or anywhere in the domain.
inline std::vector<double> random_encoded_point(std::mt19937_64& rng, const RandomModel& model,
                                                bool on_grid) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> u(model.types.size());
  for (std::size_t d = 0; d < u.size(); ++d) {
    const std::vector<double>& axis = model.axes[d];
    if (on_grid || model.types[d] != VariableType::continuous) {
      u[d] = axis[rng() % axis.size()];
    } else {
      u[d] = unit(rng);
    }
  }
  return u;
}

}  // namespace addbo::core::testing
