// The batch build of the posterior (AdditivePosterior::build) against the replay of one-point
// additions, which test_gp.cpp checks against the dense posterior: the same tables, moments and
// factor within rounding, and later additions continuing from either alike.
#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <random>

#include "gp/additive_posterior.hpp"
#include "linalg/dense_cholesky.hpp"
#include "support/random_models.hpp"

using namespace addbo::core;
using addbo::core::testing::random_encoded_point;
using addbo::core::testing::random_model;
using addbo::core::testing::RandomModel;

TEST_SUITE_BEGIN("gp");

namespace {

AdditiveKernel kernel_of(const RandomModel& model) {
  return AdditiveKernel(model.types, model.cliques, model.lengthscales, model.noise);
}

// The largest difference between two values, relative to the larger of them and `floor` (the
// scale below which a difference is absolute: 1 for means, s_C for clique variances).
struct Worst {
  double value = 0.0;
  void add(double a, double b, double floor) {
    value = std::max(value, std::fabs(a - b) / std::max({floor, std::fabs(a), std::fabs(b)}));
  }
};

// Every table, moment and summary of the two posteriors, compared.
double difference(const AdditivePosterior& batch, const AdditivePosterior& replay,
                  const std::vector<std::vector<double>>& probes) {
  Worst worst;
  const AdditiveKernel& kernel = batch.kernel();
  for (std::size_t c = 0; c < kernel.cliques().size(); ++c) {
    const double scale = kernel.clique_scale(c);
    for (Eigen::Index cell = 0; cell < batch.mean_table(c).size(); ++cell) {
      worst.add(batch.mean_table(c)(cell), replay.mean_table(c)(cell), 1.0);
      worst.add(batch.variance_table(c)(cell), replay.variance_table(c)(cell), scale);
      worst.add(batch.variance_table_without_pending(c)(cell),
                replay.variance_table_without_pending(c)(cell), scale);
    }
  }
  std::vector<double> mean_a, variance_a, mean_b, variance_b;
  for (const std::vector<double>& u : probes) {
    batch.clique_moments(u, mean_a, variance_a);
    replay.clique_moments(u, mean_b, variance_b);
    const AdditivePosterior::Moments a = batch.told_moments(u), b = replay.told_moments(u);
    for (std::size_t c = 0; c < kernel.cliques().size(); ++c) {
      worst.add(mean_a[c], mean_b[c], 1.0);
      worst.add(variance_a[c], variance_b[c], kernel.clique_scale(c));
      worst.add(a.clique_mean[c], b.clique_mean[c], 1.0);
      worst.add(a.clique_variance[c], b.clique_variance[c], kernel.clique_scale(c));
    }
    worst.add(a.mean, b.mean, 1.0);
    worst.add(a.variance, b.variance, 1.0);
    worst.add(batch.variance_at(u, true), replay.variance_at(u, true), 1.0);
  }
  const Eigen::VectorXd means_a = batch.told_point_means(), means_b = replay.told_point_means();
  for (Eigen::Index i = 0; i < means_a.size(); ++i) worst.add(means_a(i), means_b(i), 1.0);
  worst.add(batch.log_marginal_likelihood(), replay.log_marginal_likelihood(), 1.0);
  return worst.value;
}

}  // namespace

TEST_CASE("a batch build equals the replay, and later additions continue from it alike") {
  double worst = 0.0;
  for (int seed = 0; seed < 40; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(1000 + seed);
    RandomModel model = random_model(rng, 2 + static_cast<int>(rng() % 5));
    // Noise down to 1e-4: below it the replay's own rounding (checked against the dense
    // posterior in test_gp.cpp at 1e-8) is larger than the agreement asked of the batch here.
    model.noise = std::max(model.noise, 1e-4);
    const AdditiveKernel kernel = kernel_of(model);
    std::normal_distribution<double> normal(0.0, 1.0);
    const double offset = 100.0 * normal(rng), spread = std::exp(2.0 * normal(rng));
    const int told = 1 + static_cast<int>(rng() % 120);
    std::vector<std::vector<double>> points;
    std::vector<double> y;
    for (int i = 0; i < told; ++i) {
      points.push_back(random_encoded_point(rng, model, rng() % 2 == 0));
      y.push_back(offset + spread * (std::sin(3.0 * points.back()[0]) + 0.3 * normal(rng)));
    }
    // Threads: the batch on two (when the work is large enough to use them), the replay on one.
    AdditivePosterior batch(kernel, model.axes, 0.0, 2);
    AdditivePosterior replay(kernel, model.axes, 0.0, 1);
    REQUIRE(batch.build(points, y));
    for (int i = 0; i < told; ++i) REQUIRE(replay.add_observation(points[i], y[i]));
    CHECK(batch.observation_count() == replay.observation_count());
    CHECK(batch.standardization().offset == replay.standardization().offset);
    CHECK(batch.standardization().scale == replay.standardization().scale);
    std::vector<std::vector<double>> probes;
    for (int k = 0; k < 4; ++k) probes.push_back(random_encoded_point(rng, model, false));
    worst = std::max(worst, difference(batch, replay, probes));

    // Pending points on both, then more told points (the first pending one told, as an ask
    // then tell does, which reuses its update), then pending again.
    for (int round = 0; round < 3; ++round) {
      std::vector<std::vector<double>> pending;
      for (int k = 0; k < 2; ++k) {
        pending.push_back(random_encoded_point(rng, model, true));
        REQUIRE(batch.add_pending(pending.back()));
        REQUIRE(replay.add_pending(pending.back()));
      }
      worst = std::max(worst, difference(batch, replay, probes));
      batch.clear_pending();
      replay.clear_pending();
      const double value = offset + spread * normal(rng);
      REQUIRE(batch.add_observation(pending.front(), value));
      REQUIRE(replay.add_observation(pending.front(), value));
      worst = std::max(worst, difference(batch, replay, probes));
    }
  }
  MESSAGE("largest relative difference between batch and replay: " << worst);
  CHECK(worst < 1e-10);
}

TEST_CASE("the batch build is the same on any number of threads") {
  std::mt19937_64 rng(5);
  RandomModel model;
  const int dimension = 5;
  for (int d = 0; d < dimension; ++d) {
    model.types.push_back(d == 3 ? VariableType::categorical : VariableType::continuous);
    std::vector<double> axis;
    const int size = d == 3 ? 4 : 24;
    for (int g = 0; g < size; ++g) axis.push_back(d == 3 ? g : static_cast<double>(g) / (size - 1));
    model.axes.push_back(axis);
    model.lengthscales.push_back(0.15 + 0.1 * d);
  }
  model.cliques = maximal_cliques(Graph(dimension, {{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}}));
  model.noise = 1e-3;
  std::vector<std::vector<double>> points;
  std::vector<double> y;
  for (int i = 0; i < 400; ++i) {  // n^2 x cells past the parallel threshold
    points.push_back(random_encoded_point(rng, model, i % 3 == 0));
    y.push_back(std::sin(4.0 * points.back()[0]) + points.back()[2] * points.back()[3]);
  }
  AdditivePosterior one(kernel_of(model), model.axes, 0.0, 1);
  AdditivePosterior three(kernel_of(model), model.axes, 0.0, 3);
  REQUIRE(one.build(points, y));
  REQUIRE(three.build(points, y));
  for (std::size_t c = 0; c < model.cliques.size(); ++c) {
    CHECK(one.mean_table(c) == three.mean_table(c));
    CHECK(one.variance_table(c) == three.variance_table(c));
  }
  CHECK(one.log_marginal_likelihood() == three.log_marginal_likelihood());
}

// Duplicate points with almost no noise: the batch refuses the factor where the replay refuses
// the duplicate's pivot, and with the jitter the replay's ladder then reaches both accept it
// and agree.
TEST_CASE("duplicates: the batch build fails where the replay does, and agrees with jitter") {
  RandomModel model;
  model.types = {VariableType::continuous, VariableType::integer, VariableType::categorical};
  model.axes = {{0.0, 0.25, 0.5, 0.75, 1.0}, {0.0, 0.5, 1.0}, {0.0, 1.0, 2.0}};
  model.cliques = {{0, 1}, {2}};
  model.lengthscales = {0.3, 0.5, 0.4};
  model.noise = 1e-14;
  std::mt19937_64 rng(9);
  std::vector<std::vector<double>> points;
  std::vector<double> y;
  for (int i = 0; i < 12; ++i) {
    points.push_back(random_encoded_point(rng, model, false));
    y.push_back(static_cast<double>(i % 5));
  }
  points.push_back(points[4]);  // told twice
  y.push_back(7.0);
  const AdditiveKernel kernel = kernel_of(model);
  double accepted = -1.0;
  for (double jitter : {0.0, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4}) {
    AdditivePosterior batch(kernel, model.axes, jitter);
    AdditivePosterior replay(kernel, model.axes, jitter);
    bool replayed = true;
    for (std::size_t i = 0; i < points.size() && replayed; ++i) {
      replayed = replay.add_observation(points[i], y[i]);
    }
    const bool built = batch.build(points, y);
    CAPTURE(jitter);
    CHECK(built == replayed);
    if (!built) {
      CHECK(batch.observation_count() == 0);
      continue;
    }
    accepted = jitter;
    // Agreement here is limited by the conditioning (Delta's smallest eigenvalue is about the
    // jitter): well inside that, not to 1e-10.
    const std::vector<std::vector<double>> probes = {random_encoded_point(rng, model, false)};
    CHECK(difference(batch, replay, probes) < 1e-4);
    break;
  }
  CHECK(accepted > 0.0);
}

// The variance tables' many-right-hand-side solve: every kernel path against Eigen's triangular
// solve, around the block and panel boundaries, and bit-identical for any thread count.
TEST_CASE("solve_rows_against_lower equals Eigen's solve on every path and thread count") {
  using cholesky_detail::Path;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int n : {1, 5, 47, 48, 49, 97, 128, 300}) {
    Eigen::MatrixXd b(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) b(i, j) = normal(rng);
    Eigen::MatrixXd a = b * b.transpose() / n;
    a.diagonal().array() += 0.1;
    Eigen::MatrixXd l = a.llt().matrixL();
    l.triangularView<Eigen::StrictlyUpper>().setConstant(1e300);  // never read
    const Eigen::MatrixXd lower = a.llt().matrixL();
    for (int m : {1, 7, 8, 13, 200}) {
      CAPTURE(n);
      CAPTURE(m);
      Eigen::MatrixXd x(m, n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) x(i, j) = normal(rng);
      const Eigen::MatrixXd expected =
          lower.triangularView<Eigen::Lower>().solve(x.transpose()).transpose();
      for (Path path : {Path::eigen, Path::portable, Path::avx2}) {
        Eigen::MatrixXd one = x, two = x, three = x;
        cholesky_detail::solve_rows(l, one, 1, path);
        cholesky_detail::solve_rows(l, two, 2, path);
        cholesky_detail::solve_rows(l, three, 3, path);
        CHECK(one == two);
        CHECK(one == three);
        CHECK((one - expected).norm() <= 1e-12 * (1.0 + expected.norm()));
      }
    }
  }
}

TEST_SUITE_END();
