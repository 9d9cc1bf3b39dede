// Observations are modelled in standardised units (y - offset) / scale: the one place the
// formula is written, in both directions, so that every model (the posterior, learning's data,
// the constraints' margins) and every report of one (predictions, the ask's conditions) agree
// to the last bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace addbo::core {

struct Standardization {
  double offset = 0.0;
  double scale = 1.0;

  // A value in model units. Divided before subtracting, so that values near the limits of a
  // double cannot overflow.
  double standardized(double y) const { return y / scale - offset / scale; }
  // A model mean, and the deviation of a model variance, in the units of y (rounding can leave
  // a variance slightly below zero).
  double mean_in_units(double mean) const { return offset + scale * mean; }
  double deviation_in_units(double variance) const {
    return scale * std::sqrt(std::max(variance, 0.0));
  }
};

// Mean and standard deviation of y, computed on y / max|y| so that values near the limits of a
// double neither overflow nor lose their spread. A spread that is zero (or only rounding noise
// relative to the magnitude), or so small that it is no normal double, keeps scale 1: constant
// data then stays constant, not amplified.
Standardization standardize(const std::vector<double>& y);

}  // namespace addbo::core
