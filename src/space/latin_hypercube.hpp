// The initial design: a Latin hypercube over the unit cube, mapped to each variable's domain.
// Every variable's range is cut into N strata and each stratum holds exactly one of the N
// points, so the first evaluations cover every variable's range evenly (uniform random points
// leave gaps and clumps; on a few discrete values they repeat). The strata are fixed by the
// seed; where in its stratum a point falls is drawn when it is asked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/random.hpp"

namespace addbo::core {

class LatinHypercube {
 public:
  LatinHypercube() = default;
  // `points` points in `dimension` variables; permutations drawn from `random`.
  LatinHypercube(std::size_t dimension, std::size_t points, Random& random);

  std::size_t size() const { return points_; }
  // Point k (< size()) in the unit cube, each coordinate uniform within its stratum.
  std::vector<double> point(std::size_t k, Random& random) const;

 private:
  std::size_t points_ = 0;
  std::vector<std::vector<std::uint32_t>> strata_;  // per variable: point -> stratum
};

}  // namespace addbo::core
