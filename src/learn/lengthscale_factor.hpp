// One common factor on a model's lengthscales, and optionally its noise variance, chosen by the
// marginal likelihood of some data (the local search's box: optimizer/zoomed_problem.hpp). Every
// candidate rescales the same continuous lengthscales, so the clique's kernel matrices of all
// candidates come from one set of exponentials: with factors f_k = f_0 / 2^k, the product kernel
// of a clique's continuous variables is P_k = exp(-Q / f_k^2) = P_(k-1)^4 for the clique's
// scaled squared distance Q, two squarings per candidate instead of an exponential. A noise
// variance only changes the diagonal, so each factor's kernel serves every noise weighed.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "graph/graph.hpp"
#include "space/variable.hpp"

namespace addbo::core {

struct LengthscaleFactorData {
  std::vector<VariableType> types;
  std::vector<VarSet> cliques;
  std::vector<double> lengthscales;  // the continuous and integer ones are scaled
  // The noise variances weighed with each factor (at least one; the likelihoods only).
  std::vector<double> noise_variances;
  Eigen::MatrixXd points;  // n x D, encoded
  Eigen::VectorXd y;       // standardised (the likelihoods only)
};

// Every candidate's kernel matrix of the points seen so far (lower triangles), kept by a caller
// that adds points between two fits: only the new points' rows are computed then. Every entry is
// computed the same way whether it was kept or not, so the likelihoods are too.
struct LengthscaleFactorKernels {
  std::vector<Eigen::MatrixXd> sums;
  Eigen::Index points = 0;
};

// `lengthscales` with the continuous and integer ones multiplied by `factor` (a categorical
// variable's is not a length).
std::vector<double> scaled_lengthscales(const std::vector<VariableType>& types,
                                        std::vector<double> lengthscales, double factor);

// The additive kernel's matrix of data.points (lower triangle, k(x, x) = 1, no noise) with the
// continuous and integer lengthscales multiplied by largest / 2^k, in kernels.sums[k] for k = 0
// .. count - 1, on up to `threads` threads (the result does not depend on their number). The
// kernels of the first kernels.points points are taken as they are (the data's first rows must
// be those points, and the types, cliques and lengthscales as then); only the new rows are
// computed.
void lengthscale_factor_kernels(const LengthscaleFactorData& data, double largest,
                                std::size_t count, int threads, LengthscaleFactorKernels& kernels);

// The log marginal likelihood of the data under the additive kernel with the continuous and
// integer lengthscales multiplied by factors[k] = largest / 2^k, k = 0 .. count - 1, and the
// noise variance noise_variances[j], j = 0 .. m - 1, at index k * m + j (the kernel of
// additive_kernel.hpp, Delta = K + noise I factorised on the jitter ladder; -infinity where even
// the last rung fails), on up to `threads` threads (the result does not depend on their number).
// With `kept`, the kernels of its first kept->points points are taken from it (the data's first
// rows must be those points, and everything else but y as then), and it is left holding the kernels
// of all of them.
std::vector<double> lengthscale_factor_likelihoods(const LengthscaleFactorData& data,
                                                   double largest, std::size_t count, int threads,
                                                   LengthscaleFactorKernels* kept = nullptr);

}  // namespace addbo::core
