// Resizing dynamic Eigen matrices and vectors where an allocation may fail. Eigen 3.4's resize
// (and an assignment that changes the size) frees the old storage before it allocates the new
// one; when that allocation throws std::bad_alloc, the object keeps the freed pointer and its
// destructor frees it again. resize_fresh allocates a new object first and swaps it in, so that
// a failure leaves the old one as it was. A fresh object's values are uninitialised, as after
// Eigen's resize.
#pragma once

#include <Eigen/Core>

namespace addbo::core {

template <class Dense>
void resize_fresh(Dense& object, Eigen::Index rows, Eigen::Index cols) {
  if (object.rows() == rows && object.cols() == cols) return;
  Dense fresh(rows, cols);
  object.swap(fresh);
}

// A column vector (VectorXd, ArrayXd).
template <class Dense>
void resize_fresh(Dense& vector, Eigen::Index size) {
  resize_fresh(vector, size, 1);
}

}  // namespace addbo::core
