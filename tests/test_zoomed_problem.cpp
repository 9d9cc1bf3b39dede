// The local search's box as a problem of its own: its grids against the rule written out by
// hand, its points against a brute-force nearest search, its model against the dense GP of the
// same points in the global units, its lengthscale factor against every candidate's evidence,
// its failure model's factor against every candidate classifier's evidence, a box kept up to
// date tell by tell against one built at once, and whole runs through restarts continuing bit
// for bit after a restore.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "acquisition/trust_region.hpp"
#include "evaluation/reference_posterior.hpp"
#include "gp/additive_kernel.hpp"
#include "gp/probit_classifier.hpp"
#include "learn/failure_learning.hpp"
#include "learn/lengthscale_factor.hpp"
#include "optimizer/box_model.hpp"
#include "optimizer/optimizer.hpp"
#include "optimizer/zoomed_problem.hpp"
#include "util/random.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("optimizer");

namespace {

// x0 linear on [-2, 3], x1 log-scale on [0.01, 100], x2 integers 0..40, x3 a choice of three.
Config mixed_config() {
  return parse_config(
      nlohmann::json{{"variables",
                      {{{"name", "x0"}, {"lower", -2.0}, {"upper", 3.0}},
                       {{"name", "x1"}, {"lower", 0.01}, {"upper", 100.0}, {"scale", "log"}},
                       {{"name", "x2"}, {"type", "integer"}, {"lower", 0}, {"upper", 40}},
                       {{"name", "x3"}, {"type", "categorical"}, {"choices", {"a", "b", "c"}}}}},
                     {"seed", 5}});
}

double objective(const std::vector<double>& x) {
  return -std::pow(x[0] - 0.4, 2) - std::pow(std::log(x[1]), 2) / 4 - std::pow(x[2] - 17, 2) / 50 +
         (x[3] == 1.0 ? 0.3 : 0.0) + 0.2 * x[0] * std::log(x[1]);
}

std::vector<Observation> random_observations(const Space& space, std::size_t count,
                                             std::uint64_t seed) {
  Random random(seed);
  std::vector<Observation> observations;
  for (std::size_t i = 0; i < count; ++i) {
    const std::vector<double> x = space.random_point(random);
    observations.push_back({x, objective(x), {}});
  }
  return observations;
}

// The mixed configuration with `count` observations at random points, nothing pending or failed,
// as a box's problem sees them.
struct MixedProblem {
  MixedProblem(std::size_t count, std::uint64_t seed)
      : config(mixed_config()),
        space(config.variables),
        observations(random_observations(space, count, seed)),
        data{config, space, observations, pending, failures} {}
  MixedProblem(const MixedProblem&) = delete;  // data refers to the members
  MixedProblem& operator=(const MixedProblem&) = delete;

  const Config config;
  const Space space;
  const std::vector<Observation> observations;
  const std::vector<std::vector<double>> pending;
  const std::vector<Failure> failures;
  const ModelData data;
};

// Every observation as a box's candidates.
std::vector<std::size_t> every(const std::vector<Observation>& observations) {
  std::vector<std::size_t> indices(observations.size());
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return indices;
}

// A model of record over the mixed variables to carry into boxes: groups {0, 1} and {1, 3}.
ModelInstance mixed_model() {
  ModelInstance model;
  model.parameters.edges = {{0, 1}, {1, 3}};
  model.parameters.lengthscales = {0.3, 0.2, 0.4, 0.8};
  model.parameters.noise_variance = 1e-3;
  return model;
}

}  // namespace

TEST_CASE(
    "a box's grids step from the centre by the finer of a sixteenth of its side and the "
    "global step, within the bounds") {
  const MixedProblem p(300, 11);
  const Space& space = p.space;
  for (double length : {0.8, 0.2, 0.03, 0.0078125}) {
    for (std::size_t which : {0u, 7u, 123u}) {
      const std::vector<double>& centre = p.observations[which].x;
      const std::vector<double> sides = trust_region_sides(space, length, {0.2, 0.05, 0.4, 1.0});
      const std::optional<ZoomedProblem> problem =
          zoom_problem(p.data, every(p.observations), centre, sides, p.observations.size());
      REQUIRE(problem);
      const Space& box = problem->space;
      const std::vector<double> c = space.encode_point(centre);
      for (std::size_t d = 0; d < 2; ++d) {  // the continuous variables
        const VariableSpec& v = box.variable(d);
        const double step = std::min(0.5 * std::min(sides[d], 2.0) / kZoomedHalfGrid, 1.0 / 31.0);
        CHECK(v.lower >= space.variable(d).lower);
        CHECK(v.upper <= space.variable(d).upper);
        double nearest = 1.0;
        for (int k = 0; k < box.grid_size(d); ++k) {
          const double u = space.encode(d, box.grid_value(d, k));
          nearest = std::min(nearest, std::fabs(u - c[d]));
          CHECK(std::fabs(u - c[d]) <= 0.5 * std::min(sides[d], 2.0) + 1e-9);
          if (k > 0) {
            CHECK(u - space.encode(d, box.grid_value(d, k - 1)) == doctest::Approx(step));
          }
        }
        CHECK(nearest < 1e-9);  // the centre's value is on the box's grid
        // A box's model sees lengthscales divided by the box's width along the variable.
        CHECK(problem->width[d] ==
              doctest::Approx(space.encode(d, v.upper) - space.encode(d, v.lower)));
      }
      // The integers in the box, the centre's among them, at least two.
      const VariableSpec& integers = box.variable(2);
      CHECK(integers.lower <= centre[2]);
      CHECK(integers.upper >= centre[2]);
      CHECK(integers.upper > integers.lower);
      CHECK(box.grid_size(2) == static_cast<int>(integers.upper - integers.lower) + 1);
      if (integers.upper - integers.lower > 2) {
        CHECK(integers.lower >= centre[2] - 0.5 * sides[2] * 40 - 1e-9);
        CHECK(integers.upper <= centre[2] + 0.5 * sides[2] * 40 + 1e-9);
      }
      CHECK(box.variable(3) == space.variable(3));  // a choice keeps every value
      CHECK(problem->width[3] == 1.0);
    }
  }
}

TEST_CASE("a box that spans every range, or only sparse log-integer values, is not zoomed") {
  const MixedProblem p(20, 3);
  const Space& space = p.space;
  // Sides of 2 around a point of the global grid cover each range on the global grid's steps:
  // the global search is the same search, and the engine falls back to it. Off the grid, the
  // box's grid steps from the centre and differs from the global one.
  const std::vector<double> on_grid = {space.grid_value(0, 5), space.grid_value(1, 7), 12.0, 1.0};
  CHECK_FALSE(zoom_problem(p.data, every(p.observations), on_grid, {2.0, 2.0, 2.0, 0.0},
                           p.observations.size())
                  .has_value());
  std::vector<double> off_grid = on_grid;
  off_grid[0] = 0.5 * (space.grid_value(0, 5) + space.grid_value(0, 6));
  CHECK(zoom_problem(p.data, every(p.observations), off_grid, {2.0, 2.0, 2.0, 0.0},
                     p.observations.size())
            .has_value());

  // A log-scale integer on 1..1000 with a 32-point grid: every integer up to 4 is a grid value,
  // around 500 the grid steps by about 25%. A box there keeps the whole grid (width 1), so that
  // asks stay on it; a box near 2 zooms onto the integers in it.
  const Config integers = parse_config(nlohmann::json{
      {"variables",
       {{{"name", "n"}, {"type", "integer"}, {"lower", 1}, {"upper", 1000}, {"scale", "log"}},
        {{"name", "x"}, {"lower", 0.0}, {"upper", 1.0}}}}});
  const Space integer_space(integers.variables);
  const std::vector<Observation> none;
  const ModelData integer_data{integers, integer_space, none, p.pending, p.failures};
  const std::optional<ZoomedProblem> far =
      zoom_problem(integer_data, {}, {integer_space.grid_value(0, 28), 0.5}, {0.1, 0.1}, 0);
  REQUIRE(far);
  CHECK(far->width[0] == 1.0);
  CHECK(far->space.variable(0) == integer_space.variable(0));
  const std::optional<ZoomedProblem> near =
      zoom_problem(integer_data, {}, {2.0, 0.5}, {0.1, 0.1}, 0);
  REQUIRE(near);
  CHECK(near->width[0] < 1.0);
  for (int k = 0; k < near->space.grid_size(0); ++k) {
    const double value = near->space.grid_value(0, k);
    bool on_global_grid = false;
    for (int j = 0; j < integer_space.grid_size(0); ++j) {
      if (integer_space.grid_value(0, j) == value) on_global_grid = true;
    }
    CHECK(on_global_grid);
  }
}

TEST_CASE("a box's model holds the candidate observations nearest its centre, in the order told") {
  const MixedProblem p(600, 12);
  const Space& space = p.space;
  const std::vector<double> sides = trust_region_sides(space, 0.1, {0.2, 0.05, 0.4, 1.0});
  const std::vector<double>& centre = p.observations[3].x;
  // Brute force: the distance (in box sides, the largest over the boxed variables) of every
  // observation; no candidate left out is nearer than one taken, and only candidates are.
  const std::vector<double> c = space.encode_point(centre);
  const auto distance = [&](const std::vector<double>& x) {
    double largest = 0.0;
    for (std::size_t d = 0; d < 3; ++d)
      largest = std::max(largest, std::fabs(space.encode(d, x[d]) - c[d]) / sides[d]);
    return largest;
  };
  std::vector<std::size_t> every_third;
  for (std::size_t i = 0; i < p.observations.size(); i += 3) every_third.push_back(i);
  for (const std::vector<std::size_t>& candidates : {every(p.observations), every_third}) {
    const std::optional<ZoomedProblem> problem =
        zoom_problem(p.data, candidates, centre, sides, p.observations.size());
    REQUIRE(problem);
    REQUIRE(problem->observations.size() == kZoomedModelPoints);
    double farthest_taken = 0.0;
    std::vector<std::size_t> taken;
    for (const Observation& observation : problem->observations) {
      farthest_taken = std::max(farthest_taken, distance(observation.x));
      for (std::size_t i = 0; i < p.observations.size(); ++i) {
        if (p.observations[i].x == observation.x) taken.push_back(i);
      }
    }
    CHECK(taken.size() == kZoomedModelPoints);
    CHECK(std::is_sorted(taken.begin(), taken.end()));
    for (std::size_t i : taken) {
      CHECK(std::binary_search(candidates.begin(), candidates.end(), i));
    }
    for (std::size_t i : candidates) {
      if (std::find(taken.begin(), taken.end(), i) == taken.end()) {
        CHECK(distance(p.observations[i].x) >= farthest_taken);
      }
    }
  }
}

// The box weighs a smaller noise only while the objective is deterministic: a noisy objective's
// box keeps the learned noise, and a user's fixed noise is kept.
TEST_CASE("a box fits its noise only while the objective is deterministic") {
  const auto choices = [](const nlohmann::json& kernel, bool noisy) {
    nlohmann::json document{{"dimension", 2}};
    if (!kernel.is_null()) document["kernel"] = kernel;
    return box_noise_choices(parse_config(document), noisy);
  };
  CHECK(choices(nullptr, false) == std::vector<double>{1e-6, 1e-4});
  CHECK(choices(nullptr, true).empty());
  CHECK(choices({{"noise_variance", 1e-4}}, false).empty());
  CHECK(choices({{"noise_variance", "learn"}}, false).empty());
  CHECK(choices({{"noise_variance_choices", {1e-2, 1e-7, 1e-4, 1e-5, 1.0}}}, false) ==
        std::vector<double>{1e-7, 1e-5, 1e-4});
  CHECK(choices({{"noise_variance_choices", {1e-7, 1e-3}}}, false) ==
        std::vector<double>{1e-7, 1e-4});
  CHECK(choices({{"noise_variance_choices", {0.1, 1.0}}}, false).empty());
}

// Without noise choices the box keeps the model's noise; with them (a deterministic objective:
// box_noise_choices) it fits the noise with the factor.
TEST_CASE("a box's model is the dense GP of its points in the global units") {
  const MixedProblem p(200, 13);
  const Space& space = p.space;
  const ModelInstance model = mixed_model();
  const std::vector<double> sides = trust_region_sides(space, 0.25, model.parameters.lengthscales);
  const std::optional<ZoomedProblem> problem = zoom_problem(
      p.data, every(p.observations), p.observations[5].x, sides, p.observations.size());
  REQUIRE(problem);
  const ModelInstance carried = carried_model(p.config, model, *problem);
  const double model_noise = model.parameters.noise_variance;
  for (const std::vector<double>& noise_choices :
       {std::vector<double>{}, std::vector<double>{1e-6, 1e-5, model_noise}}) {
    CAPTURE(noise_choices.size());
    ModelInstance zoomed = scaled_model(
        carried, *problem, box_fit(p.config, carried, *problem, noise_choices, nullptr));
    build_posterior(problem->data(p.config), zoomed);
    const AdditivePosterior& posterior = *zoomed.posterior;

    // The factor and noise are the candidates with the highest evidence, each computed densely.
    const double factor = zoomed.parameters.lengthscales[0] * problem->width[0] / 0.3;
    const double noise = zoomed.parameters.noise_variance;
    const std::vector<double> noises =
        noise_choices.empty() ? std::vector<double>{model_noise} : noise_choices;
    CHECK(std::find(noises.begin(), noises.end(), noise) != noises.end());
    const auto global_kernel = [&](double f, double noise_variance) {
      std::vector<VariableType> types;
      for (std::size_t d = 0; d < 4; ++d) types.push_back(space.type(d));
      std::vector<double> lengthscales = model.parameters.lengthscales;
      for (std::size_t d = 0; d < 3; ++d) lengthscales[d] *= f;
      return AdditiveKernel(types, zoomed.structure.cliques, lengthscales, noise_variance);
    };
    std::vector<std::vector<double>> points;
    std::vector<double> values;
    for (const Observation& observation : problem->observations) {
      points.push_back(space.encode_point(observation.x));
      values.push_back(observation.y);
    }
    const Standardization units = posterior.standardization();
    Eigen::VectorXd y(static_cast<Eigen::Index>(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) {
      y(static_cast<Eigen::Index>(i)) = (values[i] - units.offset) / units.scale;
    }
    bool candidate = false;
    for (double f : kBoxLengthscaleFactors) {
      if (std::fabs(f - factor) < 1e-9 * f) candidate = true;
    }
    CHECK(candidate);
    const AdditiveKernel chosen_kernel = global_kernel(factor, noise);
    const double chosen =
        ReferencePosterior(chosen_kernel, points, y, 0.0).log_marginal_likelihood();
    for (double f : kBoxLengthscaleFactors) {
      for (double other_noise : noises) {
        const AdditiveKernel kernel = global_kernel(f, other_noise);
        CHECK(ReferencePosterior(kernel, points, y, 0.0).log_marginal_likelihood() <=
              chosen + 1e-6 * std::fabs(chosen));
      }
    }

    // The posterior at points in and around the box, in the box's units, equals the dense GP's
    // in the global units (lengthscales times the box's widths).
    const ReferencePosterior reference(chosen_kernel, points, y, posterior.jitter());
    Random random(4);
    for (int k = 0; k < 20; ++k) {
      const std::vector<double> x = problem->space.random_point(random);
      const std::vector<double> u_box = problem->space.encode_point(x);
      const std::vector<double> u = space.encode_point(x);
      CHECK(posterior.mean_at(u_box) == doctest::Approx(reference.mean(u)).epsilon(1e-8));
      CHECK(posterior.variance_at(u_box, false) ==
            doctest::Approx(reference.variance(u)).epsilon(1e-6));
    }
  }
}

TEST_CASE("a box kept up to date tell by tell is the box built at once, and the dense GP") {
  const MixedProblem p(240, 21);
  const Space& space = p.space;
  const ModelInstance source = mixed_model();
  const std::size_t centre = 5, since = 150;
  const std::vector<double> sides = trust_region_sides(space, 0.4, source.parameters.lengthscales);
  // With the noise fitted too, as a deterministic objective's box is.
  const BoxKey key = box_key(centre, 0.4, since, source, every(p.observations),
                             {1e-6, source.parameters.noise_variance});
  const std::vector<double> c = space.encode_point(p.observations[centre].x);
  const auto distance = [&](const std::vector<double>& x) {
    double largest = 0.0;
    for (std::size_t d = 0; d < 3; ++d)
      largest = std::max(largest, std::fabs(space.encode(d, x[d]) - c[d]) / sides[d]);
    return largest;
  };

  // One box brought up to date after each of several tells (once twice with none between),
  // after each the same as one built at once on that history; the other built on all of them.
  BoxModel kept;
  for (std::size_t told : {150u, 151u, 170u, 170u, 171u, 200u, 240u}) {
    CAPTURE(told);
    const std::vector<Observation> history(p.observations.begin(),
                                           p.observations.begin() + static_cast<long>(told));
    const ModelData data{p.config, space, history, p.pending, p.failures};
    REQUIRE(kept.update(data, source, key, p.observations[centre].x, sides));
    BoxModel fresh;
    REQUIRE(fresh.update(data, source, key, p.observations[centre].x, sides));
    CHECK(kept.model().parameters.lengthscales == fresh.model().parameters.lengthscales);
    CHECK(kept.model().parameters.noise_variance == fresh.model().parameters.noise_variance);
    for (std::size_t k = 0; k < fresh.model().posterior->kernel().cliques().size(); ++k) {
      CHECK(kept.model().posterior->variance_table(k) ==
            fresh.model().posterior->variance_table(k));
    }
  }
  BoxModel built;
  REQUIRE(built.update(p.data, source, key, p.observations[centre].x, sides));

  // The same points: the nearest told before `since`, then every later one within twice the
  // box, in the order told (brute force).
  const ZoomedProblem& problem = kept.problem();
  REQUIRE(problem.nearest_count == kZoomedModelPoints);
  std::vector<std::size_t> later;
  for (std::size_t i = since; i < p.observations.size(); ++i) {
    if (distance(p.observations[i].x) <= 1.0) later.push_back(i);
  }
  REQUIRE(!later.empty());
  REQUIRE(problem.observations.size() == kZoomedModelPoints + later.size());
  for (std::size_t k = 0; k < later.size(); ++k) {
    CHECK(problem.observations[kZoomedModelPoints + k].x == p.observations[later[k]].x);
  }
  REQUIRE(built.problem().observations.size() == problem.observations.size());
  for (std::size_t i = 0; i < problem.observations.size(); ++i) {
    CHECK(built.problem().observations[i].x == problem.observations[i].x);
  }

  // The same tables, bit for bit: what a restored optimizer rebuilds is what the kept box holds.
  const AdditivePosterior& posterior = *kept.model().posterior;
  const AdditivePosterior& reference_build = *built.model().posterior;
  REQUIRE(posterior.observation_count() == problem.observations.size());
  CHECK(kept.model().parameters.lengthscales == built.model().parameters.lengthscales);
  for (std::size_t k = 0; k < posterior.kernel().cliques().size(); ++k) {
    CHECK(posterior.mean_table(k) == reference_build.mean_table(k));
    CHECK(posterior.variance_table(k) == reference_build.variance_table(k));
  }

  // And the dense GP of those points in the global units, under the box's lengthscales.
  std::vector<double> lengthscales = source.parameters.lengthscales;
  for (std::size_t d = 0; d < 3; ++d) {
    lengthscales[d] = kept.model().parameters.lengthscales[d] * problem.width[d];
  }
  std::vector<VariableType> types;
  for (std::size_t d = 0; d < 4; ++d) types.push_back(space.type(d));
  const AdditiveKernel kernel(types, kept.model().structure.cliques, lengthscales,
                              kept.model().parameters.noise_variance);
  std::vector<std::vector<double>> points;
  Eigen::VectorXd y(static_cast<Eigen::Index>(problem.observations.size()));
  const Standardization units = posterior.standardization();
  for (std::size_t i = 0; i < problem.observations.size(); ++i) {
    points.push_back(space.encode_point(problem.observations[i].x));
    y(static_cast<Eigen::Index>(i)) = (problem.observations[i].y - units.offset) / units.scale;
  }
  const ReferencePosterior dense(kernel, points, y, posterior.jitter());
  Random random(8);
  for (int k = 0; k < 20; ++k) {
    const std::vector<double> x = problem.space.random_point(random);
    const std::vector<double> u_box = problem.space.encode_point(x);
    const std::vector<double> u = space.encode_point(x);
    CHECK(posterior.mean_at(u_box) == doctest::Approx(dense.mean(u)).epsilon(1e-8));
    CHECK(posterior.variance_at(u_box, false) == doctest::Approx(dense.variance(u)).epsilon(1e-6));
  }
}

TEST_CASE("a box's failure model is the classifier of highest evidence among its factors") {
  // Evaluations fail where x0 > 0.9, a step; the box is around the success nearest it.
  const Config config = mixed_config();
  const Space space(config.variables);
  Random random(31);
  std::vector<Observation> observations;
  std::vector<Failure> failures;
  for (int i = 0; i < 300; ++i) {
    const std::vector<double> x = space.random_point(random);
    if (x[0] > 0.9) {
      failures.push_back({x, observations.size()});
    } else {
      observations.push_back({x, objective(x), {}});
    }
  }
  const std::vector<std::vector<double>> pending;
  const ModelData data{config, space, observations, pending, failures};
  std::size_t centre = 0;
  for (std::size_t i = 1; i < observations.size(); ++i) {
    if (observations[i].x[0] > observations[centre].x[0]) centre = i;
  }
  ModelInstance model = mixed_model();
  // Learned over the whole domain: a band as wide as x0's range.
  model.failure_parameters = FailureHyperparameters{{0.8, 0.8, 0.8, 0.8}, 4.0};
  const std::vector<double> sides = trust_region_sides(space, 0.2, model.parameters.lengthscales);
  const std::optional<ZoomedProblem> problem =
      zoom_problem(data, every(observations), observations[centre].x, sides, observations.size());
  REQUIRE(problem);
  REQUIRE(!problem->failures.empty());
  ModelInstance carried = carried_model(config, model, *problem);
  CHECK(carried.failure_lengthscale_factors ==
        std::vector<double>(std::begin(kBoxLengthscaleFactors), std::end(kBoxLengthscaleFactors)));
  update_failure_model(problem->data(config), carried);
  REQUIRE(carried.failure_model);
  const ProbitClassifier& chosen = *carried.failure_model;

  // Each factor's classifier in the global units (lengthscales times the factor, but not the
  // categorical one's), on the box's successes and failures in the order the fit takes them.
  std::vector<std::vector<double>> points;
  std::vector<char> success;
  for (const Observation& observation : problem->observations) {
    points.push_back(space.encode_point(observation.x));
    success.push_back(1);
  }
  for (const Failure& failure : problem->failures) {
    points.push_back(space.encode_point(failure.x));
    success.push_back(0);
  }
  // The prior mean for the box's smoothed share of successes, (successes + 1) / (told + 2).
  const double rate = (static_cast<double>(problem->observations.size()) + 1.0) /
                      (static_cast<double>(points.size()) + 2.0);
  CHECK(chosen.prior_mean() == doctest::Approx(failure_prior_mean(rate, 4.0)).epsilon(1e-12));
  std::vector<VariableType> types;
  for (std::size_t d = 0; d < 4; ++d) types.push_back(space.type(d));
  std::optional<ProbitClassifier> best, unscaled;
  for (double factor : kBoxLengthscaleFactors) {
    std::vector<double> lengthscales = model.failure_parameters->lengthscales;
    for (std::size_t d = 0; d < 3; ++d) lengthscales[d] *= factor;
    const AdditiveKernel kernel(types, carried.structure.cliques, lengthscales, 1.0);
    std::optional<ProbitClassifier> fitted =
        ProbitClassifier::fit(kernel, points, success, 4.0, chosen.prior_mean());
    REQUIRE(fitted);
    CHECK(fitted->log_evidence() <=
          chosen.log_evidence() + 1e-9 * std::fabs(chosen.log_evidence()));
    if (factor == 1.0) unscaled = fitted;
    if (!best || fitted->log_evidence() > best->log_evidence()) best = std::move(fitted);
  }
  CHECK(best->log_evidence() == doctest::Approx(chosen.log_evidence()).epsilon(1e-9));
  Random where(9);
  for (int k = 0; k < 20; ++k) {
    const std::vector<double> x = problem->space.random_point(where);
    CHECK(chosen.success_probability(problem->space.encode_point(x)) ==
          doctest::Approx(best->success_probability(space.encode_point(x))).epsilon(1e-8));
  }
  // The box's points show the step sharper than the whole domain's lengthscales: a shorter
  // lengthscale explains them better than the carried one.
  CHECK(best->log_evidence() > unscaled->log_evidence() + 1.0);
}

TEST_CASE("each lengthscale factor's likelihood is the dense GP's evidence under it") {
  const MixedProblem p(60, 17);
  const Space& space = p.space;
  LengthscaleFactorData fit;
  for (std::size_t d = 0; d < 4; ++d) fit.types.push_back(space.type(d));
  fit.cliques = {{0, 1}, {1, 3}, {2}};  // a categorical variable in a group, and one alone
  fit.lengthscales = {0.3, 0.2, 0.4, 0.8};
  fit.noise_variances = {1e-3};
  fit.points.resize(60, 4);
  fit.y.resize(60);
  std::vector<std::vector<double>> points;
  for (Eigen::Index i = 0; i < 60; ++i) {
    const std::vector<double> u = space.encode_point(p.observations[static_cast<std::size_t>(i)].x);
    points.push_back(u);
    for (Eigen::Index d = 0; d < 4; ++d) fit.points(i, d) = u[static_cast<std::size_t>(d)];
    fit.y(i) = p.observations[static_cast<std::size_t>(i)].y;
  }
  fit.y =
      (fit.y.array() - fit.y.mean()) / std::sqrt((fit.y.array() - fit.y.mean()).square().mean());
  const std::vector<double> likelihoods = lengthscale_factor_likelihoods(fit, 2.0, 7, 1);
  REQUIRE(likelihoods.size() == 7);
  // Threads split the columns and the candidates, never an entry's sum: the same bits.
  for (int threads : {2, 3, 16}) {
    CAPTURE(threads);
    CHECK(lengthscale_factor_likelihoods(fit, 2.0, 7, threads) == likelihoods);
  }
  // Kernels kept from fits to the first points, which new points then join: the same bits as
  // kernels computed at once, whatever row the new points start at.
  for (Eigen::Index first : {1, 13, 40, 59}) {
    CAPTURE(first);
    LengthscaleFactorKernels kept;
    LengthscaleFactorData part = fit;
    part.points = fit.points.topRows(first);
    part.y = fit.y.head(first);
    lengthscale_factor_likelihoods(part, 2.0, 7, 2, &kept);
    part.points = fit.points.topRows(first + 1);
    part.y = fit.y.head(first + 1);
    lengthscale_factor_likelihoods(part, 2.0, 7, 1, &kept);
    CHECK(lengthscale_factor_likelihoods(fit, 2.0, 7, 2, &kept) == likelihoods);
    CHECK(kept.points == 60);
  }
  // Each factor with each noise variance weighed, at index k * m + j; 1e-3 among them gives the
  // bits of 1e-3 alone (the kernel's own noise, the first, does not enter the sums).
  LengthscaleFactorData with_noises = fit;
  with_noises.noise_variances = {1e-6, 3e-2, 1e-3};
  const std::vector<double> noise_likelihoods =
      lengthscale_factor_likelihoods(with_noises, 2.0, 7, 3);
  REQUIRE(noise_likelihoods.size() == 21);
  for (std::size_t k = 0; k < 7; ++k) {
    std::vector<double> lengthscales = fit.lengthscales;
    for (std::size_t d = 0; d < 3; ++d) lengthscales[d] *= 2.0 / std::pow(2.0, k);  // not x3
    CAPTURE(k);
    const AdditiveKernel kernel(fit.types, fit.cliques, lengthscales, fit.noise_variances.front());
    CHECK(likelihoods[k] ==
          doctest::Approx(ReferencePosterior(kernel, points, fit.y, 0.0).log_marginal_likelihood())
              .epsilon(1e-9));
    CHECK(noise_likelihoods[k * 3 + 2] == likelihoods[k]);  // 1e-3: the same model
    for (std::size_t j = 0; j < 3; ++j) {
      CAPTURE(j);
      const AdditiveKernel noisy(fit.types, fit.cliques, lengthscales,
                                 with_noises.noise_variances[j]);
      CHECK(noise_likelihoods[k * 3 + j] ==
            doctest::Approx(ReferencePosterior(noisy, points, fit.y, 0.0).log_marginal_likelihood())
                .epsilon(1e-8));
    }
  }
}

TEST_CASE("runs through restarts keep every observation and continue bit for bit") {
  const nlohmann::json document{{"dimension", 2}, {"seed", 9}};
  Optimizer optimizer(parse_config(document));
  const auto f = [](const std::vector<double>& x) {
    // Two basins: the run converges in one, and after the restart may settle in the other.
    return -std::min(std::pow(x[0] - 0.2, 2) + std::pow(x[1] - 0.7, 2),
                     0.05 + std::pow(x[0] - 0.8, 2) + std::pow(x[1] - 0.25, 2));
  };
  // The asks of the run, and its saved state every 20 evaluations: a restored optimizer asks
  // what the original asked next, through the local phase and its restarts.
  std::vector<std::vector<double>> asks;
  std::vector<std::pair<std::size_t, nlohmann::json>> states;
  int restarts = 0;
  for (int i = 0; i < 400 && restarts < 2; ++i) {
    const std::vector<double> x = optimizer.ask();
    asks.push_back(x);
    optimizer.tell(x, f(x));
    restarts = optimizer.info()["search"]["restarts"].get<int>();
    if (i % 20 == 19) states.emplace_back(asks.size(), optimizer.save());
  }
  REQUIRE(restarts >= 2);
  CHECK(optimizer.save()["observations"].size() == asks.size());
  for (const auto& [told, state] : states) {
    Optimizer restored = Optimizer::from_state(state);
    for (std::size_t i = told; i < std::min(asks.size(), told + 15); ++i) {
      const std::vector<double> x = restored.ask();
      REQUIRE(x == asks[i]);
      restored.tell(x, f(x));
    }
  }
}

TEST_SUITE_END();
