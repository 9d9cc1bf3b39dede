#include "graph/random_forest.hpp"

#include <algorithm>
#include <functional>
#include <queue>

namespace addbo::core {
namespace {

// The tree of a Prüfer sequence (D - 2 labels in [0, D)): every labelled tree on D vertices
// has exactly one sequence, so uniform labels give a uniform tree. O(D log D).
std::vector<Edge> prufer_tree(const std::vector<int>& sequence, int dimension) {
  std::vector<int> degree(static_cast<std::size_t>(dimension), 1);
  for (int v : sequence) ++degree[v];
  std::priority_queue<int, std::vector<int>, std::greater<int>> leaves;
  for (int v = 0; v < dimension; ++v) {
    if (degree[v] == 1) leaves.push(v);
  }
  std::vector<Edge> edges;
  for (int v : sequence) {
    const int leaf = leaves.top();
    leaves.pop();
    edges.emplace_back(std::min(leaf, v), std::max(leaf, v));
    if (--degree[v] == 1) leaves.push(v);
  }
  const int a = leaves.top();
  leaves.pop();
  const int b = leaves.top();
  edges.emplace_back(std::min(a, b), std::max(a, b));
  return edges;
}

}  // namespace

std::vector<Edge> random_forest(int dimension, int edge_count, Random& random,
                                const std::function<bool(const Edge&)>& allowed) {
  if (dimension < 2 || edge_count <= 0) return {};
  std::vector<int> sequence(static_cast<std::size_t>(dimension - 2));
  for (int& label : sequence)
    label = static_cast<int>(random.below(static_cast<std::uint64_t>(dimension)));
  std::vector<Edge> tree = prufer_tree(sequence, dimension);
  // A uniformly random subset: the first edge_count of a partial Fisher-Yates shuffle, skipping
  // edges that are not allowed.
  std::vector<Edge> kept;
  for (std::size_t i = 0; i < tree.size() && static_cast<int>(kept.size()) < edge_count; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(random.below(tree.size() - i));
    std::swap(tree[i], tree[j]);
    if (allowed(tree[i])) kept.push_back(tree[i]);
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

}  // namespace addbo::core
