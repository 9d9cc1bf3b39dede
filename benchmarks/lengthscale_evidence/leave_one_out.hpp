// Leave-one-out predictions of a GP from one factorisation (Rasmussen & Williams 2006, eq.
// 5.12): with A = (K + noise I)^-1, the prediction of y_i from the other points misses it by
// [A y]_i / A_ii, with predictive variance 1 / A_ii (noise included).
#pragma once

#include <Eigen/Core>

#include "gp/additive_kernel.hpp"

namespace lengthscale_evidence {

struct LeaveOneOut {
  double rmse;         // root mean square of the misses, in the units of y
  double log_density;  // sum over the points of log N(y_i; prediction, variance)
};

// points: n x D encoded inputs; y: n observations. K + noise I is factorised with the
// library's jitter ladder (linalg/numerics.hpp), as the likelihood is, so both judge a model by
// the same numerics. Both fields are NaN when even the last rung fails.
LeaveOneOut leave_one_out(const addbo::core::AdditiveKernel& kernel, const Eigen::MatrixXd& points,
                          const Eigen::VectorXd& y);

}  // namespace lengthscale_evidence
