// How a model-based ask chooses its point (docs/configuration.md, "How an ask chooses its
// point"): the exact maximiser of the additive UCB over the grid points not yet known, in the
// local-search box first when there is one, with the exploration widened as little as leads to
// a new cell when the global search has settled on an observed point, refined off the grid.
//
// A pure decision: it reads one model through a ModelView and returns what it chose, changing
// nothing. The optimizer commits the decision; the random-tree hedge calls it on a view of its
// own model.
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include "acquisition/grid_cells.hpp"
#include "gp/additive_posterior.hpp"
#include "graph/junction_tree.hpp"
#include "maximize/grid_plan.hpp"
#include "maximize/max_sum.hpp"
#include "space/space.hpp"

namespace addbo::core {

// One model as an ask sees it: the tables' junction tree and grids, the posterior on them, and
// the points already evaluated or pending, by cell of those grids.
struct ModelView {
  const Space& space;
  const JunctionTree& tree;
  const GridPlan& grids;
  const AdditivePosterior& posterior;
  CellOccupancy occupancy;
};

// How an ask chose its point: the initial design, the model's global search or local box,
// uniform random search ("strategy": "random"), or a random free point when the model had
// nothing left to offer (the fallback).
enum class AskPhase { none, initial_design, global, local, random, fallback };

struct AskDecision {
  std::vector<double> x;  // user units
  AskPhase phase = AskPhase::none;
  // A model-based ask's beta_t, the exploration weight it maximised with (sqrt(beta_t) times
  // any widening) and the exact acquisition of the point chosen (standardised units); NaN for
  // the other phases.
  double beta = std::numeric_limits<double>::quiet_NaN();
  double exploration_weight = std::numeric_limits<double>::quiet_NaN();
  double acquisition = std::numeric_limits<double>::quiet_NaN();
};

// The model-based choice with exploration weight beta_t, within `box` first when there is one:
// the phase is local or global. Nothing when no grid point is left to ask (or too many known
// ones rank first): the caller falls back to a random free point.
std::optional<AskDecision> choose_model_point(const ModelView& view, double beta,
                                              const std::optional<DomainMasks>& box);

}  // namespace addbo::core
