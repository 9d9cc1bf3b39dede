// How a model-based ask chooses its point (docs/configuration.md, "How an ask chooses its
// point"): the exact maximiser of the additive UCB over the grid points not yet known, over the
// whole domain or a local search's box, with the exploration widened as little as leads to a
// new cell when the global search has settled on an observed point, refined off the grid;
// among the points that meet the ask's conditions (outcome constraints, evaluations that should
// not fail), found by steering the maximiser towards them.
//
// A pure decision: it reads one model through a ModelView and returns what it chose, changing
// nothing. The optimizer commits the decision; the random-tree hedge calls it on a view of its
// own model.
#pragma once

#include <Eigen/Core>
#include <functional>
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

// One additive term of what an ask maximises over one posterior's cliques:
//   mean_weight mu_C + sd_factor sqrt(beta_t w) sigma_C,
// w the widening of the exploration. The objective's UCB is the term (posterior, 1, 1).
struct AcquisitionTerm {
  const AdditivePosterior* posterior = nullptr;
  double mean_weight = 1.0;
  double sd_factor = 1.0;
};

// A requirement an asked point must meet besides scoring well (a constraint's bounds, an
// evaluation that should not fail): an exact test at an encoded point, and a margin, additive
// over the view's cliques, that grows towards the points that meet it. The maximiser is steered
// by adding the margin with the least weight (a Lagrange multiplier) whose maximiser meets the
// test.
struct AskCondition {
  std::vector<Eigen::VectorXd> margin;  // per clique of the view's posterior, over its grid
  std::function<bool(const std::vector<double>& u)> admits;
};

// One model as an ask sees it: the tables' junction tree and grids, the posterior on them, the
// points already evaluated, pending or failed, by cell of those grids; what to maximise (empty:
// the UCB of `posterior`), the conditions an asked point must meet (none: null), and whether a
// point may be evaluated again anywhere (a noisy objective: cells are then known by the
// variance left in them, as in the local box, rather than by holding a point).
struct ModelView {
  const Space& space;
  const JunctionTree& tree;
  const GridPlan& grids;
  const AdditivePosterior& posterior;
  CellOccupancy occupancy;
  std::vector<AcquisitionTerm> objective;
  const std::vector<AskCondition>* conditions = nullptr;
  bool repeats = false;
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
  // The largest weight of the conditions' margins that steered the maximiser (0: none needed;
  // NaN: no conditions).
  double condition_weight = std::numeric_limits<double>::quiet_NaN();
};

// Where a model-based ask searches: the whole domain (a grid cell holding a point is known), or
// a local search's box given as the view's own domain (a cell is known when the points in it
// leave nothing to learn at its grid point, so the box is searched below its grid's step).
enum class SearchScope { global, local };

// The model-based choice with exploration weight beta_t over the view's domain: the phase is
// the scope's. Nothing when no grid point is left to ask (or too many known or inadmissible
// ones rank first): the caller falls back to a wider search or a random free point.
std::optional<AskDecision> choose_model_point(const ModelView& view, double beta,
                                              SearchScope scope);

// Of `points` (user units, in the view's domain), the one with the largest exact acquisition
// (exploration weight sqrt(beta_t)) among those that are not known and meet every condition,
// as a local ask; nothing when none does. For a box whose grid has no admitted point: the
// region that meets the conditions can be narrower than the grid's step.
std::optional<AskDecision> choose_among_points(const ModelView& view, double beta,
                                               const std::vector<std::vector<double>>& points);

// Whether the encoded point u meets every condition of the view.
bool admitted(const ModelView& view, const std::vector<double>& u);

}  // namespace addbo::core
