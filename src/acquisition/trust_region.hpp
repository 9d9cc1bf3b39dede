// Local search once the global search has stalled, in the spirit of trust regions (TuRBO,
// Eriksson et al. 2019): asks are confined to a box around the best point of the current run
// (on a noisy objective the engine takes the run's point of best posterior mean instead),
// whose side grows after repeated successes and shrinks after repeated failures; when it has
// shrunk below TuRBO's smallest side the run has converged, and the search goes global again
// (a restart): the next run's values are judged against its own best, and its box opens around
// that best, so a restart can settle in a new basin while the model keeps every observation.
// The global search between two runs exploits the model (TrustRegionState::exploiting): its
// best guess combines what every run found.
// A run that converges is refined in its turn: where a later run converges without beating
// the best of all runs, the run after it reopens a small box around that best which converges
// finer (TrustRegionRule::refine_length), and the one after that explores again.
// A box can also shrink short of its basin's optimum: where the optimum lies on a constraint's
// bound or the edge of a region that fails, many of its asks bring no value to compare and
// count as failures. So when the run that found the best so far met such outcomes in its box,
// a new run that converges without beating that best is followed by a run that reopens a box
// of the first side around it (as BIPOP-CMA-ES interlaces restarts in new basins with local
// ones), searched on a model that now holds both runs' points; the run after that starts
// afresh again.
// Each box is searched on a model of its own (optimizer/zoomed_problem.hpp), so the search
// converges below the global grid's step.
//
// The state is a pure function of the sequence of told outcomes, replayed from the first
// observation after the initial design, so it needs no place in the saved state and a
// restored optimizer continues exactly.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "space/space.hpp"

namespace addbo::core {

struct TrustRegionRule {
  std::size_t stall = 10;         // failures in a row that end the global phase
  double initial_length = 0.8;    // side of a new box, in encoded units (the unit cube)
  double min_length = 0.0078125;  // 0.5^7 (TuRBO's): below this the run has converged
  double max_length = 1.6;
  std::size_t successes = 3;  // in a row, to double the side
  std::size_t failures = 10;  // in a row, to halve it
  // Whether the global search after a restart exploits the model (TrustRegionState::
  // exploiting). Not where the optimum may lie on a constraint's bound: there a converged run
  // may be followed by a box reopened around the best instead. Off after the first outcome
  // without a value.
  bool exploit_after_restart = false;
  // Where runs exploit after a restart (and no outcome without a value was told): a new run
  // that converges without beating the best of all runs is followed by one that refines that
  // best, a box of side 2 min_length reopened around it that converges only below this side
  // (0: never). A restart that finds nothing better says the best's basin is the one to
  // refine, and converging at min_length leaves a basin's optimum a box side away (Ackley,
  // D = 20: 0.03 at 3,000 evaluations, where CMA-ES, which keeps shrinking its step, is at
  // 2e-4). Each refinement follows a run that explored, so restarts still find new basins.
  double refine_length = 0.0;
};

// The rule for D variables: TuRBO's failure tolerance max(4, D), capped so that a box can
// shrink within a few hundred evaluations.
TrustRegionRule trust_region_rule(std::size_t dimension);

struct TrustRegionState {
  bool local = false;        // false: the global phase
  double length = 0.0;       // side of the box when local
  std::size_t failures = 0;  // in a row, in the current phase
  std::size_t successes = 0;
  std::size_t restarts = 0;  // runs converged so far
  // The tag of the best value of the current run (since the last restart), where its box is
  // centred; none before its first value.
  std::optional<std::size_t> run_best;
  // The observations told when the box last moved to a new best or changed its side: the box
  // keeps its model from then on, adding the observations told since (optimizer/box_model.hpp).
  std::size_t box_since = 0;
  // Whether the current run reopened its box around the best of the runs before it rather than
  // starting afresh.
  bool around_best = false;
  // The observations told when the current run began (0 for the first run, and for a run
  // reopened around the best of all runs, which the observations of every run before serve):
  // the run's own observations are those told since.
  std::size_t run_start = 0;
  // Whether the global search of a run after a restart exploits the model (the engine asks at
  // a hundredth of beta_t): from the restart until its box opens, unless an outcome without a
  // value ends it (TrustRegionRule::exploit_after_restart).
  bool exploiting = false;
};

// The state kept up to date one told outcome at a time (values larger is better, in the order
// told), the first `initial` outcomes being the initial design. A value succeeds when it beats
// the best of the run before it by more than 1e-3 of that best's magnitude (TuRBO's rule), or by
// more than 1% of the spread of the values added before it (the largest less the smallest) where
// that is less: TuRBO's margin depends on where the objective's zero lies, and on an objective far
// from zero (a score of 10,000 give or take 20) it would count every gain below 10 a failure. An
// outcome that brings no value to compare (an evaluation that failed, or one that violates a
// constraint) is a failure of the step. Values carry a tag (the observation's index), so that
// the state can say which one is the run's best (and the best of all runs, where a box may
// reopen).
class TrustRegionTracker {
 public:
  TrustRegionTracker() = default;
  TrustRegionTracker(std::size_t initial, const TrustRegionRule& rule);
  // A value, tagged by its observation's index.
  void add(double value, std::size_t tag);
  // An outcome without a value, when `observations` observations are told (counting an
  // infeasible one that brings it).
  void add_failure(std::size_t observations);
  const TrustRegionState& state() const { return state_; }

 private:
  void step(bool success);

  std::size_t initial_ = 1;  // outcomes before the first that counts (at least one)
  TrustRegionRule rule_;
  std::size_t count_ = 0;         // outcomes added
  std::size_t observations_ = 0;  // told with them (the last tag + 1, or as add_failure says)
  double best_ = 0.0;             // the run's best value, when state_.run_best is set
  // The best value of all runs and its tag, once any value has been added.
  std::optional<std::size_t> overall_best_;
  double overall_best_value_ = 0.0;
  // The smallest value added, once overall_best_ is set: with the best of all runs, the spread
  // the margin is capped by.
  double lowest_ = 0.0;
  // Whether the current run's box met an outcome without a value, and whether the last run
  // that converged holding the best of all runs (found it, or reopened around it) had.
  bool run_met_bound_ = false;
  bool best_run_met_bound_ = false;
  bool failure_seen_ = false;  // an outcome without a value: no run exploits from then on
  bool refining_ = false;      // the current run refines the best (TrustRegionRule::refine_length)
  TrustRegionState state_;
};

// The state after the observations `values` (tagged by their index), replayed
// (TrustRegionTracker).
TrustRegionState replay_trust_region(const std::vector<double>& values, std::size_t initial,
                                     const TrustRegionRule& rule);

// The sides of the box of side `length` per variable, in encoded units, shaped by the model's
// lengthscales as TuRBO shapes its box: side_d = length * l_d / (geometric mean of the l),
// longer along the variables the objective varies slowly in. Categorical variables (no box
// along them) have side 0 and take no part in the mean.
std::vector<double> trust_region_sides(const Space& space, double length,
                                       const std::vector<double>& lengthscales);

}  // namespace addbo::core
