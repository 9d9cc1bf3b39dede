#include "exact_maximum.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace paper_synthetic {
namespace {

// The component on the edge {a, b} as a function of (index of a, index of b), whichever way
// round the edge is stored.
class EdgeComponent {
 public:
  EdgeComponent(const TestFunction& function, int a, int b) : function_(function) {
    const auto& edges = function.graph().edges;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (edges[e] == std::make_pair(a, b) || edges[e] == std::make_pair(b, a)) {
        edge_ = e;
        swapped_ = edges[e].first != a;
        return;
      }
    }
    throw std::invalid_argument("the graph has no edge between the variables " + std::to_string(a) +
                                " and " + std::to_string(b));
  }
  double operator()(int index_a, int index_b) const {
    return swapped_ ? function_.component(edge_, index_b, index_a)
                    : function_.component(edge_, index_a, index_b);
  }

 private:
  const TestFunction& function_;
  std::size_t edge_ = 0;
  bool swapped_ = false;
};

double star_maximum(const TestFunction& function) {
  const int grid = function.grid(), dimension = function.graph().dimension;
  double best = -INFINITY;
  for (int hub = 0; hub < grid; ++hub) {
    double sum = 0.0;
    for (int leaf = 1; leaf < dimension; ++leaf) {
      const EdgeComponent component(function, 0, leaf);
      double leaf_best = -INFINITY;
      for (int value = 0; value < grid; ++value)
        leaf_best = std::max(leaf_best, component(hub, value));
      sum += leaf_best;
    }
    best = std::max(best, sum);
  }
  return best;
}

// table is over the row state (x_{r,0}, x_{r,1}, x_{r,2}), index x0*g^2 + x1*g + x2. Replaces the
// value at `position` (the previous row's variable) by the next row's variable below it,
// maximising over the former: out(.., v, ..) = max_u table(.., u, ..) + vertical(u, v).
std::vector<double> eliminate_column(const std::vector<double>& table, int grid, int position,
                                     const EdgeComponent& vertical) {
  const std::size_t stride = position == 0 ? std::size_t(grid) * grid : position == 1 ? grid : 1;
  std::vector<double> out(table.size(), -INFINITY);
  for (std::size_t state = 0; state < table.size(); ++state) {
    if ((state / stride) % grid != 0) continue;  // visit each state with position p = 0 once
    for (int next = 0; next < grid; ++next) {
      double best = -INFINITY;
      for (int previous = 0; previous < grid; ++previous) {
        best = std::max(best, table[state + previous * stride] + vertical(previous, next));
      }
      out[state + next * stride] = best;
    }
  }
  return out;
}

double grid_maximum(const TestFunction& function) {
  const int grid = function.grid();
  const std::size_t states = std::size_t(grid) * grid * grid;
  std::vector<double> value(states, 0.0);
  for (int row = 0; row < 3; ++row) {
    const int first = row * 3;
    if (row > 0) {
      for (int position = 0; position < 3; ++position) {
        const EdgeComponent vertical(function, first - 3 + position, first + position);
        value = eliminate_column(value, grid, position, vertical);
      }
    }
    const EdgeComponent left(function, first, first + 1), right(function, first + 1, first + 2);
    for (std::size_t state = 0; state < states; ++state) {
      const int x0 = static_cast<int>(state / (grid * grid)),
                x1 = static_cast<int>(state / grid % grid), x2 = static_cast<int>(state % grid);
      value[state] += left(x0, x1) + right(x1, x2);
    }
  }
  return *std::max_element(value.begin(), value.end());
}

}  // namespace

double exact_maximum(const TestFunction& function) {
  switch (function.graph().kind) {
    case GraphKind::star:
      return star_maximum(function);
    case GraphKind::grid:
      return grid_maximum(function);
  }
  throw std::logic_error("unknown graph kind");
}

double brute_force_maximum(const TestFunction& function) {
  const int grid = function.grid(), dimension = function.graph().dimension;
  std::vector<int> indices(dimension, 0);
  double best = -INFINITY;
  while (true) {
    best = std::max(best, function.value(indices));
    int d = 0;
    while (d < dimension && ++indices[d] == grid) indices[d++] = 0;
    if (d == dimension) return best;
  }
}

}  // namespace paper_synthetic
