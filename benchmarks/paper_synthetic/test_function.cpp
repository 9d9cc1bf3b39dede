#include "test_function.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "seeded_random.hpp"

namespace paper_synthetic {

TrueGraph star_graph() {
  TrueGraph graph{"star", GraphKind::star, 10, {}};
  for (int leaf = 1; leaf < graph.dimension; ++leaf) graph.edges.emplace_back(0, leaf);
  return graph;
}

TrueGraph grid_graph() {
  TrueGraph graph{"grid", GraphKind::grid, 9, {}};
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 3; ++column) {
      const int v = row * 3 + column;
      if (column + 1 < 3) graph.edges.emplace_back(v, v + 1);
      if (row + 1 < 3) graph.edges.emplace_back(v, v + 3);
    }
  }
  return graph;
}

int nearest_index(double x, int grid) {
  const long index = std::lround(x * (grid - 1));
  return static_cast<int>(std::min<long>(std::max<long>(index, 0), grid - 1));
}

double grid_point(int index, int grid) { return static_cast<double>(index) / (grid - 1); }

GridGpSampler::GridGpSampler(int grid, double lengthscale) : grid_(grid) {
  if (grid < 2) throw std::invalid_argument("the grid needs at least 2 points");
  const int cells = grid * grid;
  Eigen::MatrixXd kernel(cells, cells);
  for (int p = 0; p < cells; ++p) {
    for (int q = 0; q < cells; ++q) {
      const double da = grid_point(p / grid, grid) - grid_point(q / grid, grid);
      const double db = grid_point(p % grid, grid) - grid_point(q % grid, grid);
      kernel(p, q) = std::exp(-(da * da + db * db) / (2.0 * lengthscale * lengthscale));
    }
  }
  // The SE kernel on a fine grid is numerically singular: add the smallest jitter that works.
  for (double jitter = 1e-10; jitter <= 1e-4; jitter *= 10.0) {
    Eigen::MatrixXd shifted = kernel;
    shifted.diagonal().array() += jitter;
    Eigen::LLT<Eigen::MatrixXd> cholesky(shifted);
    if (cholesky.info() != Eigen::Success) continue;
    const Eigen::MatrixXd lower = cholesky.matrixL();
    factor_.resize(static_cast<std::size_t>(cells) * cells);
    for (int p = 0; p < cells; ++p) {
      for (int q = 0; q < cells; ++q)
        factor_[static_cast<std::size_t>(p) * cells + q] = lower(p, q);
    }
    jitter_ = jitter;
    return;
  }
  throw std::runtime_error("the grid kernel matrix is not positive definite even with jitter 1e-4");
}

std::vector<double> GridGpSampler::sample(std::uint64_t seed, double variance) const {
  const std::size_t cells = static_cast<std::size_t>(grid_) * grid_;
  SeededRandom random(seed);
  std::vector<double> z(cells);
  for (double& value : z) value = random.normal();
  const double scale = std::sqrt(variance);
  std::vector<double> table(cells, 0.0);
  for (std::size_t p = 0; p < cells; ++p) {
    double sum = 0.0;
    for (std::size_t q = 0; q <= p; ++q) sum += factor_[p * cells + q] * z[q];
    table[p] = scale * sum;
  }
  return table;
}

TestFunction::TestFunction(TrueGraph graph, const GridGpSampler& sampler, std::uint64_t seed)
    : graph_(std::move(graph)), grid_(sampler.grid()) {
  const double variance = 1.0 / static_cast<double>(graph_.edges.size());
  for (std::size_t e = 0; e < graph_.edges.size(); ++e) {
    tables_.push_back(sampler.sample(derive_seed({seed, e}), variance));
  }
}

TestFunction::TestFunction(TrueGraph graph, int grid, std::vector<std::vector<double>> tables)
    : graph_(std::move(graph)), grid_(grid), tables_(std::move(tables)) {
  if (tables_.size() != graph_.edges.size()) {
    throw std::invalid_argument("one component table per edge is needed");
  }
}

double TestFunction::value(const std::vector<int>& indices) const {
  double sum = 0.0;
  for (std::size_t e = 0; e < graph_.edges.size(); ++e) {
    sum += component(e, indices[graph_.edges[e].first], indices[graph_.edges[e].second]);
  }
  return sum;
}

}  // namespace paper_synthetic
