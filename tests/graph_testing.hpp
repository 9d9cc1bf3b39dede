// Test-only helpers shared by the graph, junction-tree and max-sum tests: reproducible random
// numbers, graph generators, and brute-force references written independently of src/graph
// (bitmask enumeration, so only for graphs of up to ~16 vertices).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {
namespace testing {

// Draws derived from the raw 64-bit output, so the instances do not depend on the standard
// library's distribution code.
class TestRng {
 public:
  explicit TestRng(std::uint64_t seed) : engine_(seed) {}
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
  int below(int n) { return static_cast<int>(engine_() % static_cast<std::uint64_t>(n)); }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }  // inclusive
  bool chance(double p) { return uniform() < p; }

 private:
  std::mt19937_64 engine_;
};

inline Graph random_graph(int n, double density, TestRng& rng) {
  Graph g(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (rng.chance(density)) g.add_edge(a, b);
    }
  }
  return g;
}

// Cycle 0-1-...-(length-1)-0 plus `extra` isolated vertices after it.
inline Graph cycle_graph(int length, int extra = 0) {
  Graph g(length + extra);
  for (int i = 0; i < length; ++i) g.add_edge(i, (i + 1) % length);
  return g;
}

inline Graph grid_graph(int rows, int cols) {
  Graph g(rows * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (c + 1 < cols) g.add_edge(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows) g.add_edge(r * cols + c, (r + 1) * cols + c);
    }
  }
  return g;
}

inline Graph complete_graph(int n) {
  Graph g(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) g.add_edge(a, b);
  }
  return g;
}

// The dependency graph of the paper's Fig. 1, 0-based.
inline Graph paper_figure1_graph() {
  return Graph(6, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {2, 3}, {3, 4}});
}

inline std::vector<std::uint32_t> adjacency_masks(const Graph& g) {
  std::vector<std::uint32_t> masks(g.vertex_count(), 0);
  for (int a = 0; a < g.vertex_count(); ++a) {
    for (int b = 0; b < g.vertex_count(); ++b) {
      if (a != b && g.has_edge(a, b)) masks[a] |= 1u << b;
    }
  }
  return masks;
}

inline VarSet mask_to_set(std::uint32_t mask) {
  VarSet set;
  for (int v = 0; mask != 0; ++v, mask >>= 1) {
    if (mask & 1u) set.push_back(v);
  }
  return set;
}

inline bool mask_is_clique(std::uint32_t s, const std::vector<std::uint32_t>& adj) {
  for (int v = 0; v < static_cast<int>(adj.size()); ++v) {
    if ((s >> v & 1u) && (s & ~(1u << v) & ~adj[v]) != 0) return false;
  }
  return true;
}

// Every non-empty vertex subset that is a clique and cannot be extended, sorted.
inline std::vector<VarSet> brute_force_maximal_cliques(const Graph& g) {
  const int n = g.vertex_count();
  const std::vector<std::uint32_t> adj = adjacency_masks(g);
  std::vector<VarSet> cliques;
  for (std::uint32_t s = 1; s < (1u << n); ++s) {
    if (!mask_is_clique(s, adj)) continue;
    bool maximal = true;
    for (int w = 0; w < n && maximal; ++w) {
      if (!(s >> w & 1u) && (s & ~adj[w]) == 0) maximal = false;
    }
    if (maximal) cliques.push_back(mask_to_set(s));
  }
  std::sort(cliques.begin(), cliques.end());
  return cliques;
}

inline bool mask_is_connected(std::uint32_t s, const std::vector<std::uint32_t>& adj) {
  if (s == 0) return true;
  std::uint32_t reached = s & (~s + 1);  // lowest vertex
  while (true) {
    std::uint32_t grown = reached;
    for (int v = 0; v < static_cast<int>(adj.size()); ++v) {
      if (reached >> v & 1u) grown |= adj[v] & s;
    }
    if (grown == reached) return reached == s;
    reached = grown;
  }
}

// True when some vertex subset of size >= 4 induces a cycle (connected, every degree 2): the
// definition of a non-chordal graph, checked by enumeration.
inline bool has_chordless_cycle(const Graph& g) {
  const int n = g.vertex_count();
  const std::vector<std::uint32_t> adj = adjacency_masks(g);
  for (std::uint32_t s = 1; s < (1u << n); ++s) {
    int size = 0;
    bool all_degree_two = true;
    for (int v = 0; v < n && all_degree_two; ++v) {
      if (!(s >> v & 1u)) continue;
      ++size;
      std::uint32_t inside = adj[v] & s;
      int degree = 0;
      for (; inside != 0; inside &= inside - 1) ++degree;
      all_degree_two = degree == 2;
    }
    if (all_degree_two && size >= 4 && mask_is_connected(s, adj)) return true;
  }
  return false;
}

}  // namespace testing
}  // namespace addbo::core
