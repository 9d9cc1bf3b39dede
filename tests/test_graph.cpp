// Graph storage, maximal cliques, chordality and min-fill triangulation, each checked against
// brute-force enumeration (tests/graph_testing.hpp) on many small random graphs.
#include <doctest/doctest.h>

#include "graph/graph.hpp"
#include "graph/partition.hpp"
#include "graph_testing.hpp"
#include "util/error.hpp"

TEST_SUITE_BEGIN("graph");

namespace addbo::core {
namespace {

using testing::TestRng;

TEST_CASE("Graph stores each undirected edge once, sorted") {
  Graph g(5, {{3, 1}, {0, 4}, {1, 3}, {2, 1}});
  CHECK(g.vertex_count() == 5);
  CHECK(g.edge_count() == 3);
  CHECK(g.edges() == std::vector<Edge>{{0, 4}, {1, 2}, {1, 3}});
  CHECK(g.neighbours(1) == std::vector<int>{2, 3});
  CHECK(g.has_edge(3, 1));
  CHECK(g.has_edge(1, 3));
  CHECK_FALSE(g.has_edge(0, 1));
  CHECK_FALSE(g.has_edge(0, 7));  // outside the graph: simply no edge

  g.add_edge(1, 3);  // existing: no-op
  CHECK(g.edge_count() == 3);
  g.remove_edge(1, 3);
  g.remove_edge(1, 3);  // missing: no-op
  CHECK(g.edges() == std::vector<Edge>{{0, 4}, {1, 2}});
  CHECK(g.neighbours(3).empty());

  CHECK(Graph(0).vertex_count() == 0);
  CHECK(Graph(0).edges().empty());
  CHECK(Graph(3, {{0, 1}}) == Graph(3, {{1, 0}}));
  CHECK_FALSE(Graph(3, {{0, 1}}) == Graph(3, {{0, 2}}));
}

TEST_CASE("Graph rejects self-loops, out-of-range vertices and negative sizes") {
  Graph g(3);
  const auto status_of = [](auto&& action) {
    try {
      action();
    } catch (const Error& e) {
      return e.status();
    }
    return Status::ok;
  };
  CHECK(status_of([&] { g.add_edge(1, 1); }) == Status::invalid_argument);
  CHECK(status_of([&] { g.add_edge(0, 3); }) == Status::invalid_argument);
  CHECK(status_of([&] { g.add_edge(-1, 2); }) == Status::invalid_argument);
  CHECK(status_of([&] { g.remove_edge(0, 5); }) == Status::invalid_argument);
  CHECK(status_of([&] { Graph(-1); }) == Status::invalid_argument);
  CHECK(status_of([&] { Graph(2, {{0, 2}}); }) == Status::invalid_argument);
  CHECK(g.edge_count() == 0);
}

TEST_CASE("maximal_cliques: known graphs") {
  CHECK(maximal_cliques(Graph(0)).empty());
  CHECK(maximal_cliques(Graph(3)) == std::vector<VarSet>{{0}, {1}, {2}});
  CHECK(maximal_cliques(testing::paper_figure1_graph()) ==
        std::vector<VarSet>{{0, 1, 2}, {0, 2, 3}, {3, 4}, {5}});
  CHECK(maximal_cliques(testing::complete_graph(5)) == std::vector<VarSet>{{0, 1, 2, 3, 4}});
  CHECK(maximal_cliques(testing::cycle_graph(4, 1)) ==
        std::vector<VarSet>{{0, 1}, {0, 3}, {1, 2}, {2, 3}, {4}});
}

TEST_CASE("maximal_cliques equals subset enumeration on random graphs") {
  TestRng rng(0x6d61786371ULL);
  int graphs = 0;
  for (int n = 0; n <= 10; ++n) {
    for (double density : {0.0, 0.15, 0.3, 0.5, 0.7, 0.85, 1.0}) {
      for (int repeat = 0; repeat < 5; ++repeat) {
        const Graph g = testing::random_graph(n, density, rng);
        REQUIRE(maximal_cliques(g) == testing::brute_force_maximal_cliques(g));
        ++graphs;
      }
    }
  }
  for (int length = 4; length <= 8; ++length) {
    const Graph g = testing::cycle_graph(length, 2);
    CHECK(maximal_cliques(g) == testing::brute_force_maximal_cliques(g));
  }
  const Graph grid = testing::grid_graph(3, 3);
  CHECK(maximal_cliques(grid) == testing::brute_force_maximal_cliques(grid));
  CHECK(graphs == 385);
}

TEST_CASE("maximal_cliques on a long chain and a large clique") {
  const int n = 10000;
  Graph chain(n);
  for (int i = 0; i + 1 < n; ++i) chain.add_edge(i, i + 1);
  const std::vector<VarSet> cliques = maximal_cliques(chain);
  REQUIRE(cliques.size() == static_cast<std::size_t>(n - 1));
  for (int i = 0; i + 1 < n; ++i) CHECK(cliques[i] == VarSet{i, i + 1});

  // Deep search: one clique of 300 vertices (the search is iterative, not recursive).
  const std::vector<VarSet> big = maximal_cliques(testing::complete_graph(300));
  REQUIRE(big.size() == 1);
  CHECK(big[0].size() == 300);
}

TEST_CASE("is_chordal agrees with a brute-force chordless-cycle search") {
  TestRng rng(0x63686f7264ULL);
  int chordal = 0;
  int not_chordal = 0;
  for (int n = 0; n <= 10; ++n) {
    for (double density : {0.2, 0.35, 0.5, 0.65, 0.8}) {
      for (int repeat = 0; repeat < 8; ++repeat) {
        const Graph g = testing::random_graph(n, density, rng);
        const bool expected = !testing::has_chordless_cycle(g);
        REQUIRE(is_chordal(g) == expected);
        (expected ? chordal : not_chordal) += 1;
      }
    }
  }
  // Both answers must be well represented for the comparison to mean something.
  CHECK(chordal > 100);
  CHECK(not_chordal > 100);

  for (int length = 4; length <= 12; ++length)
    CHECK_FALSE(is_chordal(testing::cycle_graph(length)));
  CHECK(is_chordal(testing::cycle_graph(3)));
  CHECK_FALSE(is_chordal(testing::grid_graph(3, 3)));
  CHECK(is_chordal(testing::grid_graph(1, 6)));
  CHECK(is_chordal(testing::complete_graph(7)));
  CHECK(is_chordal(testing::paper_figure1_graph()));
  CHECK(is_chordal(Graph(0)));
  CHECK(is_chordal(Graph(4)));
}

TEST_CASE("triangulate_min_fill: known results") {
  // All four vertices of a 4-cycle have fill-in 1; vertex 0 goes first and adds chord 1-3.
  const Graph square = testing::cycle_graph(4);
  CHECK(triangulate_min_fill(square).edges() ==
        std::vector<Edge>{{0, 1}, {0, 3}, {1, 2}, {1, 3}, {2, 3}});
  // Min-fill triangulates a chordless k-cycle with exactly k - 3 chords.
  for (int length = 4; length <= 40; ++length) {
    const Graph t = triangulate_min_fill(testing::cycle_graph(length, 1));
    CHECK(t.edge_count() == static_cast<std::size_t>(2 * length - 3));
    CHECK(is_chordal(t));
  }
  // A long cycle: still k - 3 chords, and chordal.
  const Graph long_cycle = triangulate_min_fill(testing::cycle_graph(2000));
  CHECK(long_cycle.edge_count() == 2 * 2000 - 3);
  CHECK(is_chordal(long_cycle));
}

TEST_CASE("triangulate_min_fill gives a chordal supergraph and leaves chordal graphs alone") {
  TestRng rng(0x747269616eULL);
  int changed = 0;
  int unchanged = 0;
  for (int n = 0; n <= 12; ++n) {
    for (double density : {0.15, 0.3, 0.45, 0.6, 0.8}) {
      for (int repeat = 0; repeat < 4; ++repeat) {
        const Graph g = testing::random_graph(n, density, rng);
        const Graph t = triangulate_min_fill(g);
        REQUIRE(t.vertex_count() == n);
        for (const Edge& e : g.edges()) CHECK(t.has_edge(e.first, e.second));
        REQUIRE_FALSE(testing::has_chordless_cycle(t));
        if (!testing::has_chordless_cycle(g)) {
          CHECK(t == g);
          ++unchanged;
        } else {
          CHECK(t.edge_count() > g.edge_count());
          ++changed;
        }
        CHECK(triangulate_min_fill(t) == t);
        CHECK(triangulate_min_fill(g) == t);  // deterministic
      }
    }
  }
  CHECK(changed > 50);
  CHECK(unchanged > 50);

  for (const Graph& g :
       {testing::grid_graph(3, 3), testing::grid_graph(3, 4), testing::cycle_graph(8, 3)}) {
    const Graph t = triangulate_min_fill(g);
    for (const Edge& e : g.edges()) CHECK(t.has_edge(e.first, e.second));
    CHECK_FALSE(testing::has_chordless_cycle(t));
  }
}

TEST_CASE("component_labels agree with reachability; edges_of_labels joins exactly each group") {
  TestRng rng(41);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = rng.between(1, 9);
    const Graph graph = random_graph(n, rng.uniform() * 0.5, rng);
    // Reachability by repeated relaxation (Warshall), independent of the union-find.
    std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
    for (int v = 0; v < n; ++v) reach[v][v] = 1;
    for (const Edge& e : graph.edges()) reach[e.first][e.second] = reach[e.second][e.first] = 1;
    for (int k = 0; k < n; ++k)
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          if (reach[a][k] && reach[k][b]) reach[a][b] = 1;
    const std::vector<int> labels = component_labels(n, graph.edges());
    REQUIRE(labels.size() == static_cast<std::size_t>(n));
    int next = 0;  // labels are numbered in the order of each group's smallest variable
    for (int a = 0; a < n; ++a) {
      bool first = true;
      for (int b = 0; b < a; ++b) first = first && !reach[a][b];
      if (first) CHECK(labels[a] == next++);
      for (int b = 0; b < n; ++b) CHECK((labels[a] == labels[b]) == (reach[a][b] != 0));
    }
    std::vector<Edge> expected;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        if (reach[a][b]) expected.emplace_back(a, b);
    CHECK(edges_of_labels(labels) == expected);
  }
  CHECK(component_labels(0, {}).empty());
  CHECK(edges_of_labels({}).empty());
}

}  // namespace
}  // namespace addbo::core

TEST_SUITE_END();
