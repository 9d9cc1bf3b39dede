#include "optimizer/trust_region.hpp"

#include <algorithm>
#include <cmath>

namespace addbo::core {

TrustRegionRule trust_region_rule(std::size_t dimension, int grid) {
  TrustRegionRule rule;
  rule.failures = std::min<std::size_t>(std::max<std::size_t>(4, dimension), 16);
  rule.stall = rule.failures;
  rule.min_length = 2.0 / std::max(1, grid - 1);
  return rule;
}

TrustRegionState replay_trust_region(const std::vector<double>& values, std::size_t initial,
                                     const TrustRegionRule& rule) {
  TrustRegionState state;
  if (values.empty()) return state;
  const std::size_t first = std::min(std::max<std::size_t>(initial, 1), values.size());
  double best =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(first));
  for (std::size_t i = first; i < values.size(); ++i) {
    const bool success = values[i] > best + 1e-3 * std::fabs(best);
    best = std::max(best, values[i]);
    if (success) {
      state.failures = 0;
      ++state.successes;
    } else {
      state.successes = 0;
      ++state.failures;
    }
    if (!state.local) {
      if (state.failures >= rule.stall) {  // the global search has stalled: open a box
        state = TrustRegionState{true, rule.initial_length, 0, 0, state.restarts};
      }
      continue;
    }
    if (state.successes >= rule.successes) {
      state.length = std::min(2.0 * state.length, rule.max_length);
      state.successes = 0;
    } else if (state.failures >= rule.failures) {
      state.length /= 2.0;
      state.failures = 0;
      if (state.length < rule.min_length) {  // converged locally: search globally again
        state = TrustRegionState{false, 0.0, 0, 0, state.restarts + 1};
      }
    }
  }
  return state;
}

}  // namespace addbo::core
