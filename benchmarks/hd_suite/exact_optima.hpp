// The exact optima of the hd_suite functions, from their structure:
//   Rosenbrock and Ackley: sums of non-negative terms that all vanish at one point (0 there);
//   Styblinski-Tang: separable, so D times the minimum of one quartic, whose minimiser is the
//     root of the cubic derivative found by Newton's method;
//   Hartmann-6: not structurally solvable; the literature's minimiser is polished by Newton's
//     method on the gradient (analytic Hessian) to machine precision;
//   additive GP samples: the maximum over the grid (see GridAdditiveFunction for why this is the
//     maximum over the box) by max-sum dynamic programming: leaf-to-root messages on a tree,
//     column by column on a lattice.
// exact_optima_test.cpp checks each against brute force on small instances.
#pragma once

#include <vector>

#include "functions.hpp"

namespace hd_suite {

// The minimiser of (1/2)(t^4 - 16 t^2 + 5 t) on [-5, 5] (about -2.903534) and the minimum of
// styblinski_tang over [-5, 5]^dimension (about -39.16617 * dimension).
double styblinski_tang_minimiser();
double styblinski_tang_minimum(int dimension);

// The global minimiser of hartmann6 on [0, 1]^6 and its value (about -3.32237).
std::vector<double> hartmann6_minimiser();
double hartmann6_minimum();

// Maximum over the grid of a function whose edges form a forest (each tree rooted at its
// smallest vertex), in O(D g^2).
double tree_maximum(const GridAdditiveFunction& function);
// Maximum over the grid of a function on lattice(rows, columns): the state is one column's
// `rows` values (g^rows states); moving to the next column replaces one row's variable at a time
// through its horizontal edge, O(rows g^(rows+1)) per column.
double lattice_maximum(const GridAdditiveFunction& function, int rows, int columns);
// Enumerates all g^D grid points: only for small instances (the tests).
double brute_force_grid_maximum(const GridAdditiveFunction& function);

}  // namespace hd_suite
