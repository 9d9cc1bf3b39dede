// The ask/tell engine end to end: robustness on degenerate data, optimisation quality on the
// star graph against an exactly computed optimum and against random search, determinism,
// pending points, argument checks and save/restore.
#include <doctest/doctest.h>
#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <locale>
#include <set>
#include <string>

#include "evaluation/star_function.hpp"
#include "optimizer/optimizer.hpp"
#include "space/space.hpp"
#include "support/grid_acquisition.hpp"
#include "util/error.hpp"
#include "util/random.hpp"

using namespace addbo::core;
using nlohmann::json;

TEST_SUITE_BEGIN("optimizer");

namespace {

// The paper's fixed-graph G-Add-GP-UCB: the known graph and lengthscales, and the global search
// only (local search, beyond the paper, trades this 10-variable multimodal function's last
// percent for the speed it brings at 20 to 50 variables: benchmarks/hd_suite).
json star_config(std::uint64_t seed, const char* strategy = "gp-ucb") {
  json edges = json::array();
  for (const auto& edge : addbo_examples::star_edges()) edges.push_back({edge.first, edge.second});
  return json{{"dimension", addbo_examples::kStarDimension},
              {"seed", seed},
              {"strategy", strategy},
              {"structure", {{"mode", "fixed"}, {"edges", edges}}},
              {"kernel",
               {{"lengthscales", std::vector<double>(addbo_examples::kStarDimension, 0.2)},
                {"noise_variance", 1e-4}}},
              {"acquisition", {{"local_search", false}}}};
}

Optimizer make(const json& config) { return Optimizer(parse_config(config)); }

Optimizer make(json config, std::uint64_t seed) {
  config["seed"] = seed;
  return make(config);
}

double best_after(Optimizer& optimizer, int evaluations) {
  for (int i = 0; i < evaluations; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, addbo_examples::star_function(x));
  }
  return optimizer.best().y;
}

void check_inside(const Optimizer& optimizer, const std::vector<double>& x) {
  REQUIRE(x.size() == optimizer.dimension());
  for (std::size_t d = 0; d < x.size(); ++d) {
    const VariableSpec& v = optimizer.config().variables[d];
    CHECK(std::isfinite(x[d]));
    CHECK(x[d] >= v.lower);
    CHECK(x[d] <= v.upper);
    if (v.type != VariableType::continuous) CHECK(x[d] == std::floor(x[d]));
  }
}

json small_config() {
  return json{
      {"variables",
       {{{"name", "a"}, {"type", "continuous"}, {"lower", -2.0}, {"upper", 3.0}, {"grid", 9}},
        {{"name", "k"}, {"type", "integer"}, {"lower", 1}, {"upper", 6}},
        {{"name", "c"}, {"type", "categorical"}, {"choices", {"red", "green", "blue"}}}}},
      {"initial_points", 4},
      {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}, {1, 2}}}}},
      {"kernel", {{"lengthscales", {0.3, 0.3, 0.5}}}}};
}

double small_objective(const std::vector<double>& x) {
  return -std::pow(x[0] - 0.5, 2) - 0.3 * std::pow(x[1] - 4.0, 2) + (x[2] == 1.0 ? 1.0 : 0.0) +
         0.2 * x[0] * (x[1] - 3.0);
}

// Asks both optimizers, requires the same point, tells both the same value; every
// `second_ask_every`-th round a second point is asked (left pending while the first is told
// after it), so pending points are part of what must agree.
template <typename Objective>
void drive_in_lockstep(Optimizer& first, Optimizer& second, int rounds, int second_ask_every,
                       Objective objective) {
  for (int i = 0; i < rounds; ++i) {
    const std::vector<double> a = first.ask(), b = second.ask();
    REQUIRE(a == b);
    if (i % second_ask_every == 0) {
      const std::vector<double> a2 = first.ask(), b2 = second.ask();
      REQUIRE(a2 == b2);
      first.tell(a2, objective(a2));
      second.tell(b2, objective(b2));
    }
    first.tell(a, objective(a));
    second.tell(b, objective(b));
  }
}

}  // namespace

TEST_CASE("fixed-graph GP-UCB reaches 1% of the star optimum and beats random search") {
  const auto extremes = addbo_examples::star_grid_extremes(32);
  const double target = extremes.second - 0.01 * (extremes.second - extremes.first);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    CAPTURE(seed);
    Optimizer ucb = make(star_config(seed));
    Optimizer random = make(star_config(seed, "random"));
    const double ucb_best = best_after(ucb, 150);
    const double random_best = best_after(random, 150);
    CHECK(ucb_best >= target);
    CHECK(ucb_best > random_best);
  }
}

TEST_CASE("degenerate data still gives a finite ask inside the domain") {
  SUBCASE("50 identical observations") {
    Optimizer optimizer = make(small_config());
    const std::vector<double> x = {0.25, 3.0, 2.0};
    for (int i = 0; i < 50; ++i) optimizer.tell(x, 1.5);
    for (int i = 0; i < 5; ++i) check_inside(optimizer, optimizer.ask());
  }
  SUBCASE("50 identical points with different values and almost no noise") {
    // With local search the asks use the box's model, built per ask; without it the whole
    // grid's model, the model of record whose jitter info reports.
    for (const bool local_search : {true, false}) {
      CAPTURE(local_search);
      json config = small_config();
      config["kernel"]["noise_variance"] = 1e-15;  // below the pivot floor: needs jitter
      config["acquisition"]["local_search"] = local_search;
      Optimizer optimizer = make(config);
      for (int i = 0; i < 50; ++i) optimizer.tell({0.25, 3.0, 2.0}, 1.0 + (i % 7));
      for (int i = 0; i < 5; ++i) check_inside(optimizer, optimizer.ask());
      if (!local_search) CHECK(optimizer.info()["jitter"].get<double>() > 0.0);  // was needed
    }
  }
  SUBCASE("a constant objective") {
    Optimizer optimizer = make(small_config());
    for (int i = 0; i < 30; ++i) optimizer.tell(optimizer.ask(), 3.0);
    for (int i = 0; i < 5; ++i) check_inside(optimizer, optimizer.ask());
  }
  SUBCASE("values of 1e12") {
    Optimizer optimizer = make(small_config());
    for (int i = 0; i < 30; ++i) {
      const std::vector<double> x = optimizer.ask();
      optimizer.tell(x, 1e12 + small_objective(x));
    }
    for (int i = 0; i < 5; ++i) check_inside(optimizer, optimizer.ask());
    CHECK(std::isfinite(optimizer.info()["log_likelihood"].get<double>()));
  }
  SUBCASE("values near the largest double") {
    Optimizer optimizer = make(small_config());
    for (int i = 0; i < 20; ++i) {
      const std::vector<double> x = optimizer.ask();
      optimizer.tell(x, (i % 2 ? 1.0 : -1.0) * 1.7e308);
    }
    for (int i = 0; i < 5; ++i) check_inside(optimizer, optimizer.ask());
  }
}

TEST_CASE("mixed variable types: asks are valid points and the optimum is found") {
  Optimizer optimizer = make(small_config());
  for (int i = 0; i < 40; ++i) {
    const std::vector<double> x = optimizer.ask();
    check_inside(optimizer, x);
    optimizer.tell(x, small_objective(x));
  }
  // Brute force over the grid (9 x 6 x 3 points).
  double grid_best = -INFINITY;
  for (int a = 0; a < 9; ++a)
    for (int k = 1; k <= 6; ++k)
      for (int c = 0; c < 3; ++c)
        grid_best =
            std::max(grid_best, small_objective({-2.0 + a * 5.0 / 8, double(k), double(c)}));
  CHECK(optimizer.best().y >= grid_best - 1e-9);
}

TEST_CASE("the same seed and the same tells give the same asks") {
  Optimizer first = make(star_config(11));
  Optimizer second = make(star_config(11));
  drive_in_lockstep(first, second, 40, 3, addbo_examples::star_function);
  CHECK(first.save() == second.save());
  CHECK(first.save().dump() == second.save().dump());
}

// limits.threads only changes how the work is spread: a learning run on a graph large enough
// for the clique updates and the likelihoods to use two threads asks exactly the same points.
TEST_CASE("the same asks with one thread and with two" * doctest::test_suite("threads")) {
  json variables = json::array();
  for (int d = 0; d < 14; ++d) {
    variables.push_back(
        {{"name", "x" + std::to_string(d)}, {"type", "continuous"}, {"lower", 0}, {"upper", 1}});
  }
  variables.push_back({{"name", "k"}, {"type", "integer"}, {"lower", 0}, {"upper", 9}});
  variables.push_back({{"name", "c"}, {"type", "categorical"}, {"choices", {"a", "b", "c"}}});
  json edges = json::array();
  for (int d = 1; d < 16; ++d) edges.push_back({d - 1, d});
  const auto config = [&](int threads) {
    return json{
        {"variables", variables},
        {"seed", 5},
        {"structure",
         {{"mode", "learn"}, {"edges", edges}, {"relearn_every", 15}, {"gibbs_evaluations", 40}}},
        {"limits", {{"threads", threads}}}};
  };
  const auto objective = [](const std::vector<double>& x) {
    double sum = 0.0;
    for (std::size_t d = 1; d < x.size(); ++d) sum += std::sin(3.0 * x[d - 1] + x[d]);
    return sum;
  };
  Optimizer one = make(config(1));
  Optimizer two = make(config(2));
  drive_in_lockstep(one, two, 60, 5, objective);
  CHECK(one.info()["edges"] == two.info()["edges"]);
  CHECK(one.info()["lengthscales"] == two.info()["lengthscales"]);
}

TEST_CASE("asks without tells are distinct points") {
  Optimizer optimizer = make(star_config(3));
  for (int i = 0; i < 12; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, addbo_examples::star_function(x));
  }
  std::set<std::vector<double>> asked;
  for (int i = 0; i < 15; ++i) asked.insert(optimizer.ask());
  CHECK(asked.size() == 15);
  CHECK(optimizer.pending_count() == 15);
  // Telling and cancelling pending points updates the counts.
  const std::vector<double> some = *asked.begin();
  optimizer.cancel(some);
  CHECK(optimizer.pending_count() == 14);
  CHECK_THROWS_AS(optimizer.cancel(some), Error);
  optimizer.tell(*std::next(asked.begin()), 0.5);
  CHECK(optimizer.pending_count() == 13);
  CHECK(optimizer.observation_count() == 13);
}

TEST_CASE("bad arguments are refused and leave the state unchanged") {
  Optimizer optimizer = make(small_config());
  CHECK_THROWS_AS(optimizer.best(), Error);
  for (int i = 0; i < 6; ++i) optimizer.tell(optimizer.ask(), i);
  optimizer.ask();
  const json before = optimizer.save();
  const auto expect_invalid = [&](const std::vector<double>& x, double y) {
    try {
      optimizer.tell(x, y);
      FAIL("tell accepted a bad argument");
    } catch (const Error& error) {
      CHECK(error.status() == Status::invalid_argument);
      CHECK(std::string(error.what()).size() > 0);
    }
  };
  expect_invalid({0.0, 2.0}, 1.0);                            // wrong length
  expect_invalid({0.0, 2.0, 1.0}, NAN);                       // NaN y
  expect_invalid({0.0, 2.0, 1.0}, INFINITY);                  // Inf y
  expect_invalid({3.5, 2.0, 1.0}, 1.0);                       // above upper
  expect_invalid({NAN, 2.0, 1.0}, 1.0);                       // NaN x
  expect_invalid({0.0, 2.5, 1.0}, 1.0);                       // non-integer integer variable
  expect_invalid({0.0, 2.0, 3.0}, 1.0);                       // categorical index out of range
  expect_invalid({0.0, 2.0, -1.0}, 1.0);                      // negative categorical index
  CHECK_THROWS_AS(optimizer.cancel({0.0, 2.0, 1.0}), Error);  // not pending
  CHECK(optimizer.save() == before);
}

TEST_CASE("a restored optimizer continues bit-identically") {
  Optimizer original = make(star_config(5));
  for (int i = 0; i < 25; ++i) {
    const std::vector<double> x = original.ask();
    original.tell(x, addbo_examples::star_function(x));
  }
  original.ask();  // one pending point travels with the state
  const json saved = original.save();
  Optimizer restored = Optimizer::from_state(saved);
  CHECK(restored.save() == saved);
  for (int i = 0; i < 10; ++i) {
    const std::vector<double> a = original.ask(), b = restored.ask();
    REQUIRE(a == b);
    original.tell(a, addbo_examples::star_function(a));
    restored.tell(b, addbo_examples::star_function(b));
  }
  json broken = saved;
  broken["observations"][0]["y"] = "text";
  CHECK_THROWS_AS(Optimizer::from_state(broken), Error);
}

TEST_CASE("a clique too large for the cell budget is coarsened and reported") {
  json config = {{"dimension", 3},
                 {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}, {1, 2}, {0, 2}}}}},
                 {"kernel", {{"lengthscales", {0.3, 0.3, 0.3}}}},
                 {"limits", {{"max_table_cells", 1000}}}};
  Optimizer optimizer = make(config);
  const json info = optimizer.info();
  CHECK(info["junction_tree"]["coarsened"].get<bool>());
  long cells = 1;
  for (int size : info["junction_tree"]["grid_sizes"]) cells *= size;
  CHECK(cells <= 1000);
  for (int i = 0; i < 15; ++i) optimizer.tell(optimizer.ask(), 1.0 * i);
  config["limits"]["max_table_cells"] = 4;  // a 3-clique needs at least 8 cells
  try {
    make(config);
    FAIL("the graph was accepted");
  } catch (const ConfigError& error) {
    // Numbers in messages are in their shortest form (docs/c-api.md): 8, not 8.000000.
    CHECK(error.pointer() == "/structure/edges");
    CHECK(std::string(error.what()) ==
          "/structure/edges: a junction-tree node of 3 variables needs 8 table cells even with 2 "
          "grid points per variable, more than limits.max_table_cells (4)");
  }
}

// A deterministic objective on a 4 x 4 integer domain: every ask after the first is a cell not
// yet observed, until all sixteen are (the model would otherwise return to its maximum).
TEST_CASE("the known-point rule asks every unobserved cell before any repeat") {
  const json config = {{"variables",
                        {{{"name", "a"}, {"type", "integer"}, {"lower", 0}, {"upper", 3}},
                         {{"name", "b"}, {"type", "integer"}, {"lower", 0}, {"upper", 3}}}},
                       {"initial_points", 1},
                       {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}}}}},
                       {"kernel", {{"lengthscales", {0.5, 0.5}}}}};
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    Optimizer optimizer = make(config, seed);
    std::set<std::vector<double>> seen;
    for (int i = 0; i < 16; ++i) {
      const std::vector<double> x = optimizer.ask();
      CHECK(seen.insert(x).second);
      optimizer.tell(x, -std::pow(x[0] - 2.0, 2) - std::pow(x[1] - 1.0, 2));
    }
    CHECK(seen.size() == 16);
    check_inside(optimizer, optimizer.ask());  // all known: still a valid point
  }
}

// When the additive UCB settles on an observed cell, the global search asks the cell that first
// overtakes the observed ones as the exploration weight grows, found to a ratio of 1.1 in
// beta: checked on an integer grid (no refinement) against every cell's UCB computed from the
// predictions, as a function of the weight.
TEST_CASE("a settled global search asks the first new cell as the exploration weight grows") {
  const json config = {{"variables",
                        {{{"type", "integer"}, {"lower", 0}, {"upper", 7}},
                         {{"type", "integer"}, {"lower", 0}, {"upper", 7}},
                         {{"type", "integer"}, {"lower", 0}, {"upper", 3}}}},
                       {"initial_points", 4},
                       {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}}}}},
                       {"kernel", {{"lengthscales", {0.3, 0.3, 0.5}}, {"noise_variance", 1e-4}}},
                       {"acquisition", {{"local_search", false}}}};
  const auto objective = [](const std::vector<double>& x) {
    return std::sin(x[0]) * std::cos(0.7 * x[1]) - 0.1 * std::pow(x[2] - 2.0, 2);
  };
  int widened = 0;
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    Optimizer optimizer = make(config, seed);
    std::set<std::vector<double>> observed;
    for (int i = 0; i < 60; ++i) {
      const std::vector<double> x = optimizer.ask();
      const json last = optimizer.info()["last_ask"];
      if (last["phase"] == "global") {
        const double unwidened = std::sqrt(last["beta"].get<double>());
        const double weight = last["exploration_weight"].get<double>();
        const testing::GridAcquisition grid = testing::grid_acquisition(optimizer, {7, 7, 3});
        const std::size_t asked = grid.index_of(x);
        REQUIRE(asked < grid.points.size());
        CHECK(observed.count(x) == 0);
        const double tolerance = grid.tolerance(asked, weight);
        // Always the best new cell at the weight it was asked with.
        CHECK(grid.shortfall(asked, weight, &observed) <= tolerance);
        // Below the widest weight (x1024 in beta), the best of all cells, and an observed cell
        // was the best at some weight in [weight / sqrt(1.1), weight).
        const double widest = unwidened * 32.0;
        if (weight > unwidened * (1 + 1e-12) && weight < widest * (1 - 1e-12)) {
          ++widened;
          CHECK(grid.shortfall(asked, weight) <= tolerance);
          bool settled = false;
          for (int s = 0; s < 2000 && !settled; ++s) {
            const double w = weight / std::sqrt(1.1) * std::pow(std::sqrt(1.1), s / 2000.0);
            for (const std::vector<double>& cell : observed) {
              settled = settled || grid.shortfall(grid.index_of(cell), w) <= tolerance;
            }
          }
          CHECK(settled);
        }
      }
      observed.insert(x);
      optimizer.tell(x, objective(x));
    }
  }
  CHECK(widened > 0);
}

// Batch asks stay distinct from each other and from the observations.
TEST_CASE("pending asks never repeat an observed or pending cell") {
  Optimizer optimizer = make(star_config(9));
  std::set<std::vector<double>> known;
  for (int i = 0; i < 30; ++i) {
    const std::vector<double> x = optimizer.ask();
    known.insert(x);
    optimizer.tell(x, addbo_examples::star_function(x));
  }
  for (int i = 0; i < 8; ++i) CHECK(known.insert(optimizer.ask()).second);
}

TEST_CASE("random-tree draws forests of the configured size and continues after a restore") {
  const json config = {{"dimension", 12},
                       {"seed", 4},
                       {"structure", {{"mode", "random-tree"}, {"relearn_every", 10}}}};
  Optimizer original = make(config);
  const auto objective = [](const std::vector<double>& x) {
    double sum = 0.0;
    for (std::size_t d = 1; d < x.size(); ++d) sum += std::sin(3.0 * x[d - 1] + 2.0 * x[d]);
    return sum;
  };
  std::set<json> graphs;
  for (int i = 0; i < 25; ++i) {
    const std::vector<double> x = original.ask();
    check_inside(original, x);
    original.tell(x, objective(x));
    const json edges = original.info()["edges"];
    if (i >= 10) {
      CHECK(edges.size() == 2);  // max(1, 12 / 5)
      // A forest: no edge closes a cycle (union-find over the edges).
      std::vector<int> parent(12);
      for (int d = 0; d < 12; ++d) parent[d] = d;
      const auto root = [&](int v) {
        while (parent[v] != v) v = parent[v];
        return v;
      };
      for (const json& edge : edges) {
        const int a = root(edge[0].get<int>()), b = root(edge[1].get<int>());
        CHECK(a != b);
        parent[a] = b;
      }
      graphs.insert(edges);
    }
  }
  CHECK(graphs.size() > 5);  // redrawn at every ask
  original.ask();
  const json saved = original.save();
  Optimizer restored = Optimizer::from_state(saved);
  CHECK(restored.save() == saved);
  for (int i = 0; i < 8; ++i) {
    const std::vector<double> a = original.ask(), b = restored.ask();
    REQUIRE(a == b);
    original.tell(a, objective(a));
    restored.tell(b, objective(b));
  }
  CHECK(original.save() == restored.save());
}

// The learned graph never needs a junction-tree node over structure.max_clique_cells, so no grid
// is ever coarsened (with the default grids, nodes of at most three variables).
TEST_CASE("learned graphs stay within the clique cell budget") {
  const json config = {{"dimension", 16},
                       {"seed", 2},
                       {"structure", {{"relearn_every", 10}, {"expected_degree", 6}}}};
  Optimizer optimizer = make(config);
  const auto objective = [](const std::vector<double>& x) {
    double sum = 0.0;  // every variable interacts with every other: dense evidence
    for (std::size_t a = 0; a < x.size(); ++a)
      for (std::size_t b = a + 1; b < x.size(); ++b)
        sum += std::sin(4.0 * x[a] * x[b] + static_cast<double>(a));
    return sum;
  };
  for (int i = 0; i < 60; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, objective(x));
    const json info = optimizer.info();
    CHECK_FALSE(info["junction_tree"]["coarsened"].get<bool>());
    for (const json& node : info["junction_tree"]["nodes"]) CHECK(node.size() <= 3);
  }
  CHECK(optimizer.info()["edges"].size() > 0);
}

// The initial design covers a 4 x 4 integer domain without a repeat, even when it asks for
// every one of its sixteen points (the Latin hypercube alone would repeat rows).
TEST_CASE("the initial design never repeats a point on a small discrete domain") {
  for (int points : {10, 16}) {
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      CAPTURE(points);
      CAPTURE(seed);
      const json config = {
          {"variables",
           {{{"name", "a"}, {"type", "integer"}, {"lower", 1}, {"upper", 4}},
            {{"name", "b"}, {"type", "categorical"}, {"choices", {"p", "q", "r", "s"}}}}},
          {"initial_points", points},
          {"seed", seed}};
      Optimizer optimizer = make(config);
      std::set<std::vector<double>> seen;
      for (int i = 0; i < points; ++i) {
        const std::vector<double> x = optimizer.ask();  // all pending: the design alone
        check_inside(optimizer, x);
        CHECK(seen.insert(x).second);
      }
    }
  }
}

// Latin hypercube: each continuous variable has exactly one initial point per stratum.
TEST_CASE("the initial design puts one point in each stratum of every variable") {
  const int points = 12;
  Optimizer optimizer = make(json{{"dimension", 7}, {"initial_points", points}, {"seed", 3}});
  std::vector<std::set<int>> strata(7);
  for (int i = 0; i < points; ++i) {
    const std::vector<double> x = optimizer.ask();
    for (int d = 0; d < 7; ++d) strata[d].insert(static_cast<int>(x[d] * points));
  }
  for (const std::set<int>& used : strata) CHECK(used.size() == static_cast<std::size_t>(points));
}

// structure.relearn "manual": asks never learn; the host's learn() does, and a run with learn
// calls at the same places continues bit-identically after a restore.
TEST_CASE("manual learning happens only when the host asks, and survives a restore") {
  const json config = {{"dimension", 6},
                       {"seed", 8},
                       {"initial_points", 5},
                       {"structure", {{"relearn", "manual"}, {"relearn_every", 3}}}};
  const auto objective = [](const std::vector<double>& x) {
    return std::sin(3.0 * x[0] + 2.0 * x[1]) + std::cos(2.0 * x[2] * x[3]) + x[4] - x[5] * x[5];
  };
  Optimizer optimizer = make(config);
  CHECK_FALSE(optimizer.learn());  // nothing told yet
  for (int i = 0; i < 20; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, objective(x));
    CHECK(optimizer.info()["learned_at_observations"] == 0);
  }
  CHECK(optimizer.learn());
  CHECK(optimizer.info()["learned_at_observations"] == 20);
  CHECK(optimizer.info()["likelihood_evaluations"].get<int>() > 0);
  for (int i = 0; i < 5; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, objective(x));
  }
  optimizer.ask();  // pending
  Optimizer restored = Optimizer::from_state(optimizer.save());
  for (int round = 0; round < 3; ++round) {
    CHECK(optimizer.learn() == restored.learn());
    for (int i = 0; i < 4; ++i) {
      const std::vector<double> a = optimizer.ask(), b = restored.ask();
      REQUIRE(a == b);
      optimizer.tell(a, objective(a));
      restored.tell(b, objective(b));
    }
  }
  CHECK(optimizer.save() == restored.save());
  // A fixed graph with given lengthscales learns nothing.
  Optimizer fixed = make(star_config(1));
  for (int i = 0; i < 3; ++i) fixed.tell(fixed.ask(), 1.0 * i);
  CHECK_FALSE(fixed.learn());
}

// The three-step learning: asks and tells may come between begin and finish; the commit
// records the observations the learning saw, and a job overtaken by another learning is
// dropped without a change.
TEST_CASE("a learning job commits after interleaved calls, and a stale one is refused") {
  const json config = {{"dimension", 5}, {"seed", 2}, {"structure", {{"relearn", "manual"}}}};
  Optimizer optimizer = make(config);
  for (int i = 0; i < 15; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, std::sin(4.0 * x[0] * x[1]) + x[2]);
  }
  const std::shared_ptr<LearningJob> job = optimizer.begin_learning();
  REQUIRE(job);
  for (int i = 0; i < 3; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, x[0]);
  }
  Optimizer::run_learning(*job);
  const std::shared_ptr<LearningJob> stale = optimizer.begin_learning();
  Optimizer::run_learning(*stale);
  CHECK(optimizer.finish_learning(*job));
  CHECK(optimizer.info()["learned_at_observations"] == 15);
  const json before = optimizer.save();
  CHECK_FALSE(optimizer.finish_learning(*stale));
  CHECK(optimizer.save() == before);
  const std::vector<double> x = optimizer.ask();
  check_inside(optimizer, x);
}

namespace {
// A numpunct that groups every three digits with commas, as some host locales do.
struct GroupingPunct : std::numpunct<char> {
  char do_thousands_sep() const override { return ','; }
  std::string do_grouping() const override { return "\3"; }
};
}  // namespace

// Every number the library writes and reads ignores the host's global C++ locale: equal
// histories save equal bytes, and the state loads in the classic locale.
TEST_CASE("saved states do not depend on the host's global locale") {
  const json config = {{"dimension", 3}, {"seed", 12}};
  const auto run = [&](Optimizer& optimizer) {
    for (int i = 0; i < 14; ++i) {
      const std::vector<double> x = optimizer.ask();
      optimizer.tell(x, std::sin(5.0 * x[0]) + x[1] * x[2]);
    }
    optimizer.ask();
  };
  Optimizer plain = make(config);
  run(plain);
  const std::string classic_text = plain.save().dump();
  const std::locale previous =
      std::locale::global(std::locale(std::locale::classic(), new GroupingPunct));
  Optimizer grouped = make(config);
  run(grouped);
  const std::string grouped_text = grouped.save().dump();
  std::locale::global(previous);
  CHECK(grouped_text == classic_text);
  Optimizer restored = Optimizer::from_state(json::parse(grouped_text));
  CHECK(restored.ask() == plain.ask());
}

// Two values a denormal apart standardise to nonsense and every learning candidate fails: the
// learning's likelihood is not finite. Its state must still save and load.
TEST_CASE("a state whose learning found no finite likelihood saves and loads") {
  Optimizer optimizer = make(json{{"dimension", 2}, {"initial_points", 2}});
  optimizer.tell({0.2, 0.3}, 0.0);
  optimizer.tell({0.7, 0.1}, 4.94e-324);
  optimizer.ask();
  // Through text, as a host stores it (JSON has no NaN: the value is written as null).
  const std::string saved = optimizer.save().dump();
  Optimizer restored = Optimizer::from_state(json::parse(saved));
  CHECK(restored.save().dump() == saved);
  CHECK(restored.ask() == optimizer.ask());
}

// A host thread with a 32 KB stack (docs/limits.md, "Stack") asks and tells through n = 400
// observations (the clique contraction's matrix products once put 128 KB, then 16 KB, blocks on
// the stack: 40 KB crashed). AddressSanitizer's redzones make every frame several times larger:
// its build gets 512 KB.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kSmallStack = 512 * 1024;
#else
constexpr std::size_t kSmallStack = 32 * 1024;
#endif
TEST_CASE("asks and tells run on a thread with a 32 KB stack") {
  struct Run {
    bool done = false;
    static void* body(void* argument) {
      Run& run = *static_cast<Run*>(argument);
      Optimizer optimizer = make(star_config(4));
      for (int i = 0; i < 400; ++i) {
        const std::vector<double> x = optimizer.ask();
        optimizer.tell(x, addbo_examples::star_function(x));
      }
      run.done = optimizer.observation_count() == 400;
      return nullptr;
    }
  } run;
  pthread_attr_t attributes;
  REQUIRE(pthread_attr_init(&attributes) == 0);
  REQUIRE(pthread_attr_setstacksize(&attributes, kSmallStack) == 0);
  pthread_t thread;
  REQUIRE(pthread_create(&thread, &attributes, &Run::body, &run) == 0);
  REQUIRE(pthread_join(thread, nullptr) == 0);
  pthread_attr_destroy(&attributes);
  CHECK(run.done);
}

// A host that prints points with six decimals and parses them back still tells (or cancels)
// the pending point it was given: no ghost pending point is left behind.
TEST_CASE("a rounded tell or cancel matches its pending point") {
  Optimizer optimizer =
      make(json{{"variables",
                 {{{"name", "a"}, {"type", "continuous"}, {"lower", -3}, {"upper", 7}},
                  {{"name", "k"}, {"type", "integer"}, {"lower", 0}, {"upper", 5}},
                  {{"name", "c"}, {"type", "continuous"}, {"lower", 0}, {"upper", 1}}}},
                {"initial_points", 3}});
  const auto rounded = [](std::vector<double> x) {
    for (double& v : x) v = std::round(v * 1e6) / 1e6;
    return x;
  };
  for (int i = 0; i < 12; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(rounded(x), std::sin(x[0]) + x[1] - x[2]);
    CHECK(optimizer.pending_count() == 0);
  }
  const std::vector<double> first = optimizer.ask(), second = optimizer.ask();
  CHECK(optimizer.info()["pending_points"] == json({first, second}));
  optimizer.cancel(rounded(second));
  CHECK(optimizer.pending_count() == 1);
  CHECK(optimizer.info()["pending_points"] == json({first}));
  // A point farther than the tolerance is not the pending one.
  std::vector<double> near = first;
  near[2] =
      std::min(1.0, near[2] + 1e-4) == near[2] ? near[2] - 1e-4 : std::min(1.0, near[2] + 1e-4);
  CHECK_THROWS_AS(optimizer.cancel(near), Error);
  CHECK(optimizer.info()["unmatched_tells"] == 0);
  optimizer.tell(near, 0.0);  // a new observation; the pending point stays
  CHECK(optimizer.pending_count() == 1);
  CHECK(optimizer.info()["unmatched_tells"] == 1);  // and the info says so
  optimizer.tell(rounded(first), 0.0);
  CHECK(optimizer.pending_count() == 0);
  CHECK(optimizer.info()["unmatched_tells"] == 1);
  // Nothing pending: a warm start is no unmatched tell.
  optimizer.tell(near, 1.0);
  CHECK(optimizer.info()["unmatched_tells"] == 1);
}

// Issue 27, item 5.7: a log-scale value printed with %f loses its last digits, so the tell is no
// longer the pending point; the info counts it.
TEST_CASE("a tell that matches no pending point is counted") {
  Optimizer optimizer =
      make(json{{"variables",
                 {{{"name", "lr"},
                   {"type", "continuous"},
                   {"lower", 1e-6},
                   {"upper", 1e-2},
                   {"scale", "log"}},
                  {{"name", "m"}, {"type", "continuous"}, {"lower", 0}, {"upper", 1}}}},
                {"initial_points", 4}});
  const std::vector<double> x = optimizer.ask();
  char text[64];
  std::snprintf(text, sizeof text, "%f", x[0]);
  const std::vector<double> printed{std::strtod(text, nullptr), x[1]};
  REQUIRE(printed[0] != x[0]);
  optimizer.tell(printed, 1.0);
  CHECK(optimizer.pending_count() == 1);
  CHECK(optimizer.info()["unmatched_tells"] == 1);
  optimizer.tell(x, 1.0);
  CHECK(optimizer.pending_count() == 0);
  CHECK(optimizer.info()["unmatched_tells"] == 1);
  // Not part of the saved state: a restored handle counts from zero.
  CHECK(Optimizer::from_state(optimizer.save()).info()["unmatched_tells"] == 0);
}

// A dense fixed graph whose junction tree cannot fit the cell budget is refused at
// /structure/edges. This one (45 variables in 15 triples, every pair joined except within a
// triple: the Moon-Moser graph) has 3^15 = 14 million maximal cliques; the refusal comes from
// the triangulated graph's few nodes, before those are listed (it took minutes before).
TEST_CASE("a dense given graph is refused from its junction-tree nodes") {
  json edges = json::array();
  for (int a = 0; a < 45; ++a)
    for (int b = a + 1; b < 45; ++b)
      if (a / 3 != b / 3) edges.push_back({a, b});
  const json config = {{"dimension", 45}, {"structure", {{"mode", "fixed"}, {"edges", edges}}}};
  try {
    make(config);
    FAIL("the graph was accepted");
  } catch (const ConfigError& error) {
    CHECK(error.pointer() == "/structure/edges");
    CHECK(std::string(error.what()).find("limits.max_table_cells") != std::string::npos);
    CHECK(std::string(error.what()).find(".000000") == std::string::npos);
  }
}

// Log-scale variables (docs/configuration.md, "Log-scale variables"): the initial design and the
// grid see the logarithm, asks stay within the bounds (integers on their grid), and the points
// survive tell, save and load (also through text) bit-identically.
TEST_CASE("log-scale variables round-trip through ask, tell, save and load") {
  const json config = {
      {"variables",
       {{{"name", "lr"}, {"lower", 1e-6}, {"upper", 1.0}, {"scale", "log"}},
        {{"name", "l2"}, {"lower", 1e-9}, {"upper", 1e-8}, {"scale", "log"}, {"grid", 9}},
        {{"name", "trees"}, {"type", "integer"}, {"lower", 1}, {"upper", 1000}, {"scale", "log"}},
        {{"name", "batch"},
         {"type", "integer"},
         {"lower", 16},
         {"upper", 4096},
         {"scale", "log"},
         {"grid", 9}},
        {{"name", "kind"}, {"type", "categorical"}, {"choices", {"a", "b"}}},
        {{"name", "w"}, {"lower", -1}, {"upper", 1}}}},
      {"initial_points", 12},
      {"seed", 11},
      // Fixed noise: every point of the design in its own strata (no noise probe).
      {"kernel", {{"noise_variance", 1e-4}}},
      {"structure", {{"relearn_every", 10}, {"gibbs_evaluations", 50}}}};
  const std::vector<double> trees_grid = log_integer_grid(1, 1000, 32);
  const std::vector<double> batch_grid = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  // Best at lr = 1e-3, l2 = 3e-9, trees = 100, batch = 256, kind = 1, w = 0.2.
  const auto objective = [](const std::vector<double>& x) {
    const auto square = [](double v) { return v * v; };
    return -square(std::log10(x[0]) + 3) - square(std::log10(x[1] / 3e-9)) * 4 -
           square(std::log10(x[2]) - 2) - square(std::log2(x[3]) - 8) * 0.1 - (1 - x[4]) -
           square(x[5] - 0.2);
  };
  const auto on_grid = [](const std::vector<double>& grid, double value) {
    return std::find(grid.begin(), grid.end(), value) != grid.end();
  };

  Optimizer original = make(config);
  int decades[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 40; ++i) {
    const std::vector<double> x = original.ask();
    check_inside(original, x);
    CHECK(on_grid(trees_grid, x[2]));
    CHECK(on_grid(batch_grid, x[3]));
    if (i < 12) ++decades[std::min(5, static_cast<int>(std::floor(-std::log10(x[0]))))];
    original.tell(x, objective(x));
  }
  // The initial design's strata are even in the logarithm: 12 points over 6 decades of lr give
  // each decade two (a uniform design would put 10 of the 12 in the top decade).
  for (int decade = 0; decade < 6; ++decade) {
    CAPTURE(decade);
    CHECK(decades[decade] == 2);
  }
  // The model finds the right decades.
  const Observation best = original.best();
  CHECK(best.x[0] > 1e-4);
  CHECK(best.x[0] < 1e-2);
  CHECK(best.x[2] > 10);
  CHECK(best.x[2] < 1000);

  original.ask();  // a pending point travels with the state
  const json saved = original.save();
  CHECK(saved["config"]["variables"][0]["scale"] == "log");
  CHECK_FALSE(saved["config"]["variables"][5].contains("scale"));
  // Through text and back: every double, observations and pending points included, is exact.
  const json reread = json::parse(saved.dump());
  CHECK(reread == saved);
  Optimizer restored = Optimizer::from_state(reread);
  CHECK(restored.save() == saved);
  CHECK(restored.save().dump() == saved.dump());
  for (int i = 0; i < 8; ++i) {
    const std::vector<double> a = original.ask(), b = restored.ask();
    REQUIRE(a == b);
    original.tell(a, objective(a));
    restored.tell(b, objective(b));
  }
  CHECK(original.save() == restored.save());
  // A told point at the bounds is valid; just outside is refused with both bounds printed.
  std::vector<double> edge = original.best().x;
  edge[1] = 1e-8;
  original.tell(edge, objective(edge));
  edge[1] = std::nextafter(1e-8, 1.0);
  try {
    original.tell(edge, 0.0);
    FAIL("a point outside the bounds was accepted");
  } catch (const Error& error) {
    CHECK(std::string(error.what()).find("is outside [1e-09, 1e-08]") != std::string::npos);
  }
}

TEST_CASE("past limits.max_model_observations a run stays within it and restores identically") {
  // A model of at most 8 observations (rebuilt from 6 chosen ones when full), two asks in
  // flight now and then; every round continues on an optimizer restored from the saved state.
  for (const char* mode : {"fixed", "learn"}) {
    CAPTURE(mode);
    json config = small_config();
    config["limits"] = {{"max_model_observations", 8}, {"threads", 1}};
    if (std::string(mode) == "learn") {
      config["structure"] = {{"mode", "learn"}, {"relearn_every", 5}, {"gibbs_evaluations", 20}};
      config["kernel"] = {{"noise_variance", "learn"}};
    }
    Optimizer optimizer = make(config);
    double best = -INFINITY;
    for (int round = 0; round < 40; ++round) {
      CAPTURE(round);
      Optimizer restored = Optimizer::from_state(optimizer.save());
      const std::vector<double> x = optimizer.ask();
      REQUIRE(restored.ask() == x);
      if (round % 4 == 1) {
        const std::vector<double> second = optimizer.ask();
        REQUIRE(restored.ask() == second);
        optimizer.tell(second, small_objective(second));
        best = std::max(best, small_objective(second));
      }
      optimizer.tell(x, small_objective(x));
      best = std::max(best, small_objective(x));
      const json info = optimizer.info();
      CHECK(info["model_observations"].get<std::size_t>() <= 8);
      CHECK(info["model_observations"].get<std::size_t>() >=
            std::min<std::size_t>(6, optimizer.observation_count()));
      CHECK(optimizer.best().y == best);  // over every observation, the model's or not
    }
    CHECK(optimizer.observation_count() == 50);
  }
}

TEST_CASE("limits.max_model_work bounds the model's observations by its tables' cells") {
  // Two given pairs on 32-point grids: 2 x 32 x 32 = 2,048 cells, so a build of n observations
  // costs 2,048 n^2 / 2 multiply-adds, within 10^6 up to n = floor(sqrt(2 x 10^6 / 2,048)) = 31.
  json config = {{"dimension", 3},
                 {"seed", 4},
                 {"initial_points", 4},
                 {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}, {1, 2}}}}},
                 {"kernel", {{"lengthscales", {0.3, 0.3, 0.5}}}},
                 {"limits", {{"max_model_work", 1000000}, {"threads", 1}}}};
  const std::size_t capacity = static_cast<std::size_t>(std::sqrt(2.0 * 1e6 / 2048.0));
  REQUIRE(capacity == 31);
  const auto objective = [](const std::vector<double>& x) {
    return -std::pow(x[0] - 0.3, 2) - std::pow(x[1] - 0.6, 2) + x[0] * x[2];
  };
  Optimizer optimizer = make(config);
  CHECK(optimizer.info()["model_capacity"] == capacity);
  std::size_t most_held = 0;
  for (int round = 0; round < 70; ++round) {
    CAPTURE(round);
    Optimizer restored = Optimizer::from_state(optimizer.save());
    const std::vector<double> x = optimizer.ask();
    REQUIRE(restored.ask() == x);
    optimizer.tell(x, objective(x));
    const std::size_t held = optimizer.info()["model_observations"].get<std::size_t>();
    CHECK(held <= capacity);
    most_held = std::max(most_held, held);
  }
  CHECK(most_held == capacity);  // the bound is reached, not only respected
  // A larger budget than the cap needs leaves limits.max_model_observations the bound.
  config["limits"]["max_model_work"] = 100000000000;
  CHECK(make(config).info()["model_capacity"] == 2000);
}

TEST_CASE("an ask with limits.max_pending points pending fails and changes nothing") {
  json config = small_config();
  config["limits"] = {{"max_pending", 2}};
  Optimizer optimizer = make(config);
  for (int i = 0; i < 6; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, small_objective(x));
  }
  const std::vector<double> first = optimizer.ask();
  optimizer.ask();
  const json before = optimizer.save();
  try {
    optimizer.ask();
    FAIL("a third pending point was asked");
  } catch (const Error& e) {
    CHECK(e.status() == Status::state);
    CHECK(std::string(e.what()) ==
          "2 points are pending, and limits.max_pending is 2: tell or cancel one before asking "
          "again");
  }
  CHECK(optimizer.save() == before);
  optimizer.tell(first, small_objective(first));
  const std::vector<double> next = optimizer.ask();
  // As if the failed ask had not been made.
  Optimizer restored = Optimizer::from_state(before);
  restored.tell(first, small_objective(first));
  CHECK(restored.ask() == next);

  // A state holding more pending points than its limit (saved with a larger one) loads; its asks
  // fail until fewer are pending, and it predicts meanwhile.
  json edited = optimizer.save();
  edited["config"]["limits"]["max_pending"] = 1;
  Optimizer loaded = Optimizer::from_state(edited);
  CHECK(loaded.pending_count() == 2);
  CHECK_THROWS_AS(loaded.ask(), Error);
  CHECK(std::isfinite(loaded.predict(first).mean));
  const json pending = edited["pending"];
  loaded.cancel(pending[0].get<std::vector<double>>());
  CHECK_THROWS_AS(loaded.ask(), Error);
  loaded.cancel(pending[1].get<std::vector<double>>());
  check_inside(loaded, loaded.ask());
}

TEST_CASE("a state of 20,000 observations loads and asks within the model's limit") {
  // The default limits: the first ask learns on 500 chosen points and builds the model from
  // 1,500 (limits.max_model_observations 2,000 past which three quarters are kept).
  Optimizer optimizer = make(json{{"dimension", 3}, {"seed", 2}});
  Random random(17);
  std::vector<double> x(3);
  for (int i = 0; i < 20000; ++i) {
    for (double& value : x) value = random.uniform();
    optimizer.tell(x, std::sin(5.0 * x[0]) + x[1] * x[2]);
  }
  Optimizer loaded = Optimizer::from_state(optimizer.save());
  check_inside(loaded, loaded.ask());
  CHECK(loaded.info()["model_observations"] == 1500);
  CHECK(loaded.observation_count() == 20000);
  const bool local = loaded.info()["search"]["phase"] == "local";
  const std::vector<double> next = loaded.ask();
  check_inside(loaded, next);
  loaded.tell(next, 0.5);
  // A global ask built the model of record, which takes the new point; a local ask used the
  // box's model only, and the next build takes three quarters of the limit again.
  CHECK(loaded.info()["model_observations"] == (local ? 1500 : 1501));
}

TEST_SUITE_END();
