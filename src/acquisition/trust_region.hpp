// Local search once the global search has stalled, in the spirit of trust regions (TuRBO,
// Eriksson et al. 2019): the acquisition is maximised only within a box around the best point
// so far, whose side grows after repeated successes and shrinks after repeated failures; when
// it has shrunk to a couple of grid steps, the search goes global again (a restart), and the
// next stall opens a new box. The model stays global (all observations).
//
// The state is a pure function of the sequence of told values, replayed from the first
// observation after the initial design, so it needs no place in the saved state and a
// restored optimizer continues exactly.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "maximize/grid_plan.hpp"
#include "maximize/max_sum.hpp"
#include "space/space.hpp"

namespace addbo::core {

struct TrustRegionRule {
  std::size_t stall = 10;       // failures in a row that end the global phase
  double initial_length = 0.8;  // side of a new box, in encoded units (the unit cube)
  double min_length = 0.0625;   // below this the box is given up (a restart)
  double max_length = 1.6;
  std::size_t successes = 3;  // in a row, to double the side
  std::size_t failures = 10;  // in a row, to halve it
};

// The rule for D variables: TuRBO's failure tolerance max(4, D), capped so that a box can
// shrink within a few hundred evaluations; the smallest box two grid steps of `grid` points.
TrustRegionRule trust_region_rule(std::size_t dimension, int grid);

struct TrustRegionState {
  bool local = false;        // false: the global phase
  double length = 0.0;       // side of the box when local
  std::size_t failures = 0;  // in a row, in the current phase
  std::size_t successes = 0;
  std::size_t restarts = 0;  // boxes given up so far
};

// The state kept up to date one told value at a time (larger is better, in the order told), the
// first `initial` values being the initial design. An observation succeeds when it beats the
// best before it by more than 1e-3 of that best's magnitude (TuRBO's rule).
// An outcome that brings no value to compare (an evaluation that failed, or one that violates
// a constraint) is a failure of the step.
class TrustRegionTracker {
 public:
  TrustRegionTracker() = default;
  TrustRegionTracker(std::size_t initial, const TrustRegionRule& rule);
  void add(double value);
  void add_failure();
  const TrustRegionState& state() const { return state_; }

 private:
  void step(bool success);

  std::size_t initial_ = 1;  // outcomes before the first that counts (at least one)
  TrustRegionRule rule_;
  std::size_t count_ = 0;  // outcomes added
  bool has_best_ = false;
  double best_ = 0.0;
  TrustRegionState state_;
};

// The state after the observations `values`, replayed (TrustRegionTracker).
TrustRegionState replay_trust_region(const std::vector<double>& values, std::size_t initial,
                                     const TrustRegionRule& rule);

// The grid points of the plan inside the local box of `region` centred on `best_x` (user
// units), as masks for the maximiser; none in the global phase. Categorical variables keep
// every choice (a box has no meaning for them), and the grid point nearest to the centre is
// always inside.
std::optional<DomainMasks> trust_region_box(const Space& space, const GridPlan& grids,
                                            const TrustRegionState& region,
                                            const std::vector<double>& best_x);

}  // namespace addbo::core
