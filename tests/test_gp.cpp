// The incremental clique tables against the dense posterior of paper eq. 5, evaluated from the
// kernel entry by entry.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "evaluation/reference_posterior.hpp"
#include "gp/additive_posterior.hpp"
#include "gp/standardization.hpp"
#include "support/random_models.hpp"

using namespace addbo::core;
using addbo::core::testing::random_encoded_point;
using addbo::core::testing::random_model;
using addbo::core::testing::RandomModel;

TEST_SUITE_BEGIN("gp");

namespace {

// The encoded point of table cell `cell` of clique c (row-major, last variable fastest); the
// variables outside the clique keep the values of `base`.
std::vector<double> cell_point(const RandomModel& model, const VarSet& clique, std::size_t cell,
                               std::vector<double> base) {
  for (std::size_t j = clique.size(); j-- > 0;) {
    const std::vector<double>& axis = model.axes[clique[j]];
    base[clique[j]] = axis[cell % axis.size()];
    cell /= axis.size();
  }
  return base;
}

Eigen::VectorXd standardised(const std::vector<double>& y, const Standardization& s) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(y.size()));
  for (std::size_t i = 0; i < y.size(); ++i) out(i) = (y[i] - s.offset) / s.scale;
  return out;
}

bool close(double a, double b, double relative) {
  return std::fabs(a - b) <= relative * std::max({1.0, std::fabs(a), std::fabs(b)});
}

struct Case {
  RandomModel model;
  std::vector<std::vector<double>> points;
  std::vector<double> y;
};

Case random_case(std::mt19937_64& rng, int n) {
  Case c;
  c.model = random_model(rng, 2 + static_cast<int>(rng() % 4));
  std::normal_distribution<double> normal(0.0, 1.0);
  const double offset = 100.0 * normal(rng), scale = std::exp(3.0 * normal(rng));
  for (int i = 0; i < n; ++i) {
    c.points.push_back(random_encoded_point(rng, c.model, rng() % 2 == 0));
    c.y.push_back(offset + scale * normal(rng));
  }
  return c;
}

AdditiveKernel kernel_of(const RandomModel& model) {
  return AdditiveKernel(model.types, model.cliques, model.lengthscales, model.noise);
}

}  // namespace

TEST_CASE("incremental clique tables equal the dense posterior after every addition") {
  std::mt19937_64 rng(20260101);
  int checked_tables = 0;
  for (int trial = 0; trial < 12; ++trial) {
    Case c = random_case(rng, 25);
    const AdditiveKernel kernel = kernel_of(c.model);
    AdditivePosterior posterior(kernel, c.model.axes, 0.0);
    for (std::size_t n = 1; n <= c.points.size(); ++n) {
      REQUIRE(posterior.add_observation(c.points[n - 1], c.y[n - 1]));
      if (n % 6 != 0 && n != c.points.size()) continue;
      const std::vector<double> y_seen(c.y.begin(), c.y.begin() + n);
      const Standardization s = posterior.standardization();
      const Standardization expected = standardize(y_seen);
      CHECK(s.offset == doctest::Approx(expected.offset).epsilon(1e-12));
      CHECK(s.scale == doctest::Approx(expected.scale).epsilon(1e-12));
      const std::vector<std::vector<double>> seen(c.points.begin(), c.points.begin() + n);
      const ReferencePosterior reference(kernel, seen, standardised(y_seen, s), 0.0);
      const std::vector<double> base = random_encoded_point(rng, c.model, true);
      for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
        const Eigen::VectorXd& mean = posterior.mean_table(k);
        const Eigen::VectorXd& variance = posterior.variance_table(k);
        for (Eigen::Index cell = 0; cell < mean.size(); ++cell) {
          const std::vector<double> u = cell_point(c.model, kernel.cliques()[k], cell, base);
          CHECK(close(mean(cell), reference.clique_mean(k, u), 1e-9));
          CHECK(close(variance(cell), reference.clique_variance(k, u), 1e-9));
        }
        ++checked_tables;
      }
      CHECK(close(posterior.log_marginal_likelihood(), reference.log_marginal_likelihood(), 1e-9));
      const std::vector<double> anywhere = random_encoded_point(rng, c.model, false);
      CHECK(close(posterior.mean_at(anywhere), reference.mean(anywhere), 1e-9));
    }
  }
  CHECK(checked_tables > 100);
}

TEST_CASE("the clique means sum to the full posterior mean; the clique deviations bound its") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 20; ++trial) {
    Case c = random_case(rng, 30);
    const AdditiveKernel kernel = kernel_of(c.model);
    AdditivePosterior posterior(kernel, c.model.axes, 0.0);
    for (std::size_t i = 0; i < c.points.size(); ++i) {
      REQUIRE(posterior.add_observation(c.points[i], c.y[i]));
    }
    const ReferencePosterior reference(kernel, c.points,
                                       standardised(c.y, posterior.standardization()), 0.0);
    for (int test = 0; test < 40; ++test) {
      const std::vector<double> u = random_encoded_point(rng, c.model, true);
      double mean_sum = 0.0, deviation_sum = 0.0;
      for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
        // The table cell of u for clique k.
        std::size_t cell = 0;
        for (int d : kernel.cliques()[k]) {
          const std::vector<double>& axis = c.model.axes[d];
          cell = cell * axis.size() +
                 static_cast<std::size_t>(std::find(axis.begin(), axis.end(), u[d]) - axis.begin());
        }
        mean_sum += posterior.mean_table(k)(static_cast<Eigen::Index>(cell));
        deviation_sum +=
            std::sqrt(std::max(0.0, posterior.variance_table(k)(static_cast<Eigen::Index>(cell))));
      }
      CHECK(close(mean_sum, reference.mean(u), 1e-9));
      CHECK(deviation_sum >= std::sqrt(std::max(0.0, reference.variance(u))) - 1e-9);
    }
  }
}

TEST_CASE("pending points shrink the variance exactly as if observed and leave the mean") {
  std::mt19937_64 rng(4242);
  for (int trial = 0; trial < 10; ++trial) {
    Case c = random_case(rng, 16);
    const AdditiveKernel kernel = kernel_of(c.model);
    AdditivePosterior posterior(kernel, c.model.axes, 0.0);
    for (std::size_t i = 0; i < 12; ++i) REQUIRE(posterior.add_observation(c.points[i], c.y[i]));
    std::vector<Eigen::VectorXd> means_before, variances_before;
    for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
      means_before.push_back(posterior.mean_table(k));
      variances_before.push_back(posterior.variance_table(k));
    }
    for (std::size_t i = 12; i < 16; ++i) REQUIRE(posterior.add_pending(c.points[i]));
    // Variance does not depend on y: condition the reference on all 16 points with any y.
    const ReferencePosterior with_pending(kernel, c.points, Eigen::VectorXd::Zero(16), 0.0);
    const std::vector<double> base = random_encoded_point(rng, c.model, true);
    for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
      CHECK((posterior.mean_table(k) - means_before[k]).cwiseAbs().maxCoeff() == 0.0);
      for (Eigen::Index cell = 0; cell < posterior.variance_table(k).size(); ++cell) {
        const std::vector<double> u = cell_point(c.model, kernel.cliques()[k], cell, base);
        CHECK(close(posterior.variance_table(k)(cell), with_pending.clique_variance(k, u), 1e-9));
      }
    }
    posterior.clear_pending();
    for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
      CHECK((posterior.variance_table(k) - variances_before[k]).cwiseAbs().maxCoeff() == 0.0);
    }
  }
}

TEST_CASE("a duplicate point with tiny noise is refused, not factorised into garbage") {
  RandomModel model;
  model.types = {VariableType::continuous, VariableType::continuous};
  model.axes = {{0.0, 0.5, 1.0}, {0.0, 0.5, 1.0}};
  model.cliques = {{0, 1}};
  model.lengthscales = {0.3, 0.3};
  AdditivePosterior posterior(AdditiveKernel(model.types, model.cliques, model.lengthscales, 1e-14),
                              model.axes, 0.0);
  REQUIRE(posterior.add_observation({0.2, 0.7}, 1.0));
  CHECK_FALSE(posterior.add_observation({0.2, 0.7}, 2.0));
  CHECK(posterior.observation_count() == 1);
  // With jitter the same data is accepted.
  AdditivePosterior jittered(AdditiveKernel(model.types, model.cliques, model.lengthscales, 1e-14),
                             model.axes, 1e-6);
  CHECK(jittered.add_observation({0.2, 0.7}, 1.0));
  CHECK(jittered.add_observation({0.2, 0.7}, 2.0));
}

TEST_CASE("standardization survives the limits of a double") {
  const Standardization huge = standardize({1e308, -1e308, 5e307});
  CHECK(std::isfinite(huge.offset));
  CHECK(std::isfinite(huge.scale));
  CHECK(huge.scale > 0.0);
  const Standardization constant = standardize({1e12, 1e12, 1e12});
  CHECK(constant.offset == 1e12);
  CHECK(constant.scale == 1.0);
  const Standardization spread = standardize({1.0, 3.0});
  CHECK(spread.offset == doctest::Approx(2.0));
  CHECK(spread.scale == doctest::Approx(1.0));
  // A spread below the normal doubles: half of the smallest subnormal rounds to zero, so the
  // scale would be 0 and every standardised value NaN. Such data is constant for the model.
  const Standardization subnormal = standardize({0.0, 4.9e-324});
  CHECK(subnormal.scale == 1.0);
  CHECK(subnormal.offset == 0.0);
  const Standardization tiny = standardize({0.0, 1e-310});
  CHECK(tiny.scale == 1.0);
  const Standardization small = standardize({0.0, 1e-300});
  CHECK(small.scale == doctest::Approx(0.5e-300));
}

namespace {

// The clique tables computed in one batch from the definition: Delta factorised by a dense
// LLT, the cross-covariance of every cell with every point evaluated from the kernel.
struct BatchTables {
  std::vector<Eigen::VectorXd> mean, variance;
};

BatchTables batch_tables(const AdditiveKernel& kernel, const RandomModel& model,
                         const std::vector<std::vector<double>>& points, const Eigen::VectorXd& y,
                         std::size_t observed) {
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd delta(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) delta(i, j) = kernel(points[i].data(), points[j].data());
    delta(i, i) += kernel.noise_variance();
  }
  // The mean uses the observed points only; the variance all points (observed and pending).
  const Eigen::Index m = static_cast<Eigen::Index>(observed);
  Eigen::LLT<Eigen::MatrixXd> observed_llt(delta.topLeftCorner(m, m));
  Eigen::LLT<Eigen::MatrixXd> all_llt(delta);
  REQUIRE(observed_llt.info() == Eigen::Success);
  REQUIRE(all_llt.info() == Eigen::Success);
  const Eigen::VectorXd alpha = observed_llt.solve(y);
  BatchTables tables;
  std::vector<double> base(model.types.size(), 0.0);
  for (std::size_t c = 0; c < kernel.cliques().size(); ++c) {
    const VarSet& clique = kernel.cliques()[c];
    Eigen::Index cells = 1;
    for (int d : clique) cells *= static_cast<Eigen::Index>(model.axes[d].size());
    Eigen::MatrixXd cross(n, cells);
    for (Eigen::Index cell = 0; cell < cells; ++cell) {
      const std::vector<double> u = cell_point(model, clique, static_cast<std::size_t>(cell), base);
      for (Eigen::Index i = 0; i < n; ++i)
        cross(i, cell) = kernel.clique_value(c, points[i].data(), u.data());
    }
    tables.mean.push_back(cross.topRows(m).transpose() * alpha);
    const Eigen::MatrixXd whitened = all_llt.matrixL().solve(cross);
    tables.variance.push_back((Eigen::VectorXd::Constant(cells, kernel.clique_scale(c)) -
                               whitened.colwise().squaredNorm().transpose()));
  }
  return tables;
}

}  // namespace

// Tolerance: 1e-8 relative to the larger of the two values and the table's natural scale (1 for
// standardised means, the clique's prior variance s_C for variances).
TEST_CASE("300 tells and pending points: incremental tables equal a batch recomputation") {
  std::mt19937_64 rng(300);
  RandomModel model = random_model(rng, 4);
  for (std::vector<double>& axis : model.axes) axis.resize(std::min<std::size_t>(axis.size(), 4));
  for (std::size_t d = 0; d < model.axes.size(); ++d) {
    if (model.types[d] != VariableType::categorical) {
      const std::size_t size = model.axes[d].size();
      for (std::size_t g = 0; g < size; ++g)
        model.axes[d][g] = static_cast<double>(g) / static_cast<double>(size - 1);
    }
  }
  // Overlapping groups for sure, whatever the random graph drew.
  model.cliques = maximal_cliques(Graph(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}}));
  model.noise = 1e-3;
  const AdditiveKernel kernel = kernel_of(model);
  AdditivePosterior posterior(kernel, model.axes, 0.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> observed;
  std::vector<double> y;
  double worst_mean = 0.0, worst_variance = 0.0;
  const auto compare = [&](const std::vector<std::vector<double>>& pending) {
    std::vector<std::vector<double>> points = observed;
    points.insert(points.end(), pending.begin(), pending.end());
    const BatchTables batch = batch_tables(
        kernel, model, points, standardised(y, posterior.standardization()), observed.size());
    for (std::size_t c = 0; c < kernel.cliques().size(); ++c) {
      const Eigen::VectorXd& mean = posterior.mean_table(c);
      const Eigen::VectorXd& variance = posterior.variance_table(c);
      for (Eigen::Index cell = 0; cell < mean.size(); ++cell) {
        const double mean_error =
            std::fabs(mean(cell) - batch.mean[c](cell)) /
            std::max({1.0, std::fabs(mean(cell)), std::fabs(batch.mean[c](cell))});
        const double variance_error = std::fabs(variance(cell) - batch.variance[c](cell)) /
                                      std::max({kernel.clique_scale(c), std::fabs(variance(cell))});
        worst_mean = std::max(worst_mean, mean_error);
        worst_variance = std::max(worst_variance, variance_error);
      }
    }
  };
  for (int tell = 0; tell < 300; ++tell) {
    const std::vector<double> u = random_encoded_point(rng, model, tell % 3 != 0);
    const double value = 50.0 + 10.0 * std::sin(4.0 * u[0]) * u[1] + u[3] + 0.1 * normal(rng);
    REQUIRE(posterior.add_observation(u, value));
    observed.push_back(u);
    y.push_back(value);
    compare({});
    if (tell % 25 == 24) {  // some asks left pending, then withdrawn
      std::vector<std::vector<double>> pending;
      for (int k = 0; k < 3; ++k) {
        pending.push_back(random_encoded_point(rng, model, true));
        REQUIRE(posterior.add_pending(pending.back()));
        compare(pending);
      }
      posterior.clear_pending();
      compare({});
    }
  }
  MESSAGE("largest relative differences: mean " << worst_mean << ", variance " << worst_variance);
  CHECK(worst_mean < 1e-8);
  CHECK(worst_variance < 1e-8);
}

// Telling the first pending point reuses the update computed when it was asked, and the
// per-clique work may run on several threads: both must give exactly the tables of the plain
// sequential path (the same arithmetic on the same inputs), not merely close ones. The model is
// large enough (n x cells past the parallel threshold) that two threads are really used.
TEST_CASE("ask-then-tell reuse and threads give bit-identical tables" *
          doctest::test_suite("threads")) {
  std::mt19937_64 rng(77);
  RandomModel model;
  const int dimension = 6;
  for (int d = 0; d < dimension; ++d) {
    model.types.push_back(d == 4 ? VariableType::categorical
                                 : (d == 5 ? VariableType::integer : VariableType::continuous));
    std::vector<double> axis;
    const int size = d == 4 ? 5 : 16;
    for (int g = 0; g < size; ++g) axis.push_back(d == 4 ? g : static_cast<double>(g) / (size - 1));
    model.axes.push_back(axis);
    model.lengthscales.push_back(0.2 + 0.1 * d);
  }
  model.cliques =
      maximal_cliques(Graph(dimension, {{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}, {4, 5}}));
  model.noise = 1e-3;
  const AdditiveKernel kernel = kernel_of(model);
  AdditivePosterior sequential(kernel, model.axes, 0.0, 1);
  AdditivePosterior threaded(kernel, model.axes, 0.0, 2);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto identical = [&] {
    bool same = true;
    for (std::size_t c = 0; c < kernel.cliques().size(); ++c) {
      same = same && sequential.mean_table(c) == threaded.mean_table(c) &&
             sequential.variance_table(c) == threaded.variance_table(c) &&
             sequential.variance_table_without_pending(c) ==
                 threaded.variance_table_without_pending(c);
    }
    return same;
  };
  for (int i = 0; i < 260; ++i) {
    const std::vector<double> u = random_encoded_point(rng, model, i % 2 == 0);
    const double y = std::sin(5.0 * u[0]) * u[1] + u[3] * u[4] + 0.01 * normal(rng);
    if (i % 7 == 3) {  // two asks, the second one told first: no reuse possible
      const std::vector<double> other = random_encoded_point(rng, model, true);
      REQUIRE(sequential.add_pending(u));
      REQUIRE(sequential.add_pending(other));
      REQUIRE(threaded.add_pending(u));
      REQUIRE(threaded.add_pending(other));
      REQUIRE(identical());
      sequential.clear_pending();
      threaded.clear_pending();
      REQUIRE(sequential.add_observation(other, y));
      REQUIRE(threaded.add_observation(other, y));
    } else {  // the sequential posterior is told directly, the threaded one asks first
      REQUIRE(threaded.add_pending(u));
      threaded.clear_pending();
      REQUIRE(sequential.add_observation(u, y));
      REQUIRE(threaded.add_observation(u, y));
    }
    REQUIRE(identical());
  }
  CHECK(sequential.observation_count() == 260);
  CHECK(sequential.log_marginal_likelihood() == threaded.log_marginal_likelihood());
}

// Off the grid: the exact clique moments and the full posterior variance at arbitrary points,
// with pending points, against the dense posterior; on the grid, the moments equal the tables.
TEST_CASE("clique moments and the full variance anywhere equal the dense posterior") {
  std::mt19937_64 rng(777);
  for (int trial = 0; trial < 10; ++trial) {
    Case c = random_case(rng, 14);
    const AdditiveKernel kernel = kernel_of(c.model);
    AdditivePosterior posterior(kernel, c.model.axes, 0.0);
    for (std::size_t i = 0; i < 10; ++i) REQUIRE(posterior.add_observation(c.points[i], c.y[i]));
    const ReferencePosterior told(
        kernel, std::vector<std::vector<double>>(c.points.begin(), c.points.begin() + 10),
        standardised(std::vector<double>(c.y.begin(), c.y.begin() + 10),
                     posterior.standardization()),
        0.0);
    for (std::size_t i = 10; i < 14; ++i) REQUIRE(posterior.add_pending(c.points[i]));
    const ReferencePosterior with_pending(kernel, c.points, Eigen::VectorXd::Zero(14), 0.0);
    std::vector<double> mean, variance;
    for (int query = 0; query < 5; ++query) {
      const std::vector<double> u = random_encoded_point(rng, c.model, false);  // off the grid
      posterior.clique_moments(u, mean, variance);
      for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
        CHECK(close(mean[k], told.clique_mean(k, u), 1e-9));
        CHECK(close(variance[k], with_pending.clique_variance(k, u), 1e-9));
      }
      CHECK(close(posterior.variance_at(u, false), told.variance(u), 1e-9));
      CHECK(close(posterior.variance_at(u, true), with_pending.variance(u), 1e-9));
    }
    const std::vector<double> base = random_encoded_point(rng, c.model, true);
    for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
      for (Eigen::Index cell = 0; cell < posterior.mean_table(k).size(); cell += 3) {
        posterior.clique_moments(cell_point(c.model, kernel.cliques()[k], cell, base), mean,
                                 variance);
        CHECK(close(mean[k], posterior.mean_table(k)(cell), 1e-9));
        CHECK(close(variance[k], posterior.variance_table(k)(cell), 1e-9));
      }
    }
  }
}

// Pending points fantasised at f's lower confidence bound (what the optimizer's batch asks use):
// each fantasy is mu - w sigma of the dense posterior given the told points and the earlier
// fantasies, and the tables then equal the dense posterior with every fantasy observed. The
// told-only quantities (told_moments, mean_at) ignore them, and clear_pending restores the
// told tables exactly.
TEST_CASE("pending points fantasised at the lower confidence bound equal the dense posterior") {
  std::mt19937_64 rng(90210);
  int fantasies_below_mean = 0;
  for (int trial = 0; trial < 10; ++trial) {
    Case c = random_case(rng, 16);
    const AdditiveKernel kernel = kernel_of(c.model);
    AdditivePosterior posterior(kernel, c.model.axes, 0.0);
    for (std::size_t i = 0; i < 12; ++i) REQUIRE(posterior.add_observation(c.points[i], c.y[i]));
    std::vector<Eigen::VectorXd> means_before;
    for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
      means_before.push_back(posterior.mean_table(k));
    }
    const double weight = 0.5 + 2.0 * static_cast<double>(trial) / 9.0;
    Eigen::VectorXd values = standardised(std::vector<double>(c.y.begin(), c.y.begin() + 12),
                                          posterior.standardization());
    std::vector<std::vector<double>> points(c.points.begin(), c.points.begin() + 12);
    for (std::size_t i = 12; i < 16; ++i) {
      const ReferencePosterior before(kernel, points, values, 0.0);
      const double fantasy = before.mean(c.points[i]) -
                             weight * std::sqrt(std::max(0.0, before.variance(c.points[i])));
      fantasies_below_mean += fantasy < before.mean(c.points[i]);
      REQUIRE(posterior.add_pending(c.points[i], weight));
      points.push_back(c.points[i]);
      values.conservativeResize(values.size() + 1);
      values(values.size() - 1) = fantasy;
    }
    const ReferencePosterior with_fantasies(kernel, points, values, 0.0);
    const std::vector<double> base = random_encoded_point(rng, c.model, true);
    for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
      for (Eigen::Index cell = 0; cell < posterior.mean_table(k).size(); ++cell) {
        const std::vector<double> u = cell_point(c.model, kernel.cliques()[k], cell, base);
        CHECK(close(posterior.mean_table(k)(cell), with_fantasies.clique_mean(k, u), 1e-8));
        CHECK(close(posterior.variance_table(k)(cell), with_fantasies.clique_variance(k, u), 1e-9));
      }
    }
    const ReferencePosterior told(
        kernel, std::vector<std::vector<double>>(c.points.begin(), c.points.begin() + 12),
        values.head(12), 0.0);
    std::vector<double> mean, variance;
    for (int query = 0; query < 5; ++query) {
      const std::vector<double> u = random_encoded_point(rng, c.model, false);
      posterior.clique_moments(u, mean, variance);
      for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
        CHECK(close(mean[k], with_fantasies.clique_mean(k, u), 1e-8));
        CHECK(close(variance[k], with_fantasies.clique_variance(k, u), 1e-9));
      }
      CHECK(close(posterior.mean_at(u), told.mean(u), 1e-9));
      CHECK(close(posterior.told_moments(u).mean, told.mean(u), 1e-9));
    }
    posterior.clear_pending();
    for (std::size_t k = 0; k < kernel.cliques().size(); ++k) {
      CHECK((posterior.mean_table(k) - means_before[k]).cwiseAbs().maxCoeff() == 0.0);
    }
  }
  CHECK(fantasies_below_mean == 40);
}

TEST_SUITE_END();
