// Learn mode's hedge (structure.random_tree_share): which asks use a random tree, that such an
// ask maximises the additive UCB of that tree's posterior (checked against the dense reference
// posterior by brute force over a small integer domain), and that the learned model stays the
// model of record through it (saved state, continuation after a restore).
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <vector>

#include "evaluation/reference_posterior.hpp"
#include "gp/standardization.hpp"
#include "optimizer/optimizer.hpp"
#include "space/space.hpp"
#include "util/error.hpp"

using namespace addbo::core;
using nlohmann::json;

TEST_SUITE_BEGIN("optimizer");

namespace {

Optimizer make(const json& config) { return Optimizer(parse_config(config)); }

std::vector<Observation> told(const Optimizer& optimizer) {
  std::vector<Observation> observations;
  const json state = optimizer.save();
  for (const json& o : state["observations"]) {
    observations.push_back(
        Observation{o["x"].get<std::vector<double>>(), o["y"].get<double>(), {}});
  }
  return observations;
}

// Five integer variables 0..4 (3,125 points, every one a grid cell of its own) with two
// interacting pairs; the paper's global search only, so that an ask maximises over the whole
// domain.
json integer_config(std::uint64_t seed) {
  json variables = json::array();
  for (int d = 0; d < 5; ++d) {
    variables.push_back({{"type", "integer"}, {"lower", 0}, {"upper", 4}});
  }
  return json{{"variables", variables},
              {"seed", seed},
              {"initial_points", 6},
              {"structure", {{"relearn_every", 1000}, {"tree_edges", 2}}},
              {"acquisition", {{"local_search", false}}}};
}

double objective(const std::vector<double>& x) {
  return -std::pow(x[0] - 3.0, 2) + x[0] * x[1] - 0.5 * std::pow(x[2] - 1.0, 2) +
         0.7 * x[3] * (4.0 - x[4]);
}

// Every clique of a forest's graph: its edges and the variables on none of them.
std::vector<VarSet> forest_cliques(int dimension, const json& edges) {
  std::vector<VarSet> cliques;
  std::vector<bool> covered(static_cast<std::size_t>(dimension), false);
  for (const json& edge : edges) {
    const int a = edge[0].get<int>(), b = edge[1].get<int>();
    cliques.push_back({a, b});
    covered[static_cast<std::size_t>(a)] = covered[static_cast<std::size_t>(b)] = true;
  }
  for (int d = 0; d < dimension; ++d) {
    if (!covered[static_cast<std::size_t>(d)]) cliques.push_back({d});
  }
  return cliques;
}

}  // namespace

TEST_CASE("the hedge's asks are those for which floor(t * share) steps up") {
  StructureSpec spec;
  for (double share : {0.0, 0.25, 1.0 / 3.0, 0.5, 0.9, 1.0}) {
    CAPTURE(share);
    spec.random_tree_share = share;
    int count = 0;
    for (std::size_t t = 0; t < 1200; ++t) count += spec.random_tree_ask(t) ? 1 : 0;
    CHECK(count == static_cast<int>(std::floor(1200 * share)));
  }
  spec.random_tree_share = 0.5;
  for (std::size_t t = 0; t < 20; ++t) CHECK(spec.random_tree_ask(t) == (t % 2 == 1));
  // The optimizer's cost bound scales the share down at large n.
  int scaled = 0;
  for (std::size_t t = 0; t < 1200; ++t) scaled += spec.random_tree_ask(t, 0.4) ? 1 : 0;
  CHECK(scaled == 240);
  for (StructureMode mode :
       {StructureMode::fixed, StructureMode::disjoint, StructureMode::random_tree}) {
    spec.mode = mode;
    for (std::size_t t = 0; t < 20; ++t) CHECK_FALSE(spec.random_tree_ask(t));
  }
}

TEST_CASE("a random-tree ask maximises the UCB of its tree's posterior over the unknown points") {
  Optimizer optimizer = make(integer_config(11));
  const Space space(optimizer.config().variables);
  int random_tree_asks = 0, model_asks = 0;
  for (int i = 0; i < 24; ++i) {
    const std::size_t known = optimizer.observation_count();  // nothing pending
    const json before = optimizer.save();
    const std::vector<double> x = optimizer.ask();
    const json info = optimizer.info();
    const json& last = info["last_ask"];
    if (last["phase"] != "global") {
      optimizer.tell(x, objective(x));
      continue;
    }
    // The asks alternate as the default share 0.5 says.
    CHECK(last["graph"] == (known % 2 == 1 ? "random tree" : "model"));
    if (last["graph"] == "model") {
      CHECK(last["random_tree_edges"].is_null());
      ++model_asks;
      optimizer.tell(x, objective(x));
      continue;
    }
    ++random_tree_asks;
    // The learned model of record is untouched by the ask (learning was not due: relearn_every
    // is 1000 and the first model-based ask learned).
    const json after = optimizer.save();
    if (known > 6) {
      CHECK(after["model"] == before["model"]);
      CHECK(after["learning"] == before["learning"]);
    }
    // The random tree: tree_edges = 2 edges, a forest.
    const json& edges = last["random_tree_edges"];
    REQUIRE(edges.size() == 2);
    CHECK(edges[0] != edges[1]);

    // The dense reference posterior of that tree with the learned hyperparameters.
    std::vector<VariableType> types(5, VariableType::integer);
    const AdditiveKernel kernel(types, forest_cliques(5, edges),
                                info["lengthscales"].get<std::vector<double>>(),
                                info["noise_variance"].get<double>());
    const std::vector<Observation> observations = told(optimizer);
    std::vector<double> values;
    for (const Observation& o : observations) values.push_back(o.y);
    const Standardization units = standardize(values);
    Eigen::VectorXd y(static_cast<Eigen::Index>(values.size()));
    std::vector<std::vector<double>> points;
    std::set<std::vector<double>> observed;
    for (std::size_t k = 0; k < values.size(); ++k) {
      points.push_back(space.encode_point(observations[k].x));
      observed.insert(observations[k].x);
      y(static_cast<Eigen::Index>(k)) = (values[k] - units.offset) / units.scale;
    }
    const ReferencePosterior reference(kernel, points, y, 0.0);
    const double weight = last["exploration_weight"].get<double>();
    const auto acquisition = [&](const std::vector<double>& point) {
      const std::vector<double> u = space.encode_point(point);
      double sum = 0.0;
      for (std::size_t c = 0; c < kernel.cliques().size(); ++c) {
        sum += reference.clique_mean(c, u) +
               weight * std::sqrt(std::max(reference.clique_variance(c, u), 0.0));
      }
      return sum;
    };
    // Brute force over the 3,125 points not yet evaluated.
    double best = -1e300;
    std::vector<double> point(5);
    for (int index = 0; index < 3125; ++index) {
      for (int d = 0, rest = index; d < 5; ++d, rest /= 5)
        point[static_cast<std::size_t>(d)] = rest % 5;
      if (observed.count(point) == 0) best = std::max(best, acquisition(point));
    }
    CHECK(observed.count(x) == 0);
    CHECK(acquisition(x) == doctest::Approx(best).epsilon(1e-9));
    CHECK(last["acquisition"].get<double>() == doctest::Approx(acquisition(x)).epsilon(1e-9));
    optimizer.tell(x, objective(x));
  }
  CHECK(random_tree_asks >= 6);
  CHECK(model_asks >= 6);
}

TEST_CASE("with the hedge, a restored optimizer continues bit-identically") {
  const json config = {{"dimension", 9}, {"seed", 2}, {"structure", {{"relearn_every", 5}}}};
  Optimizer original = make(config);
  const auto f = [](const std::vector<double>& x) {
    double sum = 0.0;
    for (std::size_t d = 1; d < x.size(); ++d) sum += std::cos(4.0 * x[d - 1] * x[d]) + x[d];
    return sum;
  };
  for (int i = 0; i < 17; ++i) {
    const std::vector<double> x = original.ask();
    original.tell(x, f(x));
  }
  // The last ask (t = 17, odd) used a random tree and is still pending in the saved state.
  original.ask();
  REQUIRE(original.info()["last_ask"]["graph"] == "random tree");
  const json saved = original.save();
  Optimizer restored = Optimizer::from_state(saved);
  CHECK(restored.save() == saved);
  const std::vector<double> probe(9, 0.3);
  CHECK(original.prediction_json(original.predict(probe)) ==
        restored.prediction_json(restored.predict(probe)));
  std::set<std::string> graphs;
  for (int i = 0; i < 12; ++i) {
    const std::vector<double> a = original.ask(), b = restored.ask();
    REQUIRE(a == b);
    graphs.insert(original.info()["last_ask"]["graph"].get<std::string>());
    original.tell(a, f(a));
    restored.tell(b, f(b));
  }
  CHECK(graphs.size() == 2);
  CHECK(original.save() == restored.save());
}

TEST_CASE("random_tree_share is read, checked and echoed") {
  json config = {{"dimension", 4}};
  CHECK(make(config).config().structure.random_tree_share == 0.5);
  CHECK(make(config).save()["config"]["structure"]["random_tree_share"] == 0.5);
  config["structure"] = {{"random_tree_share", 0}};
  CHECK(make(config).config().structure.random_tree_share == 0.0);
  for (const json& bad : {json(-0.1), json(1.5), json("half"), json(nullptr)}) {
    config["structure"]["random_tree_share"] = bad;
    try {
      make(config);
      FAIL("accepted " << bad.dump());
    } catch (const ConfigError& error) {
      CHECK(error.pointer() == "/structure/random_tree_share");
    }
  }
}

TEST_CASE("a saved state without random_tree_share continues without the hedge") {
  Optimizer original = make({{"dimension", 6}, {"seed", 8}});
  for (int i = 0; i < 14; ++i) {
    const std::vector<double> x = original.ask();
    original.tell(x, x[0] * x[1] - x[2]);
  }
  json saved = original.save();
  REQUIRE(saved["config"]["structure"]["random_tree_share"] == 0.5);
  saved["config"]["structure"].erase("random_tree_share");  // as a state of addbo 0.1.0
  Optimizer restored = Optimizer::from_state(saved);
  CHECK(restored.config().structure.random_tree_share == 0.0);
  CHECK(restored.save()["config"]["structure"]["random_tree_share"] == 0.0);
  for (int i = 0; i < 6; ++i) {
    const std::vector<double> x = restored.ask();
    CHECK(restored.info()["last_ask"]["graph"] != "random tree");
    restored.tell(x, x[0] * x[1] - x[2]);
  }
}

TEST_SUITE_END();
