// The black box the workers evaluate: 6 variables on [0, 1], additive over the pairs (x1, x2),
// (x3, x4), (x5, x6), maximum 0 at kCenter (the function of the other parallel examples). Each
// evaluation also takes a while (evaluation_milliseconds), different for each point, so that
// values come back out of order as from real jobs.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace mpi_evaluation {

constexpr int kDimension = 6;
constexpr std::array<double, kDimension> kCenter = {0.3, 0.7, 0.55, 0.2, 0.8, 0.45};

inline double objective(const std::vector<double>& x) {
  double sum = 0.0;
  for (int k = 0; k < kDimension; k += 2) {
    const double a = x[k] - kCenter[k], b = x[k + 1] - kCenter[k + 1];
    sum -= a * a + b * b - a * b;  // the pair (x[k], x[k+1]) interacts
  }
  return sum;
}

// 2 to 20 ms, from the point's id (a hash, so neighbouring ids differ).
inline int evaluation_milliseconds(std::int64_t id) {
  std::uint64_t h = static_cast<std::uint64_t>(id) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return 2 + static_cast<int>(h % 19);
}

}  // namespace mpi_evaluation
