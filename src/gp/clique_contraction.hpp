// The one expensive kernel operation of the posterior updates:
//   table[cell] = scale * sum_i weights[i] * prod_j factors[j](i, cell_j)
// where cell runs row-major over the clique's grid (last variable fastest) and factors[j] holds
// the per-variable kernel factors between the points (rows) and variable j's grid (columns).
// With two variables this is factors[0]^T diag(w) factors[1]: small dense products instead of
// the cells x n cross-covariance matrix (docs/benchmarks.md, "Speed").
#pragma once

#include <Eigen/Core>
#include <vector>

namespace addbo::core {

// factors[j] has at least weights.size() rows; only the first weights.size() rows are used.
// `out` is resized to the product of the factors' column counts.
void contract_clique(const std::vector<const Eigen::MatrixXd*>& factors,
                     const Eigen::VectorXd& weights, double scale, Eigen::VectorXd& out);

}  // namespace addbo::core
