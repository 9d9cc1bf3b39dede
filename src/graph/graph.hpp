// The dependency graph over variables 0..D-1 and the pure algorithms on it: maximal cliques,
// chordality and min-fill triangulation (the module graph of docs/architecture.md).
#pragma once

#include <utility>
#include <vector>

namespace addbo::core {

// A set of variable indices, kept sorted ascending without duplicates.
using VarSet = std::vector<int>;
using Edge = std::pair<int, int>;  // always first < second

class Graph {
 public:
  explicit Graph(int vertex_count = 0);
  Graph(int vertex_count, const std::vector<Edge>& edges);

  int vertex_count() const { return static_cast<int>(adjacency_.size()); }
  bool has_edge(int a, int b) const;
  void add_edge(int a, int b);     // a != b; adding an existing edge is a no-op
  void remove_edge(int a, int b);  // removing a missing edge is a no-op
  const std::vector<int>& neighbours(int v) const { return adjacency_[v]; }  // sorted
  std::vector<Edge> edges() const;  // sorted, first < second
  std::size_t edge_count() const;

  bool operator==(const Graph& other) const { return adjacency_ == other.adjacency_; }

 private:
  std::vector<std::vector<int>> adjacency_;  // each list sorted ascending
};

// All maximal cliques, each sorted, the list sorted lexicographically. An isolated vertex is a
// clique of its own, so every vertex lies in at least one clique.
std::vector<VarSet> maximal_cliques(const Graph& graph);

// True when every cycle of length >= 4 has a chord.
bool is_chordal(const Graph& graph);

// A chordal supergraph built by greedy min-fill elimination (ties broken by the smaller vertex
// index, so the result is deterministic). A chordal input is returned unchanged.
Graph triangulate_min_fill(const Graph& graph);

}  // namespace addbo::core
