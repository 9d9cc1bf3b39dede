#include "problems.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace constrained_suite {
namespace {

constexpr double kPi = 3.14159265358979323846;

Bound at_most_zero(const std::string& name) { return Bound{name, std::nullopt, 0.0}; }

// ---------------------------------------------------------------------------------------------
// The engineering designs, each constraint g(x) <= 0 written relative to its limit so that the
// outcomes are of order 1 (as a user would report them).

// Pressure vessel (Kannan & Kramer 1994), continuous thicknesses: shell Ts, head Th, radius R,
// length L. Optimum 5885.3328 at (0.778169, 0.384649, 40.319619, 200) (Coello & Montes 2002).
Outcome pressure_vessel(const std::vector<double>& x) {
  const double ts = x[0], th = x[1], r = x[2], l = x[3];
  Outcome out;
  out.value =
      0.6224 * ts * r * l + 1.7781 * th * r * r + 3.1661 * ts * ts * l + 19.84 * ts * ts * r;
  out.constraints = {
      -ts + 0.0193 * r,
      -th + 0.00954 * r,
      1.0 - (kPi * r * r * l + 4.0 / 3.0 * kPi * r * r * r) / 1296000.0,
      l / 240.0 - 1.0,
  };
  return out;
}

// Welded beam (Ragsdell & Phillips 1976): weld thickness h, length l, bar height t, thickness b.
// Optimum 1.724852 at (0.205730, 3.470489, 9.036624, 0.205730) (Coello 2000).
Outcome welded_beam(const std::vector<double>& x) {
  const double h = x[0], l = x[1], t = x[2], b = x[3];
  const double p = 6000.0, length = 14.0, e = 30e6, g = 12e6;
  const double tau_max = 13600.0, sigma_max = 30000.0, delta_max = 0.25;
  const double m = p * (length + l / 2.0);
  const double r = std::sqrt(l * l / 4.0 + std::pow((h + t) / 2.0, 2));
  const double j = 2.0 * (std::sqrt(2.0) * h * l * (l * l / 12.0 + std::pow((h + t) / 2.0, 2)));
  const double tau1 = p / (std::sqrt(2.0) * h * l);
  const double tau2 = m * r / j;
  const double tau = std::sqrt(tau1 * tau1 + 2.0 * tau1 * tau2 * l / (2.0 * r) + tau2 * tau2);
  const double sigma = 6.0 * p * length / (b * t * t);
  const double delta = 4.0 * p * std::pow(length, 3) / (e * t * t * t * b);
  const double pc = 4.013 * e * std::sqrt(t * t * std::pow(b, 6) / 36.0) / (length * length) *
                    (1.0 - t / (2.0 * length) * std::sqrt(e / (4.0 * g)));
  Outcome out;
  out.value = 1.10471 * h * h * l + 0.04811 * t * b * (14.0 + l);
  out.constraints = {
      tau / tau_max - 1.0,
      sigma / sigma_max - 1.0,
      h - b,
      (0.10471 * h * h + 0.04811 * t * b * (14.0 + l)) / 5.0 - 1.0,
      delta / delta_max - 1.0,
      1.0 - pc / p,
  };
  return out;
}

// Tension/compression spring (Arora 1989): wire diameter d, coil diameter D, active coils N.
// Optimum 0.012665 at (0.051690, 0.356750, 11.287126) (Coello & Montes 2002).
Outcome spring(const std::vector<double>& x) {
  const double d = x[0], dd = x[1], n = x[2];
  Outcome out;
  out.value = (n + 2.0) * dd * d * d;
  out.constraints = {
      1.0 - dd * dd * dd * n / (71785.0 * std::pow(d, 4)),
      (4.0 * dd * dd - d * dd) / (12566.0 * (dd * d * d * d - std::pow(d, 4))) +
          1.0 / (5108.0 * d * d) - 1.0,
      1.0 - 140.45 * d / (dd * dd * n),
      (dd + d) / 1.5 - 1.0,
  };
  return out;
}

// Speed reducer (Golinski 1973), the teeth x3 an integer. Optimum 2994.4710661 at
// (3.5, 0.7, 17, 7.3, 7.71532, 3.35021, 5.28665) (Lemonge et al. 2010).
Outcome speed_reducer(const std::vector<double>& x) {
  const double x1 = x[0], x2 = x[1], x3 = x[2], x4 = x[3], x5 = x[4], x6 = x[5], x7 = x[6];
  Outcome out;
  out.value = 0.7854 * x1 * x2 * x2 * (3.3333 * x3 * x3 + 14.9334 * x3 - 43.0934) -
              1.508 * x1 * (x6 * x6 + x7 * x7) + 7.4777 * (x6 * x6 * x6 + x7 * x7 * x7) +
              0.7854 * (x4 * x6 * x6 + x5 * x7 * x7);
  out.constraints = {
      27.0 / (x1 * x2 * x2 * x3) - 1.0,
      397.5 / (x1 * x2 * x2 * x3 * x3) - 1.0,
      1.93 * x4 * x4 * x4 / (x2 * x3 * std::pow(x6, 4)) - 1.0,
      1.93 * x5 * x5 * x5 / (x2 * x3 * std::pow(x7, 4)) - 1.0,
      std::sqrt(std::pow(745.0 * x4 / (x2 * x3), 2) + 16.9e6) / (110.0 * x6 * x6 * x6) - 1.0,
      std::sqrt(std::pow(745.0 * x5 / (x2 * x3), 2) + 157.5e6) / (85.0 * x7 * x7 * x7) - 1.0,
      x2 * x3 / 40.0 - 1.0,
      5.0 * x2 / x1 - 1.0,
      x1 / (12.0 * x2) - 1.0,
      (1.5 * x6 + 1.9) / x4 - 1.0,
      (1.1 * x7 + 1.9) / x5 - 1.0,
  };
  return out;
}

// ---------------------------------------------------------------------------------------------
// Additive problems on [0, 1]^D, with parameters drawn once from a fixed stream.

struct AdditiveTerms {
  std::vector<double> centre, weight, ripple, quartic;
};

AdditiveTerms terms(std::size_t dimension, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  AdditiveTerms t;
  for (std::size_t i = 0; i < dimension; ++i) {
    t.centre.push_back(0.25 + 0.5 * unit(rng));
    t.weight.push_back(1.0 + 2.0 * unit(rng));
    t.ripple.push_back(0.05 + 0.15 * unit(rng));
    t.quartic.push_back(2.0 * unit(rng));
  }
  return t;
}

const AdditiveTerms& ripple_terms() {
  static const AdditiveTerms t = terms(20, 20);
  return t;
}

// -sum_i w_i (x_i - c_i)^2 + s_i (1 - cos 2 pi (x_i - c_i)): at most 0, at x = c; a ripple in
// every variable, so that the model's lengthscales are not the bowl's.
double ripple_bowl(const std::vector<double>& x) {
  const AdditiveTerms& t = ripple_terms();
  double value = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - t.centre[i];
    value -= t.weight[i] * d * d + t.ripple[i] * (1.0 - std::cos(2.0 * kPi * d));
  }
  return value;
}

Outcome additive20(const std::vector<double>& x) {
  Outcome out;
  out.value = ripple_bowl(x);
  return out;
}

// The failure region: sum_{i < 4} (x_i - c_i) / 2 > 0.05, a half-space 0.05 from the optimum
// (which stays feasible) covering about 43% of the box.
bool in_failure_region(const std::vector<double>& x) {
  const AdditiveTerms& t = ripple_terms();
  double s = 0.0;
  for (std::size_t i = 0; i < 4; ++i) s += (x[i] - t.centre[i]) / 2.0;
  return s > 0.05;
}

Outcome additive20_failures(const std::vector<double>& x) {
  Outcome out = additive20(x);
  out.failed = in_failure_region(x);
  return out;
}

const AdditiveTerms& concave_terms() {
  static const AdditiveTerms t = terms(30, 30);
  return t;
}

// The constrained additive problem's limits: sum_{i < 10} x_i^2 <= b1 and
// sum_{10 <= i < 20} x_i <= b2, both below their values at the bowl's centre.
double square_limit() {
  double s = 0.0;
  for (std::size_t i = 0; i < 10; ++i) s += std::pow(concave_terms().centre[i], 2);
  return 0.8 * s;
}
double sum_limit() {
  double s = 0.0;
  for (std::size_t i = 10; i < 20; ++i) s += concave_terms().centre[i];
  return s - 0.6;
}

// -sum_i w_i (x_i - c_i)^2 + q_i (x_i - c_i)^4 (concave), with the two constraints.
Outcome additive30_constrained(const std::vector<double>& x) {
  const AdditiveTerms& t = concave_terms();
  Outcome out;
  double squares = 0.0, sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - t.centre[i];
    out.value -= t.weight[i] * d * d + t.quartic[i] * d * d * d * d;
    if (i < 10) squares += x[i] * x[i];
    if (i >= 10 && i < 20) sum += x[i];
  }
  out.constraints = {squares - square_limit(), sum - sum_limit()};
  return out;
}

// The exact optimum of additive30_constrained by its KKT conditions: for a multiplier lambda,
// each constrained variable solves f_i'(x) = lambda g_i'(x) (f_i' - lambda g_i' decreases in x,
// so bisection finds it); lambda itself is found by bisection so that its constraint is active.
double additive30_optimum() {
  const AdditiveTerms& t = concave_terms();
  const auto solve = [&](std::size_t i, double lambda, bool square) {
    double low = -1.0, high = 2.0;  // the roots lie inside the box; a wide bracket is safe
    for (int k = 0; k < 200; ++k) {
      const double x = 0.5 * (low + high), d = x - t.centre[i];
      const double slope = -2.0 * t.weight[i] * d - 4.0 * t.quartic[i] * d * d * d -
                           lambda * (square ? 2.0 * x : 1.0);
      (slope > 0 ? low : high) = x;
    }
    return 0.5 * (low + high);
  };
  const auto group = [&](std::size_t first, bool square, double limit) {
    double low = 0.0, high = 100.0;
    for (int k = 0; k < 200; ++k) {
      const double lambda = 0.5 * (low + high);
      double g = 0.0;
      for (std::size_t i = first; i < first + 10; ++i) {
        const double x = solve(i, lambda, square);
        g += square ? x * x : x;
      }
      (g > limit ? low : high) = lambda;
    }
    const double lambda = 0.5 * (low + high);
    double value = 0.0;
    for (std::size_t i = first; i < first + 10; ++i) {
      const double d = solve(i, lambda, square) - t.centre[i];
      value -= t.weight[i] * d * d + t.quartic[i] * d * d * d * d;
    }
    return value;
  };
  return group(0, true, square_limit()) + group(10, false, sum_limit());  // the rest is 0
}

// ---------------------------------------------------------------------------------------------
// Failure geometries, run only when named: one 10-variable objective, rippled so that a search
// can stall a ripple away from the optimum, and regions that fail placed as simulations' are
// (beyond aggressive settings, outside a narrow working range, in thin bands).

// -sum_i (x_i - c_i)^2 + 0.05 (1 - cos 6 pi (x_i - c_i)), c_i = 0.3 + 0.04 i: at most 0, at c.
double bowl10(const std::vector<double>& x) {
  double value = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - 0.3 - 0.04 * static_cast<double>(i);
    value -= d * d + 0.05 * (1.0 - std::cos(6.0 * kPi * d));
  }
  return value;
}

Outcome bowl10_plain(const std::vector<double>& x) { return Outcome{false, bowl10(x), 0.0, {}}; }

// Fails where x2 + x3 > 0.76, a half-space (71% of the box) just short of the optimum (0.80 there):
// the best that succeeds is -0.0078, at x2 = 0.36, x3 = 0.40.
Outcome bowl10_edge(const std::vector<double>& x) {
  return Outcome{x[2] + x[3] > 0.76, bowl10(x), 0.0, {}};
}

// Succeeds only where |x0 - 0.35| <= 0.12 and |x1 - 0.3| <= 0.12 (5.8% of the box), the optimum
// inside.
Outcome bowl10_slab(const std::vector<double>& x) {
  const bool inside = std::fabs(x[0] - 0.35) <= 0.12 && std::fabs(x[1] - 0.3) <= 0.12;
  return Outcome{!inside, bowl10(x), 0.0, {}};
}

// Fails where |sin(20 x_i + i)| > 0.97 for one of x0, x1, x2: thin bands, 40% of the box; one
// of them covers the optimum's x1 (0.3304 to 0.3550), so the best that succeeds is -0.0009.
Outcome bowl10_holes(const std::vector<double>& x) {
  bool failed = false;
  for (std::size_t i = 0; i < 3; ++i) {
    failed = failed || std::fabs(std::sin(20.0 * x[i] + static_cast<double>(i))) > 0.97;
  }
  return Outcome{failed, bowl10(x), 0.0, {}};
}

std::vector<Variable> unit_cube(std::size_t dimension) {
  std::vector<Variable> variables;
  for (std::size_t i = 0; i < dimension; ++i) variables.push_back({"x" + std::to_string(i), 0, 1});
  return variables;
}

// The standard deviation of ripple_bowl over the box (Monte Carlo, 2^17 points).
double ripple_spread() {
  static const double spread = [] {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    double sum = 0.0, squares = 0.0;
    const int n = 1 << 17;
    std::vector<double> x(20);
    for (int k = 0; k < n; ++k) {
      for (double& v : x) v = unit(rng);
      const double f = ripple_bowl(x);
      sum += f;
      squares += f * f;
    }
    const double mean = sum / n;
    return std::sqrt(squares / n - mean * mean);
  }();
  return spread;
}

}  // namespace

Outcome Problem::outcome(const std::vector<double>& x, std::mt19937_64& noise) const {
  Outcome out = evaluate(x);
  out.true_value = out.value;
  if (noise_sd > 0.0) out.value += std::normal_distribution<double>(0.0, noise_sd)(noise);
  return out;
}

bool Problem::feasible(const std::vector<double>& values) const {
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    if (constraints[k].upper && values[k] > *constraints[k].upper) return false;
    if (constraints[k].lower && values[k] < *constraints[k].lower) return false;
  }
  return true;
}

double Problem::regret(double best) const {
  const double gap = minimize ? best - optimum : optimum - best;
  return exact_optimum && optimum == 0.0 ? gap : gap / std::fabs(optimum);
}

std::vector<std::string> problem_names() {
  return {"pressure_vessel",
          "welded_beam",
          "spring",
          "speed_reducer",
          "additive30_constrained",
          "additive20",
          "additive20_failures",
          "additive20_noise0.1",
          "additive20_noise0.5",
          "additive20_noise1"};
}

Problem make_problem(const std::string& name) {
  Problem p;
  p.name = name;
  if (name == "pressure_vessel") {
    p.description = "pressure vessel, 4 variables, 4 constraints (optimum 5885.3328)";
    p.variables = {{"Ts", 0.0625, 6.1875}, {"Th", 0.0625, 6.1875}, {"R", 10, 200}, {"L", 10, 200}};
    for (int k = 1; k <= 4; ++k) p.constraints.push_back(at_most_zero("g" + std::to_string(k)));
    p.optimum = 5885.3328;
    p.evaluate = pressure_vessel;
  } else if (name == "welded_beam") {
    p.description = "welded beam, 4 variables, 6 constraints (optimum 1.724852)";
    p.variables = {{"h", 0.1, 2}, {"l", 0.1, 10}, {"t", 0.1, 10}, {"b", 0.1, 2}};
    for (int k = 1; k <= 6; ++k) p.constraints.push_back(at_most_zero("g" + std::to_string(k)));
    p.optimum = 1.724852;
    p.evaluate = welded_beam;
  } else if (name == "spring") {
    p.description = "tension/compression spring, 3 variables, 4 constraints (optimum 0.012665)";
    p.variables = {{"d", 0.05, 2}, {"D", 0.25, 1.3}, {"N", 2, 15}};
    for (int k = 1; k <= 4; ++k) p.constraints.push_back(at_most_zero("g" + std::to_string(k)));
    p.optimum = 0.012665;
    p.evaluate = spring;
  } else if (name == "speed_reducer") {
    p.description = "speed reducer, 7 variables (one integer), 11 constraints (optimum 2994.4711)";
    p.variables = {{"x1", 2.6, 3.6}, {"x2", 0.7, 0.8}, {"x3", 17, 28, true}, {"x4", 7.3, 8.3},
                   {"x5", 7.3, 8.3}, {"x6", 2.9, 3.9}, {"x7", 5.0, 5.5}};
    for (int k = 1; k <= 11; ++k) p.constraints.push_back(at_most_zero("g" + std::to_string(k)));
    p.optimum = 2994.4710661;
    p.evaluate = speed_reducer;
  } else if (name == "additive30_constrained") {
    p.description =
        "additive concave objective, 30 variables, 2 additive constraints active at "
        "the optimum";
    p.variables = unit_cube(30);
    p.minimize = false;
    p.constraints = {at_most_zero("squares"), at_most_zero("sum")};
    p.optimum = additive30_optimum();
    p.exact_optimum = true;
    p.evaluate = additive30_constrained;
  } else if (name == "additive20" || name == "additive20_failures") {
    const bool failures = name == "additive20_failures";
    p.description = failures ? "additive rippled bowl, 20 variables, failing on a half-space "
                               "(43% of the box) 0.05 from the optimum"
                             : "additive rippled bowl, 20 variables (additive20_failures "
                               "without its failures)";
    p.variables = unit_cube(20);
    p.minimize = false;
    p.optimum = 0.0;
    p.exact_optimum = true;
    p.has_failures = failures;
    p.evaluate = failures ? additive20_failures : additive20;
  } else if (name == "bowl10" || name == "bowl10_edge" || name == "bowl10_slab" ||
             name == "bowl10_holes") {
    p.variables = unit_cube(10);
    p.minimize = false;
    p.optimum = 0.0;  // of the objective; where it fails, the best that succeeds is below
    p.exact_optimum = true;
    p.has_failures = name != "bowl10";
    if (name == "bowl10") {
      p.description = "rippled bowl, 10 variables (the bowl10_ problems without failures)";
      p.evaluate = bowl10_plain;
    } else if (name == "bowl10_edge") {
      p.description =
          "rippled bowl, 10 variables, failing where x2 + x3 > 0.76 (71% of the box), just "
          "short of the optimum (the best that succeeds: regret 0.0078)";
      p.evaluate = bowl10_edge;
    } else if (name == "bowl10_slab") {
      p.description =
          "rippled bowl, 10 variables, succeeding only in a slab of 5.8% of the box around the "
          "optimum";
      p.evaluate = bowl10_slab;
    } else {
      p.description =
          "rippled bowl, 10 variables, failing in thin bands over 40% of the box, one across "
          "the optimum (the best that succeeds: regret 0.0009)";
      p.evaluate = bowl10_holes;
    }
  } else if (name.rfind("additive20_noise", 0) == 0) {
    const double level = std::stod(name.substr(std::string("additive20_noise").size()));
    p.description = "additive rippled bowl, 20 variables, Gaussian noise " +
                    std::to_string(level).substr(0, 3) + " x its spread over the box";
    p.variables = unit_cube(20);
    p.minimize = false;
    p.optimum = 0.0;
    p.exact_optimum = true;
    p.noise_sd = level * ripple_spread();
    p.evaluate = additive20;
  } else {
    throw std::invalid_argument("unknown problem " + name);
  }
  return p;
}

}  // namespace constrained_suite
