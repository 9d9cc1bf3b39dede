// Grid cells: the cell of a point (the nearest grid point of every variable on the tables'
// grids) and the points that lie in each cell, which the known-point rule reads
// (acquisition/known_points.hpp).
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "maximize/grid_plan.hpp"
#include "space/space.hpp"

namespace addbo::core {

// Per variable, the index into the plan's grid nearest to x (user units).
std::vector<int> grid_cell(const Space& space, const GridPlan& grids, const std::vector<double>& x);
// The grid point of a cell (plan indices), in user units.
std::vector<double> grid_point(const Space& space, const GridPlan& grids,
                               const std::vector<int>& cell);

// Encoded points by grid cell, each cell's in the order they were added, each with a tag (the
// observation's index, for one).
class CellPoints {
 public:
  using Points = std::vector<std::vector<double>>;

 private:
  struct Entries {
    Points points;
    std::vector<std::size_t> tags;
  };

 public:
  // The points of `cell`, or null when it holds none; their tags, in the same order.
  const Points* find(const std::vector<int>& cell) const;
  const std::vector<std::size_t>* tags(const std::vector<int>& cell) const;
  bool contains(const std::vector<int>& cell) const { return cells_.count(cell) != 0; }
  std::size_t cell_count() const { return cells_.size(); }

  void add(const std::vector<int>& cell, std::vector<double> u, std::size_t tag = 0);

  // An addition split in two, so that a call can allocate everything first and then commit
  // without anything left to fail: prepare() may throw, commit() does not.
  class Addition {
   public:
    Addition() = default;

   private:
    friend class CellPoints;
    std::map<std::vector<int>, Entries>::node_type node_;  // a cell not yet in the index
    std::vector<int> cell_;  // the cell, when it is in the index (room reserved in it)
    std::vector<double> u_;
    std::size_t tag_ = 0;
  };
  Addition prepare(const std::vector<int>& cell, std::vector<double> u, std::size_t tag = 0);
  void commit(Addition&& addition) noexcept;

 private:
  std::map<std::vector<int>, Entries> cells_;
};

// The points an ask must not repeat, by grid cell: told observations, pending points and
// points whose evaluation failed.
struct CellOccupancy {
  const CellPoints& observed;
  const CellPoints& pending;
  const CellPoints& failed;

  // A point was evaluated (or failed) in the cell, or is pending there too when `with_pending`.
  bool occupied(const std::vector<int>& cell, bool with_pending) const {
    return observed.contains(cell) || failed.contains(cell) ||
           (with_pending && pending.contains(cell));
  }
};

// The cells of `points` (user units) on the plan's grids.
CellPoints cell_points(const Space& space, const GridPlan& grids,
                       const std::vector<std::vector<double>>& points);

}  // namespace addbo::core
