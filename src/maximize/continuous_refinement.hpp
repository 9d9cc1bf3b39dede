// Refinement beyond the grid. The acquisition is a sum of smooth low-dimensional terms known
// exactly on the grid (the tables); between grid points it is close to their Catmull-Rom
// interpolant, a C1 cubic through the table values. After the exact maximisation on the grid,
// coordinate ascent on that interpolant moves each continuous variable within just under half a
// grid step of the chosen cell (so the point stays in the cell the known-point rule judged): moving
// one variable changes only the terms that hold it. Integer and categorical variables keep their
// values. The caller checks the refined point against the grid point with the exact posterior.
#pragma once

#include <vector>

#include "maximize/max_sum.hpp"

namespace addbo::core {

// The interpolant of `table` at fractional grid positions (one per variable 0..D-1; a whole
// number is a grid point, where the interpolant equals the table).
double interpolate_table(const Table& table, const std::vector<int>& domain_sizes,
                         const std::vector<double>& position);

// Fractional grid positions (one per variable) that maximise the sum of the interpolated
// tables by coordinate ascent from `start`, moving only variables with movable[v] set, each
// within 0.45 of its grid index (and inside the grid). The sum at the
// result is never below its value at `start`.
std::vector<double> refine_on_interpolant(const std::vector<Table>& tables,
                                          const std::vector<int>& domain_sizes,
                                          const std::vector<char>& movable,
                                          const std::vector<int>& start);

}  // namespace addbo::core
