// Refinement beyond the grid: the Catmull-Rom interpolant of a table against the table at grid
// points and against a smooth function between them, and coordinate ascent against a brute-force
// search of the interpolant on a fine grid.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "maximize/continuous_refinement.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("maximize");

namespace {

// A table of f over vars on the grid {0, 1/(n-1), ..., 1} per variable.
template <typename F>
Table sample_table(const VarSet& vars, const std::vector<int>& sizes, F f) {
  Table table{vars, {}};
  std::size_t cells = 1;
  for (int v : vars) cells *= static_cast<std::size_t>(sizes[v]);
  std::vector<double> x(sizes.size(), 0.0);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::size_t rest = cell;
    for (std::size_t j = vars.size(); j-- > 0;) {
      const int v = vars[j];
      x[v] = static_cast<double>(rest % sizes[v]) / (sizes[v] - 1);
      rest /= sizes[v];
    }
    table.values.push_back(f(x));
  }
  return table;
}

double smooth_1d(const std::vector<double>& x) { return std::sin(3.0 * x[0] + 0.4); }
double smooth_2d(const std::vector<double>& x) {
  return std::exp(-((x[1] - 0.37) * (x[1] - 0.37) + (x[2] - 0.61) * (x[2] - 0.61)) / 0.08);
}

}  // namespace

TEST_CASE("the interpolant equals the table on the grid and follows a smooth function between") {
  const std::vector<int> sizes = {12, 12, 12};
  const Table one = sample_table({0}, sizes, smooth_1d);
  const Table two = sample_table({1, 2}, sizes, smooth_2d);
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200; ++i) {
    const std::vector<double> grid = {double(rng() % 12), double(rng() % 12), double(rng() % 12)};
    CHECK(interpolate_table(one, sizes, grid) == one.values[static_cast<std::size_t>(grid[0])]);
    CHECK(interpolate_table(two, sizes, grid) ==
          two.values[static_cast<std::size_t>(grid[1] * 12 + grid[2])]);
    // Between interior grid points a cubic interpolant of a smooth function sampled 11 steps
    // per unit is accurate to a few 1e-3 (an error O(h^3 f''') with h = 1/11); in the first and
    // last intervals the stencil is clamped and only O(h^2) accurate, so they are left out.
    std::uniform_real_distribution<double> unit(1.0, 10.0);
    const std::vector<double> position = {unit(rng), unit(rng), unit(rng)};
    const std::vector<double> x = {position[0] / 11, position[1] / 11, position[2] / 11};
    CHECK(std::fabs(interpolate_table(one, sizes, position) - smooth_1d(x)) < 5e-3);
    CHECK(std::fabs(interpolate_table(two, sizes, position) - smooth_2d(x)) < 2e-2);
  }
}

TEST_CASE("coordinate ascent on the interpolant reaches the fine-grid maximum of its window") {
  const std::vector<int> sizes = {9, 9, 9};
  const std::vector<Table> tables = {sample_table({0}, sizes, smooth_1d),
                                     sample_table({1, 2}, sizes, smooth_2d)};
  const auto sum_at = [&](const std::vector<double>& p) {
    double s = 0.0;
    for (const Table& t : tables) s += interpolate_table(t, sizes, p);
    return s;
  };
  // The grid argmax by enumeration.
  std::vector<int> best_cell(3, 0);
  double best = -INFINITY;
  for (int a = 0; a < 9; ++a)
    for (int b = 0; b < 9; ++b)
      for (int c = 0; c < 9; ++c) {
        const double value = sum_at({double(a), double(b), double(c)});
        if (value > best) {
          best = value;
          best_cell = {a, b, c};
        }
      }
  const std::vector<double> refined = refine_on_interpolant(tables, sizes, {1, 1, 1}, best_cell);
  CHECK(sum_at(refined) >= best);
  // Brute force of the interpolant on a fine grid over the same window.
  double fine = -INFINITY;
  for (int i = 0; i <= 40; ++i)
    for (int j = 0; j <= 40; ++j)
      for (int k = 0; k <= 40; ++k) {
        const std::vector<double> p = {best_cell[0] - 0.45 + 0.9 * i / 40,
                                       best_cell[1] - 0.45 + 0.9 * j / 40,
                                       best_cell[2] - 0.45 + 0.9 * k / 40};
        fine = std::max(fine, sum_at(p));
      }
  CHECK(sum_at(refined) >= fine - 1e-3 * std::fabs(fine));
  for (int v = 0; v < 3; ++v) CHECK(std::fabs(refined[v] - best_cell[v]) <= 0.45 + 1e-12);
  // A variable that may not move stays on its grid point.
  const std::vector<double> partly = refine_on_interpolant(tables, sizes, {1, 0, 1}, best_cell);
  CHECK(partly[1] == best_cell[1]);
}

TEST_SUITE_END();
