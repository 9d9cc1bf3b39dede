#include "graph/graph.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

#include "util/error.hpp"

namespace addbo::core {

namespace {

void check_vertex(int v, int vertex_count, const char* what) {
  if (v < 0 || v >= vertex_count) {
    throw invalid_argument(std::string(what) + ": vertex " + std::to_string(v) + " is outside 0.." +
                           std::to_string(vertex_count - 1));
  }
}

bool sorted_contains(const std::vector<int>& list, int value) {
  return std::binary_search(list.begin(), list.end(), value);
}

void sorted_insert(std::vector<int>& list, int value) {
  auto it = std::lower_bound(list.begin(), list.end(), value);
  if (it == list.end() || *it != value) list.insert(it, value);
}

void sorted_erase(std::vector<int>& list, int value) {
  auto it = std::lower_bound(list.begin(), list.end(), value);
  if (it != list.end() && *it == value) list.erase(it);
}

std::vector<int> sorted_intersection(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::size_t intersection_size(const std::vector<int>& a, const std::vector<int>& b) {
  std::size_t count = 0;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++count;
      ++i;
      ++j;
    }
  }
  return count;
}

// Degeneracy ordering (repeatedly remove a vertex of minimum remaining degree). Starting
// Bron-Kerbosch from each vertex with only its later neighbours as candidates keeps every
// top-level subproblem as small as the graph's degeneracy, which matters for long sparse chains.
std::vector<int> degeneracy_order(const Graph& graph) {
  const int n = graph.vertex_count();
  std::vector<int> degree(n);
  int max_degree = 0;
  for (int v = 0; v < n; ++v) {
    degree[v] = static_cast<int>(graph.neighbours(v).size());
    max_degree = std::max(max_degree, degree[v]);
  }
  // Buckets with lazy deletion: a vertex may sit in stale buckets; it is taken only from the
  // bucket matching its current degree.
  std::vector<std::vector<int>> buckets(max_degree + 1);
  for (int v = n - 1; v >= 0; --v) buckets[degree[v]].push_back(v);
  std::vector<char> removed(n, 0);
  std::vector<int> order;
  order.reserve(n);
  int lowest = 0;
  while (static_cast<int>(order.size()) < n) {
    while (buckets[lowest].empty()) ++lowest;
    const int v = buckets[lowest].back();
    buckets[lowest].pop_back();
    if (removed[v] || degree[v] != lowest) continue;
    removed[v] = 1;
    order.push_back(v);
    for (int w : graph.neighbours(v)) {
      if (removed[w]) continue;
      --degree[w];
      buckets[degree[w]].push_back(w);
      if (degree[w] < lowest) lowest = degree[w];
    }
  }
  return order;
}

// One level of the Bron-Kerbosch search: candidates P, excluded X, and the branching vertices
// P \ N(pivot) still to try.
struct SearchFrame {
  std::vector<int> p;
  std::vector<int> x;
  std::vector<int> branch;
  std::size_t next = 0;
};

SearchFrame make_frame(const Graph& graph, std::vector<int> p, std::vector<int> x) {
  // Tomita pivot: the vertex of P u X with the most neighbours in P (first one on ties).
  int pivot = -1;
  std::size_t best = 0;
  for (const std::vector<int>* list : {&p, &x}) {
    for (int u : *list) {
      const std::size_t covered = intersection_size(p, graph.neighbours(u));
      if (pivot < 0 || covered > best) {
        pivot = u;
        best = covered;
      }
    }
  }
  SearchFrame frame;
  std::set_difference(p.begin(), p.end(), graph.neighbours(pivot).begin(),
                      graph.neighbours(pivot).end(), std::back_inserter(frame.branch));
  frame.p = std::move(p);
  frame.x = std::move(x);
  return frame;
}

// Reports every maximal clique R u C where C is a clique of P and no vertex of X extends it.
// Iterative (explicit stack) so a huge clique cannot exhaust the call stack.
void bron_kerbosch(const Graph& graph, std::vector<int>& r, std::vector<int> p, std::vector<int> x,
                   std::vector<VarSet>& out) {
  if (p.empty()) {
    if (x.empty()) out.push_back(r);
    return;
  }
  const std::size_t base = r.size();
  std::vector<SearchFrame> stack;
  stack.push_back(make_frame(graph, std::move(p), std::move(x)));
  while (!stack.empty()) {
    SearchFrame& frame = stack.back();
    if (frame.next == frame.branch.size()) {
      stack.pop_back();
      if (r.size() > base) r.pop_back();
      continue;
    }
    const int v = frame.branch[frame.next++];
    const std::vector<int>& nv = graph.neighbours(v);
    std::vector<int> next_p = sorted_intersection(frame.p, nv);
    std::vector<int> next_x = sorted_intersection(frame.x, nv);
    // v has been explored from this level: later branches must not report cliques with it.
    sorted_erase(frame.p, v);
    sorted_insert(frame.x, v);
    r.push_back(v);
    if (next_p.empty()) {
      if (next_x.empty()) out.push_back(r);
      r.pop_back();
    } else {
      // `frame` may dangle after this push; it is not used again in this iteration.
      stack.push_back(make_frame(graph, std::move(next_p), std::move(next_x)));
    }
  }
}

// Maximum cardinality search: the reverse of the visiting order is a perfect elimination
// ordering exactly when the graph is chordal (Tarjan & Yannakakis 1984).
std::vector<int> maximum_cardinality_order(const Graph& graph) {
  const int n = graph.vertex_count();
  std::vector<int> weight(n, 0);
  std::vector<char> visited(n, 0);
  std::vector<std::vector<int>> buckets(n + 1);
  for (int v = n - 1; v >= 0; --v) buckets[0].push_back(v);
  std::vector<int> order;
  order.reserve(n);
  int highest = 0;
  while (static_cast<int>(order.size()) < n) {
    // Stale entries (already visited, or weight since increased) are skipped lazily.
    int v = -1;
    while (v < 0) {
      if (buckets[highest].empty()) {
        --highest;
        continue;
      }
      const int candidate = buckets[highest].back();
      buckets[highest].pop_back();
      if (!visited[candidate] && weight[candidate] == highest) v = candidate;
    }
    visited[v] = 1;
    order.push_back(v);
    for (int w : graph.neighbours(v)) {
      if (visited[w]) continue;
      ++weight[w];
      buckets[weight[w]].push_back(w);
      highest = std::max(highest, weight[w]);
    }
  }
  return order;
}

// Number of missing edges among the neighbours of v in the working graph.
std::size_t fill_in(const Graph& working, int v) {
  const std::vector<int>& nv = working.neighbours(v);
  std::size_t missing = 0;
  for (std::size_t i = 0; i < nv.size(); ++i) {
    for (std::size_t j = i + 1; j < nv.size(); ++j) {
      if (!working.has_edge(nv[i], nv[j])) ++missing;
    }
  }
  return missing;
}

}  // namespace

Graph::Graph(int vertex_count) {
  if (vertex_count < 0) throw invalid_argument("Graph: negative vertex count");
  adjacency_.resize(static_cast<std::size_t>(vertex_count));
}

Graph::Graph(int vertex_count, const std::vector<Edge>& edges) : Graph(vertex_count) {
  for (const Edge& e : edges) add_edge(e.first, e.second);
}

bool Graph::has_edge(int a, int b) const {
  if (a < 0 || b < 0 || a >= vertex_count() || b >= vertex_count()) return false;
  return sorted_contains(adjacency_[a], b);
}

void Graph::add_edge(int a, int b) {
  check_vertex(a, vertex_count(), "Graph::add_edge");
  check_vertex(b, vertex_count(), "Graph::add_edge");
  if (a == b) throw invalid_argument("Graph::add_edge: self-loop on vertex " + std::to_string(a));
  sorted_insert(adjacency_[a], b);
  sorted_insert(adjacency_[b], a);
}

void Graph::remove_edge(int a, int b) {
  check_vertex(a, vertex_count(), "Graph::remove_edge");
  check_vertex(b, vertex_count(), "Graph::remove_edge");
  sorted_erase(adjacency_[a], b);
  sorted_erase(adjacency_[b], a);
}

std::vector<Edge> Graph::edges() const {
  std::vector<Edge> out;
  out.reserve(edge_count());
  for (int a = 0; a < vertex_count(); ++a) {
    for (int b : adjacency_[a]) {
      if (a < b) out.emplace_back(a, b);
    }
  }
  return out;
}

std::size_t Graph::edge_count() const {
  std::size_t twice = 0;
  for (const auto& list : adjacency_) twice += list.size();
  return twice / 2;
}

std::vector<VarSet> maximal_cliques(const Graph& graph) {
  const int n = graph.vertex_count();
  const std::vector<int> order = degeneracy_order(graph);
  std::vector<int> position(n);
  for (int i = 0; i < n; ++i) position[order[i]] = i;

  std::vector<VarSet> cliques;
  std::vector<int> r;
  for (int v : order) {
    // Every maximal clique is found exactly once: from its vertex that comes first in `order`.
    std::vector<int> later;
    std::vector<int> earlier;
    for (int w : graph.neighbours(v)) (position[w] > position[v] ? later : earlier).push_back(w);
    r.assign(1, v);
    bron_kerbosch(graph, r, std::move(later), std::move(earlier), cliques);
  }
  for (VarSet& clique : cliques) std::sort(clique.begin(), clique.end());
  std::sort(cliques.begin(), cliques.end());
  return cliques;
}

bool is_chordal(const Graph& graph) {
  const int n = graph.vertex_count();
  const std::vector<int> order = maximum_cardinality_order(graph);
  std::vector<int> position(n);
  for (int i = 0; i < n; ++i) position[order[i]] = i;
  // In the elimination ordering (reverse visit order) the neighbours of v eliminated after it
  // are those visited before it; they must form a clique. It suffices to check that all of them
  // are adjacent to the one visited last (Tarjan & Yannakakis's zero fill-in test).
  for (int v = 0; v < n; ++v) {
    int follower = -1;
    for (int w : graph.neighbours(v)) {
      if (position[w] < position[v] && (follower < 0 || position[w] > position[follower])) {
        follower = w;
      }
    }
    if (follower < 0) continue;
    for (int w : graph.neighbours(v)) {
      if (w != follower && position[w] < position[v] && !graph.has_edge(follower, w)) {
        return false;
      }
    }
  }
  return true;
}

Graph triangulate_min_fill(const Graph& graph) {
  if (is_chordal(graph)) return graph;
  const int n = graph.vertex_count();
  Graph result = graph;
  Graph working = graph;  // the graph of the vertices not yet eliminated
  std::vector<std::size_t> fill(n);
  std::set<std::pair<std::size_t, int>> queue;  // (fill-in, vertex): smallest vertex on ties
  for (int v = 0; v < n; ++v) {
    fill[v] = fill_in(working, v);
    queue.emplace(fill[v], v);
  }
  std::vector<char> eliminated(n, 0);
  std::vector<char> touched(n, 0);
  while (!queue.empty()) {
    const int v = queue.begin()->second;
    queue.erase(queue.begin());
    eliminated[v] = 1;
    const std::vector<int> nv = working.neighbours(v);
    for (std::size_t i = 0; i < nv.size(); ++i) {
      for (std::size_t j = i + 1; j < nv.size(); ++j) {
        if (!working.has_edge(nv[i], nv[j])) {
          working.add_edge(nv[i], nv[j]);
          result.add_edge(nv[i], nv[j]);
        }
      }
    }
    for (int w : nv) working.remove_edge(v, w);
    // Only the former neighbours and their neighbours can see their fill-in change: the former
    // lost v and gained edges, the latter may have gained edges between their neighbours.
    std::vector<int> affected;
    for (int w : nv) {
      if (!touched[w]) {
        touched[w] = 1;
        affected.push_back(w);
      }
      for (int u : working.neighbours(w)) {
        if (!touched[u]) {
          touched[u] = 1;
          affected.push_back(u);
        }
      }
    }
    for (int u : affected) {
      touched[u] = 0;
      if (eliminated[u]) continue;
      const std::size_t updated = fill_in(working, u);
      if (updated != fill[u]) {
        queue.erase({fill[u], u});
        fill[u] = updated;
        queue.emplace(updated, u);
      }
    }
  }
  return result;
}

}  // namespace addbo::core
