// How long each edge of the model's graph has been kept (edge_since, optimizer/edge_history.hpp):
// the carry rule against a linear search, and the optimizer's counts against a replay of the
// graphs it reports, through learning, random trees, a restore and older saved states.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "optimizer/edge_history.hpp"
#include "optimizer/optimizer.hpp"
#include "util/error.hpp"

using namespace addbo::core;
using nlohmann::json;

namespace {

std::vector<Edge> random_edges(std::mt19937_64& rng, int dimension) {
  std::set<Edge> edges;
  std::uniform_int_distribution<int> pick(0, dimension - 1);
  const int count = std::uniform_int_distribution<int>(0, 8)(rng);
  for (int k = 0; k < count; ++k) {
    const int a = pick(rng), b = pick(rng);
    if (a != b) edges.insert({std::min(a, b), std::max(a, b)});
  }
  return {edges.begin(), edges.end()};
}

std::vector<Edge> edges_of(const json& info) {
  std::vector<Edge> edges;
  for (const json& edge : info["edges"]) edges.emplace_back(edge[0].get<int>(), edge[1].get<int>());
  return edges;
}

double objective(const std::vector<double>& x) {
  double sum = 0.0;
  for (std::size_t d = 1; d < x.size(); ++d) sum += std::sin(3.0 * x[d - 1] + 2.0 * x[d]);
  return sum;
}

// Runs `asks` asks and tells, checking after each ask that info's edge_since equals a replay:
// an edge keeps its count while it stays, and one that appears gets the observations told.
void check_replay(Optimizer& optimizer, int asks, std::set<std::vector<Edge>>& graphs_seen) {
  std::map<Edge, std::size_t> expected;
  for (const Edge& edge : edges_of(optimizer.info())) expected[edge] = 0;
  for (int i = 0; i < asks; ++i) {
    const std::size_t told = optimizer.observation_count();
    const std::vector<double> x = optimizer.ask();
    const json info = optimizer.info();
    const std::vector<Edge> edges = edges_of(info);
    graphs_seen.insert(edges);
    std::map<Edge, std::size_t> next;
    for (const Edge& edge : edges) {
      const auto kept = expected.find(edge);
      next[edge] = kept != expected.end() ? kept->second : told;
    }
    expected = std::move(next);
    REQUIRE(info["edge_since"].size() == edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
      CHECK(info["edge_since"][e].get<std::size_t>() == expected[edges[e]]);
    }
    optimizer.tell(x, objective(x));
  }
}

}  // namespace

TEST_CASE("carry_edge_since keeps the count of every edge that stays") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 500; ++trial) {
    const std::vector<Edge> old_edges = random_edges(rng, 6), edges = random_edges(rng, 6);
    std::vector<std::size_t> old_since;
    for (std::size_t k = 0; k < old_edges.size(); ++k) old_since.push_back(rng() % 50);
    const std::vector<std::size_t> since = carry_edge_since(old_edges, old_since, edges, 77);
    REQUIRE(since.size() == edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const auto found = std::find(old_edges.begin(), old_edges.end(), edges[e]);
      CHECK(since[e] == (found == old_edges.end()
                             ? 77
                             : old_since[static_cast<std::size_t>(found - old_edges.begin())]));
    }
  }
}

TEST_CASE("edge_since follows the learned and the random graphs, and survives a restore") {
  for (const char* mode : {"learn", "random-tree", "disjoint"}) {
    CAPTURE(mode);
    Optimizer optimizer(parse_config({{"dimension", 8},
                                      {"seed", 6},
                                      {"initial_points", 5},
                                      {"structure",
                                       {{"mode", mode},
                                        {"relearn_every", 3},
                                        {"expected_degree", 2.0},
                                        {"gibbs_evaluations", 60}}}}));
    std::set<std::vector<Edge>> graphs;
    check_replay(optimizer, 30, graphs);
    CHECK(graphs.size() > 2);  // the graph did change
    const json saved = optimizer.save();
    CHECK(saved["version"] == 4);
    CHECK(saved["model"]["edge_since"] == optimizer.info()["edge_since"]);
    Optimizer restored = Optimizer::from_state(saved);
    CHECK(restored.save() == saved);
    CHECK(restored.info()["edge_since"] == optimizer.info()["edge_since"]);
  }
}

TEST_CASE("a given graph's edges count from the start") {
  Optimizer optimizer(parse_config(
      {{"dimension", 4}, {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}, {2, 3}}}}}}));
  for (int i = 0; i < 14; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, objective(x));
  }
  CHECK(optimizer.info()["edge_since"] == json({0, 0}));
}

TEST_CASE("older states load with every edge counted from the last learning; bad counts refused") {
  Optimizer optimizer(
      parse_config({{"dimension", 6},
                    {"seed", 2},
                    {"structure", {{"relearn_every", 4}, {"expected_degree", 2.0}}}}));
  for (int i = 0; i < 20; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, objective(x));
  }
  const json saved = optimizer.save();
  const std::size_t edges = saved["model"]["edges"].size();
  REQUIRE(edges > 0);

  json version2 = saved;
  version2["version"] = 2;
  version2["model"].erase("edge_since");
  version2.erase("failures");  // and the fields of version 4
  version2["model"].erase("constraints");
  version2["model"].erase("failure_model");
  const Optimizer older = Optimizer::from_state(version2);
  CHECK(older.info()["edge_since"] ==
        json(std::vector<std::size_t>(edges, saved["learning"]["learned_at"].get<std::size_t>())));
  CHECK(older.save()["version"] == 4);

  json missing = saved;
  missing["model"].erase("edge_since");
  json wrong_length = saved;
  wrong_length["model"]["edge_since"].push_back(0);
  json too_late = saved;
  too_late["model"]["edge_since"][0] = saved["observations"].size() + 1;
  json negative = saved;
  negative["model"]["edge_since"][0] = -1;
  for (const auto& [state, pointer] :
       std::vector<std::pair<json, std::string>>{{missing, "/model"},
                                                 {wrong_length, "/model/edge_since"},
                                                 {too_late, "/model/edge_since/0"},
                                                 {negative, "/model/edge_since/0"}}) {
    CAPTURE(pointer);
    try {
      Optimizer::from_state(state);
      FAIL("accepted");
    } catch (const StateError& error) {
      CHECK(error.pointer().rfind(pointer, 0) == 0);
    }
  }
}
