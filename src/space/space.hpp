// The search space: each variable's grid in user units and its encoding to the unit interval
// (categorical variables are encoded as their choice index; their kernel factor only compares
// indices for equality).
#pragma once

#include <cstddef>
#include <vector>

#include "config/config.hpp"
#include "util/random.hpp"

namespace addbo {

class Space {
 public:
  explicit Space(const std::vector<VariableSpec>& variables);

  std::size_t dimension() const { return variables_.size(); }
  const VariableSpec& variable(std::size_t d) const { return variables_[d]; }
  VariableType type(std::size_t d) const { return variables_[d].type; }

  // Number of points of variable d's full grid (continuous: configured grid; integer: every
  // value; categorical: every choice).
  int grid_size(std::size_t d) const { return variables_[d].grid; }
  double grid_value(std::size_t d, int index) const;  // user units
  double encoded_grid_value(std::size_t d, int index) const;

  double encode(std::size_t d, double value) const;  // user units -> [0, 1] (or choice index)
  std::vector<double> encode_point(const std::vector<double>& x) const;

  // Throws invalid_argument naming `what` and the index: wrong length, NaN/Inf, outside
  // [lower, upper], non-integer value of an integer variable, categorical index out of range.
  void check_point(const std::vector<double>& x, const char* what) const;

  // The value of variable d at u in [0, 1): continuous lower + u (upper - lower); integer and
  // categorical the value of the floor(u * size)-th of their `size` values.
  double from_unit(std::size_t d, double u) const;

  // Uniform over the domain: continuous uniform on [lower, upper], integer and categorical
  // uniform over their values.
  std::vector<double> random_point(Random& random) const;

 private:
  std::vector<VariableSpec> variables_;
};

}  // namespace addbo
