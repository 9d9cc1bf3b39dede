// How an ask chooses its point (docs/configuration.md, "How an ask chooses its point"): the
// initial design, the exact maximisation of the acquisition over the grid (in the local-search
// box when there is one), the known-point rule, and the refinement off the grid. Members of
// OptimizerEngine, kept apart from its state keeping and learning.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "acquisition/ucb.hpp"
#include "maximize/continuous_refinement.hpp"
#include "maximize/max_sum_excluding.hpp"
#include "optimizer/optimizer_engine.hpp"

namespace addbo::core {
namespace {

// How many known grid cells the acquisition's maximiser may pass over before the ask falls back
// to a random point: each costs D max-sum passes, and a run of hundreds means the model has
// nothing left to say about the grid.
constexpr std::size_t kMaxKnownCellsSkipped = 256;
// In a local box a short run of known points ranking first means the box is used up: the
// ask then searches the whole grid instead.
constexpr std::size_t kMaxKnownInBoxSkipped = 8;

// A point is known when its posterior variance (standardised units) is at most this many noise
// variances, and at most the cap: a noisy objective may be evaluated again where it pays.
constexpr double kKnownNoiseMultiple = 10.0;
constexpr double kKnownVarianceCap = 1e-2;

// When the acquisition settles on an observed point, the global search looks for the smallest
// widening of the exploration weight whose maximiser is a new cell: steps of x4 up to x1024
// bracket it, then bisection on the logarithm narrows the bracket to a ratio of 1.1.
constexpr double kExplorationWidening = 4.0;
constexpr double kMaxExplorationWidening = 1024.0;
constexpr double kWideningPrecision = 1.1;

// A discrete domain of at most this many grid cells is listed to find the unknown ones.
constexpr std::size_t kMaxListedCells = std::size_t{1} << 16;

// Multiply-adds of a hedged ask's posterior build up to which the hedge keeps its full share
// (about 0.3 s on one core): every run of a few hundred evaluations at D <= 50 on 32-point grids.
constexpr double kHedgeWork = 1e9;

}  // namespace

std::vector<int> OptimizerEngine::grid_cell(const std::vector<double>& x) const {
  std::vector<int> cell(x.size());
  for (std::size_t d = 0; d < x.size(); ++d) {
    const std::vector<int>& indices = structure_.grids.indices[d];
    const int size = static_cast<int>(indices.size());
    if (size == space_.grid_size(d) && size > 1 && space_.evenly_encoded(d)) {
      // The full grid is evenly spaced in encoded units: the nearest point is within one of the
      // rounded position; the neighbours settle rounding, ties going to the lower index.
      // Distances are in the variable's scale (on a log scale, between logarithms).
      // (A categorical value is its choice index, which encode() leaves as it is.)
      const double position =
          space_.type(d) == VariableType::categorical ? x[d] : space_.encode(d, x[d]) * (size - 1);
      const int guess = std::min(std::max(static_cast<int>(std::lround(position)), 0), size - 1);
      int nearest = guess;
      for (int candidate : {guess - 1, guess + 1}) {
        if (candidate < 0 || candidate >= size) continue;
        const double distance = space_.grid_distance(d, x[d], candidate);
        const double best = space_.grid_distance(d, x[d], nearest);
        if (distance < best || (distance == best && candidate < nearest)) nearest = candidate;
      }
      cell[d] = nearest;
      continue;
    }
    // A coarsened plan (or a log-scale integer's grid, uneven in encoded units): its grid values
    // ascend with their index, so the nearest one is beside the first value not below x[d].
    std::size_t low = 0, high = indices.size();
    while (low < high) {
      const std::size_t middle = (low + high) / 2;
      if (space_.grid_value(d, indices[middle]) < x[d]) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    std::size_t nearest = std::min(low, indices.size() - 1);
    if (low > 0 && (low == indices.size() || space_.grid_distance(d, x[d], indices[low - 1]) <=
                                                 space_.grid_distance(d, x[d], indices[low]))) {
      nearest = low - 1;
    }
    cell[d] = static_cast<int>(nearest);
  }
  return cell;
}

std::vector<double> OptimizerEngine::initial_point(std::size_t k, Random& random) const {
  const CellOccupants known = cell_occupants();
  if (k < design_.size()) {
    // A few new positions within the same strata before giving the strata up.
    for (int attempt = 0; attempt < 8; ++attempt) {
      const std::vector<double> u = design_.point(k, random);
      std::vector<double> x(u.size());
      for (std::size_t d = 0; d < x.size(); ++d) x[d] = space_.from_unit(d, u[d]);
      if (known.count(grid_cell(x)) == 0) return x;
    }
  }
  return unknown_random_point(known, random);
}

std::vector<double> OptimizerEngine::unknown_random_point(const CellOccupants& known,
                                                          Random& random) const {
  std::vector<double> x;
  for (int attempt = 0; attempt < 64; ++attempt) {
    x = space_.random_point(random);
    if (known.count(grid_cell(x)) == 0) return x;
  }
  // Mostly known: on a small discrete domain, list the unknown cells and pick one.
  const std::vector<int> sizes = structure_.grids.sizes();
  std::size_t cells = 1;
  for (std::size_t d = 0; d < sizes.size() && cells <= kMaxListedCells; ++d) {
    if (space_.type(d) == VariableType::continuous) cells = kMaxListedCells + 1;
    cells *= static_cast<std::size_t>(sizes[d]);
  }
  if (cells > kMaxListedCells) return x;
  std::vector<std::vector<int>> unknown;
  std::vector<int> cell(sizes.size(), 0);
  for (std::size_t i = 0; i < cells; ++i) {
    if (known.count(cell) == 0) unknown.push_back(cell);
    for (std::size_t d = 0; d < cell.size() && ++cell[d] == sizes[d]; ++d) cell[d] = 0;
  }
  if (unknown.empty()) return x;  // everything is known: any point is as good
  return grid_point(unknown[random.below(unknown.size())]);
}

std::vector<double> OptimizerEngine::grid_point(const std::vector<int>& cell) const {
  std::vector<double> x(space_.dimension());
  for (std::size_t d = 0; d < x.size(); ++d) {
    x[d] = space_.grid_value(d, structure_.grids.indices[d][cell[d]]);
  }
  return x;
}

double OptimizerEngine::known_variance() const {
  return std::min(kKnownVarianceCap,
                  kKnownNoiseMultiple * (parameters_.noise_variance + parameters_.jitter));
}

std::optional<std::vector<double>> OptimizerEngine::maximize_acquisition(double beta) {
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
  //    weight grows (x4 per step, at most x1024) until the best grid point is new, then the
  //    best unknown one at the widest weight is asked.
  // A noisy objective (noise variance above the threshold) is re-evaluated where UCB says so.
  // In the local phase (optimizer/trust_region.hpp) only the box is searched, and a known
  // best point there gives way to the best unknown one at once; a box with nothing left to ask
  // gives way to the whole grid.
  const CellOccupants occupants = cell_occupants();
  if (const std::optional<DomainMasks> box = trust_region_box()) {
    if (std::optional<std::vector<double>> x =
            maximize_acquisition_within(beta, *box, false, occupants)) {
      choice_ = AskChoice::local;
      return x;
    }
  }
  choice_ = AskChoice::global;
  return maximize_acquisition_within(beta, DomainMasks(), true, occupants);
}

CellOccupants OptimizerEngine::cell_occupants() const {
  CellOccupants occupants;
  for (const Observation& observation : observations_) {
    occupants[grid_cell(observation.x)].push_back({space_.encode_point(observation.x), false});
  }
  for (const std::vector<double>& x : pending_) {
    occupants[grid_cell(x)].push_back({space_.encode_point(x), true});
  }
  return occupants;
}

bool OptimizerEngine::is_known(const std::vector<double>& u, const CellOccupants& occupants,
                               const std::vector<int>& cell, bool with_pending) const {
  const auto found = occupants.find(cell);
  if (found == occupants.end()) return false;
  // The posterior variance given only the points in the cell bounds the full posterior's from
  // above (conditioning on more data never adds variance): when it is already small, the
  // point is known, at the cost of a k x k system instead of a solve against every point.
  std::vector<const std::vector<double>*> points;
  for (const CellOccupant& occupant : found->second) {
    if (with_pending || !occupant.pending) points.push_back(&occupant.u);
  }
  if (points.empty()) return false;
  const AdditiveKernel& kernel = posterior_->kernel();
  const Eigen::Index k = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd delta(k, k);
  Eigen::VectorXd cross(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    cross(i) = kernel(points[i]->data(), u.data());
    for (Eigen::Index j = 0; j <= i; ++j) {
      delta(i, j) = delta(j, i) = kernel(points[i]->data(), points[j]->data());
    }
  }
  delta.diagonal().array() += kernel.noise_variance() + parameters_.jitter;
  const Eigen::LLT<Eigen::MatrixXd> factor(delta);
  if (factor.info() != Eigen::Success) return false;  // cannot tell: treat as new
  const double variance = 1.0 - cross.dot(factor.solve(cross));
  return variance <= known_variance();
}

std::optional<std::vector<double>> OptimizerEngine::maximize_acquisition_within(
    double beta, const DomainMasks& allowed, bool global, const CellOccupants& occupants) {
  // Globally, a cell holding an evaluated or pending point is known: one point per cell keeps
  // the global search exploring. In the local box a cell is known only when the points in it
  // leave nothing to learn at its grid point, so the box can be searched below the grid step.
  const auto occupied = [&](const std::vector<int>& cell, bool with_pending) {
    const auto found = occupants.find(cell);
    if (found == occupants.end()) return false;
    return with_pending || std::any_of(found->second.begin(), found->second.end(),
                                       [](const CellOccupant& o) { return !o.pending; });
  };
  const auto known = [&](const std::vector<int>& cell) {
    if (global) return occupied(cell, true);
    return is_known(space_.encode_point(grid_point(cell)), occupants, cell, true);
  };
  const std::vector<int> sizes = structure_.grids.sizes();
  // The acquisition's tables and their maximiser with beta widened by `widen`.
  struct Maximum {
    double widen;
    std::vector<Table> tables;
    MaxSumResult best;
  };
  const auto maximum_at = [&](double widen) {
    Maximum m{widen, acquisition_tables(*posterior_, 1.0, std::sqrt(beta * widen)), {}};
    m.best = maximize_sum(structure_.tree, m.tables, sizes, allowed);
    return m;
  };
  Maximum chosen = maximum_at(1.0);
  if (global && occupied(chosen.best.assignment, false)) {
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
  const double sd_weight = std::sqrt(beta * chosen.widen);
  ask_weight_ = sd_weight;  // info: the weight of the point asked
  if (!known(chosen.best.assignment)) {
    return refined_point(chosen.tables, chosen.best.assignment, sd_weight, occupants);
  }
  // Known through pending points only, or in the box, or still known at the widest weight:
  // the best grid point that is not known.
  const auto found =
      maximize_sum_excluding(structure_.tree, chosen.tables, sizes, known,
                             global ? kMaxKnownCellsSkipped : kMaxKnownInBoxSkipped, allowed);
  if (!found) return std::nullopt;
  return refined_point(chosen.tables, found->best.assignment, sd_weight, occupants);
}

TrustRegionState OptimizerEngine::trust_region() const {
  if (!config_.local_search || config_.strategy != Strategy::gp_ucb) return TrustRegionState();
  std::vector<double> values;
  int finest_grid = 2;
  for (std::size_t d = 0; d < space_.dimension(); ++d)
    finest_grid = std::max(finest_grid, space_.grid_size(d));
  for (const Observation& observation : observations_) values.push_back(goal_value(observation.y));
  return replay_trust_region(values, static_cast<std::size_t>(config_.initial_points),
                             trust_region_rule(space_.dimension(), finest_grid));
}

std::optional<DomainMasks> OptimizerEngine::trust_region_box() const {
  const TrustRegionState region = trust_region();
  if (!region.local || observations_.empty()) return std::nullopt;
  // The box is centred on the best observation, in encoded units; categorical variables keep
  // every choice (a box has no meaning for them).
  const std::vector<double> best_x = best().x;
  const std::vector<double> centre = space_.encode_point(best_x);
  const std::vector<int> nearest = grid_cell(best_x);
  DomainMasks masks(space_.dimension());
  for (std::size_t d = 0; d < space_.dimension(); ++d) {
    if (space_.type(d) == VariableType::categorical) continue;
    const std::vector<int>& indices = structure_.grids.indices[d];
    std::vector<char>& mask = masks[d];
    mask.assign(indices.size(), 0);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      mask[k] =
          std::fabs(space_.encoded_grid_value(d, indices[k]) - centre[d]) <= 0.5 * region.length;
    }
    mask[static_cast<std::size_t>(nearest[d])] = 1;
  }
  return masks;
}

std::vector<double> OptimizerEngine::refined_point(const std::vector<Table>& tables,
                                                   const std::vector<int>& cell, double sd_weight,
                                                   const CellOccupants& occupants) const {
  std::vector<double> x = grid_point(cell);
  const std::vector<int> sizes = structure_.grids.sizes();
  // The grid point's exact acquisition is the tables' entry; recorded as the asked point's
  // (info), unless the refined point is asked instead.
  double grid_value = 0.0;
  for (std::size_t c = 0; c < tables.size(); ++c) {
    grid_value += tables[c].values[table_offset(tables[c].vars, sizes, cell)];
  }
  ask_acquisition_ = grid_value;
  std::vector<char> movable(x.size(), 0);
  bool any = false;
  for (std::size_t d = 0; d < x.size(); ++d) {
    movable[d] = space_.type(d) == VariableType::continuous && sizes[d] >= 2;
    any = any || movable[d];
  }
  if (!any) return x;
  const std::vector<double> position = refine_on_interpolant(tables, sizes, movable, cell);
  std::vector<double> refined = x;
  bool moved = false;
  for (std::size_t d = 0; d < x.size(); ++d) {
    if (position[d] == static_cast<double>(cell[d])) continue;
    // Between the two plan grid points around the position (a coarsened plan is not evenly
    // spaced in index, so each interval is interpolated on its own), in the variable's scale
    // (geometrically on a log scale, where the grid is evenly spaced in the logarithm).
    const std::vector<int>& indices = structure_.grids.indices[d];
    const int low = static_cast<int>(std::floor(position[d]));
    const int high = std::min(low + 1, sizes[d] - 1);
    const double a = space_.grid_value(d, indices[low]), b = space_.grid_value(d, indices[high]);
    refined[d] = std::min(std::max(space_.interpolate(d, a, b, position[d] - low), std::min(a, b)),
                          std::max(a, b));
    moved = true;
  }
  if (!moved) return x;
  // A refined point that duplicates a point evaluated in its cell is not asked (the grid
  // point itself is not known, so it is).
  const std::vector<double> u = space_.encode_point(refined);
  if (is_known(u, occupants, cell, true)) return x;
  // The interpolant only guides the search: the refined point is asked only when its exact
  // acquisition beats the grid point's (whose exact value is the tables' entry).
  std::vector<double> mean, variance;
  posterior_->clique_moments(u, mean, variance);
  double refined_value = 0.0;
  for (std::size_t c = 0; c < tables.size(); ++c) {
    refined_value += mean[c] + sd_weight * std::sqrt(std::max(variance[c], 0.0));
  }
  if (!(refined_value > grid_value)) return x;
  ask_acquisition_ = refined_value;
  return refined;
}

bool OptimizerEngine::random_tree_ask_due(std::size_t known) const {
  if (config_.structure.mode != StructureMode::learn) return false;
  // A hedged ask builds a posterior from scratch: about n^2 x (the forest's table cells) +
  // n^3 / 3 multiply-adds. Past kHedgeWork the hedge's share shrinks in proportion, so that on
  // average it adds at most share x kHedgeWork per ask at any n (docs/limits.md). Counting
  // work, not time, keeps the choice a function of the history.
  const std::size_t dimension = space_.dimension();
  double grid_points = 0.0;
  for (std::size_t d = 0; d < dimension; ++d) grid_points += space_.grid_size(d);
  const double mean_grid = grid_points / static_cast<double>(dimension);
  const double cells =
      grid_points + config_.structure.tree_edge_count(dimension) * mean_grid * mean_grid;
  // The build holds at most limits.max_model_observations observations (batch_size).
  const double n =
      static_cast<double>(batch_size(observations_.size()) + (known - observations_.size()));
  const double work = n * n * cells + n * n * n / 3.0;
  return config_.structure.random_tree_ask(known, std::min(1.0, kHedgeWork / work));
}

std::optional<std::vector<double>> OptimizerEngine::maximize_over_random_tree(double beta,
                                                                              Random& random) {
  // Why a hedge: on the data a search collects, the likelihood often cannot tell which
  // variables interact, and a graph learned from it can mislead every ask the same way;
  // random decompositions (Ziomek & Bou-Ammar 2023) do not, but ignore what the data does
  // show. Alternating the two keeps the strengths of both (docs/benchmarks.md).
  std::vector<Edge> edges = random_tree_edges(random);
  ask_random_edges_ = edges;
  // The learned model stays the model of record (tells, predictions, the saved state): it is
  // set aside for this ask and put back however the ask ends.
  ModelParameters learned = parameters_;
  ModelStructure learned_structure = std::move(structure_);
  std::optional<AdditivePosterior> learned_posterior = std::move(posterior_);
  const PosteriorOrigin learned_origin = origin_;
  const auto put_back = [&] {
    parameters_ = std::move(learned);
    structure_ = std::move(learned_structure);
    posterior_ = std::move(learned_posterior);
    origin_ = learned_origin;
  };
  try {
    drop_posterior();
    parameters_.edges = std::move(edges);
    parameters_.jitter = 0.0;  // a new model's jitter ladder starts from none
    build_structure();
    build_posterior();
    std::optional<std::vector<double>> x = maximize_acquisition(beta);
    put_back();
    return x;
  } catch (...) {
    put_back();
    throw;
  }
}

std::vector<double> OptimizerEngine::choose_point(Random& random) {
  const std::size_t known = observations_.size() + pending_.size();
  choice_ = AskChoice::random;
  ask_random_tree_ = false;
  if (config_.strategy == Strategy::random) return space_.random_point(random);
  choice_ = AskChoice::initial_design;
  if (observations_.empty() || known < static_cast<std::size_t>(config_.initial_points)) {
    return initial_point(known, random);
  }
  // RDUCB: a new random decomposition for every ask, drawn from the ask's own generator so that
  // a restored optimizer draws the same.
  if (config_.structure.mode == StructureMode::random_tree) draw_random_tree(random);
  if (learning_due()) relearn();
  // t counts every point evaluated or pending, the initial design included: the exploration
  // weight grows with the information the model has been given.
  const double beta = ucb_beta(config_.beta_scale, known + 1);
  ask_beta_ = beta;  // info
  ask_random_tree_ = random_tree_ask_due(known);
  if (ask_random_tree_) {
    if (std::optional<std::vector<double>> x = maximize_over_random_tree(beta, random)) return *x;
  } else {
    if (!posterior_) build_posterior();
    if (std::optional<std::vector<double>> x = maximize_acquisition(beta)) return *x;
  }
  // Every grid cell is known (a small discrete domain), or a long run of the best cells is.
  choice_ = AskChoice::random;
  return unknown_random_point(cell_occupants(), random);
}

}  // namespace addbo::core
