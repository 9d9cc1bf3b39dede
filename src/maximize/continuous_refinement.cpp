#include "maximize/continuous_refinement.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace addbo::core {
namespace {

// Sweeps over the variables, and positions tried per variable in its half-step window: a
// quarter of a grid step apart at most, enough to place a smooth maximum to a few percent of a
// grid step after two sweeps.
constexpr int kSweeps = 2;
constexpr int kPositions = 9;
// Just under half a grid step each way, so that the nearest grid point stays the start's.
constexpr double kWindow = 0.45;

// The grid indices and Catmull-Rom weights of one variable at a fractional position.
struct Stencil {
  std::array<int, 4> index{};
  std::array<double, 4> weight{};
  int size = 1;  // 1 at a grid point, else 4
};

Stencil stencil(double position, int domain_size) {
  Stencil s;
  const double base = std::floor(position);
  const double t = position - base;
  const int i = static_cast<int>(base);
  if (t == 0.0 || domain_size == 1) {
    s.index[0] = std::min(std::max(i, 0), domain_size - 1);
    s.weight[0] = 1.0;
    return s;
  }
  const double t2 = t * t, t3 = t2 * t;
  s.weight = {-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1.0, -1.5 * t3 + 2.0 * t2 + 0.5 * t,
              0.5 * t3 - 0.5 * t2};
  for (int k = 0; k < 4; ++k) s.index[k] = std::min(std::max(i - 1 + k, 0), domain_size - 1);
  s.size = 4;
  return s;
}

}  // namespace

double interpolate_table(const Table& table, const std::vector<int>& domain_sizes,
                         const std::vector<double>& position) {
  const std::size_t k = table.vars.size();
  std::vector<Stencil> stencils(k);
  for (std::size_t j = 0; j < k; ++j) {
    const int v = table.vars[j];
    stencils[j] = stencil(position[v], domain_sizes[v]);
  }
  // Sum over the tensor product of the stencils (an odometer over their points).
  std::vector<int> digit(k, 0);
  double total = 0.0;
  while (true) {
    std::size_t offset = 0;
    double weight = 1.0;
    for (std::size_t j = 0; j < k; ++j) {
      offset = offset * static_cast<std::size_t>(domain_sizes[table.vars[j]]) +
               static_cast<std::size_t>(stencils[j].index[digit[j]]);
      weight *= stencils[j].weight[digit[j]];
    }
    total += weight * table.values[offset];
    std::size_t j = k;
    while (j > 0 && ++digit[j - 1] == stencils[j - 1].size) digit[--j] = 0;
    if (j == 0) return total;
  }
}

std::vector<double> refine_on_interpolant(const std::vector<Table>& tables,
                                          const std::vector<int>& domain_sizes,
                                          const std::vector<char>& movable,
                                          const std::vector<int>& start) {
  const std::size_t dimension = domain_sizes.size();
  std::vector<double> position(start.begin(), start.end());
  std::vector<std::vector<std::size_t>> tables_of(dimension);
  for (std::size_t t = 0; t < tables.size(); ++t) {
    for (int v : tables[t].vars) tables_of[v].push_back(t);
  }
  const auto local_sum = [&](std::size_t v) {
    double sum = 0.0;
    for (std::size_t t : tables_of[v]) sum += interpolate_table(tables[t], domain_sizes, position);
    return sum;
  };
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    for (std::size_t v = 0; v < dimension; ++v) {
      if (!movable[v] || domain_sizes[v] < 2 || tables_of[v].empty()) continue;
      const double low = std::max(0.0, start[v] - kWindow);
      const double high = std::min(static_cast<double>(domain_sizes[v] - 1), start[v] + kWindow);
      double best_position = position[v];
      double best = local_sum(v);
      for (int k = 0; k < kPositions; ++k) {
        position[v] = low + (high - low) * k / (kPositions - 1);
        const double value = local_sum(v);
        if (value > best) {  // strict: ties keep the current position
          best = value;
          best_position = position[v];
        }
      }
      position[v] = best_position;
    }
  }
  return position;
}

}  // namespace addbo::core
