// Issue 26's stall measure: the longest stretch of evaluations in which a run's best value stayed
// unchanged while its regret was still above 1% of random search's regret at the same evaluation.
//
// For a run with best-so-far regret r_1, ..., r_N and random search's mean regret R_1, ..., R_N
// (over its seeds, on the same function), evaluation t >= 2 is stalled when r_t = r_{t-1} (the
// evaluation did not improve the best) and r_t > 0.01 R_t; evaluation 1 never is. The longest
// stall is the largest number of consecutive stalled evaluations, and the stall fraction that
// number divided by N.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace hd_suite {

// The share of random search's regret below which a run no longer counts as stalled.
constexpr double kStallRegretShare = 0.01;

// The longest stall of a run with best-so-far regret `regret` against random search's mean
// regret `random_regret` (at least as long as `regret`), in evaluations; NaN when
// `random_regret` is shorter or `regret` is empty.
inline double longest_stall(const std::vector<double>& regret,
                            const std::vector<double>& random_regret) {
  if (regret.empty() || random_regret.size() < regret.size()) return NAN;
  std::size_t longest = 0, current = 0;
  for (std::size_t t = 1; t < regret.size(); ++t) {
    const bool stalled =
        regret[t] == regret[t - 1] && regret[t] > kStallRegretShare * random_regret[t];
    current = stalled ? current + 1 : 0;
    longest = std::max(longest, current);
  }
  return static_cast<double>(longest);
}

}  // namespace hd_suite
