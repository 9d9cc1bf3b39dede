// Small helpers the benchmarks share for their CSV and table output.
#pragma once

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace addbo_examples {

// An output file, or std::runtime_error naming it.
inline std::ofstream open_output(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  return out;
}

// A number with `digits` significant digits; "NaN" for anything not finite.
inline std::string format_number(double value, int digits) {
  if (!std::isfinite(value)) return "NaN";
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

}  // namespace addbo_examples
