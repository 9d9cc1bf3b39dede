// Random sparse decompositions for the "random-tree" structure mode (RDUCB, Ziomek & Bou-Ammar
// 2023): a uniformly random spanning tree of the complete graph on D variables, of which a
// given number of edges is kept. A forest is chordal with cliques of two variables, so its
// acquisition is maximised exactly on the full grids.
#pragma once

#include <functional>
#include <vector>

#include "graph/graph.hpp"
#include "util/random.hpp"

namespace addbo::core {

// `edge_count` edges (at most D - 1) of a uniformly random labelled tree on `dimension`
// variables, chosen uniformly among its edges; an edge for which `allowed` returns false is
// never kept (fewer edges are returned when too few are allowed). Sorted, first < second.
std::vector<Edge> random_forest(int dimension, int edge_count, Random& random,
                                const std::function<bool(const Edge&)>& allowed);

}  // namespace addbo::core
