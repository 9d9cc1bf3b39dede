#include "acquisition/grid_cells.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace addbo::core {

std::vector<int> grid_cell(const Space& space, const GridPlan& grids,
                           const std::vector<double>& x) {
  std::vector<int> cell(x.size());
  for (std::size_t d = 0; d < x.size(); ++d) {
    const std::vector<int>& indices = grids.indices[d];
    const int size = static_cast<int>(indices.size());
    if (size == space.grid_size(d) && size > 1 && space.evenly_encoded(d)) {
      // The full grid is evenly spaced in encoded units: the nearest point is within one of the
      // rounded position; the neighbours settle rounding, ties going to the lower index.
      // Distances are in the variable's scale (on a log scale, between logarithms).
      // (A categorical value is its choice index, which encode() leaves as it is.)
      const double position =
          space.type(d) == VariableType::categorical ? x[d] : space.encode(d, x[d]) * (size - 1);
      const int guess = std::min(std::max(static_cast<int>(std::lround(position)), 0), size - 1);
      int nearest = guess;
      for (int candidate : {guess - 1, guess + 1}) {
        if (candidate < 0 || candidate >= size) continue;
        const double distance = space.grid_distance(d, x[d], candidate);
        const double best = space.grid_distance(d, x[d], nearest);
        if (distance < best || (distance == best && candidate < nearest)) nearest = candidate;
      }
      cell[d] = nearest;
      continue;
    }
    // A coarsened plan (or a log-scale integer's grid, uneven in encoded units): its grid values
    // ascend with their index, so the nearest one is beside the first value not below x[d].
    std::size_t low = 0, high = indices.size();
    while (low < high) {
      const std::size_t middle = (low + high) / 2;
      if (space.grid_value(d, indices[middle]) < x[d]) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    std::size_t nearest = std::min(low, indices.size() - 1);
    if (low > 0 && (low == indices.size() || space.grid_distance(d, x[d], indices[low - 1]) <=
                                                 space.grid_distance(d, x[d], indices[low]))) {
      nearest = low - 1;
    }
    cell[d] = static_cast<int>(nearest);
  }
  return cell;
}

std::vector<double> grid_point(const Space& space, const GridPlan& grids,
                               const std::vector<int>& cell) {
  std::vector<double> x(space.dimension());
  for (std::size_t d = 0; d < x.size(); ++d) {
    x[d] = space.grid_value(d, grids.indices[d][static_cast<std::size_t>(cell[d])]);
  }
  return x;
}

const CellPoints::Points* CellPoints::find(const std::vector<int>& cell) const {
  const auto found = cells_.find(cell);
  return found == cells_.end() ? nullptr : &found->second.points;
}

const std::vector<std::size_t>* CellPoints::tags(const std::vector<int>& cell) const {
  const auto found = cells_.find(cell);
  return found == cells_.end() ? nullptr : &found->second.tags;
}

void CellPoints::add(const std::vector<int>& cell, std::vector<double> u, std::size_t tag) {
  Entries& entries = cells_[cell];
  entries.points.push_back(std::move(u));
  entries.tags.push_back(tag);
}

CellPoints::Addition CellPoints::prepare(const std::vector<int>& cell, std::vector<double> u,
                                         std::size_t tag) {
  Addition addition;
  const auto found = cells_.find(cell);
  if (found == cells_.end()) {
    std::map<std::vector<int>, Entries> single;
    Entries& entries = single[cell];
    entries.points.push_back(std::move(u));
    entries.tags.push_back(tag);
    addition.node_ = single.extract(single.begin());
    return addition;
  }
  Entries& entries = found->second;
  if (entries.points.size() == entries.points.capacity()) {
    const std::size_t room = std::max<std::size_t>(4, 2 * entries.points.size());
    entries.points.reserve(room);
    entries.tags.reserve(room);
  }
  addition.cell_ = cell;
  addition.u_ = std::move(u);
  addition.tag_ = tag;
  return addition;
}

void CellPoints::commit(Addition&& addition) noexcept {
  if (!addition.node_.empty()) {
    cells_.insert(std::move(addition.node_));
    return;
  }
  Entries& entries = cells_.find(addition.cell_)->second;  // room reserved in both
  entries.points.push_back(std::move(addition.u_));
  entries.tags.push_back(addition.tag_);
}

CellPoints cell_points(const Space& space, const GridPlan& grids,
                       const std::vector<std::vector<double>>& points) {
  CellPoints cells;
  for (const std::vector<double>& x : points) {
    cells.add(grid_cell(space, grids, x), space.encode_point(x));
  }
  return cells;
}

}  // namespace addbo::core
