// The acquisition of every point of a small integer domain, read from the optimizer's
// predictions, for tests that check which point an ask chose: at exploration weight w each
// point's upper confidence bound is a + w b, a and b the sums of its cliques' posterior means
// and standard deviations, as the ask's max-sum maximises it over the grid.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <set>
#include <vector>

#include "optimizer/optimizer.hpp"

namespace addbo::core::testing {

struct GridAcquisition {
  std::vector<std::vector<double>> points;
  std::vector<double> a, b;

  // The index of `x` among the points (points.size() when it is not one).
  std::size_t index_of(const std::vector<double>& x) const {
    return static_cast<std::size_t>(std::find(points.begin(), points.end(), x) - points.begin());
  }
  // How far point k falls short of the best point at weight w (0 for the maximiser): of all
  // points, or of those not in `excluded`.
  double shortfall(std::size_t k, double w,
                   const std::set<std::vector<double>>* excluded = nullptr) const {
    double best = -INFINITY;
    for (std::size_t j = 0; j < a.size(); ++j) {
      if (!excluded || excluded->count(points[j]) == 0) best = std::max(best, a[j] + w * b[j]);
    }
    return best - (a[k] + w * b[k]);
  }
  // A tolerance for shortfall at point k and weight w: rounding in the tables' sums.
  double tolerance(std::size_t k, double w) const {
    return 1e-9 * (1.0 + std::fabs(a[k]) + w * b[k]);
  }
};

// Every point of the integer domain with variable d in [0, upper[d]].
inline GridAcquisition grid_acquisition(const Optimizer& optimizer, const std::vector<int>& upper) {
  GridAcquisition grid;
  std::vector<double> point(upper.size(), 0.0);
  while (true) {
    const Prediction p = optimizer.predict(point);
    double mean = 0.0, deviation = 0.0;
    for (std::size_t k = 0; k < p.clique_mean.size(); ++k) {
      mean += p.clique_mean[k];
      deviation += p.clique_stddev[k];
    }
    grid.points.push_back(point);
    grid.a.push_back(mean);
    grid.b.push_back(deviation);
    // The next point, the last variable fastest.
    std::size_t d = upper.size();
    while (d > 0 && point[d - 1] == upper[d - 1]) point[--d] = 0.0;
    if (d == 0) return grid;
    point[d - 1] += 1.0;
  }
}

}  // namespace addbo::core::testing
