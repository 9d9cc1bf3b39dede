// The picture of a box2d_walker run: every value told with the best so far, and the best
// walker's gait as stick figures over time, drawn by gnuplot into a PNG.
#pragma once

#include <string>
#include <vector>

#include "walker.hpp"

namespace box2d_walker {

// Writes <png>.gp (the gnuplot script, data included) and runs gnuplot on it. Returns 0 when the
// PNG is written, 3 when gnuplot is not installed, 1 when it fails (each said on stderr).
int plot_run(const std::string& png, const std::vector<double>& values, int in_flight,
             const Walk& best);

}  // namespace box2d_walker
