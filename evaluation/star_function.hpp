// The demo and test objective: a 10-variable function additive over the paper's star graph
// (variable 0 joined to all others, Fig. 2 left), f(x) = sum_j g_j(x_0, x_j) on [0, 1]^10.
// Each g_j is a smooth bump whose peak in x_j differs per j, plus a ripple coupling x_0 and x_j,
// so x_0 must trade the nine components off against each other: a real interaction, not a sum
// of one-variable functions. Its maximum over any product grid is found exactly by
// star_grid_extremes() (enumerate x_0, then each leaf independently).
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace addbo_examples {

constexpr int kStarDimension = 10;

inline double star_component(int j, double hub, double leaf) {
  const double peak_leaf = 0.1 + 0.8 * ((j * 37) % 9) / 8.0;
  const double peak_hub = 0.25 + 0.5 * ((j * 5) % 9) / 8.0;
  const double dh = hub - peak_hub, dl = leaf - peak_leaf;
  return std::exp(-(dh * dh + dl * dl) / (2.0 * 0.2 * 0.2)) +
         0.25 * std::cos(5.0 * hub + 4.0 * leaf + j);
}

inline double star_function(const std::vector<double>& x) {
  double sum = 0.0;
  for (int j = 1; j < kStarDimension; ++j) sum += star_component(j, x[0], x[j]);
  return sum;
}

// The star graph's edges [0, j].
inline std::vector<std::pair<int, int>> star_edges() {
  std::vector<std::pair<int, int>> edges;
  for (int j = 1; j < kStarDimension; ++j) edges.emplace_back(0, j);
  return edges;
}

// Exact minimum and maximum of star_function over the grid {0, 1/(g-1), ..., 1}^10.
inline std::pair<double, double> star_grid_extremes(int grid) {
  double lowest = INFINITY, highest = -INFINITY;
  for (int h = 0; h < grid; ++h) {
    const double hub = static_cast<double>(h) / (grid - 1);
    double low = 0.0, high = 0.0;
    for (int j = 1; j < kStarDimension; ++j) {
      double component_low = INFINITY, component_high = -INFINITY;
      for (int l = 0; l < grid; ++l) {
        const double value = star_component(j, hub, static_cast<double>(l) / (grid - 1));
        component_low = std::min(component_low, value);
        component_high = std::max(component_high, value);
      }
      low += component_low;
      high += component_high;
    }
    lowest = std::min(lowest, low);
    highest = std::max(highest, high);
  }
  return {lowest, highest};
}

}  // namespace addbo_examples
