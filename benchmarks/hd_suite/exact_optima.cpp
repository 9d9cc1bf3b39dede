#include "exact_optima.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace hd_suite {

double styblinski_tang_minimiser() {
  // Stationary points of (1/2)(t^4 - 16 t^2 + 5 t) solve 2 t^3 - 16 t + 2.5 = 0. Of its three
  // real roots (about -2.90, 0.16, 2.75) the outer two are minima and the negative one, where
  // the linear term helps, is the lower. Newton from -3 converges to it monotonically (the cubic
  // is convex there).
  double t = -3.0;
  for (int step = 0; step < 100; ++step) {
    const double next = t - (2.0 * t * t * t - 16.0 * t + 2.5) / (6.0 * t * t - 16.0);
    if (next == t) break;
    t = next;
  }
  return t;
}

double styblinski_tang_minimum(int dimension) {
  const double t = styblinski_tang_minimiser();
  return dimension * 0.5 * (t * t * t * t - 16.0 * t * t + 5.0 * t);
}

std::vector<double> hartmann6_minimiser() {
  // The literature's minimiser to six digits, polished by Newton's method on the gradient.
  Eigen::VectorXd x(6);
  x << 0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573;
  using namespace hartmann6_constants;
  for (int step = 0; step < 20; ++step) {
    // f = -sum_i alpha_i exp(-q_i), q_i = sum_j A_ij (x_j - P_ij)^2.
    Eigen::VectorXd gradient = Eigen::VectorXd::Zero(6);
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(6, 6);
    for (int i = 0; i < 4; ++i) {
      Eigen::VectorXd dq(6);  // dq_i / dx_j = 2 A_ij (x_j - P_ij)
      double q = 0.0;
      for (int j = 0; j < 6; ++j) {
        q += kA[i][j] * (x[j] - kP[i][j]) * (x[j] - kP[i][j]);
        dq[j] = 2.0 * kA[i][j] * (x[j] - kP[i][j]);
      }
      const double weight = kAlpha[i] * std::exp(-q);
      gradient += weight * dq;
      hessian -= weight * dq * dq.transpose();
      for (int j = 0; j < 6; ++j) hessian(j, j) += weight * 2.0 * kA[i][j];
    }
    const Eigen::VectorXd move = hessian.ldlt().solve(gradient);
    x -= move;
    if (move.norm() < 1e-15) break;
  }
  return std::vector<double>(x.data(), x.data() + 6);
}

double hartmann6_minimum() { return hartmann6(hartmann6_minimiser()); }

namespace {

// The component on the edge {a, b} as a g x g table over (index of a, index of b), whichever way
// round the edge is stored: the dynamic programmes read it in their innermost loops.
class EdgeTables {
 public:
  explicit EdgeTables(const GridAdditiveFunction& function) : function_(function) {
    for (std::size_t e = 0; e < function.edges().size(); ++e) index_[function.edges()[e]] = e;
  }
  std::vector<double> oriented(int a, int b) const {
    const auto found = index_.find({std::min(a, b), std::max(a, b)});
    if (found == index_.end()) {
      throw std::invalid_argument("no edge between the variables " + std::to_string(a) + " and " +
                                  std::to_string(b));
    }
    const int grid = function_.grid();
    std::vector<double> table(static_cast<std::size_t>(grid) * grid);
    for (int i = 0; i < grid; ++i) {
      for (int j = 0; j < grid; ++j) {
        table[static_cast<std::size_t>(i) * grid + j] =
            a < b ? function_.component(found->second, i, j)
                  : function_.component(found->second, j, i);
      }
    }
    return table;
  }

 private:
  const GridAdditiveFunction& function_;
  std::map<Edge, std::size_t> index_;
};

}  // namespace

double tree_maximum(const GridAdditiveFunction& function) {
  const int dimension = function.dimension(), grid = function.grid();
  if (function.edges().size() >= static_cast<std::size_t>(std::max(dimension, 1))) {
    throw std::invalid_argument("tree_maximum: the edges do not form a forest");
  }
  const EdgeTables edges(function);
  std::vector<std::vector<int>> neighbours(dimension);
  for (const Edge& e : function.edges()) {
    neighbours[e.first].push_back(e.second);
    neighbours[e.second].push_back(e.first);
  }
  // Depth-first order from each unvisited vertex; parents come before their children.
  std::vector<int> parent(dimension, -2), order;
  for (int root = 0; root < dimension; ++root) {
    if (parent[root] != -2) continue;
    parent[root] = -1;
    std::vector<int> stack = {root};
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      order.push_back(v);
      for (int w : neighbours[v]) {
        if (parent[w] != -2) {
          if (w != parent[v]) throw std::invalid_argument("tree_maximum: the edges have a cycle");
          continue;
        }
        parent[w] = v;
        stack.push_back(w);
      }
    }
  }
  // best_below[v][i]: the maximum over v's subtree of the edges in it, with x_v at index i.
  std::vector<std::vector<double>> best_below(dimension, std::vector<double>(grid, 0.0));
  double total = 0.0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int v = *it, p = parent[v];
    if (p < 0) {
      total += *std::max_element(best_below[v].begin(), best_below[v].end());
      continue;
    }
    const std::vector<double> edge = edges.oriented(p, v);
    for (int ip = 0; ip < grid; ++ip) {
      double best = -INFINITY;
      for (int iv = 0; iv < grid; ++iv) {
        best = std::max(best, best_below[v][iv] + edge[static_cast<std::size_t>(ip) * grid + iv]);
      }
      best_below[p][ip] += best;
    }
  }
  return total;
}

double lattice_maximum(const GridAdditiveFunction& function, int rows, int columns) {
  const int grid = function.grid();
  if (function.dimension() != rows * columns) {
    throw std::invalid_argument("lattice_maximum: the dimension is not rows x columns");
  }
  const EdgeTables edges(function);
  // State: the values of one column, row 0 the most significant digit.
  std::vector<std::size_t> stride(rows);
  std::size_t states = 1;
  for (int r = rows - 1; r >= 0; --r) {
    stride[r] = states;
    states *= grid;
  }
  auto digit = [&](std::size_t state, int r) { return static_cast<int>(state / stride[r] % grid); };
  // value[state]: the maximum over the columns before c of every edge among columns 0..c, with
  // column c in `state`.
  std::vector<double> value(states, 0.0), next(states);
  for (int c = 0; c < columns; ++c) {
    if (c > 0) {
      // Replace row r's variable of column c-1 by that of column c, maximising over the former
      // through the horizontal edge between them; the other rows' digits are left as they are.
      for (int r = 0; r < rows; ++r) {
        const int left = r * columns + c - 1;
        const std::vector<double> edge = edges.oriented(left, left + 1);
        for (std::size_t state = 0; state < states; ++state) {
          if (digit(state, r) != 0) continue;  // each state with digit r = 0 once
          for (int to = 0; to < grid; ++to) {
            double best = -INFINITY;
            for (int from = 0; from < grid; ++from) {
              best = std::max(best, value[state + from * stride[r]] +
                                        edge[static_cast<std::size_t>(from) * grid + to]);
            }
            next[state + to * stride[r]] = best;
          }
        }
        value.swap(next);
      }
    }
    // Add column c's vertical edges.
    for (int r = 0; r + 1 < rows; ++r) {
      const int upper = r * columns + c;
      const std::vector<double> edge = edges.oriented(upper, upper + columns);
      for (std::size_t state = 0; state < states; ++state) {
        value[state] +=
            edge[static_cast<std::size_t>(digit(state, r)) * grid + digit(state, r + 1)];
      }
    }
  }
  return *std::max_element(value.begin(), value.end());
}

double brute_force_grid_maximum(const GridAdditiveFunction& function) {
  const int grid = function.grid(), dimension = function.dimension();
  std::vector<int> indices(dimension, 0);
  double best = -INFINITY;
  while (true) {
    best = std::max(best, function.at_indices(indices));
    int d = 0;
    while (d < dimension && ++indices[d] == grid) indices[d++] = 0;
    if (d == dimension) return best;
  }
}

}  // namespace hd_suite
