#include "space/space.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo::core {

namespace {

// A categorical value out of range lists at most this many choices in the message.
constexpr std::size_t kChoicesShown = 8;

// 0 "steel", 1 "oak", 2 "pine" (the first few, then how many more).
std::string list_choices(const std::vector<std::string>& choices) {
  std::string text;
  for (std::size_t i = 0; i < choices.size() && i < kChoicesShown; ++i) {
    text +=
        (i == 0 ? "" : ", ") + std::to_string(i) + " \"" + shorten_for_message(choices[i]) + "\"";
  }
  if (choices.size() > kChoicesShown) {
    text += ", ... (" + std::to_string(choices.size()) + " choices, 0 to " +
            std::to_string(choices.size() - 1) + ")";
  }
  return text;
}

}  // namespace

std::vector<double> log_integer_grid(double lower, double upper, int points) {
  const double log_lower = std::log(lower), log_span = std::log(upper) - log_lower;
  std::vector<double> values{lower};
  for (int i = 1; i < points; ++i) {
    double value = upper;
    if (i < points - 1) {
      const double t = static_cast<double>(i) / (points - 1);
      value = std::min(std::max(std::round(std::exp(log_lower + t * log_span)), lower), upper);
    }
    if (value > values.back()) values.push_back(value);
  }
  return values;
}

std::vector<VariableType> Space::types() const {
  std::vector<VariableType> all;
  all.reserve(variables_.size());
  for (const VariableSpec& variable : variables_) all.push_back(variable.type);
  return all;
}

Space::Space(const std::vector<VariableSpec>& variables)
    : variables_(variables),
      sizes_(variables.size()),
      log_lower_(variables.size(), 0.0),
      log_span_(variables.size(), 0.0),
      log_integer_values_(variables.size()),
      log_integer_encoded_(variables.size()) {
  for (std::size_t d = 0; d < variables_.size(); ++d) {
    const VariableSpec& v = variables_[d];
    sizes_[d] = v.grid;
    if (v.scale != Scale::log || v.type == VariableType::categorical) continue;
    // parse_config guarantees these; a hand-built VariableSpec might not.
    if (!(v.lower > 0 && std::log(v.upper) > std::log(v.lower))) {
      throw Error(Status::internal, "Space: a log-scale variable needs 0 < lower < upper");
    }
    log_lower_[d] = std::log(v.lower);
    log_span_[d] = std::log(v.upper) - log_lower_[d];
    if (v.type == VariableType::integer) {
      log_integer_values_[d] = log_integer_grid(v.lower, v.upper, v.grid);
      for (double value : log_integer_values_[d])
        log_integer_encoded_[d].push_back(encode(d, value));
      sizes_[d] = static_cast<int>(log_integer_values_[d].size());
    }
  }
}

double Space::grid_value(std::size_t d, int index) const {
  const VariableSpec& v = variables_[d];
  switch (v.type) {
    case VariableType::continuous: {
      if (index == v.grid - 1) return v.upper;  // exact end points, no rounding past them
      if (index == 0) return v.lower;
      const double t = static_cast<double>(index) / (v.grid - 1);
      if (v.scale == Scale::log) {
        return std::min(std::max(std::exp(log_lower_[d] + t * log_span_[d]), v.lower), v.upper);
      }
      return v.lower + t * (v.upper - v.lower);
    }
    case VariableType::integer:
      if (v.scale == Scale::log) return log_integer_values_[d][static_cast<std::size_t>(index)];
      return v.lower + index;
    case VariableType::categorical:
      return index;
  }
  return 0.0;
}

double Space::encoded_grid_value(std::size_t d, int index) const {
  if (variables_[d].type == VariableType::categorical) return index;
  if (!evenly_encoded(d)) return log_integer_encoded_[d][static_cast<std::size_t>(index)];
  return static_cast<double>(index) / (sizes_[d] - 1);
}

double Space::encode(std::size_t d, double value) const {
  const VariableSpec& v = variables_[d];
  if (v.type == VariableType::categorical) return value;
  // Dividing by the span (not multiplying by its reciprocal) maps both bounds exactly to 0, 1
  // (on a log scale too: the numerator at upper is the very expression of the span).
  if (v.scale == Scale::log) return (std::log(value) - log_lower_[d]) / log_span_[d];
  return (value - v.lower) / (v.upper - v.lower);
}

std::vector<double> Space::encode_point(const std::vector<double>& x) const {
  std::vector<double> u(x.size());
  for (std::size_t d = 0; d < x.size(); ++d) u[d] = encode(d, x[d]);
  return u;
}

double Space::grid_distance(std::size_t d, double value, int index) const {
  const double grid = grid_value(d, index);
  if (is_log(d) && type(d) != VariableType::categorical) {
    return std::fabs(std::log(value) - std::log(grid));
  }
  return std::fabs(value - grid);
}

double Space::interpolate(std::size_t d, double a, double b, double t) const {
  if (is_log(d) && type(d) != VariableType::categorical) {
    const double log_a = std::log(a);
    return std::exp(log_a + t * (std::log(b) - log_a));
  }
  return a + t * (b - a);
}

void Space::check_point(const std::vector<double>& x, const char* what) const {
  if (x.size() != variables_.size()) {
    throw invalid_argument(std::string(what) + " has " + std::to_string(x.size()) +
                           " values but the optimizer has " + std::to_string(variables_.size()) +
                           " variables");
  }
  for (std::size_t d = 0; d < x.size(); ++d) {
    const VariableSpec& v = variables_[d];
    const std::string where = std::string(what) + "[" + std::to_string(d) + "] (variable '" +
                              shorten_for_message(v.name) + "')";
    const double value = x[d];
    if (!std::isfinite(value)) throw invalid_argument(where + " is not a finite number");
    const std::string equals = where + " = " + format_number(value);
    if (v.type == VariableType::categorical) {
      if (value < v.lower || value > v.upper || value != std::floor(value)) {
        throw invalid_argument(equals + " is not the index of a choice; the choices are " +
                               list_choices(v.choices));
      }
      continue;
    }
    if (value < v.lower || value > v.upper) {
      throw invalid_argument(equals + " is outside [" + format_number(v.lower) + ", " +
                             format_number(v.upper) + "]");
    }
    if (v.type == VariableType::integer && value != std::floor(value)) {
      throw invalid_argument(equals + " is not an integer");
    }
  }
}

double Space::from_unit(std::size_t d, double u) const {
  const VariableSpec& v = variables_[d];
  if (v.type == VariableType::continuous) {
    if (v.scale == Scale::log) {
      // The bounds exactly at u = 0 and 1 (exp(ln x) need not be x).
      if (!(u > 0)) return v.lower;
      if (!(u < 1)) return v.upper;
      return std::min(std::max(std::exp(log_lower_[d] + u * log_span_[d]), v.lower), v.upper);
    }
    return std::min(v.upper, v.lower + u * (v.upper - v.lower));
  }
  if (!evenly_encoded(d)) {
    // The nearest grid value in encoded units: beside the first one not below u.
    const std::vector<double>& encoded = log_integer_encoded_[d];
    const std::size_t high = static_cast<std::size_t>(
        std::lower_bound(encoded.begin(), encoded.end(), u) - encoded.begin());
    std::size_t nearest = std::min(high, encoded.size() - 1);
    if (high > 0 && (high == encoded.size() || u - encoded[high - 1] <= encoded[high] - u)) {
      nearest = high - 1;
    }
    return log_integer_values_[d][nearest];
  }
  const int index = static_cast<int>(u * static_cast<double>(sizes_[d]));
  return grid_value(d, std::min(std::max(index, 0), sizes_[d] - 1));
}

std::vector<double> Space::random_point(Random& random) const {
  std::vector<double> x(variables_.size());
  for (std::size_t d = 0; d < x.size(); ++d) {
    const VariableSpec& v = variables_[d];
    if (v.scale == Scale::log && v.type != VariableType::categorical) {
      x[d] = from_unit(d, random.uniform());
    } else if (v.type == VariableType::continuous) {
      x[d] = v.lower + random.uniform() * (v.upper - v.lower);
      if (x[d] > v.upper) x[d] = v.upper;  // rounding in the product can step past the bound
    } else {
      x[d] = grid_value(d, static_cast<int>(random.below(static_cast<std::uint64_t>(v.grid))));
    }
  }
  return x;
}

}  // namespace addbo::core
