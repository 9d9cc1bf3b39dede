// The problems of constrained_suite: the classic constrained engineering designs with their
// published optima, and additive problems with constraints, a failure region or noise whose
// optima are known exactly (see problems.cpp for every definition).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace constrained_suite {

struct Bound {
  std::string name;
  std::optional<double> lower, upper;
};

struct Variable {
  std::string name;
  double lower = 0.0, upper = 1.0;
  bool integer = false;
};

// One evaluation: failed (no value), or the objective's value with the constraints' values.
// `true_value` is the objective without noise (equal to `value` on a deterministic problem).
struct Outcome {
  bool failed = false;
  double value = 0.0;
  double true_value = 0.0;
  std::vector<double> constraints;
};

struct Problem {
  std::string name;
  std::string description;
  std::vector<Variable> variables;
  bool minimize = true;
  std::vector<Bound> constraints;
  double optimum = 0.0;  // the best feasible value (published, or exact)
  bool exact_optimum = false;
  // Fails where this is true (the failure region), when the problem has one.
  bool has_failures = false;
  double noise_sd = 0.0;  // of the Gaussian noise added to the objective
  // The objective and constraints without noise; failed when the point is in the failure region.
  Outcome (*evaluate)(const std::vector<double>& x) = nullptr;

  // An evaluation with this problem's noise drawn from `noise`.
  Outcome outcome(const std::vector<double>& x, std::mt19937_64& noise) const;
  // Whether every constraint holds for these values (to a relative 1e-9, so that a published
  // optimum on its bounds counts as feasible).
  bool feasible(const std::vector<double>& constraint_values) const;
  // How far the value `best` is from the optimum: (best - optimum) / |optimum| when minimising,
  // the other way when maximising; 0 at the optimum.
  double regret(double best) const;
};

// The problems run by default, by name: pressure_vessel, welded_beam, spring, speed_reducer,
// additive30_constrained, additive20_failures, additive20 (the same without failures),
// additive20_noise0.1, additive20_noise0.5, additive20_noise1. make_problem also knows the
// failure geometries run only when named: bowl10 and bowl10_edge, bowl10_slab, bowl10_holes.
std::vector<std::string> problem_names();
Problem make_problem(const std::string& name);

}  // namespace constrained_suite
