// The posterior of the additive GP, kept as one mean and one variance table per clique over the
// clique's grid (paper eq. 5) and updated exactly, one point at a time (docs/architecture.md).
//
// Adding a point x with kernel column k = k(X, x):
//   l = L^-1 k,  pivot^2 = k(x,x) + noise - |l|^2,  w = L^-T l = Delta^-1 k,
//   c_C(cell) = k_C(cell, x) - k_C(cell, X) w    (posterior covariance of f_C(cell) and y_x),
//   mean_C += c_C r / pivot^2,  var_C -= c_C^2 / pivot^2,  r = y_x - mu(x),
// and the Cholesky factor grows by the row [l, pivot].
//
// A posterior built from scratch (after a relearn, a new random tree or a restore) takes all
// the told points in one batch instead (build): Delta = K + (noise + jitter) I is factorised
// once, and every clique's tables come from blocked triangular solves and matrix products over
// all the points: mean_C = k_C(cells, X) Delta^-1 y, var_C = s_C - |L^-1 k_C(X, cell)|^2. It
// leaves exactly the state the additions would have left, up to rounding, so later additions
// continue from it; it is not bit-identical to them (the saved state records where the batch
// was, docs/saved-state.md).
//
// Pending points (asked, not told) are added as fantasised observations. With the kriging
// believer (confidence weight 0) the fantasised value is the posterior mean, so r = 0 and only
// the variance tables shrink. With a weight w > 0 it is the lower confidence bound
// mu(x) - w sigma(x) of f itself (given the told points and the earlier pending ones), so
// r = -w sigma(x) and the mean tables move too: the believer leaves a pending point almost all
// of the additive acquisition's exploration bonus (each clique's deviation shrinks only by its
// share of f's variance), while the pessimistic fantasy takes the optimism out of the
// neighbourhood of a point already being evaluated. The fantasised means are kept beside the
// told ones (mean_table shows them, clique_moments includes them; told_moments, mean_at and
// everything else use the told points only). They sit after the real points and are dropped by
// cutting the factor back (clear_pending).
//
// The first pending point's row and cross-covariances are computed against the told points
// only, which is exactly what telling that point needs: they are kept, so that the usual
// ask-then-tell of one point costs one contraction pass instead of two.
//
// The contraction runs clique by clique, on up to `threads` threads; every clique's table is
// computed by the same code whichever thread runs it, so the results do not depend on it.
//
// Everything linear in y (the mean tables and z = L^-1 y) is kept in the current standardised
// units, together with the same quantities for y = 1, so that changing the standardisation is an
// exact affine map instead of a recomputation.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "gp/additive_kernel.hpp"
#include "gp/standardization.hpp"
#include "linalg/growing_cholesky.hpp"

namespace addbo::core {

class AdditivePosterior {
 public:
  // grid_axes[d] holds the encoded values of variable d's grid (the grid the tables cover).
  // `jitter` is added to the noise variance on the diagonal of Delta.
  // `threads` bounds the threads of the per-clique updates (1: the caller's thread only).
  AdditivePosterior(AdditiveKernel kernel, std::vector<std::vector<double>> grid_axes,
                    double jitter, int threads = 1);

  const AdditiveKernel& kernel() const { return kernel_; }
  double jitter() const { return jitter_; }
  std::size_t observation_count() const { return y_.size(); }
  std::size_t pending_count() const { return static_cast<std::size_t>(point_count_) - y_.size(); }
  const Standardization& standardization() const { return standardization_; }
  int grid_size(std::size_t d) const { return static_cast<int>(grid_axes_[d].size()); }

  // Builds the posterior of the told points `points` (encoded) with values `y` (raw units,
  // larger is better) in one batch: the same model as adding them one by one with
  // add_observation, within rounding. Requires an empty posterior (no point added yet).
  // Returns false, leaving the posterior empty, when Delta is not safely positive definite at
  // this jitter (the test add_observation applies to each pivot): the caller rebuilds with
  // more jitter. The result does not depend on the thread count.
  bool build(const std::vector<std::vector<double>>& points, const std::vector<double>& y);

  // Adds a told observation (y in raw units, larger is better). Requires pending_count() == 0.
  // Returns false, changing nothing, when the new pivot is not safely positive (the point is a
  // numerical duplicate at this jitter): the caller rebuilds with more jitter.
  bool add_observation(const std::vector<double>& u, double y);
  // Adds a pending point fantasised at mean - confidence_weight * sigma of f at u (0: the kriging
  // believer, which leaves the mean tables as they are). Same return convention.
  bool add_pending(const std::vector<double>& u, double confidence_weight = 0.0);
  // Forgets every pending point.
  void clear_pending();

  // Tables of clique c (kernel().cliques()[c]), row-major over its variables' grids; the means
  // (standardised) include the pending points' fantasised values, the variances their points.
  const Eigen::VectorXd& mean_table(std::size_t c) const {
    return fantasised_ ? mean_view_[c] : mean_[c];
  }
  const Eigen::VectorXd& variance_table(std::size_t c) const { return variance_view_[c]; }
  const Eigen::VectorXd& variance_table_without_pending(std::size_t c) const {
    return variance_real_[c];
  }

  // The exact mean and variance of every clique's component at an encoded point u anywhere in
  // the domain (on the grid they equal the tables' entries): both with the pending points and
  // their fantasised values, as in the tables. One blocked triangular solve.
  void clique_moments(const std::vector<double>& u, std::vector<double>& mean,
                      std::vector<double>& variance) const;

  // Posterior variance of f (the whole sum, not the cliques' bound) at an encoded point, given
  // the told points, and the pending points too when `with_pending`.
  double variance_at(const std::vector<double>& u, bool with_pending) const;

  // Posterior mean of f at an encoded point given the told observations (standardised units).
  double mean_at(const std::vector<double>& u) const;

  // The posterior given the told observations only (pending points ignored) at an encoded
  // point u anywhere in the domain, in standardised units: the mean and variance of every
  // clique's component and of f itself (the clique means sum to f's mean; f's variance includes
  // the covariances between the components). One blocked solve against the told block of the
  // factor. Before any observation: the prior (means 0, variances s_C and 1).
  struct Moments {
    std::vector<double> clique_mean, clique_variance;
    double mean = 0.0;
    double variance = 1.0;
  };
  Moments told_moments(const std::vector<double>& u) const;
  // The posterior means of f at the told points themselves, in the order they were told
  // (standardised units): y - (noise + jitter) Delta^-1 y, since K Delta^-1 y = y - (noise +
  // jitter) Delta^-1 y. One triangular solve.
  Eigen::VectorXd told_point_means() const;
  // log p(y | model) of the told observations in standardised units.
  double log_marginal_likelihood() const;

 private:
  struct Row {
    Eigen::VectorXd l;  // L^-1 k(X, x) over every current point
    double pivot_squared = 0.0;
  };
  // What adding one point does to the factor and the tables.
  struct PointUpdate {
    std::vector<double> u;
    Row row;
    std::vector<Eigen::VectorXd> cross;  // c_C per clique
  };
  Eigen::VectorXd kernel_column(const std::vector<double>& u, Eigen::Index count) const;
  // The smallest pivot^2 = k(x,x) + noise + jitter - |L^-1 k|^2 accepted: in exact arithmetic
  // it is at least noise + jitter; far below that, rounding has taken over.
  double pivot_floor() const;
  // build's last step: every clique's mean and variance tables from Delta^-1 y, Delta^-1 1
  // and Delta's factor, split into pieces that may run on several threads.
  void build_tables(const Eigen::VectorXd& alpha, const Eigen::VectorXd& alpha_ones,
                    const Eigen::Ref<const Eigen::MatrixXd>& factor);
  // build_tables' work: clique c's mean tables, and its variance table over the prefix cells
  // [first, first + count).
  void build_means(std::size_t c, const Eigen::VectorXd& alpha, const Eigen::VectorXd& alpha_ones);
  void build_variances(std::size_t c, Eigen::Index first, Eigen::Index count,
                       const Eigen::Ref<const Eigen::MatrixXd>& factor);
  // L^-1 [k_C(X, u)]_C over the first `count` points (count x cliques): the cliques' moments
  // at u, with or without the pending points.
  Eigen::MatrixXd whitened_clique_columns(const std::vector<double>& u, Eigen::Index count) const;
  bool prepare_row(const std::vector<double>& u, Row& row) const;
  void append_point(const std::vector<double>& u, const Row& row);
  // Appends the point to the factor and fills update.cross (update.u and update.row set).
  void append_and_contract(PointUpdate& update);
  // Calls body(c) for every clique, on several threads when the work (cells times
  // work_per_cell multiply-adds) is large enough to pay.
  template <typename Body>
  void for_each_clique(double work_per_cell, Body body) const;
  void restandardize(const Standardization& next);

  AdditiveKernel kernel_;
  std::vector<std::vector<double>> grid_axes_;
  double jitter_;
  int threads_;
  double total_cells_ = 0.0;  // cells of all the clique tables together

  Eigen::MatrixXd points_;                     // D x capacity, encoded points (real, then pending)
  std::vector<Eigen::MatrixXd> grid_factors_;  // per variable: capacity x grid, k_d(x_i, grid_g)
  Eigen::Index point_count_ = 0;
  GrowingCholesky cholesky_;

  std::vector<double> y_;  // told values, raw units
  Standardization standardization_;
  Eigen::VectorXd z_;       // L^-1 y (standardised), told points only
  Eigen::VectorXd z_ones_;  // L^-1 1
  // The pending points' part of L^-1 y for their fantasised values; when any is not the
  // believer's (fantasised_), mean_view_ holds the mean tables with them.
  Eigen::VectorXd z_pending_;
  bool fantasised_ = false;
  std::vector<Eigen::VectorXd> mean_view_;
  std::vector<Eigen::VectorXd> mean_, mean_ones_, variance_real_, variance_view_;
  // The first pending point's update (valid until the next told observation), or empty.
  std::optional<PointUpdate> first_pending_;
};

}  // namespace addbo::core
