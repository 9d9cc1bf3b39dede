// Since when each edge of the model's graph has been kept (info's and the saved state's
// edge_since; examples/plot_run colours edges by it): an edge that stays keeps its count, one
// that enters starts at the number of observations told when it entered, and one that leaves
// and comes back starts again.
#pragma once

#include <cstddef>
#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

// The edge_since of `edges` (sorted) after the graph changed from `old_edges` (sorted, with
// `old_since`) with `told` observations told.
inline std::vector<std::size_t> carry_edge_since(const std::vector<Edge>& old_edges,
                                                 const std::vector<std::size_t>& old_since,
                                                 const std::vector<Edge>& edges, std::size_t told) {
  std::vector<std::size_t> since(edges.size(), told);
  std::size_t k = 0;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    while (k < old_edges.size() && old_edges[k] < edges[e]) ++k;
    if (k < old_edges.size() && old_edges[k] == edges[e] && k < old_since.size()) {
      since[e] = old_since[k];
    }
  }
  return since;
}

}  // namespace addbo::core
