#include "acquisition/trust_region.hpp"

#include <algorithm>
#include <cmath>

#include "acquisition/grid_cells.hpp"

namespace addbo::core {

TrustRegionRule trust_region_rule(std::size_t dimension, int grid) {
  TrustRegionRule rule;
  rule.failures = std::min<std::size_t>(std::max<std::size_t>(4, dimension), 16);
  rule.stall = rule.failures;
  rule.min_length = 2.0 / std::max(1, grid - 1);
  return rule;
}

TrustRegionTracker::TrustRegionTracker(std::size_t initial, const TrustRegionRule& rule)
    : initial_(std::max<std::size_t>(initial, 1)), rule_(rule) {}

void TrustRegionTracker::add(double value) {
  const bool counts = count_ >= initial_;
  ++count_;
  // The first value to beat is the best of the initial design's; a value is a success when it
  // beats the best before it by more than 1e-3 of that best's magnitude.
  const bool success = !has_best_ || value > best_ + 1e-3 * std::fabs(best_);
  best_ = has_best_ ? std::max(best_, value) : value;
  has_best_ = true;
  if (counts) step(success);
}

void TrustRegionTracker::add_failure() {
  const bool counts = count_ >= initial_;
  ++count_;
  if (counts) step(false);
}

void TrustRegionTracker::step(bool success) {
  TrustRegionState& state = state_;
  if (success) {
    state.failures = 0;
    ++state.successes;
  } else {
    state.successes = 0;
    ++state.failures;
  }
  if (!state.local) {
    if (state.failures >= rule_.stall) {  // the global search has stalled: open a box
      state = TrustRegionState{true, rule_.initial_length, 0, 0, state.restarts};
    }
    return;
  }
  if (state.successes >= rule_.successes) {
    state.length = std::min(2.0 * state.length, rule_.max_length);
    state.successes = 0;
  } else if (state.failures >= rule_.failures) {
    state.length /= 2.0;
    state.failures = 0;
    if (state.length < rule_.min_length) {  // converged locally: search globally again
      state = TrustRegionState{false, 0.0, 0, 0, state.restarts + 1};
    }
  }
}

TrustRegionState replay_trust_region(const std::vector<double>& values, std::size_t initial,
                                     const TrustRegionRule& rule) {
  TrustRegionTracker tracker(initial, rule);
  for (double value : values) tracker.add(value);
  return tracker.state();
}

std::optional<DomainMasks> trust_region_box(const Space& space, const GridPlan& grids,
                                            const TrustRegionState& region,
                                            const std::vector<double>& best_x) {
  if (!region.local) return std::nullopt;
  // The box is centred on the best observation, in encoded units.
  const std::vector<double> centre = space.encode_point(best_x);
  const std::vector<int> nearest = grid_cell(space, grids, best_x);
  DomainMasks masks(space.dimension());
  for (std::size_t d = 0; d < space.dimension(); ++d) {
    if (space.type(d) == VariableType::categorical) continue;
    const std::vector<int>& indices = grids.indices[d];
    std::vector<char>& mask = masks[d];
    mask.assign(indices.size(), 0);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      mask[k] =
          std::fabs(space.encoded_grid_value(d, indices[k]) - centre[d]) <= 0.5 * region.length;
    }
    mask[static_cast<std::size_t>(nearest[d])] = 1;
  }
  return masks;
}

}  // namespace addbo::core
