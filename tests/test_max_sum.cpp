// Max-sum message passing against brute-force enumeration of every assignment, on random
// instances over the graph families the optimizer meets (chordless cycles, the paper's Fig. 1,
// grids, disconnected graphs), plus the error paths.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "graph_testing.hpp"
#include "maximize/grid_plan.hpp"
#include "maximize/max_sum.hpp"
#include "maximize/max_sum_excluding.hpp"
#include "util/error.hpp"

TEST_SUITE_BEGIN("maximize");

namespace addbo::core {
namespace {

using testing::TestRng;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The table entry at a full assignment, computed here rather than with table_offset.
double entry(const Table& table, const std::vector<int>& domains, const std::vector<int>& x) {
  std::size_t offset = 0;
  for (int v : table.vars) offset = offset * domains[v] + x[v];
  const double value = table.values.at(offset);
  return std::isnan(value) ? -kInf : value;
}

double evaluate(const std::vector<Table>& factors, const std::vector<int>& domains,
                const std::vector<int>& x) {
  double total = 0.0;
  for (const Table& t : factors) total += entry(t, domains, x);
  return total;
}

// The maximum of the sum over every assignment (odometer enumeration).
double brute_force_maximum(const std::vector<Table>& factors, const std::vector<int>& domains) {
  std::vector<int> x(domains.size(), 0);
  double best = -kInf;
  while (true) {
    best = std::max(best, evaluate(factors, domains, x));
    std::size_t d = 0;
    while (d < x.size() && ++x[d] == domains[d]) x[d++] = 0;
    if (d == x.size()) return best;
  }
}

enum class Values { real, small_integers, with_nan };

Table random_table(const VarSet& vars, const std::vector<int>& domains, Values kind, TestRng& rng) {
  Table t{vars, {}};
  std::size_t cells = 1;
  for (int v : vars) cells *= domains[v];
  for (std::size_t i = 0; i < cells; ++i) {
    switch (kind) {
      case Values::real:
        t.values.push_back(6.0 * rng.uniform() - 3.0);
        break;
      case Values::small_integers:  // many exact ties
        t.values.push_back(static_cast<double>(rng.below(3)));
        break;
      case Values::with_nan: {
        const double u = rng.uniform();
        t.values.push_back(u < 0.1 ? kNaN : u < 0.15 ? -kInf : 6.0 * rng.uniform() - 3.0);
        break;
      }
    }
  }
  return t;
}

bool same(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-12;
}

// Runs maximize_sum on the junction tree of g and compares with brute force.
void check_instance(const Graph& g, const std::vector<VarSet>& scopes,
                    const std::vector<int>& domains, Values kind, TestRng& rng) {
  std::vector<Table> factors;
  for (const VarSet& s : scopes) factors.push_back(random_table(s, domains, kind, rng));
  const JunctionTree tree = build_junction_tree(g, scopes);
  const MaxSumResult result = maximize_sum(tree, factors, domains);

  REQUIRE(result.assignment.size() == domains.size());
  for (std::size_t v = 0; v < domains.size(); ++v) {
    REQUIRE(result.assignment[v] >= 0);
    REQUIRE(result.assignment[v] < domains[v]);
  }
  const double expected = brute_force_maximum(factors, domains);
  const double achieved = evaluate(factors, domains, result.assignment);
  CHECK(same(achieved, expected));
  CHECK(same(result.value, expected));
}

std::vector<VarSet> sub_clique_scopes(const Graph& g, TestRng& rng) {
  std::vector<VarSet> scopes;
  for (const Edge& e : g.edges()) {
    if (rng.chance(0.7)) scopes.push_back({e.first, e.second});
    if (rng.chance(0.1)) scopes.push_back({e.first, e.second});  // the same scope twice
  }
  for (int v = 0; v < g.vertex_count(); ++v) {
    if (rng.chance(0.5)) scopes.push_back({v});
  }
  return scopes;
}

TEST_CASE("table_offset is row-major with the last variable fastest") {
  const std::vector<int> domains{2, 3, 4, 5};
  const std::vector<int> x{1, 2, 3, 4};
  CHECK(table_offset({}, domains, x) == 0);
  CHECK(table_offset({2}, domains, x) == 3);
  CHECK(table_offset({1, 3}, domains, x) == 2 * 5 + 4);
  CHECK(table_offset({0, 1, 2, 3}, domains, x) == ((1 * 3 + 2) * 4 + 3) * 5 + 4);
  CHECK(table_offset({0, 2}, domains, {0, 0, 1, 0}) == 1);
  CHECK_THROWS_AS(table_offset({4}, domains, x), Error);
  CHECK_THROWS_AS(table_offset({1}, domains, {0, 3, 0, 0}), Error);
  CHECK_THROWS_AS(table_offset({1}, domains, {0, -1, 0, 0}), Error);
}

TEST_CASE("maximize_sum equals brute force on random instances") {
  TestRng rng(0x6d61787375ULL);
  int instances = 0;
  int with_ties = 0;
  int with_nan = 0;
  int sub_cliques = 0;
  for (int round = 0; round < 60; ++round) {
    for (int family = 0; family < 7; ++family) {
      Graph g;
      int max_domain = 5;
      switch (family) {
        case 0:
          g = testing::random_graph(rng.between(2, 7), 0.2 + 0.7 * rng.uniform(), rng);
          break;
        case 1: {  // chordless cycle of length 4-6, sometimes with a chord or a spare vertex
          const int length = rng.between(4, 6);
          g = testing::cycle_graph(length, rng.between(0, 1));
          if (rng.chance(0.3)) g.add_edge(0, 2);
          break;
        }
        case 2:
          g = testing::paper_figure1_graph();
          max_domain = 4;
          break;
        case 3:
          g = testing::grid_graph(3, 3);
          max_domain = 3;
          break;
        case 4: {  // two random components side by side
          const Graph a = testing::random_graph(rng.between(1, 4), 0.6, rng);
          const Graph b = testing::random_graph(rng.between(1, 3), 0.6, rng);
          g = Graph(a.vertex_count() + b.vertex_count(), a.edges());
          for (const Edge& e : b.edges()) {
            g.add_edge(e.first + a.vertex_count(), e.second + a.vertex_count());
          }
          break;
        }
        case 5:
          g = Graph(1);
          break;
        default:
          g = Graph(rng.between(2, 5));  // no edges at all
          break;
      }
      std::vector<int> domains(g.vertex_count());
      for (int& d : domains) d = rng.between(2, max_domain);

      const Values kind = round % 3 == 0   ? Values::small_integers
                          : round % 3 == 1 ? Values::real
                                           : Values::with_nan;
      std::vector<VarSet> scopes;
      switch (round % 4) {
        case 0:
        case 1:
          scopes = maximal_cliques(g);
          break;
        case 2:
          scopes = sub_clique_scopes(g, rng);
          break;
        default:
          scopes = maximal_cliques(g);
          for (const VarSet& s : sub_clique_scopes(g, rng)) scopes.push_back(s);
          break;
      }
      if (round % 4 >= 2) ++sub_cliques;
      if (kind == Values::small_integers) ++with_ties;
      if (kind == Values::with_nan) ++with_nan;
      CAPTURE(round);
      CAPTURE(family);
      check_instance(g, scopes, domains, kind, rng);
      ++instances;
    }
  }
  CHECK(instances == 420);
  CHECK(with_ties == 140);
  CHECK(with_nan == 140);
  CHECK(sub_cliques == 210);
}

TEST_CASE("maximize_sum on a hand-built tree rooted in the middle") {
  // Chain 0-1-2-3 with node 0 = {1,2} in the middle, so messages arrive from both sides.
  JunctionTree tree;
  tree.nodes = {{1, 2}, {0, 1}, {2, 3}};
  tree.links = {{0, 1}, {0, 2}};
  const std::vector<int> domains{3, 4, 2, 5};
  TestRng rng(42);
  for (int repeat = 0; repeat < 20; ++repeat) {
    std::vector<Table> factors{random_table({0, 1}, domains, Values::real, rng),
                               random_table({1, 2}, domains, Values::real, rng),
                               random_table({2, 3}, domains, Values::real, rng),
                               random_table({2}, domains, Values::real, rng),
                               random_table({}, domains, Values::real, rng)};
    tree.factor_node = {1, 0, 2, 2, 1};
    const MaxSumResult result = maximize_sum(tree, factors, domains);
    const double expected = brute_force_maximum(factors, domains);
    CHECK(same(evaluate(factors, domains, result.assignment), expected));
    CHECK(same(result.value, expected));
  }
}

TEST_CASE("maximize_sum breaks ties towards the smallest index and treats NaN as -infinity") {
  const Graph g = testing::paper_figure1_graph();
  const std::vector<VarSet> scopes = maximal_cliques(g);
  const std::vector<int> domains{3, 2, 4, 3, 2, 5};
  const JunctionTree tree = build_junction_tree(g, scopes);
  std::vector<Table> flat;
  for (const VarSet& s : scopes) {
    std::size_t cells = 1;
    for (int v : s) cells *= domains[v];
    flat.push_back({s, std::vector<double>(cells, 1.5)});
  }
  const MaxSumResult tie = maximize_sum(tree, flat, domains);
  CHECK(tie.assignment == std::vector<int>(6, 0));
  CHECK(tie.value == 6.0);

  Graph single(1);
  const JunctionTree one = build_junction_tree(single, {{0}});
  CHECK(maximize_sum(one, {{{0}, {kNaN, 1.0, kNaN, 1.0}}}, {4}).assignment == std::vector<int>{1});
  CHECK(maximize_sum(one, {{{0}, {-kInf, kNaN, -5.0}}}, {3}).assignment == std::vector<int>{2});
  const MaxSumResult nothing = maximize_sum(one, {{{0}, {kNaN, kNaN}}}, {2});
  CHECK(nothing.assignment == std::vector<int>{0});
  CHECK(nothing.value == -kInf);
  CHECK(maximize_sum(one, {{{0}, {kInf, 0.0}}}, {2}).value == kInf);
}

TEST_CASE("maximize_sum with no variables") {
  const MaxSumResult result = maximize_sum(JunctionTree{}, {}, {});
  CHECK(result.assignment.empty());
  CHECK(result.value == 0.0);
}

TEST_CASE("maximize_sum on a chain of 10,000 variables matches dynamic programming") {
  const int n = 10000;
  const int k = 3;
  Graph chain(n);
  for (int i = 0; i + 1 < n; ++i) chain.add_edge(i, i + 1);
  std::vector<VarSet> scopes;
  for (int i = 0; i + 1 < n; ++i) scopes.push_back({i, i + 1});
  for (int i = 0; i < n; i += 3) scopes.push_back({i});
  const std::vector<int> domains(n, k);
  TestRng rng(7);
  std::vector<Table> factors;
  for (const VarSet& s : scopes) factors.push_back(random_table(s, domains, Values::real, rng));

  // Viterbi: best[s] = best total of the factors on variables 0..i with x_i = s.
  std::vector<std::vector<double>> unary(n, std::vector<double>(k, 0.0));
  for (std::size_t f = n - 1; f < factors.size(); ++f)
    unary[factors[f].vars[0]] = factors[f].values;
  std::vector<double> best = unary[0];
  for (int i = 0; i + 1 < n; ++i) {
    std::vector<double> next(k, -kInf);
    for (int t = 0; t < k; ++t) {
      for (int s = 0; s < k; ++s) {
        next[t] = std::max(next[t], best[s] + factors[i].values[s * k + t]);
      }
      next[t] += unary[i + 1][t];
    }
    best = next;
  }
  const double expected = *std::max_element(best.begin(), best.end());

  const MaxSumResult result = maximize_sum(build_junction_tree(chain, scopes), factors, domains);
  const double tolerance = 1e-9 * std::abs(expected);
  CHECK(std::abs(result.value - expected) <= tolerance);
  CHECK(std::abs(evaluate(factors, domains, result.assignment) - expected) <= tolerance);
}

TEST_CASE("maximize_sum on one large node broadcasts every factor correctly") {
  // One clique of four variables (160,000 cells) with factors over several subsets of it.
  const Graph g = testing::complete_graph(4);
  const std::vector<VarSet> scopes{{0, 1, 2, 3}, {1, 3}, {0, 2}, {2}, {0, 1, 2, 3}};
  const std::vector<int> domains{20, 20, 20, 20};
  TestRng rng(11);
  std::vector<Table> factors;
  for (const VarSet& s : scopes) factors.push_back(random_table(s, domains, Values::real, rng));
  const MaxSumResult result = maximize_sum(build_junction_tree(g, scopes), factors, domains);
  const double expected = brute_force_maximum(factors, domains);
  CHECK(same(evaluate(factors, domains, result.assignment), expected));
  CHECK(same(result.value, expected));
}

TEST_CASE("maximize_sum rejects inconsistent inputs with invalid_argument") {
  const Graph g(3, {{0, 1}, {1, 2}});
  const JunctionTree tree = build_junction_tree(g, {{0, 1}, {1, 2}});
  const std::vector<int> domains{2, 3, 2};
  const std::vector<Table> good{{{0, 1}, std::vector<double>(6, 0.0)},
                                {{1, 2}, std::vector<double>(6, 0.0)}};
  REQUIRE_NOTHROW(maximize_sum(tree, good, domains));

  const auto status_of = [](const JunctionTree& t, const std::vector<Table>& f,
                            const std::vector<int>& d) {
    try {
      maximize_sum(t, f, d);
    } catch (const Error& e) {
      return e.status();
    }
    return Status::ok;
  };
  const Status bad = Status::invalid_argument;

  SUBCASE("domain masks") {
    const auto mask_status = [&](const DomainMasks& masks) {
      try {
        maximize_sum(tree, good, domains, masks);
      } catch (const Error& e) {
        return e.status();
      }
      return Status::ok;
    };
    CHECK(mask_status(DomainMasks(2)) == bad);               // one mask per variable
    CHECK(mask_status(DomainMasks{{}, {1, 1}, {}}) == bad);  // variable 1 has 3 values
    CHECK(mask_status(DomainMasks{{}, {0, 1, 0}, {}}) == Status::ok);
    // Nothing allowed: -infinity, not an exception.
    CHECK(std::isinf(maximize_sum(tree, good, domains, DomainMasks{{0, 0}, {}, {}}).value));
  }
  SUBCASE("table sizes") {
    std::vector<Table> f = good;
    f[1].values.pop_back();
    CHECK(status_of(tree, f, domains) == bad);
    f = good;
    f[0].values.push_back(1.0);
    CHECK(status_of(tree, f, domains) == bad);
  }
  SUBCASE("factor variables") {
    std::vector<Table> f = good;
    f[1].vars = {1, 5};
    CHECK(status_of(tree, f, domains) == bad);
    f[1].vars = {-1, 2};
    CHECK(status_of(tree, f, domains) == bad);
    f[1].vars = {2, 1};  // not ascending
    CHECK(status_of(tree, f, domains) == bad);
    f[1].vars = {1, 1};
    CHECK(status_of(tree, f, domains) == bad);
    f[1].vars = {0, 2};  // right size, but in no node with the assigned index
    CHECK(status_of(tree, f, domains) == bad);
  }
  SUBCASE("factor assignment") {
    JunctionTree t = tree;
    t.factor_node.pop_back();
    CHECK(status_of(t, good, domains) == bad);
    t = tree;
    t.factor_node[0] = static_cast<int>(t.nodes.size());
    CHECK(status_of(t, good, domains) == bad);
    t.factor_node[0] = -1;
    CHECK(status_of(t, good, domains) == bad);
    t = tree;
    std::swap(t.factor_node[0], t.factor_node[1]);  // each factor in a node that lacks it
    CHECK(status_of(t, good, domains) == bad);
  }
  SUBCASE("domain sizes") {
    CHECK(status_of(tree, good, {2, 0, 2}) == bad);
    CHECK(status_of(tree, good, {2, 3, 2, 2}) == bad);  // variable 3 in no node
    CHECK(status_of(tree, good, {2, 3}) == bad);        // variable 2 unknown
  }
  SUBCASE("tree structure") {
    JunctionTree t = tree;
    t.links.clear();
    CHECK(status_of(t, good, domains) == bad);
    t = tree;
    t.links.push_back({0, 1});
    CHECK(status_of(t, good, domains) == bad);
    t = tree;
    t.links[0] = {0, 7};
    CHECK(status_of(t, good, domains) == bad);
    t.links[0] = {1, 1};
    CHECK(status_of(t, good, domains) == bad);
    t = tree;
    t.nodes[0] = {1, 0};  // not ascending
    CHECK(status_of(t, good, domains) == bad);

    // Running intersection broken: variable 0 in nodes 0 and 2, which are not adjacent.
    JunctionTree broken;
    broken.nodes = {{0, 1}, {1, 2}, {0, 2}};
    broken.links = {{0, 1}, {1, 2}};
    broken.factor_node = {0};
    CHECK(status_of(broken, {{{0, 1}, std::vector<double>(6, 0.0)}}, domains) == bad);

    JunctionTree links_only;
    links_only.links = {{0, 1}};
    CHECK(status_of(links_only, {}, {}) == bad);
  }
}

namespace {

// Every assignment of `domains`, in odometer order.
std::vector<std::vector<int>> all_assignments(const std::vector<int>& domains) {
  std::vector<std::vector<int>> all;
  std::vector<int> x(domains.size(), 0);
  while (true) {
    all.push_back(x);
    std::size_t d = 0;
    while (d < x.size() && ++x[d] == domains[d]) x[d++] = 0;
    if (d == x.size()) return all;
  }
}

}  // namespace

TEST_CASE("masked max-sum and the best unexcluded assignment equal brute force") {
  TestRng rng(0x6578636cULL);
  int masked_checks = 0, excluded_checks = 0, exhausted = 0;
  for (int round = 0; round < 120; ++round) {
    CAPTURE(round);
    const Graph g = round % 3 == 0   ? testing::cycle_graph(rng.between(4, 5), 0)
                    : round % 3 == 1 ? testing::random_graph(rng.between(2, 6), 0.5, rng)
                                     : testing::paper_figure1_graph();
    std::vector<int> domains(g.vertex_count());
    for (int& d : domains) d = rng.between(1, 3);
    std::vector<Table> factors;
    const std::vector<VarSet> scopes = maximal_cliques(g);
    const Values kind = round % 2 == 0 ? Values::small_integers : Values::real;
    for (const VarSet& s : scopes) factors.push_back(random_table(s, domains, kind, rng));
    const JunctionTree tree = build_junction_tree(g, scopes);
    const std::vector<std::vector<int>> all = all_assignments(domains);

    // Masks: each variable keeps a random subset of its values (sometimes none).
    DomainMasks masks(domains.size());
    for (std::size_t v = 0; v < domains.size(); ++v) {
      if (rng.chance(0.4)) continue;  // unrestricted
      for (int value = 0; value < domains[v]; ++value) masks[v].push_back(rng.chance(0.6));
    }
    double expected = -kInf;
    for (const std::vector<int>& x : all) {
      bool allowed = true;
      for (std::size_t v = 0; v < x.size(); ++v)
        allowed = allowed && (masks[v].empty() || masks[v][x[v]]);
      if (allowed) expected = std::max(expected, evaluate(factors, domains, x));
    }
    const MaxSumResult masked = maximize_sum(tree, factors, domains, masks);
    CHECK(same(masked.value, expected));
    if (!std::isinf(expected)) CHECK(same(evaluate(factors, domains, masked.assignment), expected));
    ++masked_checks;

    // Exclude a random set of assignments, always including the unrestricted best.
    std::set<std::vector<int>> excluded;
    excluded.insert(maximize_sum(tree, factors, domains).assignment);
    for (const std::vector<int>& x : all) {
      if (rng.chance(0.5)) excluded.insert(x);
    }
    double best_left = -kInf;
    for (const std::vector<int>& x : all) {
      if (!excluded.count(x)) best_left = std::max(best_left, evaluate(factors, domains, x));
    }
    const auto found = maximize_sum_excluding(
        tree, factors, domains, [&](const std::vector<int>& x) { return excluded.count(x) > 0; },
        all.size());
    if (excluded.size() == all.size()) {
      CHECK_FALSE(found.has_value());
      ++exhausted;
    } else {
      REQUIRE(found.has_value());
      CHECK(excluded.count(found->best.assignment) == 0);
      CHECK(same(found->best.value, best_left));
      CHECK(same(evaluate(factors, domains, found->best.assignment), best_left));
      CHECK(found->skipped >= 1);
      ++excluded_checks;
    }
  }
  CHECK(masked_checks == 120);
  CHECK(excluded_checks > 80);
  CHECK(exhausted > 0);
}

TEST_CASE("the unexcluded search gives up after max_skipped excluded assignments") {
  const Graph g(2, {{0, 1}});
  const std::vector<int> domains = {3, 3};
  const Table table{{0, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8}};
  const JunctionTree tree = build_junction_tree(g, {{0, 1}});
  // Excluding the three best: found after skipping exactly three.
  const auto in_top_three = [](const std::vector<int>& x) { return x[0] * 3 + x[1] >= 6; };
  const auto found = maximize_sum_excluding(tree, {table}, domains, in_top_three, 3);
  REQUIRE(found.has_value());
  CHECK(found->skipped == 3);
  CHECK(found->best.assignment == std::vector<int>{1, 2});
  CHECK_FALSE(maximize_sum_excluding(tree, {table}, domains, in_top_three, 2).has_value());
}

TEST_CASE(
    "node_fits: the product of the grid sizes within the budget, 2^k for k two-point variables") {
  TestRng rng(17);
  for (int trial = 0; trial < 2000; ++trial) {
    const int dimension = rng.between(1, 12);
    std::vector<int> sizes(static_cast<std::size_t>(rng.between(0, dimension)));
    for (int& size : sizes) size = rng.chance(0.3) ? 2 : rng.between(2, 4096);
    VarSet node;
    for (int d = 0; d < dimension; ++d)
      if (rng.chance(0.5)) node.push_back(d);
    const std::int64_t budget = std::int64_t{1} << rng.between(1, 40);
    const std::int64_t max_cells = budget - (rng.chance(0.5) ? 0 : rng.below(2));
    long double product = 1.0L;  // exact here: at most 12 factors of 2^12 in a 64-bit mantissa
    for (int d : node) product *= static_cast<std::size_t>(d) < sizes.size() ? sizes[d] : 2;
    CAPTURE(trial);
    CHECK(node_fits(node, sizes, max_cells) == (product <= static_cast<long double>(max_cells)));
  }
  // A node of k variables with two grid points each fits exactly when 2^k <= max_cells.
  for (int k = 0; k <= 30; ++k) {
    VarSet node(static_cast<std::size_t>(k));
    for (int d = 0; d < k; ++d) node[d] = d;
    const std::vector<int> sizes(static_cast<std::size_t>(k), 2);
    CHECK(node_fits(node, sizes, std::int64_t{1} << k));
    CHECK(node_fits(node, {}, std::int64_t{1} << k));  // a variable not listed counts as 2
    if (k > 0) CHECK_FALSE(node_fits(node, sizes, (std::int64_t{1} << k) - 1));
  }
}

TEST_CASE("plan_grids coarsens until every node fits, and refuses a node that cannot") {
  TestRng rng(23);
  for (int trial = 0; trial < 300; ++trial) {
    const int dimension = rng.between(1, 8);
    std::vector<int> full(static_cast<std::size_t>(dimension));
    for (int& size : full) size = rng.between(2, 64);
    std::vector<VarSet> nodes(static_cast<std::size_t>(rng.between(1, 4)));
    for (VarSet& node : nodes)
      for (int d = 0; d < dimension; ++d)
        if (rng.chance(0.5)) node.push_back(d);
    const std::int64_t max_cells = rng.between(2, 5000);
    bool possible = true;  // two points per variable is the coarsest grid
    for (const VarSet& node : nodes) possible = possible && node_fits(node, {}, max_cells);
    CAPTURE(trial);
    if (!possible) {
      CHECK_THROWS_AS(plan_grids(full, nodes, max_cells), Error);
      continue;
    }
    const GridPlan plan = plan_grids(full, nodes, max_cells);
    const std::vector<int> sizes = plan.sizes();
    for (const VarSet& node : nodes) CHECK(node_fits(node, sizes, max_cells));
    bool coarsened = false;
    for (int d = 0; d < dimension; ++d) {
      CHECK(sizes[d] >= 2);
      CHECK(sizes[d] <= full[d]);
      coarsened = coarsened || sizes[d] < full[d];
      CHECK(plan.indices[d].front() == 0);
      CHECK(plan.indices[d].back() == full[d] - 1);
      for (std::size_t j = 1; j < plan.indices[d].size(); ++j)
        CHECK(plan.indices[d][j - 1] < plan.indices[d][j]);
    }
    CHECK(plan.coarsened == coarsened);
  }
}

}  // namespace
}  // namespace addbo::core

TEST_SUITE_END();
