#include "space/space.hpp"

#include <cmath>
#include <string>

#include "util/error.hpp"

namespace addbo {

Space::Space(const std::vector<VariableSpec>& variables) : variables_(variables) {}

double Space::grid_value(std::size_t d, int index) const {
  const VariableSpec& v = variables_[d];
  switch (v.type) {
    case VariableType::continuous: {
      if (index == v.grid - 1) return v.upper;  // exact end point, no rounding past it
      const double t = static_cast<double>(index) / (v.grid - 1);
      return v.lower + t * (v.upper - v.lower);
    }
    case VariableType::integer:
      return v.lower + index;
    case VariableType::categorical:
      return index;
  }
  return 0.0;
}

double Space::encoded_grid_value(std::size_t d, int index) const {
  if (variables_[d].type == VariableType::categorical) return index;
  return static_cast<double>(index) / (variables_[d].grid - 1);
}

double Space::encode(std::size_t d, double value) const {
  const VariableSpec& v = variables_[d];
  if (v.type == VariableType::categorical) return value;
  // Dividing by the span (not multiplying by its reciprocal) maps both bounds exactly to 0, 1.
  return (value - v.lower) / (v.upper - v.lower);
}

std::vector<double> Space::encode_point(const std::vector<double>& x) const {
  std::vector<double> u(x.size());
  for (std::size_t d = 0; d < x.size(); ++d) u[d] = encode(d, x[d]);
  return u;
}

void Space::check_point(const std::vector<double>& x, const char* what) const {
  if (x.size() != variables_.size()) {
    throw invalid_argument(std::string(what) + " has " + std::to_string(x.size()) +
                           " values but the optimizer has " + std::to_string(variables_.size()) +
                           " variables");
  }
  for (std::size_t d = 0; d < x.size(); ++d) {
    const VariableSpec& v = variables_[d];
    const std::string where =
        std::string(what) + "[" + std::to_string(d) + "] (variable '" + v.name + "')";
    const double value = x[d];
    if (!std::isfinite(value)) throw invalid_argument(where + " is not a finite number");
    if (value < v.lower || value > v.upper) {
      throw invalid_argument(where + " = " + std::to_string(value) + " is outside [" +
                             std::to_string(v.lower) + ", " + std::to_string(v.upper) + "]");
    }
    if (v.type != VariableType::continuous && value != std::floor(value)) {
      throw invalid_argument(
          where + " = " + std::to_string(value) +
          (v.type == VariableType::integer ? " is not an integer" : " is not a choice index"));
    }
  }
}

double Space::from_unit(std::size_t d, double u) const {
  const VariableSpec& v = variables_[d];
  if (v.type == VariableType::continuous) {
    return std::min(v.upper, v.lower + u * (v.upper - v.lower));
  }
  const int index = static_cast<int>(u * static_cast<double>(v.grid));
  return grid_value(d, std::min(std::max(index, 0), v.grid - 1));
}

std::vector<double> Space::random_point(Random& random) const {
  std::vector<double> x(variables_.size());
  for (std::size_t d = 0; d < x.size(); ++d) {
    const VariableSpec& v = variables_[d];
    if (v.type == VariableType::continuous) {
      x[d] = v.lower + random.uniform() * (v.upper - v.lower);
      if (x[d] > v.upper) x[d] = v.upper;  // rounding in the product can step past the bound
    } else {
      x[d] = grid_value(d, static_cast<int>(random.below(static_cast<std::uint64_t>(v.grid))));
    }
  }
  return x;
}

}  // namespace addbo
