#include "maximize/max_sum.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "util/error.hpp"

namespace addbo::core {

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

std::string describe(const VarSet& vars) {
  std::string text = "{";
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(vars[i]);
  }
  return text + "}";
}

// Checks that `vars` is strictly ascending and inside 0..D-1.
void check_var_set(const VarSet& vars, std::size_t dimension, const std::string& what) {
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (vars[i] < 0 || static_cast<std::size_t>(vars[i]) >= dimension) {
      throw invalid_argument(what + " " + describe(vars) + ": variable " + std::to_string(vars[i]) +
                             " is outside 0.." +
                             std::to_string(static_cast<long long>(dimension) - 1));
    }
    if (i > 0 && vars[i - 1] >= vars[i]) {
      throw invalid_argument(what + " " + describe(vars) + " is not strictly ascending");
    }
  }
}

// Number of cells of a table over `vars`; false when it does not fit in memory addressing.
bool cell_count(const VarSet& vars, const std::vector<int>& domain_sizes, std::size_t& cells) {
  const std::size_t limit = std::numeric_limits<std::size_t>::max() / sizeof(double);
  cells = 1;
  for (int v : vars) {
    const auto size = static_cast<std::size_t>(domain_sizes[v]);
    if (cells > limit / size) return false;
    cells *= size;
  }
  return true;
}

// For every position k of `outer` (a node's variables), the row-major stride of outer[k] in a
// table over `inner` (a subset of `outer`), or 0 when outer[k] is not in `inner`. Walking the
// node's cells with these strides visits the matching cell of the smaller table.
std::vector<std::size_t> embedded_strides(const VarSet& outer, const VarSet& inner,
                                          const std::vector<int>& domain_sizes) {
  std::vector<std::size_t> strides(outer.size(), 0);
  std::size_t stride = 1;
  std::size_t k = outer.size();
  for (std::size_t i = inner.size(); i-- > 0;) {
    while (outer[k - 1] != inner[i]) --k;  // inner is a subset of outer, both ascending
    strides[--k] = stride;
    stride *= static_cast<std::size_t>(domain_sizes[inner[i]]);
  }
  return strides;
}

// Row-major walk over a node's cells that keeps two offsets into smaller tables up to date
// without allocating or dividing per cell. `visit(cell, offset_a, offset_b)` runs once per cell.
template <typename Visit>
void walk_cells(const std::vector<std::size_t>& sizes, const std::vector<std::size_t>& strides_a,
                const std::vector<std::size_t>& strides_b, Visit visit) {
  const std::size_t k = sizes.size();
  if (k == 0) {
    visit(std::size_t{0}, std::size_t{0}, std::size_t{0});
    return;
  }
  const std::size_t last_size = sizes[k - 1];
  const std::size_t last_a = strides_a[k - 1];
  const std::size_t last_b = strides_b[k - 1];
  std::vector<std::size_t> digits(k, 0);
  std::size_t cell = 0;
  std::size_t a = 0;
  std::size_t b = 0;
  while (true) {
    for (std::size_t i = 0; i < last_size; ++i) visit(cell++, a + i * last_a, b + i * last_b);
    // Advance the odometer over the leading dimensions.
    std::size_t d = k - 1;
    while (d > 0) {
      --d;
      ++digits[d];
      a += strides_a[d];
      b += strides_b[d];
      if (digits[d] < sizes[d]) break;
      a -= strides_a[d] * sizes[d];
      b -= strides_b[d] * sizes[d];
      digits[d] = 0;
      if (d == 0) return;
    }
    if (k == 1) return;
  }
}

struct RootedTree {
  std::vector<int> order;   // breadth-first from node 0: every parent before its children
  std::vector<int> parent;  // -1 for the root
};

RootedTree root_tree(const JunctionTree& tree) {
  const std::size_t m = tree.nodes.size();
  RootedTree rooted;
  if (m == 0) {
    if (!tree.links.empty()) throw invalid_argument("maximize_sum: links but no nodes");
    return rooted;
  }
  if (tree.links.size() + 1 != m) {
    throw invalid_argument("maximize_sum: a tree of " + std::to_string(m) + " nodes needs " +
                           std::to_string(m - 1) + " links, got " +
                           std::to_string(tree.links.size()));
  }
  std::vector<std::vector<int>> adjacent(m);
  for (const auto& link : tree.links) {
    const bool valid = link.first >= 0 && link.second >= 0 && link.first != link.second &&
                       static_cast<std::size_t>(link.first) < m &&
                       static_cast<std::size_t>(link.second) < m;
    if (!valid) {
      throw invalid_argument("maximize_sum: invalid link (" + std::to_string(link.first) + ", " +
                             std::to_string(link.second) + ")");
    }
    adjacent[link.first].push_back(link.second);
    adjacent[link.second].push_back(link.first);
  }
  rooted.parent.assign(m, -1);
  std::vector<char> seen(m, 0);
  rooted.order.reserve(m);
  rooted.order.push_back(0);
  seen[0] = 1;
  for (std::size_t head = 0; head < rooted.order.size(); ++head) {
    const int node = rooted.order[head];
    for (int next : adjacent[node]) {
      if (seen[next]) continue;
      seen[next] = 1;
      rooted.parent[next] = node;
      rooted.order.push_back(next);
    }
  }
  if (rooted.order.size() != m) {
    throw invalid_argument("maximize_sum: the junction-tree links do not connect all nodes");
  }
  return rooted;
}

// Validates everything maximize_sum relies on and returns the tree rooted at node 0.
RootedTree check_inputs(const JunctionTree& tree, const std::vector<Table>& factors,
                        const std::vector<int>& domain_sizes) {
  const std::size_t dimension = domain_sizes.size();
  for (std::size_t v = 0; v < dimension; ++v) {
    if (domain_sizes[v] < 1) {
      throw invalid_argument("maximize_sum: variable " + std::to_string(v) +
                             " has an empty domain");
    }
  }
  // Every variable must be decided by some node, and (running intersection) the nodes holding
  // a variable must be connected, else the maximisations of different nodes could disagree.
  std::vector<std::size_t> node_count(dimension, 0);
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    check_var_set(tree.nodes[i], dimension, "maximize_sum: node " + std::to_string(i));
    for (int v : tree.nodes[i]) ++node_count[v];
  }
  RootedTree rooted = root_tree(tree);
  std::vector<std::size_t> link_count(dimension, 0);
  for (const auto& link : tree.links) {
    const VarSet& a = tree.nodes[link.first];
    const VarSet& b = tree.nodes[link.second];
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
      if (a[i] < b[j]) {
        ++i;
      } else if (b[j] < a[i]) {
        ++j;
      } else {
        ++link_count[a[i]];
        ++i;
        ++j;
      }
    }
  }
  for (std::size_t v = 0; v < dimension; ++v) {
    if (node_count[v] == 0) {
      throw invalid_argument("maximize_sum: variable " + std::to_string(v) +
                             " is in no junction-tree node");
    }
    if (node_count[v] != link_count[v] + 1) {
      throw invalid_argument("maximize_sum: the nodes containing variable " + std::to_string(v) +
                             " are not connected (running intersection fails)");
    }
  }

  if (tree.factor_node.size() != factors.size()) {
    throw invalid_argument("maximize_sum: " + std::to_string(factors.size()) + " factors but " +
                           std::to_string(tree.factor_node.size()) + " factor assignments");
  }
  for (std::size_t f = 0; f < factors.size(); ++f) {
    const std::string what = "maximize_sum: factor " + std::to_string(f);
    const Table& table = factors[f];
    check_var_set(table.vars, dimension, what);
    std::size_t cells = 0;
    if (!cell_count(table.vars, domain_sizes, cells) || table.values.size() != cells) {
      throw invalid_argument(what + " " + describe(table.vars) + " has " +
                             std::to_string(table.values.size()) +
                             " values, not the product of its domain sizes");
    }
    const int node = tree.factor_node[f];
    if (node < 0 || static_cast<std::size_t>(node) >= tree.nodes.size()) {
      throw invalid_argument(what + " is assigned to node " + std::to_string(node) +
                             ", which does not exist");
    }
    const VarSet& holder = tree.nodes[node];
    if (!std::includes(holder.begin(), holder.end(), table.vars.begin(), table.vars.end())) {
      throw invalid_argument(what + " " + describe(table.vars) + " is not contained in node " +
                             std::to_string(node) + " " + describe(holder));
    }
  }
  return rooted;
}

}  // namespace

std::size_t table_offset(const VarSet& vars, const std::vector<int>& domain_sizes,
                         const std::vector<int>& assignment) {
  std::size_t offset = 0;
  for (int v : vars) {
    if (v < 0 || static_cast<std::size_t>(v) >= domain_sizes.size() ||
        static_cast<std::size_t>(v) >= assignment.size()) {
      throw invalid_argument("table_offset: variable " + std::to_string(v) + " is out of range");
    }
    const int value = assignment[v];
    if (value < 0 || value >= domain_sizes[v]) {
      throw invalid_argument("table_offset: value " + std::to_string(value) + " of variable " +
                             std::to_string(v) + " is outside its domain");
    }
    offset = offset * static_cast<std::size_t>(domain_sizes[v]) + static_cast<std::size_t>(value);
  }
  return offset;
}

MaxSumResult maximize_sum(const JunctionTree& tree, const std::vector<Table>& factors,
                          const std::vector<int>& domain_sizes) {
  return maximize_sum(tree, factors, domain_sizes, DomainMasks());
}

MaxSumResult maximize_sum(const JunctionTree& tree, const std::vector<Table>& factors,
                          const std::vector<int>& domain_sizes, const DomainMasks& allowed) {
  const RootedTree rooted = check_inputs(tree, factors, domain_sizes);
  if (!allowed.empty() && allowed.size() != domain_sizes.size()) {
    throw invalid_argument("maximize_sum: one domain mask per variable is required");
  }
  for (std::size_t v = 0; v < allowed.size(); ++v) {
    if (!allowed[v].empty() && allowed[v].size() != static_cast<std::size_t>(domain_sizes[v])) {
      throw invalid_argument("maximize_sum: the mask of variable " + std::to_string(v) +
                             " does not match its domain");
    }
  }
  MaxSumResult result;
  result.assignment.assign(domain_sizes.size(), 0);
  const std::size_t m = tree.nodes.size();
  if (m == 0) {
    // No variables (checked above: every variable is in a node) and hence no factors.
    return result;
  }

  std::vector<std::vector<int>> factors_of(m);
  for (std::size_t f = 0; f < factors.size(); ++f) {
    factors_of[tree.factor_node[f]].push_back(static_cast<int>(f));
  }
  std::vector<std::vector<int>> children(m);
  for (std::size_t i = 1; i < m; ++i) {
    const int node = rooted.order[i];
    children[rooted.parent[node]].push_back(node);
  }

  // Per node: its separator with the parent (empty at the root), its free variables, the
  // message to the parent and, per separator configuration, the row-major index of the best
  // configuration of the free variables. Only separator-sized tables outlive a node's turn.
  std::vector<VarSet> separator(m);
  std::vector<VarSet> free_vars(m);
  std::vector<std::vector<double>> message(m);
  std::vector<std::vector<std::size_t>> best_free(m);
  std::vector<double> potential;

  for (std::size_t i = m; i-- > 0;) {
    const int node = rooted.order[i];
    const VarSet& vars = tree.nodes[node];
    const int parent = rooted.parent[node];
    if (parent >= 0) {
      const VarSet& up = tree.nodes[parent];
      std::set_intersection(vars.begin(), vars.end(), up.begin(), up.end(),
                            std::back_inserter(separator[node]));
    }
    std::set_difference(vars.begin(), vars.end(), separator[node].begin(), separator[node].end(),
                        std::back_inserter(free_vars[node]));

    std::size_t cells = 0;
    if (!cell_count(vars, domain_sizes, cells)) {
      throw Error(Status::out_of_memory, "maximize_sum: node " + std::to_string(node) + " " +
                                             describe(vars) + " has too many cells");
    }
    std::vector<std::size_t> sizes(vars.size());
    for (std::size_t k = 0; k < vars.size(); ++k) {
      sizes[k] = static_cast<std::size_t>(domain_sizes[vars[k]]);
    }
    const std::vector<std::size_t> no_strides(vars.size(), 0);

    // Potential (eq. 8): the factors assigned here plus the children's messages.
    potential.assign(cells, 0.0);
    for (int f : factors_of[node]) {
      const std::vector<double>& values = factors[f].values;
      walk_cells(sizes, embedded_strides(vars, factors[f].vars, domain_sizes), no_strides,
                 [&](std::size_t cell, std::size_t offset, std::size_t) {
                   potential[cell] += values[offset];
                 });
    }
    for (int child : children[node]) {
      const std::vector<double>& incoming = message[child];
      walk_cells(sizes, embedded_strides(vars, separator[child], domain_sizes), no_strides,
                 [&](std::size_t cell, std::size_t offset, std::size_t) {
                   potential[cell] += incoming[offset];
                 });
      std::vector<double>().swap(message[child]);  // consumed
    }
    // Values a variable may not take are excluded where it is decided: a variable is free in
    // exactly one node (the one nearest the root that holds it).
    for (int v : free_vars[node]) {
      if (allowed.empty() || allowed[v].empty()) continue;
      const std::vector<char>& mask = allowed[v];
      walk_cells(sizes, embedded_strides(vars, VarSet{v}, domain_sizes), no_strides,
                 [&](std::size_t cell, std::size_t value, std::size_t) {
                   if (!mask[value]) potential[cell] = kMinusInfinity;
                 });
    }

    // Max out the free variables. Cells are visited row-major, so for each separator
    // configuration the free configurations arrive in increasing index order and the strict
    // comparison keeps the first maximum. NaN never compares greater, so it acts as -infinity.
    std::size_t separator_cells = 0;
    cell_count(separator[node], domain_sizes, separator_cells);  // fits: subset of the node
    std::vector<double>& out = message[node];
    std::vector<std::size_t>& arg = best_free[node];
    out.assign(separator_cells, kMinusInfinity);
    arg.assign(separator_cells, 0);
    walk_cells(sizes, embedded_strides(vars, separator[node], domain_sizes),
               embedded_strides(vars, free_vars[node], domain_sizes),
               [&](std::size_t cell, std::size_t sep, std::size_t free) {
                 if (potential[cell] > out[sep]) {
                   out[sep] = potential[cell];
                   arg[sep] = free;
                 }
               });
  }
  std::vector<double>().swap(potential);

  // Backtrack from the root: a node's separator variables are already fixed by its ancestors
  // (running intersection), and its free variables appear in no ancestor, so each variable is
  // decided exactly once.
  for (int node : rooted.order) {
    const std::size_t sep = table_offset(separator[node], domain_sizes, result.assignment);
    std::size_t free = best_free[node][sep];
    const VarSet& fv = free_vars[node];
    for (std::size_t k = fv.size(); k-- > 0;) {
      const auto size = static_cast<std::size_t>(domain_sizes[fv[k]]);
      result.assignment[fv[k]] = static_cast<int>(free % size);
      free /= size;
    }
  }

  double total = 0.0;
  for (const Table& table : factors) {
    const double entry = table.values[table_offset(table.vars, domain_sizes, result.assignment)];
    total += std::isnan(entry) ? kMinusInfinity : entry;
  }
  // Every separator configuration -infinity (nothing allowed) backtracks to index 0.
  for (std::size_t v = 0; v < allowed.size(); ++v) {
    if (!allowed[v].empty() && !allowed[v][result.assignment[v]]) total = kMinusInfinity;
  }
  result.value = total;
  return result;
}

}  // namespace addbo::core
