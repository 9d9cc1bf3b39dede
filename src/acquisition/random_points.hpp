// The asks that do not maximise the model: the initial design's points and random points in
// cells that hold no point yet (the last resort of a model-based ask).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "acquisition/grid_cells.hpp"
#include "maximize/grid_plan.hpp"
#include "space/latin_hypercube.hpp"
#include "space/space.hpp"
#include "util/random.hpp"

namespace addbo::core {

// Which random points to prefer: those scoring at least `enough` (the first found is taken),
// else the best scoring found.
struct PointPreference {
  std::function<double(const std::vector<double>& u)> score;  // of an encoded point
  double enough = 0.0;
};

// A uniformly random point whose grid cell holds no point (told, pending or failed), when one
// can be found; on a small discrete domain the free cells are listed, so one is always found
// while any is left. With a preference, the free points drawn are judged by it.
std::vector<double> free_random_point(const Space& space, const GridPlan& grids,
                                      const CellOccupancy& occupancy, Random& random,
                                      const PointPreference* preference = nullptr);

// Point k of the initial design, moved within its strata (or replaced by a free random point)
// when its grid cell holds a point.
std::vector<double> initial_design_point(const Space& space, const GridPlan& grids,
                                         const LatinHypercube& design, std::size_t k,
                                         const CellOccupancy& occupancy, Random& random);

}  // namespace addbo::core
