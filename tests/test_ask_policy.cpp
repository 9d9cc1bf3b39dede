// The ask among drawn points (choose_among_points), used when no grid point of a local box meets
// an ask's conditions: against a brute force over the same points on the dense reference
// posterior's clique moments.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include "acquisition/ask_policy.hpp"
#include "evaluation/reference_posterior.hpp"
#include "gp/standardization.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("acquisition");

namespace {

// Two continuous variables on [0, 1] (encoded = user units), one clique each, and seven
// observations of a function that rises towards (1, 1).
struct Scene {
  Scene()
      : space({variable("a"), variable("b")}),
        kernel({VariableType::continuous, VariableType::continuous}, {{0}, {1}}, {0.3, 0.4}, 1e-4),
        posterior(kernel, axes(space), 0.0) {
    for (std::size_t d = 0; d < 2; ++d) {
      grids.indices.emplace_back();
      for (int i = 0; i < space.grid_size(d); ++i) grids.indices.back().push_back(i);
    }
    const std::vector<std::vector<double>> told = {{0.1, 0.2}, {0.4, 0.3}, {0.7, 0.1}, {0.2, 0.8},
                                                   {0.5, 0.5}, {0.9, 0.6}, {0.3, 0.95}};
    for (const std::vector<double>& u : told) {
      points.push_back(u);
      values.push_back(std::sin(3.0 * u[0]) + 0.5 * u[1]);
      REQUIRE(posterior.add_observation(u, values.back()));
    }
  }

  static VariableSpec variable(const char* name) {
    VariableSpec spec;
    spec.name = name;
    return spec;
  }

  // The scene as an ask sees it, with these conditions (none: null).
  ModelView view(const std::vector<AskCondition>* conditions) const {
    const CellOccupancy occupancy{observed, pending, failed};
    return ModelView{space, tree, grids, posterior, occupancy, {}, conditions, false};
  }

  static std::vector<std::vector<double>> axes(const Space& space) {
    std::vector<std::vector<double>> out(2);
    for (std::size_t d = 0; d < 2; ++d) {
      for (int i = 0; i < space.grid_size(d); ++i) out[d].push_back(space.grid_value(d, i));
    }
    return out;
  }

  Space space;
  AdditiveKernel kernel;
  AdditivePosterior posterior;
  GridPlan grids;
  JunctionTree tree;  // not read by choose_among_points
  CellPoints observed, pending, failed;
  std::vector<std::vector<double>> points;
  std::vector<double> values;
};

}  // namespace

TEST_CASE("the ask among drawn points: the admitted point of largest UCB, as a brute force") {
  Scene scene;
  // The dense posterior on the same standardised values.
  const Standardization units = standardize(scene.values);
  Eigen::VectorXd y(static_cast<Eigen::Index>(scene.values.size()));
  for (std::size_t i = 0; i < scene.values.size(); ++i) {
    y(static_cast<Eigen::Index>(i)) = units.standardized(scene.values[i]);
  }
  const ReferencePosterior reference(scene.kernel, scene.points, y, 0.0);

  // Admitted: below the line a + b = 0.9, a thin condition the draws must find.
  std::vector<AskCondition> conditions(1);
  conditions[0].admits = [](const std::vector<double>& u) { return u[0] + u[1] <= 0.9; };
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::vector<double>> draws(300);
  for (std::vector<double>& x : draws) x = {uniform(rng), uniform(rng)};

  for (const double beta : {0.0, 1.0, 9.0}) {
    CAPTURE(beta);
    const std::optional<AskDecision> chosen =
        choose_among_points(scene.view(&conditions), beta, draws);
    REQUIRE(chosen);
    // The brute force: the sum of the cliques' mean + sqrt(beta) sd on the dense posterior.
    std::optional<std::size_t> best;
    double best_value = 0.0;
    for (std::size_t k = 0; k < draws.size(); ++k) {
      if (draws[k][0] + draws[k][1] > 0.9) continue;
      double value = 0.0;
      for (std::size_t c = 0; c < 2; ++c) {
        value += reference.clique_mean(c, draws[k]) +
                 std::sqrt(beta) * std::sqrt(std::max(reference.clique_variance(c, draws[k]), 0.0));
      }
      if (!best || value > best_value) {
        best = k;
        best_value = value;
      }
    }
    REQUIRE(best);
    CHECK(chosen->x == draws[*best]);
    CHECK(chosen->acquisition == doctest::Approx(best_value).epsilon(1e-9));
    CHECK(chosen->phase == AskPhase::local);
    CHECK(chosen->exploration_weight == doctest::Approx(std::sqrt(beta)));
  }

  // None admitted: nothing, and the caller searches wider.
  std::vector<AskCondition> never(1);
  never[0].admits = [](const std::vector<double>&) { return false; };
  CHECK_FALSE(choose_among_points(scene.view(&never), 1.0, draws));
}

TEST_CASE("the ask among drawn points passes over the points already evaluated") {
  Scene scene;
  for (std::size_t i = 0; i < scene.points.size(); ++i) {
    scene.observed.add(grid_cell(scene.space, scene.grids, scene.points[i]), scene.points[i], i);
  }
  const ModelView view = scene.view(nullptr);
  // Only told points to choose from: each is known (its variance is the noise's).
  CHECK_FALSE(choose_among_points(view, 4.0, scene.points));
  // With one new point among them, that one.
  std::vector<std::vector<double>> with_new = scene.points;
  with_new.push_back({0.62, 0.44});
  const std::optional<AskDecision> chosen = choose_among_points(view, 4.0, with_new);
  REQUIRE(chosen);
  CHECK(chosen->x == with_new.back());
}

TEST_SUITE_END();
