// The hd_suite test functions (issue 10): what each one computes, its domain, its direction and
// its exact optimum (computed in exact_optima.cpp), and the true dependency graph where it has
// one. An instance is one draw of a function: the GP-sampled ones (tree30, lattice30) are drawn
// from a seed, the closed forms ignore it.
//
//   rosenbrock20, rosenbrock40  chain Rosenbrock on [-2, 2]^D, minimise, 0 at (1, ..., 1)
//   tree30                      additive GP sample over a random tree, [0, 1]^30, maximise
//   lattice30                   additive GP sample over the 5 x 6 lattice, [0, 1]^30, maximise
//   styblinski50                Styblinski-Tang on [-5, 5]^50, minimise, -39.16617 D
//   hartmann30                  Hartmann-6 on variables 0..5 of [0, 1]^30, minimise, -3.32237
//   ackley20                    Ackley on [-32.768, 32.768]^20, minimise, 0 at the origin
//   star10                      additive GP sample over the star graph, [0, 1]^10, maximise
// Run only when named (extra_function_names):
//   styblinski60                Styblinski-Tang on [-5, 5]^60 (issue 26's long run)
//   rover60                     a rover's trajectory through obstacles, [0, 1]^60, maximise,
//                               5 at best (rover.hpp)
//   walker16                    the Box2D walker's distance (examples/box2d), [0, 1]^16,
//                               maximise, optimum unknown (built with Box2D only)
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace paper_synthetic {
class GridGpSampler;
}

namespace hd_suite {

using Edge = std::pair<int, int>;  // first < second

enum class Direction { minimize, maximize };

struct FunctionInstance {
  std::string name;
  std::string description;          // for table titles
  std::uint64_t instance_seed = 0;  // make_function(name, instance_seed) rebuilds this instance
  int dimension = 0;
  double lower = 0.0, upper = 1.0;  // the same box for every variable
  Direction direction = Direction::minimize;
  double optimum = 0.0;  // the exact best value over the box
  // Where no exact optimum is known (a simulation), `optimum` is an upper reference the regret
  // is taken from instead.
  bool optimum_is_reference = false;
  // The true graph (the fixed method's edges, the CC/CS reference). Ackley is not additive at
  // all: it has none, and known_graph is false.
  bool known_graph = false;
  std::vector<Edge> graph;
  std::function<double(const std::vector<double>&)> evaluate;
};

// Every function name of the suite, in the catalogue's fixed order: a function's position is
// part of its random stream, so choosing a subset with --functions draws the same instances.
const std::vector<std::string>& function_names();
// Functions run only when --functions names them, numbered after the suite's: styblinski60,
// issue 26's long run at D = 60 (3,000 evaluations within 60 s of library time), and rover60,
// a trajectory-planning problem in 60 variables like the one issue 26 measured.
const std::vector<std::string>& extra_function_names();
bool is_function_name(const std::string& name);
int function_index(const std::string& name);

// The instance of `name` for seed `instance_seed` (the GP functions draw their graph and
// components from it), with its exact optimum.
FunctionInstance make_function(const std::string& name, std::uint64_t instance_seed);

// ---------------------------------------------------------------------------------------------
// The closed forms.

// sum_{i < D-1} 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2: each term couples one pair (i, i+1).
double rosenbrock(const std::vector<double>& x);
// (1/2) sum_i (x_i^4 - 16 x_i^2 + 5 x_i): separable.
double styblinski_tang(const std::vector<double>& x);
// The standard Hartmann-6 (to minimise: negative near its optimum) of x[0..5]; the other
// variables are dummies.
double hartmann6(const std::vector<double>& x);
namespace hartmann6_constants {
// The standard constants (Hartmann 1973, as tabulated by Dixon and Szego 1978).
inline constexpr double kAlpha[4] = {1.0, 1.2, 3.0, 3.2};
inline constexpr double kA[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                                    {0.05, 10, 17, 0.1, 8, 14},
                                    {3, 3.5, 1.7, 10, 17, 8},
                                    {17, 8, 0.05, 10, 0.1, 14}};
inline constexpr double kP[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                                    {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                                    {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                                    {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
}  // namespace hartmann6_constants
// -20 exp(-0.2 sqrt(mean x_i^2)) - exp(mean cos(2 pi x_i)) + 20 + e: no additive structure.
double ackley(const std::vector<double>& x);

// ---------------------------------------------------------------------------------------------
// Additive GP samples: f(x) = sum over the edges (a, b) of f_ab(x_a, x_b), each component a
// table on the g x g grid {0, 1/(g-1), ..., 1}^2 drawn exactly from a GP (paper_synthetic's
// GridGpSampler, variance 1/|E| per component as in the paper), extended to [0, 1]^2 by bilinear
// interpolation so that the optimizer sees a continuous function.
//
// Why the maximum over the box is the maximum over the grid: on each product of grid cells every
// component is bilinear, so f is affine in each variable when the others are held fixed, and such
// a function reaches its maximum over a box at one of the box's corners, which are grid points.
// exact_optima.cpp therefore maximises over the g^D grid points only, by dynamic programming.
class GridAdditiveFunction {
 public:
  // tables[e] is g x g, row-major over (index of edges[e].first, index of edges[e].second).
  GridAdditiveFunction(int dimension, std::vector<Edge> edges, int grid,
                       std::vector<std::vector<double>> tables);
  // One component per edge from `sampler`, each from its own stream of `seed`.
  static GridAdditiveFunction sample(int dimension, std::vector<Edge> edges,
                                     const paper_synthetic::GridGpSampler& sampler,
                                     std::uint64_t seed);

  int dimension() const { return dimension_; }
  int grid() const { return grid_; }
  const std::vector<Edge>& edges() const { return edges_; }
  // f_e(i, j) at grid indices i (of edges[e].first) and j (of edges[e].second).
  double component(std::size_t edge, int i, int j) const {
    return tables_[edge][static_cast<std::size_t>(i) * grid_ + j];
  }
  // f at the grid point with these per-variable indices.
  double at_indices(const std::vector<int>& indices) const;
  // f at x in [0, 1]^D (clamped), by bilinear interpolation of every component; equal to
  // at_indices at grid points.
  double operator()(const std::vector<double>& x) const;

 private:
  int dimension_;
  std::vector<Edge> edges_;
  int grid_;
  std::vector<std::vector<double>> tables_;
};

// A uniformly labelled random tree on `dimension` vertices: vertices join in a random order,
// each to a uniformly chosen earlier one. Sorted edges, first < second.
std::vector<Edge> random_tree(int dimension, std::uint64_t seed);
// The rows x columns lattice: variable r * columns + c joined to its right and lower neighbours.
std::vector<Edge> lattice(int rows, int columns);

// The GP functions' settings: the paper's lengthscale 0.2 on [0, 1]^2; grid 16 keeps the
// lattice's exact maximum cheap (its column dynamic programming has 16^5 states) while the
// interpolated sample stays close to the GP (grid spacing 1/15, a third of the lengthscale).
constexpr int kGpGrid = 16;
constexpr double kGpLengthscale = 0.2;
constexpr int kLatticeRows = 5, kLatticeColumns = 6;

// walker16: each walker is simulated for 8 s (the example's default). Its optimum is unknown;
// the regret is taken from this upper reference, above every distance seen in about 700 runs of
// 300-1,000 evaluations (the longest 30.0 m, most runs' best 10-20 m). A walker beyond it fails
// its run, as a value past an exact optimum does, rather than give a negative regret.
constexpr double kWalkerSeconds = 8.0;
constexpr double kWalkerReference = 40.0;

}  // namespace hd_suite
