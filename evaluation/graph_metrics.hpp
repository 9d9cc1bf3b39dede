// The paper's measures of a learned graph G against the true graph (section 5.1):
//   CC = |edges in both| / |edges of the truth|,
//   CS = |non-edges in both| / |non-edges of the truth|.
// A truth without edges (or without non-edges) has CC (or CS) 1 by convention.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

struct GraphAccuracy {
  double correct_connections = 1.0;
  double correct_separations = 1.0;
};

GraphAccuracy graph_accuracy(int dimension, const std::vector<Edge>& learned,
                             const std::vector<Edge>& truth);

}  // namespace addbo::core
