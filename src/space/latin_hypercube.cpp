#include "space/latin_hypercube.hpp"

#include <algorithm>
#include <numeric>

namespace addbo::core {

LatinHypercube::LatinHypercube(std::size_t dimension, std::size_t points, Random& random)
    : points_(points), strata_(dimension) {
  for (std::vector<std::uint32_t>& strata : strata_) {
    strata.resize(points);
    std::iota(strata.begin(), strata.end(), 0u);
    // Fisher-Yates from the raw generator (the standard's shuffle is not portable).
    for (std::size_t i = points; i > 1; --i) {
      std::swap(strata[i - 1], strata[static_cast<std::size_t>(random.below(i))]);
    }
  }
}

std::vector<double> LatinHypercube::point(std::size_t k, Random& random) const {
  std::vector<double> u(strata_.size());
  const double scale = 1.0 / static_cast<double>(points_);
  for (std::size_t d = 0; d < u.size(); ++d) {
    // Below 1 even when rounding would reach it: the stratum's upper end is open.
    u[d] = std::min((static_cast<double>(strata_[d][k]) + random.uniform()) * scale,
                    0x1.fffffffffffffp-1);
  }
  return u;
}

}  // namespace addbo::core
