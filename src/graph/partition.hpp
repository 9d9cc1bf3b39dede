// Graphs as partitions of the variables into groups ("disjoint" mode): a group label per
// variable, from a graph's connected components, and back to the graph that joins every pair
// within a group.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

// Labels 0, 1, ... of the connected components of the graph on `dimension` variables, numbered
// in the order of their smallest variable (the disjoint groups that contain the graph).
std::vector<int> component_labels(int dimension, const std::vector<Edge>& edges);
// All pairs within each label group, sorted.
std::vector<Edge> edges_of_labels(const std::vector<int>& labels);

}  // namespace addbo::core
