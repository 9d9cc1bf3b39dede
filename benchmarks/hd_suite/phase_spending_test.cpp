// The phase and run accounting of phase_spending.hpp on hand-made traces.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "phase_spending.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using hd_suite::phase_spending;
using hd_suite::RunSpending;

TEST_CASE("phase spending: evaluations and improvements per phase, in order of appearance") {
  // Three design points, two global asks (the second improves), three local ones (the first
  // and the last improve), one fallback.
  const std::vector<double> regret = {9, 8, 8, 8, 6, 5, 5, 4, 4};
  const std::vector<std::string> phases = {"initial design", "initial design", "initial design",
                                           "global",         "global",         "local",
                                           "local",          "local",          "fallback"};
  const std::vector<int> runs(9, 0);
  const RunSpending spending = phase_spending(regret, phases, runs);
  REQUIRE(spending.phases.size() == 4);
  CHECK(spending.phases[0].phase == "initial design");
  CHECK(spending.phases[0].evaluations == 3);
  CHECK(spending.phases[0].improvements == 1);  // the second point; the first never counts
  CHECK(spending.phases[1].phase == "global");
  CHECK(spending.phases[1].evaluations == 2);
  CHECK(spending.phases[1].improvements == 1);
  CHECK(spending.phases[2].phase == "local");
  CHECK(spending.phases[2].evaluations == 3);
  CHECK(spending.phases[2].improvements == 2);
  CHECK(spending.phases[3].evaluations == 1);
  CHECK(spending.phases[3].improvements == 0);
  CHECK(spending.evaluations_after_design == 6);
  CHECK(spending.runs == 1);
  CHECK(spending.futile_evaluations == 0);
}

TEST_CASE("phase spending: runs that never improve the best are futile") {
  // After two design points: run 0 (4 evaluations, improves), run 1 (3, never improves),
  // run 2 (2, improves at its last), run 3 (1, cut off by the budget, does not improve).
  const std::vector<double> regret = {5, 5, 4, 4, 3, 3, 3, 3, 3, 3, 2, 2};
  const std::vector<std::string> phases = {
      "initial design", "initial design", "global", "local",      "local", "local",
      "exploiting",     "local",          "local",  "exploiting", "local", "exploiting"};
  const std::vector<int> runs = {0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3};
  const RunSpending spending = phase_spending(regret, phases, runs);
  CHECK(spending.runs == 4);
  CHECK(spending.evaluations_after_design == 10);
  CHECK(spending.futile_evaluations == 3 + 1);
}

TEST_CASE("phase spending: a trace without phases (a peer) counts nothing") {
  const RunSpending spending = phase_spending({3, 2, 1}, {}, {});
  CHECK(spending.phases.empty());
  CHECK(spending.runs == 0);
  CHECK(spending.evaluations_after_design == 0);
}

TEST_CASE("phase counts add up by name, in the order each name first appears") {
  std::vector<hd_suite::PhaseCount> sums;
  hd_suite::add_phase_count(sums, {"local", 5, 1});
  hd_suite::add_phase_count(sums, {"global", 2, 2});
  hd_suite::add_phase_count(sums, {"local", 3, 0});
  REQUIRE(sums.size() == 2);
  CHECK(sums[0].phase == "local");
  CHECK(sums[0].evaluations == 8);
  CHECK(sums[0].improvements == 1);
  CHECK(sums[1].phase == "global");
  CHECK(sums[1].evaluations == 2);
  CHECK(sums[1].improvements == 2);
  CHECK(hd_suite::phase_index(sums, "global") == 1);
  CHECK(hd_suite::phase_index(sums, "fallback") == sums.size());
}
