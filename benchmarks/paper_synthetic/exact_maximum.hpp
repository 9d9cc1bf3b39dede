// The exact maximum of a synthetic test function over its whole grid (grid^D points), by
// max-sum dynamic programming over the true graph:
//   star: for each value of the hub x0, every leaf is maximised independently;
//   3x3 grid: dynamic programming over the rows, the state being a row's three values (g^3
//   states); the step between two rows eliminates the three vertical edges one column at a time
//   (O(3 g^4) per step instead of g^6).
#pragma once

#include "test_function.hpp"

namespace paper_synthetic {

double exact_maximum(const TestFunction& function);

// Enumerates every grid point: only for small grid^D (the tests).
double brute_force_maximum(const TestFunction& function);

}  // namespace paper_synthetic
