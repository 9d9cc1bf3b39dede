#include "gp/standardization.hpp"

#include <algorithm>
#include <cmath>

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
  if (spread > 1e-13) result.scale = spread * magnitude;
  return result;
}

}  // namespace addbo::core
