// The asks that do not maximise the model: the initial design's points and random points in
// cells that hold no point yet (the last resort of a model-based ask).
#pragma once

#include <cstddef>
#include <vector>

#include "acquisition/grid_cells.hpp"
#include "maximize/grid_plan.hpp"
#include "space/latin_hypercube.hpp"
#include "space/space.hpp"
#include "util/random.hpp"

namespace addbo::core {

// A uniformly random point whose grid cell holds no point (told or pending), when one can be
// found; on a small discrete domain the free cells are listed, so one is always found while any
// is left.
std::vector<double> free_random_point(const Space& space, const GridPlan& grids,
                                      const CellOccupancy& occupancy, Random& random);

// Point k of the initial design, moved within its strata (or replaced by a free random point)
// when its grid cell holds a point.
std::vector<double> initial_design_point(const Space& space, const GridPlan& grids,
                                         const LatinHypercube& design, std::size_t k,
                                         const CellOccupancy& occupancy, Random& random);

}  // namespace addbo::core
