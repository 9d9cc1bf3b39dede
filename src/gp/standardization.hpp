// Observations are modelled in standardised units (y - offset) / scale.
#pragma once

#include <vector>

namespace addbo::core {

struct Standardization {
  double offset = 0.0;
  double scale = 1.0;
};

// Mean and standard deviation of y, computed on y / max|y| so that values near the limits of a
// double neither overflow nor lose their spread. A spread that is zero (or only rounding noise
// relative to the magnitude), or so small that it is no normal double, keeps scale 1: constant
// data then stays constant, not amplified.
Standardization standardize(const std::vector<double>& y);

}  // namespace addbo::core
