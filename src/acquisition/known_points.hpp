// When a point is known: evaluated (or being evaluated) with nothing left to learn there, so
// that asking it again would teach the model nothing (docs/configuration.md, "Known points are
// not asked again").
#pragma once

#include <vector>

#include "acquisition/grid_cells.hpp"
#include "gp/additive_posterior.hpp"

namespace addbo::core {

// The posterior variance (standardised units) at or below which a point counts as known: a
// few noise variances, capped, so that a noisy objective may be evaluated again where it pays.
double known_variance(const AdditivePosterior& posterior);

// Whether the encoded point u of `cell` is known: a point was evaluated (or is pending, when
// `with_pending`) in the cell, and the posterior variance at u given only those points is
// within known_variance().
bool is_known(const AdditivePosterior& posterior, const std::vector<double>& u,
              const CellOccupancy& occupancy, const std::vector<int>& cell, bool with_pending);

}  // namespace addbo::core
