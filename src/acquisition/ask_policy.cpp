#include "acquisition/ask_policy.hpp"

#include <algorithm>
#include <cmath>

#include "acquisition/known_points.hpp"
#include "acquisition/ucb.hpp"
#include "maximize/continuous_refinement.hpp"
#include "maximize/max_sum_excluding.hpp"

namespace addbo::core {
namespace {

// The acquisition's exact value at the encoded point u (off the grid too).
double exact_acquisition(const ModelView& view, const std::vector<double>& u, double sd_weight) {
  std::vector<double> mean, variance;
  const auto add = [&](const AdditivePosterior& posterior, double mean_weight, double sd) {
    posterior.clique_moments(u, mean, variance);
    double value = 0.0;
    for (std::size_t c = 0; c < mean.size(); ++c) {
      value += mean_weight * mean[c] + sd * std::sqrt(std::max(variance[c], 0.0));
    }
    return value;
  };
  if (view.objective.empty()) return add(view.posterior, 1.0, sd_weight);
  double value = 0.0;
  for (const AcquisitionTerm& term : view.objective) {
    value += add(*term.posterior, term.mean_weight, term.sd_factor * sd_weight);
  }
  return value;
}

// How many known grid cells the acquisition's maximiser may pass over before the ask falls back
// to a random point: each costs D max-sum passes, and a run of hundreds means the model has
// nothing left to say about the grid.
constexpr std::size_t kMaxKnownCellsSkipped = 256;
// In a local box a short run of known points ranking first means the box is used up: the
// ask then searches the whole domain instead.
constexpr std::size_t kMaxKnownInBoxSkipped = 8;

// When the acquisition settles on an observed point, the global search looks for the smallest
// widening of the exploration weight whose maximiser is a new cell: steps of x4 up to x1024
// bracket it, then bisection on the logarithm narrows the bracket to a ratio of 1.1.
constexpr double kExplorationWidening = 4.0;
constexpr double kMaxExplorationWidening = 1024.0;
constexpr double kWideningPrecision = 1.1;

// Each condition's weight starts at 1/64 when its condition first fails at the maximiser and
// doubles each time it fails again, up to 4096 (a margin of one standard deviation then
// outweighs any difference of the acquisition): a weight rises only while its own condition
// needs it, so that conditions that pull different ways are each given what they need (the
// dual ascent of a Lagrangian, in factors of 2). At most this many maximisations.
constexpr double kFirstConditionWeight = 1.0 / 64.0;
constexpr double kConditionWeightStep = 2.0;
constexpr double kMaxConditionWeight = 4096.0;
constexpr int kMaxWeightRounds = 96;
constexpr double kConditionWeightPrecision = 1.1;

// The tables an ask maximises and their maximiser, at one widening of the exploration weight
// and one weight of the conditions' margins: `objective` holds the acquisition alone (its
// values are the acquisition's), `steered` adds the weighted margins (what is maximised).
struct Maximum {
  double widen;
  std::vector<Table> objective;
  std::vector<Table> steered;
  MaxSumResult best;
};

// One maximisation over the view's grid: globally, or in a local box.
class Search {
 public:
  Search(const ModelView& view, double beta, bool global)
      : view_(view), beta_(beta), global_(global), sizes_(view.grids.sizes()) {}

  const std::vector<int>& sizes() const { return sizes_; }
  bool has_conditions() const { return view_.conditions && !view_.conditions->empty(); }

  // The acquisition's tables at exploration weight sqrt(beta widen).
  std::vector<Table> objective_tables(double widen) const {
    const double sd_weight = std::sqrt(beta_ * widen);
    if (view_.objective.empty()) return acquisition_tables(view_.posterior, 1.0, sd_weight);
    std::vector<Table> tables;
    for (const AcquisitionTerm& term : view_.objective) {
      std::vector<Table> part =
          acquisition_tables(*term.posterior, term.mean_weight, term.sd_factor * sd_weight);
      if (tables.empty()) {
        tables = std::move(part);
        continue;
      }
      for (std::size_t c = 0; c < tables.size(); ++c) {
        for (std::size_t i = 0; i < tables[c].values.size(); ++i)
          tables[c].values[i] += part[c].values[i];
      }
    }
    return tables;
  }

  // The tables at one widening with the conditions' margins weighted by `weights` (one per
  // condition; empty: none).
  Maximum maximum_at(double widen, const std::vector<double>& weights) const {
    Maximum m{widen, objective_tables(widen), {}, {}};
    m.steered = m.objective;
    for (std::size_t k = 0; k < weights.size(); ++k) {
      if (!(weights[k] > 0.0)) continue;
      const AskCondition& condition = (*view_.conditions)[k];
      for (std::size_t c = 0; c < m.steered.size(); ++c) {
        Eigen::Map<Eigen::VectorXd> values(m.steered[c].values.data(),
                                           static_cast<Eigen::Index>(m.steered[c].values.size()));
        values += weights[k] * condition.margin[c];
      }
    }
    m.best = maximize_sum(view_.tree, m.steered, sizes_);
    return m;
  }

  bool admitted_cell(const std::vector<int>& cell) const {
    if (!has_conditions()) return true;
    return admitted(view_, view_.space.encode_point(grid_point(view_.space, view_.grids, cell)));
  }

  // Globally, a cell holding an evaluated, pending or failed point is known: one point per cell
  // keeps the global search exploring. In the local box, and everywhere on a noisy objective, a
  // cell is known when a point failed in it, or when the points in it leave nothing to learn at
  // its grid point, so the box can be searched below the grid step and a noisy point evaluated
  // again. A cell whose grid point does not meet the conditions is passed over like a known one.
  bool known(const std::vector<int>& cell) const {
    const bool known_cell =
        global_ && !view_.repeats
            ? view_.occupancy.occupied(cell, true)
            : view_.occupancy.failed.contains(cell) ||
                  is_known(view_.posterior,
                           view_.space.encode_point(grid_point(view_.space, view_.grids, cell)),
                           view_.occupancy, cell, true);
    return known_cell || !admitted_cell(cell);
  }

  // Weights of the conditions' margins whose maximiser at `widen` meets every condition: none
  // while the acquisition's own maximiser does; else each condition's weight raised while its
  // condition fails at the maximiser. When no weights up to the largest lead to an admitted
  // maximiser, the last ones (the cells that are not admitted are then passed over one by one).
  std::vector<double> condition_weights(double widen) const {
    std::vector<double> weights;
    if (!has_conditions()) return weights;
    weights.assign(view_.conditions->size(), 0.0);
    for (int round = 0; round < kMaxWeightRounds; ++round) {
      const std::vector<int> cell = maximum_at(widen, weights).best.assignment;
      const std::vector<double> u =
          view_.space.encode_point(grid_point(view_.space, view_.grids, cell));
      bool raised = false, all = true;
      for (std::size_t k = 0; k < weights.size(); ++k) {
        if ((*view_.conditions)[k].admits(u)) continue;
        all = false;
        if (weights[k] >= kMaxConditionWeight) continue;
        weights[k] = weights[k] > 0.0 ? weights[k] * kConditionWeightStep : kFirstConditionWeight;
        raised = true;
      }
      if (all || !raised) break;
    }
    // Each weight narrowed down (bisection on its logarithm, to a ratio of 1.1) while the
    // maximiser stays admitted: doubling overshoots the least weight by up to a factor of 2, and
    // too much weight sends the ask away from the boundary it should approach.
    if (!admitted_cell(maximum_at(widen, weights).best.assignment)) return weights;
    for (std::size_t k = 0; k < weights.size(); ++k) {
      if (!(weights[k] > kFirstConditionWeight)) continue;
      double low = weights[k] / kConditionWeightStep, high = weights[k];
      while (high / low > kConditionWeightPrecision) {
        std::vector<double> trial = weights;
        trial[k] = std::sqrt(low * high);
        if (admitted_cell(maximum_at(widen, trial).best.assignment)) {
          high = trial[k];
        } else {
          low = trial[k];
        }
      }
      weights[k] = high;
    }
    return weights;
  }

  std::optional<AskDecision> run() const {
    const std::vector<double> weights = condition_weights(1.0);
    Maximum chosen = maximum_at(1.0, weights);
    if (global_ && view_.occupancy.occupied(chosen.best.assignment, false)) {
      // Settled on an observed cell: ask the cell that first overtakes the known ones as the
      // exploration weight grows, the least exploration that leads somewhere new. A fixed
      // step would overshoot it: one x4 step too far sends the ask from beside the optimum to
      // wherever the deviations are largest, and late in a run, when this fires on most asks,
      // such asks make the average regret rise again (docs/benchmarks.md, paper experiments).
      double settled = chosen.widen;  // a widening whose maximiser is known
      while (known(chosen.best.assignment) && chosen.widen < kMaxExplorationWidening) {
        settled = chosen.widen;
        chosen = maximum_at(chosen.widen * kExplorationWidening, weights);
      }
      while (!known(chosen.best.assignment) && chosen.widen / settled > kWideningPrecision) {
        Maximum middle = maximum_at(std::sqrt(chosen.widen * settled), weights);
        if (known(middle.best.assignment)) {
          settled = middle.widen;
        } else {
          chosen = std::move(middle);
        }
      }
    }
    AskDecision decision;
    decision.phase = global_ ? AskPhase::global : AskPhase::local;
    decision.beta = beta_;
    decision.exploration_weight = std::sqrt(beta_ * chosen.widen);
    if (has_conditions()) {
      decision.condition_weight = *std::max_element(weights.begin(), weights.end());
    }
    std::vector<int> cell = chosen.best.assignment;
    if (known(cell)) {
      // Known through pending points only, or in the box, or still known at the widest weight,
      // or not admitted: the best grid point that is neither.
      const auto found = maximize_sum_excluding(
          view_.tree, chosen.steered, sizes_, [&](const std::vector<int>& c) { return known(c); },
          global_ ? kMaxKnownCellsSkipped : kMaxKnownInBoxSkipped);
      if (!found) return std::nullopt;
      cell = found->best.assignment;
    }
    refine(chosen, cell, decision);
    return decision;
  }

 private:
  // The point asked for the chosen grid cell: its continuous variables refined within the cell
  // on the interpolated tables that were maximised, kept when the exact acquisition there is
  // higher (and the refined point is neither known nor inadmissible).
  void refine(const Maximum& chosen, const std::vector<int>& cell, AskDecision& decision) const {
    const Space& space = view_.space;
    std::vector<double> x = grid_point(space, view_.grids, cell);
    // The grid point's exact acquisition is the tables' entry.
    double grid_value = 0.0;
    for (const Table& table : chosen.objective) {
      grid_value += table.values[table_offset(table.vars, sizes_, cell)];
    }
    decision.x = x;
    decision.acquisition = grid_value;
    std::vector<char> movable(x.size(), 0);
    bool any = false;
    for (std::size_t d = 0; d < x.size(); ++d) {
      movable[d] = space.type(d) == VariableType::continuous && sizes_[d] >= 2;
      any = any || movable[d];
    }
    if (!any) return;
    const std::vector<double> position =
        refine_on_interpolant(chosen.steered, sizes_, movable, cell);
    std::vector<double> refined = x;
    bool moved = false;
    for (std::size_t d = 0; d < x.size(); ++d) {
      if (position[d] == static_cast<double>(cell[d])) continue;
      // Between the two plan grid points around the position (a coarsened plan is not evenly
      // spaced in index, so each interval is interpolated on its own), in the variable's scale
      // (geometrically on a log scale, where the grid is evenly spaced in the logarithm).
      const std::vector<int>& indices = view_.grids.indices[d];
      const int low = static_cast<int>(std::floor(position[d]));
      const int high = std::min(low + 1, sizes_[d] - 1);
      const double a = space.grid_value(d, indices[low]);
      const double b = space.grid_value(d, indices[high]);
      refined[d] = std::min(std::max(space.interpolate(d, a, b, position[d] - low), std::min(a, b)),
                            std::max(a, b));
      moved = true;
    }
    if (!moved) return;
    // A refined point that duplicates a point evaluated in its cell is not asked (the grid
    // point itself is not known, so it is).
    const std::vector<double> u = space.encode_point(refined);
    if (is_known(view_.posterior, u, view_.occupancy, cell, true)) return;
    if (has_conditions() && !admitted(view_, u)) return;
    // The interpolant only guides the search: the refined point is asked only when its exact
    // acquisition beats the grid point's (whose exact value is the tables' entry).
    const double refined_value = exact_acquisition(view_, u, decision.exploration_weight);
    if (!(refined_value > grid_value)) return;
    decision.x = std::move(refined);
    decision.acquisition = refined_value;
  }

  const ModelView& view_;
  double beta_;
  bool global_;
  std::vector<int> sizes_;
};

}  // namespace

std::optional<AskDecision> choose_among_points(const ModelView& view, double beta,
                                               const std::vector<std::vector<double>>& points) {
  std::optional<AskDecision> best;
  const double weight = std::sqrt(beta);
  for (const std::vector<double>& x : points) {
    const std::vector<double> u = view.space.encode_point(x);
    if (is_known(view.posterior, u, view.occupancy, grid_cell(view.space, view.grids, x), true)) {
      continue;
    }
    if (!admitted(view, u)) continue;
    const double value = exact_acquisition(view, u, weight);
    if (best && !(value > best->acquisition)) continue;
    best.emplace();
    best->x = x;
    best->phase = AskPhase::local;
    best->beta = beta;
    best->exploration_weight = weight;
    best->acquisition = value;
    if (view.conditions) best->condition_weight = 0.0;
  }
  return best;
}

bool admitted(const ModelView& view, const std::vector<double>& u) {
  if (!view.conditions) return true;
  for (const AskCondition& condition : *view.conditions) {
    if (!condition.admits(u)) return false;
  }
  return true;
}

std::optional<AskDecision> choose_model_point(const ModelView& view, double beta,
                                              SearchScope scope) {
  // Known points are passed over as docs/configuration.md ("Known points are not asked again",
  // "Local search") describes; in a local box a known best point gives way to the best
  // unknown one at once.
  return Search(view, beta, scope == SearchScope::global).run();
}

}  // namespace addbo::core
