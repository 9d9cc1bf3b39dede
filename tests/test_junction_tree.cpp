// Junction-tree construction: the structural invariants message passing relies on, checked
// independently (brute-force cliques and chordality, explicit tree and running-intersection
// checks) on many graph families.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "graph/junction_tree.hpp"
#include "graph_testing.hpp"
#include "util/error.hpp"

TEST_SUITE_BEGIN("graph");

namespace addbo::core {
namespace {

using testing::TestRng;

bool contains(const VarSet& outer, const VarSet& inner) {
  return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

// The nodes adjacent in the tree and containing `v`, reached from `start` (breadth-first).
std::size_t reachable_holding(const JunctionTree& tree,
                              const std::vector<std::vector<int>>& adjacent, int start, int v) {
  std::vector<char> seen(tree.nodes.size(), 0);
  std::vector<int> queue{start};
  seen[start] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (int next : adjacent[queue[head]]) {
      const VarSet& node = tree.nodes[next];
      if (!seen[next] && std::binary_search(node.begin(), node.end(), v)) {
        seen[next] = 1;
        queue.push_back(next);
      }
    }
  }
  return queue.size();
}

// Tree shape, running intersection and factor assignment. `brute_force` also compares the nodes
// with subset enumeration (graphs of up to ~16 vertices).
void check_tree(const Graph& g, const std::vector<VarSet>& factors, const JunctionTree& tree,
                bool brute_force) {
  const int n = g.vertex_count();
  const std::size_t m = tree.nodes.size();
  const Graph triangulated = triangulate_min_fill(g);

  if (brute_force) {
    REQUIRE_FALSE(testing::has_chordless_cycle(triangulated));
    REQUIRE(tree.nodes == testing::brute_force_maximal_cliques(triangulated));
  } else {
    REQUIRE(is_chordal(triangulated));
    REQUIRE(tree.nodes == maximal_cliques(triangulated));
  }
  for (const Edge& e : g.edges()) REQUIRE(triangulated.has_edge(e.first, e.second));

  // A tree: m - 1 distinct valid links that connect all m nodes (hence no cycle).
  REQUIRE(tree.links.size() == (m == 0 ? 0 : m - 1));
  std::vector<int> component(m);
  std::iota(component.begin(), component.end(), 0);
  const auto find = [&](int x) {
    while (component[x] != x) x = component[x] = component[component[x]];
    return x;
  };
  std::vector<std::vector<int>> adjacent(m);
  for (const auto& link : tree.links) {
    REQUIRE(link.first >= 0);
    REQUIRE(link.first < link.second);
    REQUIRE(static_cast<std::size_t>(link.second) < m);
    const int a = find(link.first);
    const int b = find(link.second);
    REQUIRE(a != b);  // a link closing a cycle
    component[a] = b;
    adjacent[link.first].push_back(link.second);
    adjacent[link.second].push_back(link.first);
  }

  // Running intersection: the nodes holding v form one connected subtree.
  for (int v = 0; v < n; ++v) {
    std::vector<int> holding;
    for (std::size_t i = 0; i < m; ++i) {
      if (std::binary_search(tree.nodes[i].begin(), tree.nodes[i].end(), v)) {
        holding.push_back(static_cast<int>(i));
      }
    }
    REQUIRE_FALSE(holding.empty());
    CHECK(reachable_holding(tree, adjacent, holding.front(), v) == holding.size());
  }

  // Each factor goes to exactly one node (one entry per factor) that contains it.
  REQUIRE(tree.factor_node.size() == factors.size());
  for (std::size_t f = 0; f < factors.size(); ++f) {
    const int node = tree.factor_node[f];
    REQUIRE(node >= 0);
    REQUIRE(static_cast<std::size_t>(node) < m);
    CHECK(contains(tree.nodes[node], factors[f]));
  }
}

// Every edge and every vertex of g as a factor (sub-cliques of the maximal cliques).
std::vector<VarSet> edge_and_vertex_factors(const Graph& g) {
  std::vector<VarSet> factors;
  for (const Edge& e : g.edges()) factors.push_back({e.first, e.second});
  for (int v = 0; v < g.vertex_count(); ++v) factors.push_back({v});
  return factors;
}

void check_graph(const Graph& g, bool brute_force = true) {
  const std::vector<VarSet> cliques = maximal_cliques(g);
  check_tree(g, cliques, build_junction_tree(g, cliques), brute_force);
  const std::vector<VarSet> parts = edge_and_vertex_factors(g);
  check_tree(g, parts, build_junction_tree(g, parts), brute_force);
}

TEST_CASE("junction tree of the paper's Fig. 1 graph") {
  const Graph g = testing::paper_figure1_graph();
  const std::vector<VarSet> cliques = maximal_cliques(g);
  const JunctionTree tree = build_junction_tree(g, cliques);
  CHECK(tree.nodes == std::vector<VarSet>{{0, 1, 2}, {0, 2, 3}, {3, 4}, {5}});
  // {0,1,2}-{0,2,3} share two variables, {0,2,3}-{3,4} one, {5} joins with an empty separator.
  CHECK(tree.links == std::vector<std::pair<int, int>>{{0, 1}, {0, 3}, {1, 2}});
  CHECK(tree.factor_node == std::vector<int>{0, 1, 2, 3});
  check_tree(g, cliques, tree, true);
  CHECK(largest_node_cells(tree, {2, 3, 4, 5, 6, 7}) == 40.0);
}

TEST_CASE("junction tree of a 4-cycle assigns the original edges to the triangulated nodes") {
  const Graph g = testing::cycle_graph(4);
  const std::vector<VarSet> cliques = maximal_cliques(g);  // the four edges
  const JunctionTree tree = build_junction_tree(g, cliques);
  CHECK(tree.nodes == std::vector<VarSet>{{0, 1, 3}, {1, 2, 3}});
  CHECK(tree.links == std::vector<std::pair<int, int>>{{0, 1}});
  REQUIRE(cliques == std::vector<VarSet>{{0, 1}, {0, 3}, {1, 2}, {2, 3}});
  CHECK(tree.factor_node == std::vector<int>{0, 0, 1, 1});
}

TEST_CASE("junction-tree invariants on random graphs") {
  TestRng rng(0x6a756e6374ULL);
  int graphs = 0;
  for (int n = 1; n <= 15; ++n) {
    for (double density : {0.1, 0.25, 0.4, 0.6, 0.8}) {
      const int repeats = n <= 10 ? 4 : 2;
      for (int repeat = 0; repeat < repeats; ++repeat) {
        check_graph(testing::random_graph(n, density, rng));
        ++graphs;
      }
    }
  }
  CHECK(graphs == 250);
}

TEST_CASE("junction-tree invariants on structured graphs") {
  for (int length = 4; length <= 8; ++length) {
    check_graph(testing::cycle_graph(length));
    check_graph(testing::cycle_graph(length, 3));
  }
  check_graph(testing::grid_graph(3, 3));
  check_graph(testing::grid_graph(2, 5));
  check_graph(testing::grid_graph(3, 4));
  check_graph(testing::grid_graph(4, 4));
  for (int n = 1; n <= 8; ++n) check_graph(testing::complete_graph(n));
  check_graph(Graph(1));
  check_graph(Graph(7));  // no edges: seven singleton nodes joined by empty separators

  // Two disjoint cycles and a triangle: one tree across the components.
  Graph parts(13, {{0, 1},
                   {1, 2},
                   {2, 3},
                   {3, 4},
                   {4, 0},
                   {5, 6},
                   {6, 7},
                   {7, 8},
                   {8, 5},
                   {9, 10},
                   {10, 11},
                   {11, 9}});
  check_graph(parts);

  const JunctionTree empty = build_junction_tree(Graph(0), {});
  CHECK(empty.nodes.empty());
  CHECK(empty.links.empty());
  CHECK(empty.factor_node.empty());
  CHECK(largest_node_cells(empty, {}) == 0.0);
}

TEST_CASE("junction trees of large sparse graphs") {
  const int n = 10000;
  Graph chain(n);
  for (int i = 0; i + 1 < n; ++i) chain.add_edge(i, i + 1);
  const std::vector<VarSet> cliques = maximal_cliques(chain);
  check_tree(chain, cliques, build_junction_tree(chain, cliques), false);

  Graph star(400);
  for (int i = 1; i < 400; ++i) star.add_edge(0, i);
  check_graph(star, false);

  // A long cycle with pendant triangles, not chordal.
  Graph ring(600);
  for (int i = 0; i < 300; ++i) {
    ring.add_edge(i, (i + 1) % 300);
    ring.add_edge(i, 300 + i);
    ring.add_edge((i + 1) % 300, 300 + i);
  }
  check_graph(ring, false);
}

TEST_CASE("build_junction_tree rejects factors that are not cliques of the graph") {
  const Graph g = testing::cycle_graph(4);
  const auto status_of = [&](const std::vector<VarSet>& factors) {
    try {
      build_junction_tree(g, factors);
    } catch (const Error& e) {
      return e.status();
    }
    return Status::ok;
  };
  CHECK(status_of({{0, 1}}) == Status::ok);
  CHECK(status_of({{0, 2}}) == Status::internal);  // not an edge (only a fill-in chord later)
  CHECK(status_of({{1, 3}}) == Status::internal);  // the chord min-fill adds: still not original
  CHECK(status_of({{0, 4}}) == Status::internal);
  CHECK(status_of({{-1}}) == Status::internal);
  CHECK(status_of({{1, 0}}) == Status::internal);  // not sorted
  CHECK(status_of({{0, 0}}) == Status::internal);
}

TEST_CASE("largest_node_cells is the largest product of domain sizes") {
  const Graph g(4, {{0, 1}, {1, 2}, {2, 3}});
  const JunctionTree tree = build_junction_tree(g, maximal_cliques(g));
  CHECK(largest_node_cells(tree, {2, 3, 4, 2}) == 12.0);
  CHECK(largest_node_cells(tree, {100, 1, 1, 1}) == 100.0);
  CHECK_THROWS_AS(largest_node_cells(tree, {2, 3}), Error);
}

}  // namespace
}  // namespace addbo::core

TEST_SUITE_END();
