#include "functions.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "exact_optima.hpp"
#include "rover.hpp"
#ifdef HD_SUITE_HAVE_BOX2D
#include "walker.hpp"
#endif
#include "seeded_random.hpp"
#include "test_function.hpp"

namespace hd_suite {

double rosenbrock(const std::vector<double>& x) {
  double sum = 0.0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) {
    const double valley = x[i + 1] - x[i] * x[i], offset = 1.0 - x[i];
    sum += 100.0 * valley * valley + offset * offset;
  }
  return sum;
}

double styblinski_tang(const std::vector<double>& x) {
  double sum = 0.0;
  for (double t : x) sum += t * t * t * t - 16.0 * t * t + 5.0 * t;
  return 0.5 * sum;
}

double hartmann6(const std::vector<double>& x) {
  using namespace hartmann6_constants;
  double sum = 0.0;
  for (int i = 0; i < 4; ++i) {
    double exponent = 0.0;
    for (int j = 0; j < 6; ++j) exponent += kA[i][j] * (x[j] - kP[i][j]) * (x[j] - kP[i][j]);
    sum += kAlpha[i] * std::exp(-exponent);
  }
  return -sum;
}

double ackley(const std::vector<double>& x) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  double squares = 0.0, cosines = 0.0;
  for (double t : x) {
    squares += t * t;
    cosines += std::cos(kTwoPi * t);
  }
  const double n = static_cast<double>(x.size());
  return -20.0 * std::exp(-0.2 * std::sqrt(squares / n)) - std::exp(cosines / n) + 20.0 +
         std::exp(1.0);
}

// ---------------------------------------------------------------------------------------------

GridAdditiveFunction::GridAdditiveFunction(int dimension, std::vector<Edge> edges, int grid,
                                           std::vector<std::vector<double>> tables)
    : dimension_(dimension), edges_(std::move(edges)), grid_(grid), tables_(std::move(tables)) {
  if (grid_ < 2) throw std::invalid_argument("the grid needs at least 2 points");
  if (tables_.size() != edges_.size()) {
    throw std::invalid_argument("one component table per edge is needed");
  }
  for (const auto& table : tables_) {
    if (table.size() != static_cast<std::size_t>(grid_) * grid_) {
      throw std::invalid_argument("a component table must have grid^2 entries");
    }
  }
}

GridAdditiveFunction GridAdditiveFunction::sample(int dimension, std::vector<Edge> edges,
                                                  const paper_synthetic::GridGpSampler& sampler,
                                                  std::uint64_t seed) {
  // Variance 1/|E| per component: k(x, x) = 1 for the whole sum, as in the paper.
  const double variance = 1.0 / static_cast<double>(std::max<std::size_t>(edges.size(), 1));
  std::vector<std::vector<double>> tables;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    tables.push_back(sampler.sample(paper_synthetic::derive_seed({seed, e}), variance));
  }
  return GridAdditiveFunction(dimension, std::move(edges), sampler.grid(), std::move(tables));
}

double GridAdditiveFunction::at_indices(const std::vector<int>& indices) const {
  double sum = 0.0;
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    sum += component(e, indices[edges_[e].first], indices[edges_[e].second]);
  }
  return sum;
}

double GridAdditiveFunction::operator()(const std::vector<double>& x) const {
  // Per variable: the lower corner of its cell and the position t in [0, 1] inside the cell.
  // The last cell is closed at 1, so x = 1 gives (g - 2, 1) and reproduces the table exactly.
  std::vector<int> cell(dimension_);
  std::vector<double> position(dimension_);
  for (int d = 0; d < dimension_; ++d) {
    const double scaled = std::clamp(x[d], 0.0, 1.0) * (grid_ - 1);
    cell[d] = std::min(static_cast<int>(scaled), grid_ - 2);
    position[d] = scaled - cell[d];
  }
  double sum = 0.0;
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const int a = edges_[e].first, b = edges_[e].second, i = cell[a], j = cell[b];
    const double s = position[a], t = position[b];
    sum += (1 - s) * (1 - t) * component(e, i, j) + s * (1 - t) * component(e, i + 1, j) +
           (1 - s) * t * component(e, i, j + 1) + s * t * component(e, i + 1, j + 1);
  }
  return sum;
}

std::vector<Edge> random_tree(int dimension, std::uint64_t seed) {
  paper_synthetic::SeededRandom random(seed);
  std::vector<int> order(dimension);
  std::iota(order.begin(), order.end(), 0);
  for (int k = dimension - 1; k > 0; --k) std::swap(order[k], order[random.below(k + 1)]);
  std::vector<Edge> edges;
  for (int k = 1; k < dimension; ++k) {
    const int a = order[k], b = order[random.below(k)];
    edges.emplace_back(std::min(a, b), std::max(a, b));
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

std::vector<Edge> lattice(int rows, int columns) {
  std::vector<Edge> edges;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      const int v = r * columns + c;
      if (c + 1 < columns) edges.emplace_back(v, v + 1);
      if (r + 1 < rows) edges.emplace_back(v, v + columns);
    }
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

// ---------------------------------------------------------------------------------------------
// The catalogue.

const std::vector<std::string>& function_names() {
  static const std::vector<std::string> names = {"rosenbrock20", "rosenbrock40", "tree30",
                                                 "lattice30",    "styblinski50", "hartmann30",
                                                 "ackley20",     "star10"};
  return names;
}

const std::vector<std::string>& extra_function_names() {
  static const std::vector<std::string> names = {"styblinski60", "rover60", "walker16"};
  return names;
}

bool is_function_name(const std::string& name) {
  for (const auto* names : {&function_names(), &extra_function_names()}) {
    if (std::find(names->begin(), names->end(), name) != names->end()) return true;
  }
  return false;
}

int function_index(const std::string& name) {
  const auto& names = function_names();
  const auto found = std::find(names.begin(), names.end(), name);
  if (found != names.end()) return static_cast<int>(found - names.begin());
  const auto& extras = extra_function_names();
  const auto extra = std::find(extras.begin(), extras.end(), name);
  if (extra == extras.end()) throw std::invalid_argument("unknown function '" + name + "'");
  return static_cast<int>(names.size()) + static_cast<int>(extra - extras.begin());
}

namespace {

std::vector<Edge> chain(int dimension) {
  std::vector<Edge> edges;
  for (int i = 0; i + 1 < dimension; ++i) edges.emplace_back(i, i + 1);
  return edges;
}

FunctionInstance rosenbrock_instance(int dimension) {
  FunctionInstance f;
  f.name = "rosenbrock" + std::to_string(dimension);
  f.description = "Rosenbrock chain, D = " + std::to_string(dimension) +
                  " on [-2, 2]^D, minimise at (1, ..., 1)";
  f.dimension = dimension;
  f.lower = -2.0;
  f.upper = 2.0;
  f.direction = Direction::minimize;
  f.optimum = 0.0;  // every term is a sum of squares, all zero at x = 1
  f.known_graph = true;
  f.graph = chain(dimension);
  f.evaluate = rosenbrock;
  return f;
}

// The GP sampler's Cholesky factor is shared by every draw (and every thread: it is read-only).
const paper_synthetic::GridGpSampler& gp_sampler() {
  static const paper_synthetic::GridGpSampler sampler(kGpGrid, kGpLengthscale);
  return sampler;
}

FunctionInstance gp_instance(const std::string& name, int dimension, std::vector<Edge> edges,
                             bool is_tree, std::uint64_t seed) {
  FunctionInstance f;
  f.name = name;
  f.dimension = dimension;
  f.lower = 0.0;
  f.upper = 1.0;
  f.direction = Direction::maximize;
  f.known_graph = true;
  f.graph = edges;
  auto function = std::make_shared<GridAdditiveFunction>(GridAdditiveFunction::sample(
      f.dimension, std::move(edges), gp_sampler(), paper_synthetic::derive_seed({seed, 2})));
  f.optimum =
      is_tree ? tree_maximum(*function) : lattice_maximum(*function, kLatticeRows, kLatticeColumns);
  f.evaluate = [function](const std::vector<double>& x) { return (*function)(x); };
  return f;
}

}  // namespace

namespace {

// The Box2D walker's gait (examples/box2d/walker.hpp), its 16 parameters given in [0, 1] and
// mapped linearly onto their ranges, so that it shares the suite's one box per function. A
// simulation: its optimum is unknown, and kWalkerReference (an upper reference, not a maximum)
// stands in for it in the regret.
FunctionInstance walker_instance() {
#ifdef HD_SUITE_HAVE_BOX2D
  FunctionInstance f;
  f.name = "walker16";
  f.description =
      "Box2D walker's gait, distance in 8 s, D = 16 on [0, 1]^D, maximise (examples/box2d)";
  f.dimension = static_cast<int>(box2d_walker::kParameterCount);
  f.direction = Direction::maximize;
  f.optimum = kWalkerReference;
  f.optimum_is_reference = true;
  f.known_graph = false;
  f.evaluate = [](const std::vector<double>& u) {
    const auto& ranges = box2d_walker::parameter_ranges();
    if (u.size() != ranges.size()) {
      throw std::invalid_argument("walker16: expected 16 values, got " + std::to_string(u.size()));
    }
    std::vector<double> x(u.size());
    for (std::size_t d = 0; d < u.size(); ++d) {
      x[d] = ranges[d].lower + u[d] * (ranges[d].upper - ranges[d].lower);
    }
    return box2d_walker::simulate(x, kWalkerSeconds).distance;
  };
  return f;
#else
  throw std::invalid_argument("walker16 needs Box2D 2.4 (Debian libbox2d-dev) at build time");
#endif
}

FunctionInstance make_function_of_seed(const std::string& name, std::uint64_t instance_seed) {
  if (name == "rosenbrock20") return rosenbrock_instance(20);
  if (name == "rosenbrock40") return rosenbrock_instance(40);
  if (name == "tree30") {
    FunctionInstance f =
        gp_instance(name, 30, random_tree(30, paper_synthetic::derive_seed({instance_seed, 1})),
                    true, instance_seed);
    f.description = "additive GP sample on a random tree, D = 30 on [0, 1]^D, maximise";
    return f;
  }
  if (name == "lattice30") {
    FunctionInstance f =
        gp_instance(name, 30, lattice(kLatticeRows, kLatticeColumns), false, instance_seed);
    f.description = "additive GP sample on the 5 x 6 lattice, D = 30 on [0, 1]^D, maximise";
    return f;
  }
  if (name == "styblinski50" || name == "styblinski60") {
    FunctionInstance f;
    f.name = name;
    f.dimension = name == "styblinski50" ? 50 : 60;
    f.description = "Styblinski-Tang, D = " + std::to_string(f.dimension) +
                    " on [-5, 5]^D, minimise at x_i = -2.903534, separable";
    f.lower = -5.0;
    f.upper = 5.0;
    f.direction = Direction::minimize;
    f.optimum = styblinski_tang_minimum(f.dimension);
    f.known_graph = true;  // separable: the true graph has no edges
    f.evaluate = styblinski_tang;
    return f;
  }
  if (name == "hartmann30") {
    FunctionInstance f;
    f.name = name;
    f.description =
        "Hartmann-6 on variables 0..5 of [0, 1]^30 (24 dummies), minimise, not additive";
    f.dimension = 30;
    f.direction = Direction::minimize;
    f.optimum = hartmann6_minimum();
    f.known_graph = true;  // the clique of the six active variables; the dummies are isolated
    for (int a = 0; a < 6; ++a) {
      for (int b = a + 1; b < 6; ++b) f.graph.emplace_back(a, b);
    }
    f.evaluate = hartmann6;
    return f;
  }
  if (name == "ackley20") {
    FunctionInstance f;
    f.name = name;
    f.description = "Ackley, D = 20 on [-32.768, 32.768]^D, minimise at 0, not additive";
    f.dimension = 20;
    f.lower = -32.768;
    f.upper = 32.768;
    f.direction = Direction::minimize;
    f.optimum = 0.0;  // -20 e^(..) >= -20 and -e^(mean cos) >= -e, both equalities at 0 only
    f.known_graph = false;
    f.evaluate = ackley;
    return f;
  }
  if (name == "star10") {
    // The paper's star graph (variable 0 joined to each of 1..9): few variables and strong
    // pairwise structure, where learning the graph should pay off.
    std::vector<Edge> star;
    for (int leaf = 1; leaf < 10; ++leaf) star.emplace_back(0, leaf);
    FunctionInstance f = gp_instance(name, 10, std::move(star), true, instance_seed);
    f.description =
        "additive GP sample on the star graph (0 joined to 1..9), D = 10 on [0, 1]^D, "
        "maximise";
    return f;
  }
  if (name == "rover60") {
    FunctionInstance f;
    f.name = name;
    f.description =
        "rover trajectory through 150 obstacles, D = 60 on [0, 1]^D, maximise (rover.hpp)";
    f.dimension = 2 * kRoverControlPoints;
    f.direction = Direction::maximize;
    f.optimum = kRoverMaximum;  // a curve from start to goal that touches no obstacle
    f.known_graph = false;      // overlapping groups of 8 variables along the curve, not pairwise
    f.evaluate = [](const std::vector<double>& x) { return rover_reward(rover_field(), x); };
    return f;
  }
  if (name == "walker16") return walker_instance();
  throw std::invalid_argument("unknown function '" + name + "'");
}

}  // namespace

FunctionInstance make_function(const std::string& name, std::uint64_t instance_seed) {
  FunctionInstance f = make_function_of_seed(name, instance_seed);
  f.instance_seed = instance_seed;
  return f;
}

}  // namespace hd_suite
