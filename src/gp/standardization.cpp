#include "gp/standardization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace addbo::core {

Standardization standardize(const std::vector<double>& y) {
  Standardization result;
  if (y.empty()) return result;
  double magnitude = 0.0;
  for (double value : y) magnitude = std::max(magnitude, std::fabs(value));
  if (magnitude == 0.0) return result;
  const double n = static_cast<double>(y.size());
  double mean = 0.0;
  for (double value : y) mean += value / magnitude;
  mean /= n;
  double variance = 0.0;
  for (double value : y) {
    const double deviation = value / magnitude - mean;
    variance += deviation * deviation;
  }
  variance /= n;
  result.offset = mean * magnitude;
  const double spread = std::sqrt(variance);
  // The scale must be a normal double: values whose spread is subnormal (y = {0, 4.9e-324})
  // would give a scale that rounds to zero, or keeps a few bits, and dividing by it NaN or
  // noise. Such data is constant for the model.
  const double scale = spread * magnitude;
  if (spread > 1e-13 && scale >= std::numeric_limits<double>::min()) result.scale = scale;
  return result;
}

}  // namespace addbo::core
