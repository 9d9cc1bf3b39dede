// The stall measure of stall.hpp on hand-made regret traces.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "stall.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using hd_suite::longest_stall;

TEST_CASE("longest stall: consecutive evaluations without a new best") {
  // Random search's regret 100 throughout: every regret above 1 counts.
  const std::vector<double> random(10, 100.0);
  // Evaluations 2-4 repeat the best (3 stalled), 5 improves, 6-9 repeat it (4), 10 improves.
  const std::vector<double> regret = {9, 9, 9, 9, 7, 7, 7, 7, 7, 5};
  CHECK(longest_stall(regret, random) == 4.0);
  // Improving at every evaluation: no stall.
  CHECK(longest_stall({9, 8, 7, 6, 5, 4, 3, 2, 1.5, 1.2}, random) == 0.0);
  // Never improving after the first: N - 1.
  CHECK(longest_stall(std::vector<double>(10, 50.0), random) == 9.0);
}

TEST_CASE("longest stall: only while the regret is above 1% of random search's") {
  // Random search's regret falls from 100 to 10; 1% of it from 1 to 0.1.
  const std::vector<double> random = {100, 100, 100, 50, 50, 50, 10, 10, 10, 10};
  // Regret 0.6 from evaluation 2 on: evaluation 2 improves; 3 repeats it, but 0.6 is below 1%
  // of 100 (not counted); 4-10 repeat it above 0.5 and 0.1: 7 stalled.
  CHECK(longest_stall({2, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6}, random) == 7.0);
  // Regret 1.5 from evaluation 2 on: above 1 at 3 as well: 8 stalled.
  CHECK(longest_stall({2, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5}, random) == 8.0);
  // Regret 0.05 never counts (below 0.1).
  CHECK(longest_stall(std::vector<double>(10, 0.05), random) == 0.0);
  // Regret exactly 1% of random's does not count either (the regret must be above it).
  CHECK(longest_stall(std::vector<double>(4, 1.0), {100, 100, 100, 100}) == 0.0);
  // A new best between two stalled stretches ends the first: 3 (evaluations 2-4), then 2.
  CHECK(longest_stall({5, 5, 5, 5, 4, 4, 4}, std::vector<double>(7, 100.0)) == 3.0);
}

TEST_CASE("longest stall: undefined without random search's trace") {
  CHECK(std::isnan(longest_stall({3, 2, 1}, {})));
  CHECK(std::isnan(longest_stall({3, 2, 1}, {10, 10})));
  CHECK(std::isnan(longest_stall({}, {10})));
}
