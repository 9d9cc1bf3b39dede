#include "graph/partition.hpp"

#include <numeric>

namespace addbo::core {

std::vector<int> component_labels(int dimension, const std::vector<Edge>& edges) {
  // Union-find with path halving.
  std::vector<int> parent(static_cast<std::size_t>(dimension));
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const Edge& edge : edges) parent[root(edge.first)] = root(edge.second);
  std::vector<int> labels(static_cast<std::size_t>(dimension)),
      index(static_cast<std::size_t>(dimension), -1);
  int next = 0;
  for (int d = 0; d < dimension; ++d) {
    int& label = index[root(d)];
    if (label < 0) label = next++;
    labels[d] = label;
  }
  return labels;
}

std::vector<Edge> edges_of_labels(const std::vector<int>& labels) {
  std::vector<Edge> edges;
  for (int a = 0; a < static_cast<int>(labels.size()); ++a) {
    for (int b = a + 1; b < static_cast<int>(labels.size()); ++b) {
      if (labels[a] == labels[b]) edges.emplace_back(a, b);
    }
  }
  return edges;
}

}  // namespace addbo::core
