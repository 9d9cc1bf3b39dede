#include "gp/clique_contraction.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <vector>

#include "linalg/resize.hpp"
#include "util/thread_scratch.hpp"

namespace addbo::core {
namespace {

// Bound on the temporary points x prefix-cells matrix, in doubles (64 MB).
constexpr Eigen::Index kBlockBudget = Eigen::Index(1) << 23;

}  // namespace

void contract_clique(const std::vector<const Eigen::MatrixXd*>& factors,
                     const Eigen::VectorXd& weights, double scale, Eigen::VectorXd& out) {
  const Eigen::Index n = weights.size();
  const std::size_t k = factors.size();
  const Eigen::MatrixXd& last = *factors.back();
  const Eigen::Index last_size = last.cols();

  if (k == 1) {
    resize_fresh(out, last_size);
    out.noalias() = scale * (last.topRows(n).transpose() * weights);
    return;
  }

  // Prefix cells: every combination of the first k-1 variables, row-major.
  Eigen::Index prefix_cells = 1;
  for (std::size_t j = 0; j + 1 < k; ++j) prefix_cells *= factors[j]->cols();
  resize_fresh(out, prefix_cells * last_size);

  const Eigen::Index block = std::max<Eigen::Index>(
      1, std::min(prefix_cells, kBlockBudget / std::max<Eigen::Index>(n, 1)));
  // Scratch kept per thread and grown geometrically: this runs once per clique on every ask and
  // tell with n growing by one each time, and a fresh allocation of this size is often a fresh
  // mapping from the system, whose page faults cost more than the arithmetic.
  std::vector<double>& scratch = thread_scratch();
  if (scratch.size() < static_cast<std::size_t>(n * block)) {
    scratch.resize(std::max(static_cast<std::size_t>(n * block), 2 * scratch.size()));
  }
  Eigen::Map<Eigen::MatrixXd> weighted(scratch.data(), n, block);
  std::vector<Eigen::Index> index(k - 1, 0);  // current prefix, row-major counter
  for (Eigen::Index start = 0; start < prefix_cells; start += block) {
    const Eigen::Index width = std::min(block, prefix_cells - start);
    for (Eigen::Index b = 0; b < width; ++b) {
      auto column = weighted.col(b);
      column = weights;
      for (std::size_t j = 0; j + 1 < k; ++j) {
        column.array() *= factors[j]->col(index[j]).head(n).array();
      }
      // Advance the row-major counter over the prefix variables.
      for (std::size_t j = k - 1; j-- > 0;) {
        if (++index[j] < factors[j]->cols()) break;
        index[j] = 0;
      }
    }
    // Column p of (last^T * weighted) is the last variable's slice for prefix p, which is
    // exactly the contiguous row-major block out[p * last_size, ...].
    Eigen::Map<Eigen::MatrixXd> slice(out.data() + start * last_size, last_size, width);
    slice.noalias() = last.topRows(n).transpose() * weighted.leftCols(width);
    if (scale != 1.0) slice *= scale;
  }
}

}  // namespace addbo::core
