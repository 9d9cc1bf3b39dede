// The paper's synthetic test functions (section 5.1): f(x) = sum over the edges (a, b) of the
// true graph of f_ab(x_a, x_b), each f_ab a draw from a GP with squared-exponential kernel,
// lengthscale 0.2 on [0, 1]^2, sampled exactly on the grid {0, 1/(g-1), ..., 1}^2. The component
// variance is 1/|E|, so that the additive kernel has k(x, x) = 1 as in the paper's model
// (each maximal clique C has scale |C| / sum |C'|, here 2 / (2 |E|)).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace paper_synthetic {

enum class GraphKind { star, grid };

struct TrueGraph {
  std::string name;  // "star" or "grid", used in the CSV and the file names
  GraphKind kind;
  int dimension;
  std::vector<std::pair<int, int>> edges;  // first < second
};

// Variable 0 joined to each of variables 1..9 (D = 10).
TrueGraph star_graph();
// The 3x3 grid (D = 9): variable r*3 + c joined to its right and lower neighbours.
TrueGraph grid_graph();

// Draws functions whose components are exact GP samples on a g x g grid. The Cholesky factor of
// the (g^2 x g^2) kernel matrix, with the smallest jitter that makes it positive definite, is
// computed once and shared by every draw.
class GridGpSampler {
 public:
  GridGpSampler(int grid, double lengthscale);
  int grid() const { return grid_; }
  double jitter() const { return jitter_; }
  // One component table, row-major over (index of a, index of b), with variance `variance`.
  std::vector<double> sample(std::uint64_t seed, double variance) const;

 private:
  int grid_;
  double jitter_ = 0.0;
  std::vector<double> factor_;  // lower-triangular Cholesky factor, row-major, g^2 x g^2
};

class TestFunction {
 public:
  // Draws one component per edge of `graph` from `sampler`, from the stream `seed`.
  TestFunction(TrueGraph graph, const GridGpSampler& sampler, std::uint64_t seed);
  // A function with the given component tables (tests): tables[e] is g x g, row-major.
  TestFunction(TrueGraph graph, int grid, std::vector<std::vector<double>> tables);

  const TrueGraph& graph() const { return graph_; }
  int grid() const { return grid_; }
  // f_e(i, j) for the e-th edge at grid indices i (of its first variable) and j (its second).
  double component(std::size_t edge, int i, int j) const {
    return tables_[edge][static_cast<std::size_t>(i) * grid_ + j];
  }
  // f at the grid point with these per-variable indices.
  double value(const std::vector<int>& indices) const;

 private:
  TrueGraph graph_;
  int grid_;
  std::vector<std::vector<double>> tables_;
};

// The grid index of x in [0, 1] (the nearest grid point), and the grid point of an index exactly
// as the optimizer computes it.
int nearest_index(double x, int grid);
double grid_point(int index, int grid);

}  // namespace paper_synthetic
