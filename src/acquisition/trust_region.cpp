#include "acquisition/trust_region.hpp"

#include <algorithm>
#include <cmath>

namespace addbo::core {

TrustRegionRule trust_region_rule(std::size_t dimension) {
  TrustRegionRule rule;
  rule.failures = std::min<std::size_t>(std::max<std::size_t>(4, dimension), 16);
  rule.stall = rule.failures;
  rule.refine_length = 0.000244140625;  // 0.5^12
  return rule;
}

TrustRegionTracker::TrustRegionTracker(std::size_t initial, const TrustRegionRule& rule)
    : initial_(std::max<std::size_t>(initial, 1)), rule_(rule) {}

void TrustRegionTracker::add(double value, std::size_t tag) {
  const bool counts = count_ >= initial_;
  ++count_;
  observations_ = tag + 1;
  // The first value to beat is the best of the initial design's; a value is a success when it
  // beats the run's best before it by more than 1e-3 of that best's magnitude, or by more than
  // 1% of the values' spread so far where that is less (the class comment says why).
  const bool first = !state_.run_best.has_value();
  const double spread = overall_best_ ? overall_best_value_ - lowest_ : 0.0;
  const double margin = std::min(1e-3 * std::fabs(best_), 1e-2 * spread);
  const bool success = first || value > best_ + margin;
  if (!overall_best_ || value < lowest_) lowest_ = value;
  if (first || value > best_) {
    best_ = value;
    state_.run_best = tag;
    state_.box_since = observations_;
  }
  if (!overall_best_ || value > overall_best_value_) {
    overall_best_ = tag;
    overall_best_value_ = value;
  }
  if (counts) step(success);
}

void TrustRegionTracker::add_failure(std::size_t observations) {
  const bool counts = count_ >= initial_;
  ++count_;
  observations_ = observations;
  if (state_.local) run_met_bound_ = true;
  // Where evaluations fail (or bounds are broken) the model's best guess may lie where they do:
  // the global search explores, as it does after every restart from then on.
  failure_seen_ = true;
  state_.exploiting = false;
  if (counts) step(false);
}

void TrustRegionTracker::step(bool success) {
  TrustRegionState& state = state_;
  const double length_before = state.length;
  if (success) {
    state.failures = 0;
    ++state.successes;
  } else {
    state.successes = 0;
    ++state.failures;
  }
  if (!state.local) {
    if (state.failures >= rule_.stall) {
      // The global search has stalled: the run goes on in a box around its best.
      state.local = true;
      state.exploiting = false;
      state.length = rule_.initial_length;
      state.failures = 0;
      state.box_since = observations_;
    }
    return;
  }
  if (state.successes >= rule_.successes) {
    state.length = std::min(2.0 * state.length, rule_.max_length);
    state.successes = 0;
  } else if (state.failures >= rule_.failures) {
    state.length /= 2.0;
    state.failures = 0;
    if (state.length < (refining_ ? rule_.refine_length : rule_.min_length)) {
      // The run has converged. Where this run is a new one that did not beat the best of all
      // runs, a box reopens around that best: at the first side where the best run's box met
      // outcomes without a value (the optimum may lie on a bound), at twice the smallest side
      // to refine it where runs exploit. Otherwise the search goes global again and judges the
      // next run by its own best, so that its box opens where it finds one (a new basin,
      // perhaps).
      const bool holds_best = state.run_best == overall_best_;
      if (holds_best) best_run_met_bound_ = run_met_bound_;
      const bool new_short_run = !holds_best && !state.around_best;
      const bool reopen = new_short_run && best_run_met_bound_;
      const bool refine = new_short_run && !reopen && rule_.refine_length > 0.0 &&
                          rule_.exploit_after_restart && !failure_seen_;
      run_met_bound_ = false;
      refining_ = refine;
      if (reopen || refine) {
        best_ = overall_best_value_;
        const double side = refine ? 2.0 * rule_.min_length : rule_.initial_length;
        state =
            TrustRegionState{true, side, 0, 0, state.restarts + 1, overall_best_, observations_};
        state.around_best = true;
      } else {
        state = TrustRegionState{false, 0.0, 0, 0, state.restarts + 1, std::nullopt, observations_};
        state.run_start = observations_;
        state.exploiting = rule_.exploit_after_restart && !failure_seen_;
      }
    }
  }
  if (state.length != length_before) state.box_since = observations_;
}

TrustRegionState replay_trust_region(const std::vector<double>& values, std::size_t initial,
                                     const TrustRegionRule& rule) {
  TrustRegionTracker tracker(initial, rule);
  for (std::size_t i = 0; i < values.size(); ++i) tracker.add(values[i], i);
  return tracker.state();
}

std::vector<double> trust_region_sides(const Space& space, double length,
                                       const std::vector<double>& lengthscales) {
  double log_sum = 0.0;
  std::size_t boxed = 0;
  for (std::size_t d = 0; d < space.dimension(); ++d) {
    if (space.type(d) == VariableType::categorical) continue;
    log_sum += std::log(lengthscales[d]);
    ++boxed;
  }
  const double geometric_mean = boxed > 0 ? std::exp(log_sum / static_cast<double>(boxed)) : 1.0;
  std::vector<double> sides(space.dimension(), 0.0);
  for (std::size_t d = 0; d < space.dimension(); ++d) {
    if (space.type(d) == VariableType::categorical) continue;
    sides[d] = length * lengthscales[d] / geometric_mean;
  }
  return sides;
}

}  // namespace addbo::core
