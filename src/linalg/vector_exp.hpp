// exp over arrays of non-positive exponents: the squared-exponential kernel's factors, which
// the batch build of the posterior takes D n^2 / 2 + D n G of (gp/additive_posterior.cpp), the
// learning n^2 / 2 per variable and lengthscale tried (learn/likelihood.cpp) and the box's
// lengthscale factor one per point pair and clique (learn/lengthscale_factor.cpp).
//
// Eigen's vectorised exp runs on SSE2 in this baseline x86-64 library (about 6 ns a value on
// the project's machine); where the processor has AVX2 and FMA, a four-wide version of the
// same algorithm (Cephes': x = n ln 2 + r, a rational approximation of e^r, the power of two
// through the exponent bits) takes under 1 ns, within 2 ulp of std::exp. As with the
// Cholesky's kernels (linalg/dense_cholesky.hpp), the path is chosen at run time, so results
// on a processor without AVX2 can differ from those with it in the last bits. Each value is
// computed alone, so a result does not depend on its position in the array or on threads.
#pragma once

#include <cstddef>

namespace addbo::core {

// out[i] = exp(x[i]) for x[i] <= 0 (NaN stays NaN). Below -708 (where e^x leaves the normal
// doubles) the result is 0 on the AVX2 path, a subnormal number (at most e^-708) on Eigen's.
// `out` may be `x`.
void exp_nonpositive(const double* x, std::size_t count, double* out);

namespace vector_exp_detail {
// exp_nonpositive on Eigen's path even where AVX2 is available (tests).
void exp_nonpositive_portable(const double* x, std::size_t count, double* out);
}  // namespace vector_exp_detail

}  // namespace addbo::core
