#include "acquisition/random_points.hpp"

namespace addbo::core {
namespace {

// A discrete domain of at most this many grid cells is listed to find the free ones.
constexpr std::size_t kMaxListedCells = std::size_t{1} << 16;

}  // namespace

std::vector<double> free_random_point(const Space& space, const GridPlan& grids,
                                      const CellOccupancy& occupancy, Random& random,
                                      const PointPreference* preference) {
  std::vector<double> x, preferred;
  double best_score = 0.0;
  for (int attempt = 0; attempt < 64; ++attempt) {
    x = space.random_point(random);
    if (occupancy.occupied(grid_cell(space, grids, x), true)) continue;
    if (preference == nullptr) return x;
    const double score = preference->score(space.encode_point(x));
    if (score >= preference->enough) return x;
    if (preferred.empty() || score > best_score) {
      preferred = x;
      best_score = score;
    }
  }
  if (!preferred.empty()) return preferred;
  // Mostly occupied: on a small discrete domain, list the free cells and pick one.
  const std::vector<int> sizes = grids.sizes();
  std::size_t cells = 1;
  for (std::size_t d = 0; d < sizes.size() && cells <= kMaxListedCells; ++d) {
    if (space.type(d) == VariableType::continuous) cells = kMaxListedCells + 1;
    cells *= static_cast<std::size_t>(sizes[d]);
  }
  if (cells > kMaxListedCells) return x;
  std::vector<std::vector<int>> free;
  std::vector<int> cell(sizes.size(), 0);
  for (std::size_t i = 0; i < cells; ++i) {
    if (!occupancy.occupied(cell, true)) free.push_back(cell);
    for (std::size_t d = 0; d < cell.size() && ++cell[d] == sizes[d]; ++d) cell[d] = 0;
  }
  if (free.empty()) return x;  // every cell holds a point: any point is as good
  return grid_point(space, grids, free[random.below(free.size())]);
}

std::vector<double> initial_design_point(const Space& space, const GridPlan& grids,
                                         const LatinHypercube& design, std::size_t k,
                                         const CellOccupancy& occupancy, Random& random) {
  if (k < design.size()) {
    // A few new positions within the same strata before giving the strata up.
    for (int attempt = 0; attempt < 8; ++attempt) {
      const std::vector<double> u = design.point(k, random);
      std::vector<double> x(u.size());
      for (std::size_t d = 0; d < x.size(); ++d) x[d] = space.from_unit(d, u[d]);
      if (!occupancy.occupied(grid_cell(space, grids, x), true)) return x;
    }
  }
  return free_random_point(space, grids, occupancy, random);
}

}  // namespace addbo::core
