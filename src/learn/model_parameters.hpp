// The model's graph and hyperparameters: where learning starts, what it returns, what the
// optimizer uses and saves. One type for all of them, so that nothing copies field by field.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

struct ModelParameters {
  std::vector<Edge> edges;  // the dependency graph; in disjoint mode derived from `labels`
  std::vector<int> labels;  // disjoint mode: the group of each variable; empty otherwise
  std::vector<double> lengthscales;
  double noise_variance = 1e-4;
  // Added to the noise after a numerically singular update; only grows, until a learning
  // changes the model. Learning neither reads nor changes it.
  double jitter = 0.0;

  bool operator==(const ModelParameters& o) const {
    return edges == o.edges && labels == o.labels && lengthscales == o.lengthscales &&
           noise_variance == o.noise_variance && jitter == o.jitter;
  }
};

}  // namespace addbo::core
