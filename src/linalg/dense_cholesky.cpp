#include "linalg/dense_cholesky.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "util/parallel.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ADDBO_CHOLESKY_AVX2 1
#endif

namespace addbo::core {
namespace {

using Index = std::ptrdiff_t;

// Micro-kernel tile of the trailing update: MR rows (packed A panels) by NR columns (packed B
// panels). The panel solve works on MR-row panels, TR columns at a time.
constexpr int kMR = 8;
constexpr int kNR = 6;
constexpr int kTR = 4;
constexpr int kOuterBlock = 128;    // columns per step of the outer pass
constexpr int kInnerBlock = 16;     // columns per step inside a diagonal block
constexpr int kRowSolveBlock = 48;  // columns of L per step of solve_rows_against_lower
constexpr int kSolveUnit = 48;      // rows per panel-solve work unit (a multiple of kMR and kNR)
constexpr int kUpdateUnit = 96;     // rows per trailing-update work unit (a multiple of kMR)
// Below this many multiply-adds a step runs on the caller only (a thread costs ~50 us).
constexpr double kParallelMinWork = 3.0e6;

static_assert(kSolveUnit % kMR == 0 && kSolveUnit % kNR == 0, "solve unit must hold whole panels");
static_assert(kUpdateUnit % kMR == 0, "update unit must hold whole panels");

// c (MR x NR, leading dimension ldc) -= A B^T over k, or with store: c = A B^T (the caller
// subtracts it elementwise, which rounds exactly as the in-kernel subtraction does).
// ap: k groups of MR values, bp: k groups of NR values.
using UpdateKernel = void (*)(int k, const double* ap, const double* bp, double* c, Index ldc,
                              bool store);
// Solves X L^T = B in place for one MR-row panel x (k groups of MR values, column l of X at
// x + l*MR). lp: ceil(k/TR) groups of k*TR values, lp[g*k*TR + l*TR + t] = L(g*TR + t, l) for
// l <= g*TR + t, else 0; diag: L(j, j), padded with 1 up to a multiple of TR.
using SolveKernel = void (*)(int k, const double* lp, const double* diag, double* x);

struct Kernels {
  UpdateKernel update;
  SolveKernel solve;
};

// ---- portable kernels ----

// SSE2 (baseline) vectors through GCC's vector extension: the 8 x 6 tile as two 4 x 6 halves,
// 12 two-wide accumulators each, which fits the 16 baseline registers.
typedef double v2d __attribute__((vector_size(16)));

inline v2d load2(const double* p) {
  v2d v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store2(double* p, v2d v) { std::memcpy(p, &v, sizeof v); }

void update_portable(int k, const double* ap, const double* bp, double* c, Index ldc, bool store) {
  for (int half = 0; half < kMR; half += 4) {
    v2d lo[kNR] = {}, hi[kNR] = {};
    const double* a = ap + half;
    const double* b = bp;
    for (int p = 0; p < k; ++p) {
      const v2d a0 = load2(a), a1 = load2(a + 2);
#pragma GCC unroll 6
      for (int j = 0; j < kNR; ++j) {
        const v2d bj = {b[j], b[j]};
        lo[j] += a0 * bj;
        hi[j] += a1 * bj;
      }
      a += kMR;
      b += kNR;
    }
#pragma GCC unroll 6
    for (int j = 0; j < kNR; ++j) {
      double* cj = c + j * ldc + half;
      if (store) {
        store2(cj, lo[j]);
        store2(cj + 2, hi[j]);
      } else {
        store2(cj, load2(cj) - lo[j]);
        store2(cj + 2, load2(cj + 2) - hi[j]);
      }
    }
  }
}

void solve_portable(int k, const double* lp, const double* diag, double* x) {
  for (int j0 = 0, g = 0; j0 < k; j0 += kTR, ++g) {
    const double* lg = lp + static_cast<Index>(g) * k * kTR;
    const int width = std::min(kTR, k - j0);
    for (int half = 0; half < kMR; half += 4) {
      v2d lo[kTR] = {}, hi[kTR] = {};
      for (int t = 0; t < width; ++t) {
        lo[t] = load2(x + (j0 + t) * kMR + half);
        hi[t] = load2(x + (j0 + t) * kMR + half + 2);
      }
      for (int l = 0; l < j0; ++l) {
        const v2d a0 = load2(x + l * kMR + half), a1 = load2(x + l * kMR + half + 2);
#pragma GCC unroll 4
        for (int t = 0; t < kTR; ++t) {
          const v2d v = {lg[l * kTR + t], lg[l * kTR + t]};
          lo[t] -= a0 * v;
          hi[t] -= a1 * v;
        }
      }
      for (int t = 0; t < width; ++t) {
        const v2d d = {diag[j0 + t], diag[j0 + t]};
        lo[t] /= d;
        hi[t] /= d;
        for (int u = t + 1; u < width; ++u) {
          const v2d v = {lg[(j0 + t) * kTR + u], lg[(j0 + t) * kTR + u]};
          lo[u] -= lo[t] * v;
          hi[u] -= hi[t] * v;
        }
        store2(x + (j0 + t) * kMR + half, lo[t]);
        store2(x + (j0 + t) * kMR + half + 2, hi[t]);
      }
    }
  }
}

constexpr Kernels kPortableKernels{update_portable, solve_portable};

// ---- AVX2 + FMA kernels ----
// Only raw pointers, plain loops and compiler intrinsics in here: no Eigen and no std::
// templates, so no inline function is ever instantiated with AVX code that a baseline caller
// might link against.

#ifdef ADDBO_CHOLESKY_AVX2

__attribute__((target("avx2,fma"))) void update_avx2(int k, const double* ap, const double* bp,
                                                     double* c, Index ldc, bool store) {
  __m256d c00 = _mm256_setzero_pd(), c01 = _mm256_setzero_pd(), c02 = _mm256_setzero_pd();
  __m256d c03 = _mm256_setzero_pd(), c04 = _mm256_setzero_pd(), c05 = _mm256_setzero_pd();
  __m256d c10 = _mm256_setzero_pd(), c11 = _mm256_setzero_pd(), c12 = _mm256_setzero_pd();
  __m256d c13 = _mm256_setzero_pd(), c14 = _mm256_setzero_pd(), c15 = _mm256_setzero_pd();
#pragma GCC unroll 4
  for (int p = 0; p < k; ++p) {
    const __m256d a0 = _mm256_loadu_pd(ap);
    const __m256d a1 = _mm256_loadu_pd(ap + 4);
    __m256d b = _mm256_broadcast_sd(bp);
    c00 = _mm256_fmadd_pd(a0, b, c00);
    c10 = _mm256_fmadd_pd(a1, b, c10);
    b = _mm256_broadcast_sd(bp + 1);
    c01 = _mm256_fmadd_pd(a0, b, c01);
    c11 = _mm256_fmadd_pd(a1, b, c11);
    b = _mm256_broadcast_sd(bp + 2);
    c02 = _mm256_fmadd_pd(a0, b, c02);
    c12 = _mm256_fmadd_pd(a1, b, c12);
    b = _mm256_broadcast_sd(bp + 3);
    c03 = _mm256_fmadd_pd(a0, b, c03);
    c13 = _mm256_fmadd_pd(a1, b, c13);
    b = _mm256_broadcast_sd(bp + 4);
    c04 = _mm256_fmadd_pd(a0, b, c04);
    c14 = _mm256_fmadd_pd(a1, b, c14);
    b = _mm256_broadcast_sd(bp + 5);
    c05 = _mm256_fmadd_pd(a0, b, c05);
    c15 = _mm256_fmadd_pd(a1, b, c15);
    ap += kMR;
    bp += kNR;
  }
  if (store) {
    _mm256_storeu_pd(c, c00);
    _mm256_storeu_pd(c + 4, c10);
    _mm256_storeu_pd(c + ldc, c01);
    _mm256_storeu_pd(c + ldc + 4, c11);
    _mm256_storeu_pd(c + 2 * ldc, c02);
    _mm256_storeu_pd(c + 2 * ldc + 4, c12);
    _mm256_storeu_pd(c + 3 * ldc, c03);
    _mm256_storeu_pd(c + 3 * ldc + 4, c13);
    _mm256_storeu_pd(c + 4 * ldc, c04);
    _mm256_storeu_pd(c + 4 * ldc + 4, c14);
    _mm256_storeu_pd(c + 5 * ldc, c05);
    _mm256_storeu_pd(c + 5 * ldc + 4, c15);
    return;
  }
#define ADDBO_SUB_STORE(ptr, acc) \
  _mm256_storeu_pd((ptr), _mm256_sub_pd(_mm256_loadu_pd(ptr), (acc)))
  ADDBO_SUB_STORE(c, c00);
  ADDBO_SUB_STORE(c + 4, c10);
  ADDBO_SUB_STORE(c + ldc, c01);
  ADDBO_SUB_STORE(c + ldc + 4, c11);
  ADDBO_SUB_STORE(c + 2 * ldc, c02);
  ADDBO_SUB_STORE(c + 2 * ldc + 4, c12);
  ADDBO_SUB_STORE(c + 3 * ldc, c03);
  ADDBO_SUB_STORE(c + 3 * ldc + 4, c13);
  ADDBO_SUB_STORE(c + 4 * ldc, c04);
  ADDBO_SUB_STORE(c + 4 * ldc + 4, c14);
  ADDBO_SUB_STORE(c + 5 * ldc, c05);
  ADDBO_SUB_STORE(c + 5 * ldc + 4, c15);
#undef ADDBO_SUB_STORE
}

__attribute__((target("avx2,fma"))) void solve_avx2(int k, const double* lp, const double* diag,
                                                    double* x) {
  for (int j0 = 0, g = 0; j0 < k; j0 += kTR, ++g) {
    const double* lg = lp + static_cast<Index>(g) * k * kTR;
    const int width = k - j0 < kTR ? k - j0 : kTR;
    double* xj = x + j0 * kMR;
    const __m256d zero = _mm256_setzero_pd();
    __m256d s00 = _mm256_loadu_pd(xj), s10 = _mm256_loadu_pd(xj + 4);
    __m256d s01 = width > 1 ? _mm256_loadu_pd(xj + kMR) : zero;
    __m256d s11 = width > 1 ? _mm256_loadu_pd(xj + kMR + 4) : zero;
    __m256d s02 = width > 2 ? _mm256_loadu_pd(xj + 2 * kMR) : zero;
    __m256d s12 = width > 2 ? _mm256_loadu_pd(xj + 2 * kMR + 4) : zero;
    __m256d s03 = width > 3 ? _mm256_loadu_pd(xj + 3 * kMR) : zero;
    __m256d s13 = width > 3 ? _mm256_loadu_pd(xj + 3 * kMR + 4) : zero;
    const double* xl = x;
    const double* ll = lg;
#pragma GCC unroll 2
    for (int l = 0; l < j0; ++l) {
      const __m256d a0 = _mm256_loadu_pd(xl);
      const __m256d a1 = _mm256_loadu_pd(xl + 4);
      __m256d v = _mm256_broadcast_sd(ll);
      s00 = _mm256_fnmadd_pd(a0, v, s00);
      s10 = _mm256_fnmadd_pd(a1, v, s10);
      v = _mm256_broadcast_sd(ll + 1);
      s01 = _mm256_fnmadd_pd(a0, v, s01);
      s11 = _mm256_fnmadd_pd(a1, v, s11);
      v = _mm256_broadcast_sd(ll + 2);
      s02 = _mm256_fnmadd_pd(a0, v, s02);
      s12 = _mm256_fnmadd_pd(a1, v, s12);
      v = _mm256_broadcast_sd(ll + 3);
      s03 = _mm256_fnmadd_pd(a0, v, s03);
      s13 = _mm256_fnmadd_pd(a1, v, s13);
      xl += kMR;
      ll += kTR;
    }
    // The TR x TR triangle (padding columns have zero couplings and unit diagonal).
    const double* lt = lg + j0 * kTR;  // lt[t*TR + u] = L(j0+u, j0+t)
    __m256d d = _mm256_broadcast_sd(diag + j0);
    s00 = _mm256_div_pd(s00, d);
    s10 = _mm256_div_pd(s10, d);
    __m256d v = _mm256_broadcast_sd(lt + 1);
    s01 = _mm256_fnmadd_pd(s00, v, s01);
    s11 = _mm256_fnmadd_pd(s10, v, s11);
    v = _mm256_broadcast_sd(lt + 2);
    s02 = _mm256_fnmadd_pd(s00, v, s02);
    s12 = _mm256_fnmadd_pd(s10, v, s12);
    v = _mm256_broadcast_sd(lt + 3);
    s03 = _mm256_fnmadd_pd(s00, v, s03);
    s13 = _mm256_fnmadd_pd(s10, v, s13);
    d = _mm256_broadcast_sd(diag + j0 + 1);
    s01 = _mm256_div_pd(s01, d);
    s11 = _mm256_div_pd(s11, d);
    v = _mm256_broadcast_sd(lt + kTR + 2);
    s02 = _mm256_fnmadd_pd(s01, v, s02);
    s12 = _mm256_fnmadd_pd(s11, v, s12);
    v = _mm256_broadcast_sd(lt + kTR + 3);
    s03 = _mm256_fnmadd_pd(s01, v, s03);
    s13 = _mm256_fnmadd_pd(s11, v, s13);
    d = _mm256_broadcast_sd(diag + j0 + 2);
    s02 = _mm256_div_pd(s02, d);
    s12 = _mm256_div_pd(s12, d);
    v = _mm256_broadcast_sd(lt + 2 * kTR + 3);
    s03 = _mm256_fnmadd_pd(s02, v, s03);
    s13 = _mm256_fnmadd_pd(s12, v, s13);
    d = _mm256_broadcast_sd(diag + j0 + 3);
    s03 = _mm256_div_pd(s03, d);
    s13 = _mm256_div_pd(s13, d);
    _mm256_storeu_pd(xj, s00);
    _mm256_storeu_pd(xj + 4, s10);
    if (width > 1) {
      _mm256_storeu_pd(xj + kMR, s01);
      _mm256_storeu_pd(xj + kMR + 4, s11);
    }
    if (width > 2) {
      _mm256_storeu_pd(xj + 2 * kMR, s02);
      _mm256_storeu_pd(xj + 2 * kMR + 4, s12);
    }
    if (width > 3) {
      _mm256_storeu_pd(xj + 3 * kMR, s03);
      _mm256_storeu_pd(xj + 3 * kMR + 4, s13);
    }
  }
}

constexpr Kernels kAvx2Kernels{update_avx2, solve_avx2};

#else

constexpr Kernels kAvx2Kernels = kPortableKernels;  // never chosen: avx2_available() is false

#endif  // ADDBO_CHOLESKY_AVX2

// ---- the blocked driver (portable code; calls the kernels through pointers) ----

// A 32-byte aligned scratch array.
class Buffer {
 public:
  double* get(std::size_t size) {
    if (size_ < size) {
      // Zeroed, with kPadding values past the end: the solve kernels read (and discard) up to
      // TR + 3 values beyond a partial last group of the packed triangle.
      storage_.reset(new double[size + kPadding]());
      size_ = size;
    }
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.get());
    return storage_.get() + ((32 - address % 32) % 32) / sizeof(double);
  }

 private:
  // 3 for the 32-byte alignment, 2 TR for the kernels' reads past the end (TR + 3 at most).
  static constexpr std::size_t kPadding = 3 + 2 * kTR;
  std::unique_ptr<double[]> storage_;
  std::size_t size_ = 0;
};

struct Workspace {
  Buffer a_pack, b_pack, l_pack, diag;
};

Index round_up(Index value, Index multiple) { return (value + multiple - 1) / multiple * multiple; }

// Unblocked left-looking factorisation of a small block.
bool factor_unblocked(double* a, Index lda, int n) {
  for (int j = 0; j < n; ++j) {
    double* column = a + j * lda;
    double pivot = column[j];
    for (int l = 0; l < j; ++l) {
      const double v = a[l * lda + j];
      pivot -= v * v;
    }
    if (!(pivot > 0.0) || !std::isfinite(pivot)) return false;
    const double diagonal = std::sqrt(pivot);
    column[j] = diagonal;
    for (int i = j + 1; i < n; ++i) {
      double sum = column[i];
      for (int l = 0; l < j; ++l) sum -= a[l * lda + i] * a[l * lda + j];
      column[i] = sum / diagonal;
    }
  }
  return true;
}

bool factor_blocked(double* a, Index lda, int n, int block, const Kernels& kernels, int threads,
                    Workspace& workspace, Workspace* inner) {
  for (int k0 = 0; k0 < n; k0 += block) {
    const int kb = std::min(block, n - k0);
    double* a11 = a + k0 * lda + k0;
    const bool ok = kb > kInnerBlock && inner != nullptr
                        ? factor_blocked(a11, lda, kb, kInnerBlock, kernels, 1, *inner, nullptr)
                        : factor_unblocked(a11, lda, kb);
    if (!ok) return false;
    const int m = n - k0 - kb;
    if (m == 0) break;
    double* a21 = a11 + kb;
    double* a22 = a11 + kb * lda + kb;

    // L11 packed for the panel solve.
    const int groups = static_cast<int>(round_up(kb, kTR) / kTR);
    double* lp = workspace.l_pack.get(static_cast<std::size_t>(groups) * kb * kTR);
    double* diag = workspace.diag.get(static_cast<std::size_t>(groups) * kTR);
    for (int g = 0; g < groups; ++g) {
      for (int l = 0; l < kb; ++l) {
        for (int t = 0; t < kTR; ++t) {
          const int j = g * kTR + t;
          lp[(static_cast<Index>(g) * kb + l) * kTR + t] =
              j < kb && l <= j ? a11[l * lda + j] : 0.0;
        }
      }
    }
    for (int j = 0; j < groups * kTR; ++j) diag[j] = j < kb ? a11[j * lda + j] : 1.0;

    const Index padded_rows = round_up(m, kSolveUnit);
    double* ap = workspace.a_pack.get(static_cast<std::size_t>(padded_rows) * kb);
    double* bp = workspace.b_pack.get(static_cast<std::size_t>(padded_rows) * kb);
    const double work = static_cast<double>(m) * m * kb / 2.0;
    const int step_threads = work >= kParallelMinWork ? threads : 1;

    // Panel solve A21 := A21 L11^-T, one MR-row panel at a time in packed form, leaving the
    // result both in A21 and packed as the update's A (MR rows) and B (NR rows) operands.
    const std::size_t solve_units = static_cast<std::size_t>(padded_rows / kSolveUnit);
    parallel_for(solve_units, step_threads, [&](std::size_t unit) {
      const int u0 = static_cast<int>(unit) * kSolveUnit;
      for (int i0 = u0; i0 < u0 + kSolveUnit; i0 += kMR) {
        double* panel = ap + static_cast<Index>(i0) * kb;
        const int rows = std::max(0, std::min(kMR, m - i0));
        for (int l = 0; l < kb; ++l) {
          const double* source = a21 + l * lda + i0;
          double* target = panel + l * kMR;
          for (int r = 0; r < kMR; ++r) target[r] = r < rows ? source[r] : 0.0;
        }
        if (rows == 0) continue;
        kernels.solve(kb, lp, diag, panel);
        for (int l = 0; l < kb; ++l) {
          double* target = a21 + l * lda + i0;
          const double* source = panel + l * kMR;
          for (int r = 0; r < rows; ++r) target[r] = source[r];
        }
      }
      for (int j0 = u0; j0 < u0 + kSolveUnit; j0 += kNR) {
        double* panel = bp + static_cast<Index>(j0) * kb;
        for (int t = 0; t < kNR; ++t) {
          const int row = j0 + t;
          const double* source = ap + static_cast<Index>(row / kMR) * kMR * kb + row % kMR;
          for (int l = 0; l < kb; ++l) panel[l * kNR + t] = source[l * kMR];
        }
      }
    });

    // Trailing update A22 -= L21 L21^T on the lower triangle, by row blocks (the biggest first).
    const std::size_t update_units =
        static_cast<std::size_t>(round_up(m, kUpdateUnit) / kUpdateUnit);
    parallel_for(update_units, step_threads, [&](std::size_t index) {
      const int r0 = static_cast<int>(update_units - 1 - index) * kUpdateUnit;
      const int r1 = std::min(m, r0 + kUpdateUnit);
      double tile[kNR * kMR];
      for (int j0 = 0; j0 < r1; j0 += kNR) {
        const int columns = std::min(kNR, m - j0);
        const double* b_panel = bp + static_cast<Index>(j0) * kb;
        for (int i0 = std::max(r0, j0 / kMR * kMR); i0 < r1; i0 += kMR) {
          const int rows = std::min(kMR, m - i0);
          const double* a_panel = ap + static_cast<Index>(i0) * kb;
          double* c = a22 + j0 * lda + i0;
          if (rows == kMR && columns == kNR && i0 >= j0 + kNR - 1) {
            kernels.update(kb, a_panel, b_panel, c, lda, false);
            continue;
          }
          kernels.update(kb, a_panel, b_panel, tile, kMR, true);
          for (int t = 0; t < columns; ++t) {
            for (int r = std::max(0, j0 + t - i0); r < rows; ++r) {
              c[t * lda + r] = c[t * lda + r] - tile[t * kMR + r];
            }
          }
        }
      }
    });
  }
  return true;
}

// X := X L^-T for the m rows of x (leading dimension ldx) against the n x n factor l (leading
// dimension ldl), right-looking by blocks of L's columns like factor_blocked's rows below the
// diagonal block: each block's columns of X are solved against L11^T, then the later columns
// get X1 L21^T subtracted. Every row's arithmetic is the same whichever thread runs its panel.
void solve_rows_blocked(const double* l, Index ldl, int n, double* x, Index ldx, int m,
                        const Kernels& kernels, int threads, Workspace& workspace) {
  // Narrower than the factorisation's kOuterBlock: here the diagonal blocks' solves are a
  // larger share when n is small (a few hundred points), and the update kernel is the faster.
  const int block = kRowSolveBlock;
  const Index padded_rows = round_up(m, kMR);
  for (int k0 = 0; k0 < n; k0 += block) {
    const int kb = std::min(block, n - k0);
    const double* l11 = l + k0 * ldl + k0;
    const int groups = static_cast<int>(round_up(kb, kTR) / kTR);
    double* lp = workspace.l_pack.get(static_cast<std::size_t>(groups) * kb * kTR);
    double* diag = workspace.diag.get(static_cast<std::size_t>(groups) * kTR);
    for (int g = 0; g < groups; ++g) {
      for (int q = 0; q < kb; ++q) {
        for (int t = 0; t < kTR; ++t) {
          const int j = g * kTR + t;
          lp[(static_cast<Index>(g) * kb + q) * kTR + t] =
              j < kb && q <= j ? l11[q * ldl + j] : 0.0;
        }
      }
    }
    for (int j = 0; j < groups * kTR; ++j) diag[j] = j < kb ? l11[j * ldl + j] : 1.0;
    // L21 (the rows of L below the block) packed as the update's NR-row B panels.
    const int below = n - k0 - kb;
    const Index padded_below = round_up(below, kNR);
    double* bp =
        workspace.b_pack.get(static_cast<std::size_t>(std::max<Index>(padded_below, kNR)) * kb);
    for (int j0 = 0; j0 < below; j0 += kNR) {
      double* panel = bp + static_cast<Index>(j0) * kb;
      for (int t = 0; t < kNR; ++t) {
        const int row = k0 + kb + j0 + t;
        for (int q = 0; q < kb; ++q) {
          panel[q * kNR + t] = j0 + t < below ? l[(k0 + q) * ldl + row] : 0.0;
        }
      }
    }
    double* ap = workspace.a_pack.get(static_cast<std::size_t>(padded_rows) * kb);
    const double work = static_cast<double>(m) * kb * (below + kb);
    const std::size_t units = static_cast<std::size_t>(padded_rows / kMR);
    parallel_for(units, work >= kParallelMinWork ? threads : 1, [&](std::size_t unit) {
      const int i0 = static_cast<int>(unit) * kMR;
      const int rows = std::min(kMR, m - i0);
      double* panel = ap + static_cast<Index>(i0) * kb;
      double* x1 = x + k0 * ldx + i0;
      for (int q = 0; q < kb; ++q) {
        for (int r = 0; r < kMR; ++r) panel[q * kMR + r] = r < rows ? x1[q * ldx + r] : 0.0;
      }
      kernels.solve(kb, lp, diag, panel);
      for (int q = 0; q < kb; ++q) {
        for (int r = 0; r < rows; ++r) x1[q * ldx + r] = panel[q * kMR + r];
      }
      double tile[kNR * kMR];
      double* x2 = x + (k0 + kb) * ldx + i0;
      for (int j0 = 0; j0 < below; j0 += kNR) {
        const int columns = std::min(kNR, below - j0);
        double* c = x2 + j0 * ldx;
        const double* b_panel = bp + static_cast<Index>(j0) * kb;
        if (rows == kMR && columns == kNR) {
          kernels.update(kb, panel, b_panel, c, ldx, false);
          continue;
        }
        kernels.update(kb, panel, b_panel, tile, kMR, true);
        for (int t = 0; t < columns; ++t) {
          for (int r = 0; r < rows; ++r) c[t * ldx + r] = c[t * ldx + r] - tile[t * kMR + r];
        }
      }
    });
  }
}

}  // namespace

struct CholeskyWorkspace::Buffers {
  Workspace outer;
  Workspace inner;
};

CholeskyWorkspace::CholeskyWorkspace() : buffers_(new Buffers) {}
CholeskyWorkspace::~CholeskyWorkspace() = default;
CholeskyWorkspace::CholeskyWorkspace(CholeskyWorkspace&&) noexcept = default;
CholeskyWorkspace& CholeskyWorkspace::operator=(CholeskyWorkspace&&) noexcept = default;

namespace cholesky_detail {

bool avx2_available() {
#ifdef ADDBO_CHOLESKY_AVX2
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return available;
#else
  return false;
#endif
}

Path default_path() { return avx2_available() ? Path::avx2 : Path::eigen; }

bool factorize(Eigen::Ref<Eigen::MatrixXd> a, int threads, Path path) {
  CholeskyWorkspace workspace;
  return factorize(a, threads, path, workspace);
}

bool factorize(Eigen::Ref<Eigen::MatrixXd> a, int threads, Path path,
               CholeskyWorkspace& workspace) {
  const Index n = a.rows();
  if (a.cols() != n) return false;
  if (n == 0) return true;
  if (path == Path::avx2 && !avx2_available()) path = Path::portable;
  if (path == Path::eigen) {
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(a);
    if (llt.info() != Eigen::Success) return false;
    // Eigen's LLT lets NaN pivots through: hold it to the same contract as the blocked paths.
    for (Index j = 0; j < n; ++j) {
      if (!(a(j, j) > 0.0) || !std::isfinite(a(j, j))) return false;
    }
    return true;
  }
  // The buffers' contents are never read before they are written (the kernels' reads past a
  // partial group are discarded), so a reused workspace needs no clearing.
  CholeskyWorkspace::Buffers& buffers = workspace.buffers();
  return factor_blocked(a.data(), a.outerStride(), static_cast<int>(n), kOuterBlock,
                        path == Path::avx2 ? kAvx2Kernels : kPortableKernels, std::max(1, threads),
                        buffers.outer, &buffers.inner);
}

void solve_rows(const Eigen::Ref<const Eigen::MatrixXd>& l, Eigen::Ref<Eigen::MatrixXd> x,
                int threads, Path path) {
  const Index n = l.rows();
  if (n == 0 || x.rows() == 0) return;
  if (path == Path::avx2 && !avx2_available()) path = Path::portable;
  if (path == Path::eigen) {
    l.triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(x);
    return;
  }
  Workspace workspace;
  solve_rows_blocked(l.data(), l.outerStride(), static_cast<int>(n), x.data(), x.outerStride(),
                     static_cast<int>(x.rows()),
                     path == Path::avx2 ? kAvx2Kernels : kPortableKernels, std::max(1, threads),
                     workspace);
}

}  // namespace cholesky_detail

bool cholesky_lower_in_place(Eigen::Ref<Eigen::MatrixXd> a, int threads) {
  return cholesky_detail::factorize(a, threads, cholesky_detail::default_path());
}

bool cholesky_lower_in_place(Eigen::Ref<Eigen::MatrixXd> a, int threads,
                             CholeskyWorkspace& workspace) {
  return cholesky_detail::factorize(a, threads, cholesky_detail::default_path(), workspace);
}

void solve_rows_against_lower(const Eigen::Ref<const Eigen::MatrixXd>& l,
                              Eigen::Ref<Eigen::MatrixXd> x, int threads) {
  cholesky_detail::solve_rows(l, x, threads, cholesky_detail::default_path());
}

}  // namespace addbo::core
