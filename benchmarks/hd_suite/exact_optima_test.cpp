// The exact optima of the hd_suite functions against brute force on small instances: grid
// enumeration for the closed forms, all g^D grid points for the additive GP samples (whose
// maximum over the box is the maximum over the grid), and the catalogue's instances have the
// stated shape.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "exact_optima.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "functions.hpp"
#include "rover.hpp"
#include "seeded_random.hpp"
#include "test_function.hpp"
#ifdef HD_SUITE_HAVE_BOX2D
#include "walker.hpp"
#endif

using namespace hd_suite;

namespace {

// Minimum of f over the grid {lower + k (upper - lower) / (points - 1)}^dimension.
template <class F>
double grid_minimum(F f, int dimension, double lower, double upper, int points,
                    std::vector<double>* argmin = nullptr) {
  std::vector<int> k(dimension, 0);
  std::vector<double> x(dimension);
  double best = INFINITY;
  while (true) {
    for (int d = 0; d < dimension; ++d) x[d] = lower + (upper - lower) * k[d] / (points - 1);
    const double value = f(x);
    if (value < best) {
      best = value;
      if (argmin) *argmin = x;
    }
    int d = 0;
    while (d < dimension && ++k[d] == points) k[d++] = 0;
    if (d == dimension) return best;
  }
}

// Independent uniform tables: no smoothness for the dynamic programming to lean on.
GridAdditiveFunction rough_function(int dimension, std::vector<Edge> edges, int grid,
                                    std::uint64_t seed) {
  paper_synthetic::SeededRandom random(seed);
  std::vector<std::vector<double>> tables(edges.size());
  for (auto& table : tables) {
    for (int cell = 0; cell < grid * grid; ++cell) table.push_back(random.uniform() * 2.0 - 1.0);
  }
  return GridAdditiveFunction(dimension, std::move(edges), grid, std::move(tables));
}

// Three GP draws and three rough functions over `edges` on `grid` points per variable.
template <class Maximum>
void check_against_brute_force(int dimension, const std::vector<Edge>& edges, int grid,
                               Maximum maximum) {
  const paper_synthetic::GridGpSampler sampler(grid, kGpLengthscale);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const GridAdditiveFunction smooth =
        GridAdditiveFunction::sample(dimension, edges, sampler, seed);
    const GridAdditiveFunction rough = rough_function(dimension, edges, grid, seed);
    for (const GridAdditiveFunction* function : {&smooth, &rough}) {
      CHECK(maximum(*function) ==
            doctest::Approx(brute_force_grid_maximum(*function)).epsilon(1e-12));
    }
  }
}

bool is_spanning_tree(int dimension, const std::vector<Edge>& edges) {
  if (edges.size() != static_cast<std::size_t>(dimension - 1)) return false;
  std::vector<int> component(dimension);
  for (int v = 0; v < dimension; ++v) component[v] = v;
  auto root = [&](int v) {
    while (component[v] != v) v = component[v];
    return v;
  };
  for (const Edge& e : edges) {
    const int a = root(e.first), b = root(e.second);
    if (a == b) return false;  // a cycle
    component[a] = b;
  }
  return true;
}

}  // namespace

TEST_CASE("Rosenbrock: 0 at (1, ..., 1), the minimum of a grid through it") {
  CHECK(rosenbrock(std::vector<double>(20, 1.0)) == 0.0);
  std::vector<double> argmin;
  // Step 0.25 on [-2, 2] contains 1: the grid minimum must be exactly 0, at the ones.
  CHECK(grid_minimum(rosenbrock, 3, -2.0, 2.0, 17, &argmin) == 0.0);
  CHECK(argmin == std::vector<double>(3, 1.0));
  const FunctionInstance f = make_function("rosenbrock40", 0);
  CHECK(f.optimum == 0.0);
  CHECK(f.graph.size() == 39);
  CHECK(f.graph.front() == Edge(0, 1));
  CHECK(f.graph.back() == Edge(38, 39));
}

TEST_CASE("Styblinski-Tang: D times the one-variable minimum, -39.16617 D") {
  const double t = styblinski_tang_minimiser();
  CHECK(t == doctest::Approx(-2.903534).epsilon(1e-6));
  CHECK(styblinski_tang_minimum(1) == doctest::Approx(-39.16617).epsilon(1e-6));
  CHECK(styblinski_tang_minimum(50) == doctest::Approx(-39.16617 * 50).epsilon(1e-6));
  // A fine one-variable grid gets within its resolution and never below.
  const double one = styblinski_tang_minimum(1);
  const double grid_one = grid_minimum(styblinski_tang, 1, -5.0, 5.0, 1000001);
  CHECK(grid_one >= one - 1e-12);
  CHECK(grid_one - one < 1e-8);
  // Two variables: the minimum is additive.
  const double grid_two = grid_minimum(styblinski_tang, 2, -5.0, 5.0, 2001);
  CHECK(grid_two >= 2 * one - 1e-12);
  CHECK(grid_two - 2 * one < 1e-3);
  CHECK(make_function("styblinski50", 0).graph.empty());
  CHECK(make_function("styblinski60", 0).dimension == 60);
  CHECK(make_function("styblinski60", 0).graph.empty());
}

TEST_CASE("Hartmann-6: -3.32237 at the polished literature point, below every grid point") {
  const std::vector<double> x = hartmann6_minimiser();
  const double minimum = hartmann6_minimum();
  CHECK(minimum == doctest::Approx(-3.32237).epsilon(2e-6));
  const double literature[6] = {0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573};
  for (int j = 0; j < 6; ++j) CHECK(x[j] == doctest::Approx(literature[j]).epsilon(1e-4));
  // No point of an 11^6 grid and no nearby perturbation is lower.
  CHECK(grid_minimum(hartmann6, 6, 0.0, 1.0, 11) > minimum);
  paper_synthetic::SeededRandom random(7);
  for (int k = 0; k < 20000; ++k) {
    std::vector<double> nearby = x;
    for (double& v : nearby) v += 1e-3 * (2.0 * random.uniform() - 1.0);
    CHECK(hartmann6(nearby) >= minimum - 1e-15);
  }
  // The embedded function ignores variables 6..29.
  std::vector<double> embedded(30, 0.9);
  std::copy(x.begin(), x.end(), embedded.begin());
  const FunctionInstance f = make_function("hartmann30", 0);
  CHECK(f.evaluate(embedded) == minimum);
  CHECK(f.optimum == minimum);
  CHECK(f.graph.size() == 15);
}

TEST_CASE("Ackley: 0 at the origin, the minimum of a grid through it") {
  CHECK(std::fabs(ackley(std::vector<double>(20, 0.0))) < 1e-12);
  std::vector<double> argmin;
  const double minimum = grid_minimum(ackley, 2, -32.768, 32.768, 201, &argmin);
  CHECK(std::fabs(minimum) < 1e-12);
  CHECK(argmin == std::vector<double>(2, 0.0));
  CHECK_FALSE(make_function("ackley20", 0).known_graph);
}

TEST_CASE("tree: leaf-to-root messages equal brute force") {
  for (std::uint64_t seed : {1, 2, 3}) {
    check_against_brute_force(8, random_tree(8, seed), 4, tree_maximum);
  }
  // A forest (one edge removed) and a path.
  std::vector<Edge> forest = random_tree(8, 9);
  forest.erase(forest.begin() + 2);
  check_against_brute_force(8, forest, 4, tree_maximum);
  check_against_brute_force(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}}, 5, tree_maximum);
}

TEST_CASE("lattice: the column dynamic programming equals brute force") {
  for (auto [rows, columns, grid] :
       {std::tuple{2, 3, 4}, std::tuple{3, 3, 4}, std::tuple{5, 2, 3}, std::tuple{2, 5, 3},
        std::tuple{1, 4, 4}, std::tuple{4, 1, 4}}) {
    CAPTURE(rows);
    CAPTURE(columns);
    check_against_brute_force(
        rows * columns, lattice(rows, columns), grid,
        [&](const GridAdditiveFunction& f) { return lattice_maximum(f, rows, columns); });
  }
}

TEST_CASE("GP functions: interpolation reproduces the grid and never exceeds the grid maximum") {
  const paper_synthetic::GridGpSampler sampler(5, kGpLengthscale);
  const GridAdditiveFunction f = GridAdditiveFunction::sample(6, random_tree(6, 4), sampler, 11);
  const double maximum = brute_force_grid_maximum(f);
  paper_synthetic::SeededRandom random(3);
  for (int k = 0; k < 2000; ++k) {
    std::vector<int> indices(6);
    std::vector<double> x(6);
    for (int d = 0; d < 6; ++d) {
      indices[d] = random.below(5);
      x[d] = paper_synthetic::grid_point(indices[d], 5);
    }
    CHECK(f(x) == f.at_indices(indices));
    for (double& v : x) v = random.uniform();
    CHECK(f(x) <= maximum + 1e-12);
  }
}

TEST_CASE("catalogue: every function has its stated shape; GP instances repeat by seed") {
  CHECK(function_names().size() == 8);
  for (const std::string& name : function_names()) {
    const FunctionInstance f = make_function(name, 5);
    CAPTURE(name);
    CHECK(f.name == name);
    CHECK(std::isfinite(f.evaluate(std::vector<double>(f.dimension, f.lower))));
    CHECK(f.instance_seed == 5);
  }
  const FunctionInstance tree = make_function("tree30", 5);
  CHECK(tree.dimension == 30);
  CHECK(is_spanning_tree(30, tree.graph));
  CHECK(make_function("tree30", 6).graph != tree.graph);
  const FunctionInstance again = make_function("tree30", 5);
  CHECK(again.graph == tree.graph);
  CHECK(again.optimum == tree.optimum);
  const FunctionInstance grid = make_function("lattice30", 5);
  CHECK(grid.graph.size() == 49);
  CHECK(grid.direction == Direction::maximize);
  // The exact maximum bounds every value (a sanity check at D = 30, where brute force cannot go).
  paper_synthetic::SeededRandom random(1);
  for (const FunctionInstance* f : {&tree, &grid}) {
    for (int k = 0; k < 200; ++k) {
      std::vector<double> x(30);
      for (double& v : x) v = random.uniform();
      CHECK(f->evaluate(x) <= f->optimum);
    }
  }
}

TEST_CASE("star10: the exact maximum equals an enumeration over the hub's values") {
  // With the hub fixed, each leaf's component is maximised on its own: the value at (hub, all
  // leaves 0) plus, per leaf, the best gain of moving that leaf alone. The maximum of the
  // interpolant lies on the grid (it is multilinear in each cell).
  const FunctionInstance star = make_function("star10", 3);
  REQUIRE(star.graph.size() == 9);
  const auto grid_value = [](int index) { return index / double(kGpGrid - 1); };
  double best = -1e300;
  for (int hub = 0; hub < kGpGrid; ++hub) {
    std::vector<double> base(10, 0.0);
    base[0] = grid_value(hub);
    double value = star.evaluate(base);
    for (int leaf = 1; leaf < 10; ++leaf) {
      double gain = 0.0;
      for (int index = 1; index < kGpGrid; ++index) {
        std::vector<double> moved = base;
        moved[leaf] = grid_value(index);
        gain = std::max(gain, star.evaluate(moved) - star.evaluate(base));
      }
      value += gain;
    }
    best = std::max(best, value);
  }
  CHECK(star.optimum == doctest::Approx(best).epsilon(1e-12));
}

namespace {

// A path from the rover's start to its goal through free grid cells of side 1/cells (cells whose
// centre is at least `margin` from every obstacle; steps to the 8 neighbours), by breadth-first
// search; empty if none.
std::vector<std::pair<double, double>> rover_free_path(const RoverField& field, int cells,
                                                       double margin) {
  const auto cell_of = [cells](double v) { return std::min(cells - 1, int(v * cells)); };
  const auto centre = [cells](int i) { return (i + 0.5) / cells; };
  const int start = cell_of(field.start_x) * cells + cell_of(field.start_y);
  const int goal = cell_of(field.goal_x) * cells + cell_of(field.goal_y);
  std::vector<int> previous(static_cast<std::size_t>(cells) * cells, -2);
  std::vector<int> queue{start};
  previous[start] = -1;
  for (std::size_t head = 0; head < queue.size() && previous[goal] == -2; ++head) {
    const int i = queue[head] / cells, j = queue[head] % cells;
    const int steps[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (const auto& step : steps) {
      const int a = i + step[0], b = j + step[1];
      if (a < 0 || b < 0 || a >= cells || b >= cells || previous[a * cells + b] != -2) continue;
      if (rover_blocked(field, centre(a), centre(b), margin)) continue;
      previous[a * cells + b] = queue[head];
      queue.push_back(a * cells + b);
    }
  }
  std::vector<std::pair<double, double>> path;
  if (previous[goal] == -2) return path;
  for (int cell = goal; cell != -1; cell = previous[cell]) {
    path.emplace_back(centre(cell / cells), centre(cell % cells));
  }
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

TEST_CASE("rover60: 5 is reached by a curve around the obstacles and never exceeded") {
  const FunctionInstance rover = make_function("rover60", 0);
  REQUIRE(rover.dimension == 60);
  CHECK(rover.optimum == kRoverMaximum);
  const RoverField& field = rover_field();
  CHECK(field.obstacles.size() == 150);
  // A witness: a grid path that keeps 0.006 from every obstacle, pulled taut into a polyline
  // whose straight pieces keep 0.003 from them; each corner repeated three times as control
  // points, so that the curve is that polyline (between two tripled points a uniform cubic
  // B-spline is the straight segment). It touches no obstacle: reward 5.
  auto path = rover_free_path(field, 400, 0.006);
  REQUIRE(path.size() > 2);
  path.front() = {field.start_x, field.start_y};
  path.back() = {field.goal_x, field.goal_y};
  const auto clear = [&](std::pair<double, double> a, std::pair<double, double> b) {
    for (int s = 0; s <= 2000; ++s) {
      const double t = s / 2000.0;
      if (rover_blocked(field, a.first + t * (b.first - a.first),
                        a.second + t * (b.second - a.second), 0.003)) {
        return false;
      }
    }
    return true;
  };
  std::vector<std::pair<double, double>> corners{path.front()};
  for (std::size_t at = 0; at + 1 < path.size();) {
    std::size_t next = path.size() - 1;
    while (next > at + 1 && !clear(path[at], path[next])) --next;
    REQUIRE(clear(path[at], path[next]));
    corners.push_back(path[next]);
    at = next;
  }
  // The curve's ends are already its end points three times; the other corners need three each.
  REQUIRE(3 * (corners.size() - 2) + 2 <= kRoverControlPoints);
  std::vector<std::pair<double, double>> controls{corners.front()};
  for (std::size_t c = 1; c + 1 < corners.size(); ++c)
    controls.insert(controls.end(), 3, corners[c]);
  while (controls.size() < kRoverControlPoints) controls.push_back(corners.back());
  std::vector<double> x(60);
  for (int k = 0; k < kRoverControlPoints; ++k) {
    x[2 * k] = controls[k].first;
    x[2 * k + 1] = controls[k].second;
  }
  CHECK(rover.evaluate(x) == kRoverMaximum);
  // The straight line from start to goal crosses obstacles, and each cost only lowers the reward:
  // random control points never exceed 5.
  std::vector<double> straight(60);
  for (int k = 0; k < kRoverControlPoints; ++k) {
    const double t = k / double(kRoverControlPoints - 1);
    straight[2 * k] = field.start_x + t * (field.goal_x - field.start_x);
    straight[2 * k + 1] = field.start_y + t * (field.goal_y - field.start_y);
  }
  CHECK(rover.evaluate(straight) < kRoverMaximum - 1.0);
  paper_synthetic::SeededRandom random(17);
  std::vector<double> drawn(60);
  for (int trial = 0; trial < 200; ++trial) {
    for (double& v : drawn) v = random.uniform();
    CHECK(rover.evaluate(drawn) < kRoverMaximum);
  }
  CHECK_THROWS_AS(rover.evaluate(std::vector<double>(59, 0.5)), std::invalid_argument);
  // Moving the first control point 0.01 off the start costs 10 * 0.01 (nothing near the start
  // is blocked).
  std::vector<double> witness = x;
  witness[0] = field.start_x + 0.01;
  CHECK(rover.evaluate(witness) == doctest::Approx(kRoverMaximum - 0.1).epsilon(1e-12));
}

#ifdef HD_SUITE_HAVE_BOX2D
TEST_CASE("walker16: the example's walker, its parameters mapped from [0, 1] onto their ranges") {
  const FunctionInstance walker = make_function("walker16", 0);
  REQUIRE(walker.dimension == 16);
  CHECK(walker.direction == Direction::maximize);
  CHECK(walker.lower == 0.0);
  CHECK(walker.upper == 1.0);
  const auto& ranges = box2d_walker::parameter_ranges();
  for (const double t : {0.0, 0.37, 1.0}) {
    std::vector<double> u(16), x(16);
    for (std::size_t d = 0; d < 16; ++d) {
      u[d] = d % 2 == 0 ? t : 1.0 - t;
      x[d] = ranges[d].lower + u[d] * (ranges[d].upper - ranges[d].lower);
    }
    const double distance = box2d_walker::simulate(x, kWalkerSeconds).distance;
    CHECK(walker.evaluate(u) == distance);
    CHECK(distance < walker.optimum);  // the reference stays above what walkers reach
  }
  CHECK_THROWS_AS(walker.evaluate(std::vector<double>(15, 0.5)), std::invalid_argument);
}
#else
TEST_CASE("walker16 without Box2D is refused, naming the package") {
  try {
    make_function("walker16", 0);
    FAIL("walker16 was made without Box2D");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()).find("libbox2d-dev") != std::string::npos);
  }
}
#endif
