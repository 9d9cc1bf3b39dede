// The kernels' vectorised exp (linalg/vector_exp.hpp) against std::exp, on whichever path this
// processor takes and on Eigen's path.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "linalg/vector_exp.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("linalg");

namespace {

using ExpFunction = void (*)(const double*, std::size_t, double*);

// The largest error of `exp` against std::exp over [-708, 0], in units of the result's last
// place (2^-52 of it): a sweep of evenly spaced exponents, each point of the reduction's
// boundaries (multiples of ln 2 / 2) and random ones.
double worst_ulps(ExpFunction exp) {
  std::vector<double> x;
  for (int k = 0; k <= 200000; ++k) x.push_back(-708.0 * k / 200000.0);
  for (int k = 0; k <= 2043; ++k) {
    const double boundary = -k * 0.5 * std::log(2.0);
    if (boundary < -708.0) break;
    for (double nudge : {-1e-12, 0.0, 1e-12}) x.push_back(std::min(0.0, boundary + nudge));
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-708.0, 0.0), small(-1e-6, 0.0);
  for (int k = 0; k < 50000; ++k) x.push_back(exponent(rng));
  for (int k = 0; k < 1000; ++k) x.push_back(small(rng));
  std::vector<double> out(x.size());
  exp(x.data(), x.size(), out.data());
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::exp(x[i]);
    worst = std::max(worst, std::fabs(out[i] - exact) / (exact * std::ldexp(1.0, -52)));
  }
  return worst;
}

}  // namespace

TEST_CASE("the vectorised exp is within 2 ulp of std::exp on [-708, 0]") {
  const double chosen = worst_ulps(exp_nonpositive);
  const double portable = worst_ulps(vector_exp_detail::exp_nonpositive_portable);
  MESSAGE("largest error in ulp: this processor's path " << chosen << ", Eigen's " << portable);
  CHECK(chosen <= 2.0);
  CHECK(portable <= 2.0);
}

TEST_CASE("the vectorised exp's edges: 1 at 0, next to nothing far below, NaN stays NaN") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double infinity = std::numeric_limits<double>::infinity();
  const std::vector<double> x{0.0, -0.0, -1e-300, -709.0, -1e5, -infinity, nan};
  for (ExpFunction exp : {exp_nonpositive, vector_exp_detail::exp_nonpositive_portable}) {
    std::vector<double> out(x.size());
    exp(x.data(), x.size(), out.data());
    CHECK(out[0] == 1.0);
    CHECK(out[1] == 1.0);
    CHECK(out[2] == 1.0);
    // Below -708 e^x is subnormal (e^-709 = 1.2168e-308) or 0: either is accepted (Eigen's
    // exp clamps its argument near -709, so even -inf gives a subnormal there).
    for (std::size_t k = 3; k <= 5; ++k) {
      CHECK(out[k] >= 0.0);
      CHECK(out[k] <= 1.3e-308);
    }
    CHECK(std::isnan(out[6]));
  }
}

TEST_CASE("a value's exp does not depend on its place in the array, and may be in place") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> exponent(-50.0, 0.0);
  std::vector<double> x(37);
  for (double& value : x) value = exponent(rng);
  std::vector<double> whole(x.size());
  exp_nonpositive(x.data(), x.size(), whole.data());
  // Every suffix and every single value alone give the same bits (the last values go through
  // the four-wide code padded, not through a scalar exp).
  for (std::size_t start = 0; start < x.size(); ++start) {
    std::vector<double> part(x.size() - start);
    exp_nonpositive(x.data() + start, part.size(), part.data());
    for (std::size_t i = 0; i < part.size(); ++i) CHECK(part[i] == whole[start + i]);
  }
  std::vector<double> in_place = x;
  exp_nonpositive(in_place.data(), in_place.size(), in_place.data());
  CHECK(in_place == whole);
}
