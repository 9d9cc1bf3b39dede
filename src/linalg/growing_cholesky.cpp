#include "linalg/growing_cholesky.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <utility>

namespace addbo::core {

Eigen::VectorXd GrowingCholesky::solve_lower(const Eigen::VectorXd& b) const {
  Eigen::VectorXd x = b;
  const Eigen::Index n = b.size();
  if (n > 0) storage_.topLeftCorner(n, n).triangularView<Eigen::Lower>().solveInPlace(x);
  return x;
}

void GrowingCholesky::solve_lower_in_place(Eigen::MatrixXd& b) const {
  const Eigen::Index n = b.rows();
  if (n > 0 && b.cols() > 0) {
    storage_.topLeftCorner(n, n).triangularView<Eigen::Lower>().solveInPlace(b);
  }
}

Eigen::VectorXd GrowingCholesky::solve_upper(const Eigen::VectorXd& b) const {
  Eigen::VectorXd x = b;
  const Eigen::Index n = b.size();
  if (n > 0) {
    storage_.topLeftCorner(n, n).triangularView<Eigen::Lower>().transpose().solveInPlace(x);
  }
  return x;
}

void GrowingCholesky::assign(Eigen::MatrixXd storage, Eigen::Index size) {
  storage_ = std::move(storage);
  size_ = size;
}

void GrowingCholesky::append(const Eigen::VectorXd& row, double pivot) {
  if (size_ == storage_.rows()) {
    const Eigen::Index capacity = std::max<Eigen::Index>(16, 2 * storage_.rows());
    Eigen::MatrixXd grown = Eigen::MatrixXd::Zero(capacity, capacity);
    grown.topLeftCorner(size_, size_) = storage_.topLeftCorner(size_, size_);
    storage_.swap(grown);
  }
  storage_.row(size_).head(size_) = row.transpose();
  storage_(size_, size_) = pivot;
  // Zero the upper part of the row's column so that the storage stays lower triangular across
  // truncate and regrow.
  storage_.col(size_).head(size_).setZero();
  ++size_;
}

double GrowingCholesky::log_determinant(Eigen::Index n) const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) sum += std::log(storage_(i, i));
  return 2.0 * sum;
}

}  // namespace addbo::core
