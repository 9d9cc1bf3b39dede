// leave_one_out's closed form against its definition: n refits, each on the other n - 1 points
// (the posterior mean and variance of y_i given them), on an additive kernel with overlapping
// groups; and the jitter ladder on a kernel matrix that is singular without it.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "leave_one_out.hpp"

#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <random>

namespace {

using addbo::core::AdditiveKernel;
using addbo::core::VariableType;

constexpr double kTwoPi = 6.283185307179586476925;

AdditiveKernel overlapping_kernel(double noise) {
  return AdditiveKernel(std::vector<VariableType>(3, VariableType::continuous), {{0, 1}, {1, 2}},
                        {0.3, 0.5, 0.2}, noise);
}

Eigen::MatrixXd random_points(Eigen::Index n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Eigen::MatrixXd points(n, 3);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index d = 0; d < 3; ++d) points(i, d) = uniform(random);
  }
  return points;
}

// Refits without point i, n times.
lengthscale_evidence::LeaveOneOut brute_force(const AdditiveKernel& kernel,
                                              const Eigen::MatrixXd& points,
                                              const Eigen::VectorXd& y) {
  const Eigen::Index n = y.size();
  const Eigen::MatrixXd columns = points.transpose();
  const auto k = [&](Eigen::Index a, Eigen::Index b) {
    return kernel(&columns(0, a), &columns(0, b));
  };
  double squares = 0.0, log_density = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::MatrixXd others(n - 1, n - 1);
    Eigen::VectorXd cross(n - 1), y_others(n - 1);
    for (Eigen::Index a = 0, row = 0; a < n; ++a) {
      if (a == i) continue;
      cross(row) = k(a, i);
      y_others(row) = y(a);
      for (Eigen::Index b = 0, col = 0; b < n; ++b) {
        if (b == i) continue;
        others(row, col++) = k(a, b) + (a == b ? kernel.noise_variance() : 0.0);
      }
      ++row;
    }
    const Eigen::LLT<Eigen::MatrixXd> factor(others);
    REQUIRE(factor.info() == Eigen::Success);
    const double mean = cross.dot(factor.solve(y_others));
    const double variance = k(i, i) + kernel.noise_variance() - cross.dot(factor.solve(cross));
    const double miss = y(i) - mean;
    squares += miss * miss;
    log_density += -0.5 * std::log(kTwoPi * variance) - 0.5 * miss * miss / variance;
  }
  return {std::sqrt(squares / static_cast<double>(n)), log_density};
}

}  // namespace

TEST_CASE("the closed-form leave-one-out equals n refits without each point") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Eigen::MatrixXd points = random_points(15, seed);
    Eigen::VectorXd y(15);
    for (Eigen::Index i = 0; i < 15; ++i) {
      y(i) = std::sin(6.0 * points(i, 0)) * points(i, 1) + std::cos(4.0 * points(i, 2)) +
             0.1 * static_cast<double>(i % 3);
    }
    for (double noise : {1e-2, 1e-4}) {
      const AdditiveKernel kernel = overlapping_kernel(noise);
      const lengthscale_evidence::LeaveOneOut closed =
          lengthscale_evidence::leave_one_out(kernel, points, y);
      const lengthscale_evidence::LeaveOneOut refits = brute_force(kernel, points, y);
      CAPTURE(seed);
      CAPTURE(noise);
      CHECK(closed.rmse == doctest::Approx(refits.rmse).epsilon(1e-7));
      CHECK(closed.log_density == doctest::Approx(refits.log_density).epsilon(1e-7));
    }
  }
}

TEST_CASE("a kernel matrix singular without jitter is factorised on the ladder") {
  // Every point twice and no noise: K is singular, and only the jitter makes it positive
  // definite. Each point is then predicted by its twin, so the misses are tiny.
  const Eigen::MatrixXd half = random_points(6, 7);
  Eigen::MatrixXd points(12, 3);
  points << half, half;
  Eigen::VectorXd y(12);
  for (Eigen::Index i = 0; i < 12; ++i) y(i) = points(i, 0) + points(i, 1) * points(i, 2);
  const Eigen::MatrixXd columns = points.transpose();
  const AdditiveKernel kernel = overlapping_kernel(0.0);
  Eigen::MatrixXd gram(12, 12);
  for (Eigen::Index i = 0; i < 12; ++i) {
    for (Eigen::Index j = 0; j < 12; ++j) gram(i, j) = kernel(&columns(0, i), &columns(0, j));
  }
  REQUIRE(Eigen::LLT<Eigen::MatrixXd>(gram).info() != Eigen::Success);
  const lengthscale_evidence::LeaveOneOut loo =
      lengthscale_evidence::leave_one_out(kernel, points, y);
  REQUIRE(std::isfinite(loo.rmse));
  REQUIRE(std::isfinite(loo.log_density));
  CHECK(loo.rmse < 1e-3);
}
