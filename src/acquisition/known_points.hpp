// When a point is known: evaluated (or being evaluated) with nothing left to learn there, so
// that asking it again would teach the model nothing (docs/configuration.md, "Known points are
// not asked again").
#pragma once

#include <cstddef>
#include <vector>

#include "acquisition/grid_cells.hpp"
#include "gp/additive_posterior.hpp"

namespace addbo::core {

// The posterior variance (standardised units) at or below which a point counts as known: a
// few noise variances, capped, so that a noisy objective may be evaluated again where it pays.
double known_variance(const AdditivePosterior& posterior);

// The most points of one cell that the known-point rule conditions on: the newest ones. Any
// subset of the points gives an upper bound of the posterior variance (conditioning on more
// data never adds variance), so the rule stays sound, and a cell crowded with thousands of
// evaluations costs a fixed k x k system instead of growing with the cube of its count.
constexpr std::size_t kMostCellPoints = 64;

// The posterior variance at the encoded point u of `cell` (standardised units) given only the
// newest kMostCellPoints points evaluated in the cell (and pending there, when
// `with_pending`): observed ones first, then pending ones, each in the order they came. 1 (the
// prior) when the cell holds none, or when the system cannot be factorised.
double cell_variance_bound(const AdditivePosterior& posterior, const std::vector<double>& u,
                           const CellOccupancy& occupancy, const std::vector<int>& cell,
                           bool with_pending);

// Whether the encoded point u of `cell` is known: a point was evaluated (or is pending, when
// `with_pending`) in the cell, and cell_variance_bound() is within known_variance().
bool is_known(const AdditivePosterior& posterior, const std::vector<double>& u,
              const CellOccupancy& occupancy, const std::vector<int>& cell, bool with_pending);

}  // namespace addbo::core
