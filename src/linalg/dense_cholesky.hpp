// A fast in-place dense Cholesky factorisation A = L L^T (lower), for the one n x n
// factorisation every learning likelihood costs.
//
// Blocked right-looking algorithm: the diagonal block is factorised by a smaller blocked pass
// (unblocked below 16 columns), the panel below it is solved against L11^T, and the trailing
// matrix gets the symmetric update A22 -= L21 L21^T from packed, register-blocked micro-kernels
// (the O(n^3) part). The hot kernels exist in an AVX2+FMA version chosen at run time when the
// processor has it, so the library stays a baseline x86-64 binary; without AVX2 the
// factorisation is Eigen's LLT, which is as fast as the portable kernels on one thread. The
// blocked driver with portable (SSE2) kernels is kept as an internal path so that the tests
// check the driver on any machine.
//
// The panel solve and the trailing update may be split over threads by output blocks: every
// element is computed by the same sequence of operations whatever the thread count, so the
// result is bit-identical for any `threads`.
#pragma once

#include <Eigen/Core>
#include <memory>

namespace addbo::core {

// The factorisation's scratch memory (packed panels, up to about 3 n * 128 doubles), kept by a
// caller that factorises many matrices in a row (the learning's likelihoods) so that a call
// neither allocates nor clears it again. Used by one call at a time; it never changes a result.
class CholeskyWorkspace {
 public:
  CholeskyWorkspace();
  ~CholeskyWorkspace();
  CholeskyWorkspace(CholeskyWorkspace&&) noexcept;
  CholeskyWorkspace& operator=(CholeskyWorkspace&&) noexcept;

  struct Buffers;  // defined in dense_cholesky.cpp
  Buffers& buffers() { return *buffers_; }

 private:
  std::unique_ptr<Buffers> buffers_;
};

// Factorises the symmetric matrix whose lower triangle is stored in `a` (square, column-major)
// in place: on success the lower triangle (diagonal included) holds L with A = L L^T. The
// strictly upper triangle is never read nor written. Returns false when a pivot is not
// positive and finite (not numerically positive definite, or NaN/inf entries); `a` is then
// partly overwritten. threads <= 1 runs on the caller only; small matrices always do.
bool cholesky_lower_in_place(Eigen::Ref<Eigen::MatrixXd> a, int threads = 1);
// The same with the caller's scratch memory.
bool cholesky_lower_in_place(Eigen::Ref<Eigen::MatrixXd> a, int threads,
                             CholeskyWorkspace& workspace);

// X := X L^-T in place for X (m x n, column-major): row i of X becomes (L^-1 x_i)^T, for the
// lower-triangular factor in the lower triangle of `l` (n x n, as cholesky_lower_in_place
// leaves it; the strictly upper triangle is not read). Many right-hand sides at once, as rows:
// the posterior's variance tables (gp/additive_posterior.cpp). Same kernels and paths as the
// factorisation; the result does not depend on `threads`.
void solve_rows_against_lower(const Eigen::Ref<const Eigen::MatrixXd>& l,
                              Eigen::Ref<Eigen::MatrixXd> x, int threads = 1);

namespace cholesky_detail {

enum class Path {
  eigen,     // Eigen's LLT (single-threaded), with the same failure contract
  portable,  // the blocked driver with portable (baseline SSE2) kernels
  avx2,      // the blocked driver with AVX2+FMA kernels
};

// Whether the processor (and OS) supports the AVX2+FMA kernels.
bool avx2_available();

// The path cholesky_lower_in_place uses on this machine: avx2 when available, else eigen.
Path default_path();

// cholesky_lower_in_place with a forced path (tests, benchmarks). Path::avx2 on a processor
// without AVX2/FMA falls back to the portable path.
bool factorize(Eigen::Ref<Eigen::MatrixXd> a, int threads, Path path);
bool factorize(Eigen::Ref<Eigen::MatrixXd> a, int threads, Path path, CholeskyWorkspace& workspace);
// solve_rows_against_lower with a forced path (tests).
void solve_rows(const Eigen::Ref<const Eigen::MatrixXd>& l, Eigen::Ref<Eigen::MatrixXd> x,
                int threads, Path path);

}  // namespace cholesky_detail
}  // namespace addbo::core
