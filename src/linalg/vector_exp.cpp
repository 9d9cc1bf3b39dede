#include "linalg/vector_exp.hpp"

#include <Eigen/Core>
#include <cstring>

#include "linalg/dense_cholesky.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ADDBO_VECTOR_EXP_AVX2 1
#endif

namespace addbo::core {
namespace {

#ifdef ADDBO_VECTOR_EXP_AVX2

// Only intrinsics in here, as in dense_cholesky.cpp's kernels: no inline function of a header
// is instantiated with AVX code.
__attribute__((target("avx2,fma"))) __m256d exp4(__m256d x) {
  // x = n ln 2 + r with ln 2 split in two (the high part has so few bits that n times it is
  // exact), and Cephes' rational approximation e^r = 1 + 2 r P(r^2) / (Q(r^2) - r P(r^2)) on
  // |r| <= ln 2 / 2; e^x = 2^n e^r.
  const __m256d log2e = _mm256_set1_pd(1.4426950408889634073599);
  const __m256d ln2_high = _mm256_set1_pd(6.93145751953125e-1);
  const __m256d ln2_low = _mm256_set1_pd(1.42860682030941723212e-6);
  const __m256d p0 = _mm256_set1_pd(1.26177193074810590878e-4);
  const __m256d p1 = _mm256_set1_pd(3.02994407707441961300e-2);
  const __m256d p2 = _mm256_set1_pd(9.99999999999999999910e-1);
  const __m256d q0 = _mm256_set1_pd(3.00198505138664455042e-6);
  const __m256d q1 = _mm256_set1_pd(2.52448340349684104192e-3);
  const __m256d q2 = _mm256_set1_pd(2.27265548208155028766e-1);
  const __m256d q3 = _mm256_set1_pd(2.00000000000000000009e0);
  // e^x for x below this is under the smallest normal double: 0.
  const __m256d lowest = _mm256_set1_pd(-708.0);
  // 1.5 * 2^52 plus the exponent bias: adding it leaves n + 1023 in the low mantissa bits.
  const __m256d exponent_magic = _mm256_set1_pd(6755399441055744.0 + 1023.0);

  const __m256d underflow = _mm256_cmp_pd(x, lowest, _CMP_LT_OQ);
  x = _mm256_max_pd(lowest, x);  // NaN stays (max returns its second operand on NaN)
  const __m256d n =
      _mm256_round_pd(_mm256_mul_pd(x, log2e), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(n, ln2_high, x);
  r = _mm256_fnmadd_pd(n, ln2_low, r);
  const __m256d r2 = _mm256_mul_pd(r, r);
  const __m256d px = _mm256_mul_pd(r, _mm256_fmadd_pd(_mm256_fmadd_pd(p0, r2, p1), r2, p2));
  const __m256d qx = _mm256_fmadd_pd(_mm256_fmadd_pd(_mm256_fmadd_pd(q0, r2, q1), r2, q2), r2, q3);
  const __m256d er = _mm256_fmadd_pd(_mm256_set1_pd(2.0), _mm256_div_pd(px, _mm256_sub_pd(qx, px)),
                                     _mm256_set1_pd(1.0));
  const __m256i power_bits =
      _mm256_slli_epi64(_mm256_castpd_si256(_mm256_add_pd(n, exponent_magic)), 52);
  return _mm256_andnot_pd(underflow, _mm256_mul_pd(er, _mm256_castsi256_pd(power_bits)));
}

__attribute__((target("avx2,fma"))) void exp_nonpositive_avx2(const double* x, std::size_t count,
                                                              double* out) {
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) _mm256_storeu_pd(out + i, exp4(_mm256_loadu_pd(x + i)));
  if (i == count) return;
  // The last values through the same four-wide code, so that a value's result does not depend
  // on where it sits.
  double tail[4] = {0.0, 0.0, 0.0, 0.0};
  std::memcpy(tail, x + i, (count - i) * sizeof(double));
  _mm256_storeu_pd(tail, exp4(_mm256_loadu_pd(tail)));
  std::memcpy(out + i, tail, (count - i) * sizeof(double));
}

#endif  // ADDBO_VECTOR_EXP_AVX2

}  // namespace

namespace vector_exp_detail {

void exp_nonpositive_portable(const double* x, std::size_t count, double* out) {
  const Eigen::Index size = static_cast<Eigen::Index>(count);
  Eigen::Map<Eigen::ArrayXd>(out, size) = Eigen::Map<const Eigen::ArrayXd>(x, size).exp();
}

}  // namespace vector_exp_detail

void exp_nonpositive(const double* x, std::size_t count, double* out) {
#ifdef ADDBO_VECTOR_EXP_AVX2
  if (cholesky_detail::avx2_available()) {
    exp_nonpositive_avx2(x, count, out);
    return;
  }
#endif
  vector_exp_detail::exp_nonpositive_portable(x, count, out);
}

}  // namespace addbo::core
