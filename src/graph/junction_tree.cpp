#include "graph/junction_tree.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "util/error.hpp"

namespace addbo::core {

namespace {

// Maximum-weight spanning tree of the clique graph (weight = separator size) by Prim's algorithm
// from node 0. Shared-variable counts are gathered through a variable -> nodes index, so the cost
// follows the pairs of nodes that actually overlap instead of all pairs. Ties go to the smaller
// node index; a node sharing nothing with the tree so far (another connected component) is
// linked to node 0 with an empty separator.
std::vector<std::pair<int, int>> spanning_tree(const std::vector<VarSet>& nodes,
                                               const std::vector<std::vector<int>>& nodes_of) {
  const int m = static_cast<int>(nodes.size());
  std::vector<std::pair<int, int>> links;
  if (m == 0) return links;
  links.reserve(static_cast<std::size_t>(m - 1));

  std::vector<int> best_weight(m, 0);
  std::vector<int> best_parent(m, 0);
  std::vector<char> in_tree(m, 0);
  std::vector<int> shared(m, 0);
  std::set<std::pair<int, int>> frontier;  // (-weight, node): heaviest first, then smallest node
  for (int j = 1; j < m; ++j) frontier.emplace(0, j);

  int added = 0;
  while (true) {
    in_tree[added] = 1;
    std::vector<int> touched;
    for (int v : nodes[added]) {
      for (int j : nodes_of[v]) {
        if (in_tree[j]) continue;
        if (shared[j]++ == 0) touched.push_back(j);
      }
    }
    for (int j : touched) {
      // Strictly heavier only: on equal weight the link found first (earlier tree node) stays.
      if (shared[j] > best_weight[j]) {
        frontier.erase({-best_weight[j], j});
        best_weight[j] = shared[j];
        best_parent[j] = added;
        frontier.emplace(-best_weight[j], j);
      }
      shared[j] = 0;
    }
    if (frontier.empty()) break;
    added = frontier.begin()->second;
    frontier.erase(frontier.begin());
    const int parent = best_parent[added];
    links.emplace_back(std::min(parent, added), std::max(parent, added));
  }
  std::sort(links.begin(), links.end());
  return links;
}

bool is_clique_of(const Graph& graph, const VarSet& vars) {
  for (std::size_t i = 0; i < vars.size(); ++i) {
    for (std::size_t j = i + 1; j < vars.size(); ++j) {
      if (!graph.has_edge(vars[i], vars[j])) return false;
    }
  }
  return true;
}

std::string describe(const VarSet& vars) {
  std::string text = "{";
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(vars[i]);
  }
  return text + "}";
}

}  // namespace

JunctionTree build_junction_tree(const Graph& graph, const std::vector<VarSet>& factors) {
  const int n = graph.vertex_count();
  JunctionTree tree;
  tree.nodes = maximal_cliques(triangulate_min_fill(graph));

  std::vector<std::vector<int>> nodes_of(n);  // each list ascending in node index
  for (int i = 0; i < static_cast<int>(tree.nodes.size()); ++i) {
    for (int v : tree.nodes[i]) nodes_of[v].push_back(i);
  }
  tree.links = spanning_tree(tree.nodes, nodes_of);

  tree.factor_node.reserve(factors.size());
  for (std::size_t f = 0; f < factors.size(); ++f) {
    const VarSet& factor = factors[f];
    const bool in_range =
        std::all_of(factor.begin(), factor.end(), [n](int v) { return v >= 0 && v < n; });
    const bool sorted = std::adjacent_find(factor.begin(), factor.end(),
                                           [](int a, int b) { return a >= b; }) == factor.end();
    if (!in_range || !sorted || !is_clique_of(graph, factor)) {
      throw Error(Status::internal, "build_junction_tree: factor " + std::to_string(f) + " " +
                                        describe(factor) + " is not a clique of the graph");
    }
    // The first node containing the factor; the rarest variable has the fewest candidates,
    // and its candidate list still contains every node that holds the whole factor.
    int found = -1;
    if (factor.empty()) {
      if (!tree.nodes.empty()) found = 0;
    } else {
      int rarest = factor.front();
      for (int v : factor) {
        if (nodes_of[v].size() < nodes_of[rarest].size()) rarest = v;
      }
      for (int i : nodes_of[rarest]) {
        const VarSet& node = tree.nodes[i];
        if (std::includes(node.begin(), node.end(), factor.begin(), factor.end())) {
          found = i;
          break;
        }
      }
    }
    if (found < 0) {
      throw Error(Status::internal, "build_junction_tree: factor " + std::to_string(f) + " " +
                                        describe(factor) + " is in no junction-tree node");
    }
    tree.factor_node.push_back(found);
  }
  return tree;
}

double largest_node_cells(const JunctionTree& tree, const std::vector<int>& domain_sizes) {
  double largest = 0.0;
  for (const VarSet& node : tree.nodes) {
    double cells = 1.0;
    for (int v : node) {
      if (v < 0 || v >= static_cast<int>(domain_sizes.size())) {
        throw invalid_argument("largest_node_cells: variable " + std::to_string(v) +
                               " has no domain size");
      }
      cells *= static_cast<double>(domain_sizes[v]);
    }
    largest = std::max(largest, cells);
  }
  return largest;
}

}  // namespace addbo::core
