#include "acquisition/ask_policy.hpp"

#include <algorithm>
#include <cmath>

#include "acquisition/known_points.hpp"
#include "acquisition/ucb.hpp"
#include "maximize/continuous_refinement.hpp"
#include "maximize/max_sum_excluding.hpp"

namespace addbo::core {
namespace {

// How many known grid cells the acquisition's maximiser may pass over before the ask falls back
// to a random point: each costs D max-sum passes, and a run of hundreds means the model has
// nothing left to say about the grid.
constexpr std::size_t kMaxKnownCellsSkipped = 256;
// In a local box a short run of known points ranking first means the box is used up: the
// ask then searches the whole grid instead.
constexpr std::size_t kMaxKnownInBoxSkipped = 8;

// When the acquisition settles on an observed point, the global search looks for the smallest
// widening of the exploration weight whose maximiser is a new cell: steps of x4 up to x1024
// bracket it, then bisection on the logarithm narrows the bracket to a ratio of 1.1.
constexpr double kExplorationWidening = 4.0;
constexpr double kMaxExplorationWidening = 1024.0;
constexpr double kWideningPrecision = 1.1;

// The acquisition's tables at one widening of the exploration weight, and their maximiser.
struct Maximum {
  double widen;
  std::vector<Table> tables;
  MaxSumResult best;
};

// The point asked for a chosen grid cell: its continuous variables refined within the cell on
// the interpolated acquisition, kept when the exact acquisition there is higher (and the
// refined point is not known); with the exact acquisition of the point returned.
struct Refined {
  std::vector<double> x;
  double acquisition;
};

Refined refined_point(const ModelView& view, const std::vector<Table>& tables,
                      const std::vector<int>& cell, double sd_weight) {
  std::vector<double> x = grid_point(view.space, view.grids, cell);
  const std::vector<int> sizes = view.grids.sizes();
  // The grid point's exact acquisition is the tables' entry.
  double grid_value = 0.0;
  for (std::size_t c = 0; c < tables.size(); ++c) {
    grid_value += tables[c].values[table_offset(tables[c].vars, sizes, cell)];
  }
  std::vector<char> movable(x.size(), 0);
  bool any = false;
  for (std::size_t d = 0; d < x.size(); ++d) {
    movable[d] = view.space.type(d) == VariableType::continuous && sizes[d] >= 2;
    any = any || movable[d];
  }
  if (!any) return {x, grid_value};
  const std::vector<double> position = refine_on_interpolant(tables, sizes, movable, cell);
  std::vector<double> refined = x;
  bool moved = false;
  for (std::size_t d = 0; d < x.size(); ++d) {
    if (position[d] == static_cast<double>(cell[d])) continue;
    // Between the two plan grid points around the position (a coarsened plan is not evenly
    // spaced in index, so each interval is interpolated on its own), in the variable's scale
    // (geometrically on a log scale, where the grid is evenly spaced in the logarithm).
    const std::vector<int>& indices = view.grids.indices[d];
    const int low = static_cast<int>(std::floor(position[d]));
    const int high = std::min(low + 1, sizes[d] - 1);
    const double a = view.space.grid_value(d, indices[low]);
    const double b = view.space.grid_value(d, indices[high]);
    refined[d] =
        std::min(std::max(view.space.interpolate(d, a, b, position[d] - low), std::min(a, b)),
                 std::max(a, b));
    moved = true;
  }
  if (!moved) return {x, grid_value};
  // A refined point that duplicates a point evaluated in its cell is not asked (the grid
  // point itself is not known, so it is).
  const std::vector<double> u = view.space.encode_point(refined);
  if (is_known(view.posterior, u, view.occupancy, cell, true)) return {x, grid_value};
  // The interpolant only guides the search: the refined point is asked only when its exact
  // acquisition beats the grid point's (whose exact value is the tables' entry).
  std::vector<double> mean, variance;
  view.posterior.clique_moments(u, mean, variance);
  double refined_value = 0.0;
  for (std::size_t c = 0; c < tables.size(); ++c) {
    refined_value += mean[c] + sd_weight * std::sqrt(std::max(variance[c], 0.0));
  }
  if (!(refined_value > grid_value)) return {x, grid_value};
  return {refined, refined_value};
}

// The UCB maximiser over the grid points `allowed` admits (empty: all) that are not known: the
// global search (one point per cell, widening when settled), or the local box (known by
// variance, no widening).
std::optional<AskDecision> maximize_within(const ModelView& view, double beta,
                                           const DomainMasks& allowed, bool global) {
  // Globally, a cell holding an evaluated or pending point is known: one point per cell keeps
  // the global search exploring. In the local box a cell is known only when the points in it
  // leave nothing to learn at its grid point, so the box can be searched below the grid step.
  const auto known = [&](const std::vector<int>& cell) {
    if (global) return view.occupancy.occupied(cell, true);
    return is_known(view.posterior,
                    view.space.encode_point(grid_point(view.space, view.grids, cell)),
                    view.occupancy, cell, true);
  };
  const std::vector<int> sizes = view.grids.sizes();
  const auto maximum_at = [&](double widen) {
    Maximum m{widen, acquisition_tables(view.posterior, 1.0, std::sqrt(beta * widen)), {}};
    m.best = maximize_sum(view.tree, m.tables, sizes, allowed);
    return m;
  };
  Maximum chosen = maximum_at(1.0);
  if (global && view.occupancy.occupied(chosen.best.assignment, false)) {
    // Settled on an observed cell: ask the cell that first overtakes the known ones as the
    // exploration weight grows, the least exploration that leads somewhere new. A fixed
    // step would overshoot it: one x4 step too far sends the ask from beside the optimum to
    // wherever the deviations are largest, and late in a run, when this fires on most asks,
    // such asks make the average regret rise again (docs/benchmarks.md, paper experiments).
    double settled = chosen.widen;  // a widening whose maximiser is known
    while (known(chosen.best.assignment) && chosen.widen < kMaxExplorationWidening) {
      settled = chosen.widen;
      chosen = maximum_at(chosen.widen * kExplorationWidening);
    }
    while (!known(chosen.best.assignment) && chosen.widen / settled > kWideningPrecision) {
      Maximum middle = maximum_at(std::sqrt(chosen.widen * settled));
      if (known(middle.best.assignment)) {
        settled = middle.widen;
      } else {
        chosen = std::move(middle);
      }
    }
  }
  AskDecision decision;
  decision.phase = global ? AskPhase::global : AskPhase::local;
  decision.beta = beta;
  decision.exploration_weight = std::sqrt(beta * chosen.widen);
  std::vector<int> cell = chosen.best.assignment;
  if (known(cell)) {
    // Known through pending points only, or in the box, or still known at the widest weight:
    // the best grid point that is not known.
    const auto found = maximize_sum_excluding(
        view.tree, chosen.tables, sizes, known,
        global ? kMaxKnownCellsSkipped : kMaxKnownInBoxSkipped, allowed);
    if (!found) return std::nullopt;
    cell = found->best.assignment;
  }
  Refined refined = refined_point(view, chosen.tables, cell, decision.exploration_weight);
  decision.x = std::move(refined.x);
  decision.acquisition = refined.acquisition;
  return decision;
}

}  // namespace

std::optional<AskDecision> choose_model_point(const ModelView& view, double beta,
                                              const std::optional<DomainMasks>& box) {
  // A grid point is known when a point was evaluated (or is pending) in its cell and the model
  // has nothing left to learn there: its posterior variance (of f itself, from the full
  // posterior) is within a few noise variances of zero. A confident prediction alone is not
  // enough: the point the model believes best must still be evaluated to be had. The clique
  // deviations sigma_C stay large even at evaluated points (the data pin down the sum of the
  // components, not each one), so the additive UCB can rank a known point first, and asking it
  // again would teach the model nothing:
  //  - when the best cell's grid point is known only through pending points (a batch), the
  //    best unknown one is asked, found exactly;
  //  - when it is known through observations, the search has settled there: the exploration
  //    weight grows until the best grid point is new (maximize_within).
  // A noisy objective (noise variance above the threshold) is re-evaluated where UCB says so.
  // In the local phase only the box is searched, and a known best point there gives way to the
  // best unknown one at once; a box with nothing left to ask gives way to the whole grid.
  if (box) {
    if (std::optional<AskDecision> decision = maximize_within(view, beta, *box, false)) {
      return decision;
    }
  }
  return maximize_within(view, beta, DomainMasks(), true);
}

}  // namespace addbo::core
