// The search space: each variable's grid in user units and its encoding to the unit interval
// (categorical variables are encoded as their choice index; their kernel factor only compares
// indices for equality).
//
// Encoding (docs/configuration.md, "Units of the lengthscales" and "Log-scale variables"):
// linear variables u = (x - lower) / (upper - lower); log-scale variables
// u = (ln x - ln lower) / (ln upper - ln lower). The grid is evenly spaced in u for continuous
// variables (geometric in x on a log scale). An integer variable's grid is every integer on a
// linear scale; on a log scale it is log_integer_grid(lower, upper, grid).
#pragma once

#include <cstddef>
#include <vector>

#include "space/variable.hpp"
#include "util/random.hpp"

namespace addbo::core {

// The grid of an integer variable on a log scale: the `points` geometric values
// lower * (upper / lower)^(i / (points - 1)), i = 0 .. points - 1, each rounded to the nearest
// integer (halves away from zero), kept within [lower, upper] (the end points are exactly lower and
// upper), with repeats removed: strictly increasing, distinct integers, at most `points` of them
// and at least 2. Requires 0 < lower < upper, whole bounds, points >= 2.
std::vector<double> log_integer_grid(double lower, double upper, int points);

class Space {
 public:
  explicit Space(const std::vector<VariableSpec>& variables);

  std::size_t dimension() const { return variables_.size(); }
  const VariableSpec& variable(std::size_t d) const { return variables_[d]; }
  VariableType type(std::size_t d) const { return variables_[d].type; }
  std::vector<VariableType> types() const;  // every variable's, in order
  bool is_log(std::size_t d) const { return variables_[d].scale == Scale::log; }

  // Number of points of variable d's full grid (continuous: configured grid; integer: every
  // value, or on a log scale the distinct integers of log_integer_grid; categorical: every
  // choice).
  int grid_size(std::size_t d) const { return sizes_[d]; }
  double grid_value(std::size_t d, int index) const;  // user units, ascending with index
  double encoded_grid_value(std::size_t d, int index) const;
  // Whether the encoded grid values of variable d are index / (size - 1) (every variable except
  // integers on a log scale).
  bool evenly_encoded(std::size_t d) const { return log_integer_values_[d].empty(); }

  double encode(std::size_t d, double value) const;  // user units -> [0, 1] (or choice index)
  std::vector<double> encode_point(const std::vector<double>& x) const;

  // How far `value` is from grid point `index` of variable d in the variable's scale: |x - g| on
  // a linear scale, |ln x - ln g| on a log scale (proportional to the encoded distance). The
  // nearest grid point of a value is the one at the smallest distance.
  double grid_distance(std::size_t d, double value, int index) const;
  // The value a fraction t in [0, 1] of the way from a to b (both in [lower, upper]) in the
  // variable's scale: linear a + t (b - a), log exp(ln a + t (ln b - ln a)).
  double interpolate(std::size_t d, double a, double b, double t) const;

  // Throws invalid_argument naming `what` and the index: wrong length, NaN/Inf, outside
  // [lower, upper], non-integer value of an integer variable, categorical index out of range
  // (the message lists the choices).
  void check_point(const std::vector<double>& x, const char* what) const;

  // The value of variable d at u in [0, 1): continuous the value whose encoding is u (clamped
  // to [lower, upper]); integer and categorical the value of the floor(u * size)-th of their
  // `size` values; integer on a log scale the grid value nearest to u in encoded units.
  double from_unit(std::size_t d, double u) const;

  // Uniform over the encoded domain: continuous uniform on [lower, upper] (log scale:
  // log-uniform), integer and categorical uniform over their values (log-scale integers: a
  // log-uniform value moved to the nearest grid value).
  std::vector<double> random_point(Random& random) const;

 private:
  std::vector<VariableSpec> variables_;
  std::vector<int> sizes_;
  // Log scale: ln lower and ln upper - ln lower (0 and 0 for linear variables).
  std::vector<double> log_lower_, log_span_;
  // Integers on a log scale: their grid (empty for every other variable).
  std::vector<std::vector<double>> log_integer_values_;
  // Integers on a log scale: the encoded values of that grid.
  std::vector<std::vector<double>> log_integer_encoded_;
};

}  // namespace addbo::core
