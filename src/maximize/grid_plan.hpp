// Which grid points each variable's tables cover. Message passing costs the product of the grid
// sizes over the largest junction-tree node; when a node exceeds limits.max_table_cells the
// grids of its variables are coarsened (evenly spaced subsets of the full grid, end points kept)
// until every node fits. The plan says so; nothing is truncated silently.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

// limits.max_table_cells when the configuration does not set it (docs/configuration.md).
constexpr std::int64_t kDefaultMaxTableCells = 4000000;

// The one node-size rule: a junction-tree node fits a budget of `max_cells` table cells when the
// product of its variables' grid sizes is at most max_cells. Grids have at least two points, so
// a node of k variables needs 2^k cells at the least. sizes[d] is variable d's grid size; a
// variable past the end of `sizes` counts as 2.
bool node_fits(const VarSet& node, const std::vector<int>& sizes, std::int64_t max_cells);

struct GridPlan {
  std::vector<std::vector<int>> indices;  // per variable: the full-grid indices kept, ascending
  bool coarsened = false;
  std::vector<int> sizes() const;
};

// Throws Error(Status::config) when even two points per variable exceed the budget for some
// node (the node has more than log2(max_cells) variables).
GridPlan plan_grids(const std::vector<int>& full_sizes, const std::vector<VarSet>& tree_nodes,
                    std::int64_t max_cells);

}  // namespace addbo::core
