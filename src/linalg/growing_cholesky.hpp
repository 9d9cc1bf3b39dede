// A lower-triangular Cholesky factor L of Delta = K + noise I that grows one row at a time and
// can be cut back to a leading block. Appending is exact: the new row is [L^-1 k, pivot] with
// pivot^2 = k(x, x) + noise - |L^-1 k|^2, so no refactorisation is ever needed while the
// hyperparameters stay the same. Storage doubles when full (amortised O(n^2) copies).
#pragma once

#include <Eigen/Core>

namespace addbo::core {

class GrowingCholesky {
 public:
  Eigen::Index size() const { return size_; }

  // L^-1 b and L^-T b, using the leading b.size() x b.size() block (b.size() <= size()): the
  // factor of the first b.size() points.
  Eigen::VectorXd solve_lower(const Eigen::VectorXd& b) const;
  Eigen::VectorXd solve_upper(const Eigen::VectorXd& b) const;
  // L^-1 B for every column of B in place (B.rows() <= size()), one blocked solve.
  void solve_lower_in_place(Eigen::MatrixXd& b) const;

  // Takes a whole factor of `size` points computed at once (the batch build of the posterior):
  // `storage` is square, at least size x size, its leading block lower triangular and
  // everything else zero; the rest is room for later appends, which grow it as usual.
  void assign(Eigen::MatrixXd storage, Eigen::Index size);
  // Appends the row [row, pivot]; row.size() == size(), pivot > 0.
  void append(const Eigen::VectorXd& row, double pivot);
  // Keeps the leading n x n block (the factor of the first n points).
  void truncate(Eigen::Index n) { size_ = n < size_ ? n : size_; }

  // log det of the leading n x n block of Delta: 2 sum_{i<n} log L_ii.
  double log_determinant(Eigen::Index n) const;

 private:
  Eigen::MatrixXd storage_;  // capacity x capacity; only the leading size_ block is used
  Eigen::Index size_ = 0;
};

}  // namespace addbo::core
