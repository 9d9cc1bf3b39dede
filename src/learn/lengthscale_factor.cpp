#include "learn/lengthscale_factor.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gp/additive_kernel.hpp"
#include "linalg/dense_cholesky.hpp"
#include "linalg/numerics.hpp"
#include "linalg/vector_exp.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// Pieces of the kernels' work: enough to keep any thread count busy, few enough that each
// piece's column buffers are worth their allocation.
constexpr Eigen::Index kStripes = 16;
// Rows per block of a column's exponentials: a whole number of packets of any SIMD width Eigen
// uses for doubles (2 for SSE, 4 for AVX, 8 for AVX-512).
constexpr Eigen::Index kLanes = 8;

// The log marginal likelihood with Delta = kernel + noise I (lower triangle of `kernel`), on
// the jitter ladder; -infinity past its last rung.
double log_likelihood(const Eigen::MatrixXd& kernel, double noise_variance,
                      const Eigen::VectorXd& y) {
  const Eigen::Index n = kernel.rows();
  for (double jitter = 0.0; !past_last_jitter(jitter); jitter = next_jitter(jitter)) {
    Eigen::MatrixXd delta = kernel;
    delta.diagonal().array() += noise_variance + jitter;
    if (!cholesky_lower_in_place(delta)) continue;
    const Eigen::VectorXd z = delta.triangularView<Eigen::Lower>().solve(y);
    const double log_determinant = 2.0 * delta.diagonal().array().log().sum();
    return -0.5 * z.squaredNorm() - 0.5 * log_determinant -
           0.5 * static_cast<double>(n) * kLogTwoPi;
  }
  return -std::numeric_limits<double>::infinity();
}

}  // namespace

std::vector<double> scaled_lengthscales(const std::vector<VariableType>& types,
                                        std::vector<double> lengthscales, double factor) {
  for (std::size_t d = 0; d < lengthscales.size(); ++d) {
    if (types[d] != VariableType::categorical) lengthscales[d] *= factor;
  }
  return lengthscales;
}

void lengthscale_factor_kernels(const LengthscaleFactorData& data, double largest,
                                std::size_t count, int threads, LengthscaleFactorKernels& kernels) {
  const Eigen::Index n = data.points.rows();
  // For the clique scales only: the kernel's noise does not enter the sums.
  const AdditiveKernel kernel(data.types, data.cliques, data.lengthscales, 1.0);
  if (kernels.sums.size() != count || kernels.points > n) {
    kernels.sums.assign(count, Eigen::MatrixXd());
    kernels.points = 0;
  }
  // Rows from `known` on are new in every column: zeroed, then summed clique by clique.
  const Eigen::Index known = kernels.points;
  for (Eigen::MatrixXd& sum : kernels.sums) {
    sum.conservativeResize(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      const Eigen::Index first = std::max(j, known);
      sum.col(j).segment(first, n - first).setZero();
    }
  }
  // The points with rows up to a whole number of lanes (the padding's values are never used),
  // so that every column's exponentials are taken over whole packets from a row that is a
  // multiple of kLanes: a vectorised exponential may differ from the scalar one in the last
  // bit, and which one an entry got would otherwise depend on where its column started.
  const Eigen::Index padded_rows = (n + kLanes - 1) / kLanes * kLanes;
  Eigen::MatrixXd padded = Eigen::MatrixXd::Zero(padded_rows, data.points.cols());
  padded.topRows(n) = data.points;
  // Each new entry: per clique, the product of its unscaled factors (the categorical ones) times
  // the power of its scaled ones, exp(-Q / largest^2) at the largest factor, raised to the
  // fourth for each halving; added clique by clique in order. A column at a time, so that the
  // exponentials are vectorised and the candidates' columns stay in cache while every clique
  // adds to them; the columns in interleaved stripes, a piece of work each, so that every
  // stripe holds long and short columns alike and each entry is computed the same way whichever
  // thread runs it.
  const std::size_t stripes = static_cast<std::size_t>(std::min<Eigen::Index>(n, kStripes));
  parallel_for(stripes, threads, [&](std::size_t stripe) {
    Eigen::ArrayXd q, fixed, power;
    for (Eigen::Index j = static_cast<Eigen::Index>(stripe); j < n;
         j += static_cast<Eigen::Index>(stripes)) {
      const Eigen::Index first = std::max(j, known);  // the column's first new row
      if (first >= n) continue;
      const Eigen::Index start = first / kLanes * kLanes, rows = padded_rows - start;
      for (std::size_t c = 0; c < data.cliques.size(); ++c) {
        q.setZero(rows);
        fixed.setConstant(rows, kernel.clique_scale(c));
        for (int d : data.cliques[c]) {
          const auto u = padded.col(d).segment(start, rows).array();
          const double v = data.points(j, d);
          if (data.types[static_cast<std::size_t>(d)] == VariableType::categorical) {
            for (Eigen::Index i = 0; i < rows; ++i) {
              fixed(i) *= kernel.factor(static_cast<std::size_t>(d), u(i), v);
            }
          } else {
            const double l = data.lengthscales[static_cast<std::size_t>(d)] * largest;
            q += (u - v).square() / (2.0 * l * l);
          }
        }
        power = -q;
        exp_nonpositive(power.data(), static_cast<std::size_t>(power.size()), power.data());
        for (std::size_t k = 0; k < count; ++k) {
          if (k > 0) power = power.square().square();  // halving the factor: the fourth power
          kernels.sums[k].col(j).segment(first, n - first).array() +=
              (fixed * power).segment(first - start, n - first);
        }
      }
    }
  });
  kernels.points = n;
}

std::vector<double> lengthscale_factor_likelihoods(const LengthscaleFactorData& data,
                                                   double largest, std::size_t count, int threads,
                                                   LengthscaleFactorKernels* kept) {
  LengthscaleFactorKernels scratch;
  LengthscaleFactorKernels& kernels = kept != nullptr ? *kept : scratch;
  lengthscale_factor_kernels(data, largest, count, threads, kernels);
  const std::vector<double>& noises = data.noise_variances;
  const std::size_t m = noises.size();
  std::vector<double> likelihoods(count * m);
  parallel_for(count * m, threads, [&](std::size_t candidate) {
    likelihoods[candidate] =
        log_likelihood(kernels.sums[candidate / m], noises[candidate % m], data.y);
  });
  return likelihoods;
}

}  // namespace addbo::core
