#include "maximize/grid_plan.hpp"

#include <cmath>
#include <string>

#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo::core {
namespace {

double node_cells(const VarSet& node, const std::vector<int>& sizes) {
  double cells = 1.0;
  for (int d : node) cells *= sizes[d];
  return cells;
}

}  // namespace

bool node_fits(const VarSet& node, const std::vector<int>& sizes, std::int64_t max_cells) {
  std::int64_t cells = 1;
  for (int d : node) {
    const std::int64_t size = static_cast<std::size_t>(d) < sizes.size() ? sizes[d] : 2;
    // cells <= max_cells < 2^62 before the product, and size <= 4096: no overflow.
    cells *= size;
    if (cells > max_cells) return false;
  }
  return true;
}

std::vector<int> GridPlan::sizes() const {
  std::vector<int> result;
  result.reserve(indices.size());
  for (const std::vector<int>& kept : indices) result.push_back(static_cast<int>(kept.size()));
  return result;
}

GridPlan plan_grids(const std::vector<int>& full_sizes, const std::vector<VarSet>& tree_nodes,
                    std::int64_t max_cells) {
  std::vector<int> sizes = full_sizes;
  const double budget = static_cast<double>(max_cells);
  for (;;) {
    const VarSet* largest = nullptr;
    double largest_cells = budget;
    for (const VarSet& node : tree_nodes) {
      if (node_fits(node, sizes, max_cells)) continue;
      const double cells = node_cells(node, sizes);
      if (cells > largest_cells) {
        largest = &node;
        largest_cells = cells;
      }
    }
    if (largest == nullptr) break;
    // Shrink every variable of the node by the same factor, so the product meets the budget.
    const double shrink =
        std::pow(budget / largest_cells, 1.0 / static_cast<double>(largest->size()));
    bool changed = false;
    for (int d : *largest) {
      const int shrunk = std::max(2, static_cast<int>(std::floor(sizes[d] * shrink)));
      if (shrunk < sizes[d]) {
        sizes[d] = shrunk;
        changed = true;
      }
    }
    if (!changed) {
      throw Error(Status::config,
                  "a junction-tree node of " + std::to_string(largest->size()) +
                      " variables needs " + format_number(largest_cells) +
                      " table cells even with 2 grid points per variable, more than "
                      "limits.max_table_cells (" +
                      std::to_string(max_cells) + ")");
    }
  }

  GridPlan plan;
  plan.indices.resize(full_sizes.size());
  for (std::size_t d = 0; d < full_sizes.size(); ++d) {
    const int full = full_sizes[d];
    const int kept = sizes[d];
    if (kept < full) plan.coarsened = true;
    plan.indices[d].resize(kept);
    for (int j = 0; j < kept; ++j) {
      // Evenly spaced, first and last full-grid points always kept; distinct because kept <= full.
      plan.indices[d][j] =
          kept == full
              ? j
              : static_cast<int>(std::lround(static_cast<double>(j) * (full - 1) / (kept - 1)));
    }
  }
  return plan;
}

}  // namespace addbo::core
