// Junction tree of a triangulated dependency graph, with every factor (a maximal clique of the
// original graph) assigned to exactly one tree node containing it (paper eq. 8).
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

struct JunctionTree {
  std::vector<VarSet> nodes;  // maximal cliques of the triangulated graph
  // Tree links between node indices, first < second. The structure is always a single tree
  // (nodes.size() - 1 links): disconnected components are joined by links with an empty
  // separator, which keeps message passing uniform and the running-intersection property true.
  std::vector<std::pair<int, int>> links;
  std::vector<int> factor_node;  // factor i is assigned to nodes[factor_node[i]]
};

// Builds the junction tree of triangulate_min_fill(graph) by a maximum-weight spanning tree on
// separator sizes (ties broken deterministically) and assigns each factor to one node that
// contains it. Every factor must be a clique of `graph` (throws Error(Status::internal) if not).
JunctionTree build_junction_tree(const Graph& graph, const std::vector<VarSet>& factors);

// The largest product of domain sizes over the tree's nodes (the cost of message passing).
double largest_node_cells(const JunctionTree& tree, const std::vector<int>& domain_sizes);

}  // namespace addbo::core
