#include "gp/additive_posterior.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "gp/clique_contraction.hpp"
#include "linalg/dense_cholesky.hpp"
#include "linalg/numerics.hpp"
#include "linalg/resize.hpp"
#include "linalg/vector_exp.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// Below this many multiply-adds one pass over the cliques takes a few tenths of a millisecond,
// not enough to pay for starting a thread (measured with benchmarks/speed).
constexpr double kParallelWork = double(1 << 23);

// k_d(values_i, v) for every entry of `values`, as variable_factor computes each one but with
// a vectorised exp (linalg/vector_exp.hpp: within 2 ulp of std::exp): the batch build's
// kernel matrix and grid factors, D n^2 / 2 + D n G exponentials that dominate it otherwise.
void factor_column(const AdditiveKernel& kernel, std::size_t d,
                   const Eigen::Ref<const Eigen::ArrayXd>& values, double v,
                   Eigen::Ref<Eigen::VectorXd> out) {
  const double lengthscale = kernel.lengthscales()[d];
  const double inverse_two_l2 = 0.5 / (lengthscale * lengthscale);
  if (kernel.types()[d] == VariableType::categorical) {
    const double other = std::exp(-inverse_two_l2);
    out = (values == v)
              .select(Eigen::ArrayXd::Ones(values.size()),
                      Eigen::ArrayXd::Constant(values.size(), other))
              .matrix();
  } else {
    out = (-(values - v).square() * inverse_two_l2).matrix();
    exp_nonpositive(out.data(), static_cast<std::size_t>(out.size()), out.data());
  }
}

// Appends one value to an Eigen vector (amortisation is not needed: O(n) per call next to the
// O(n^2) triangular solves of the same update).
void push_back(Eigen::VectorXd& v, double value) {
  v.conservativeResize(v.size() + 1);
  v(v.size() - 1) = value;
}

// The batch build's steps that need no member of the posterior.

// Room for later additions as the one-point growth would have left it (16, doubling): the
// first addition after the build does not double an exactly full n x n factor.
Eigen::Index batch_capacity(Eigen::Index n) {
  Eigen::Index capacity = 16;
  while (capacity <= n) capacity *= 2;
  return capacity;
}

// The encoded points as the columns of a dimension x capacity matrix (the posterior's points_).
Eigen::MatrixXd encoded_columns(const std::vector<std::vector<double>>& points,
                                std::size_t dimension, Eigen::Index capacity) {
  Eigen::MatrixXd encoded(static_cast<Eigen::Index>(dimension), capacity);
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t d = 0; d < dimension; ++d) {
      encoded(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(i)) = points[i][d];
    }
  }
  return encoded;
}

// Each variable's values at the first n points, contiguous (factor_column's input).
std::vector<Eigen::ArrayXd> point_coordinates(const Eigen::MatrixXd& encoded, Eigen::Index n) {
  std::vector<Eigen::ArrayXd> coordinates(static_cast<std::size_t>(encoded.rows()));
  for (std::size_t d = 0; d < coordinates.size(); ++d) {
    coordinates[d] = encoded.row(static_cast<Eigen::Index>(d)).head(n).transpose().array();
  }
  return coordinates;
}

// Delta's lower triangle, column j holding k(x_j, x_i) for the later points i, summed as
// kernel_column sums it (per-variable factors first, shared by the cliques), and `diagonal`
// (k(x, x) = 1 plus noise and jitter, as prepare_row takes it) on the diagonal. Columns are
// independent: any thread may fill any.
void fill_kernel_matrix(const AdditiveKernel& kernel,
                        const std::vector<Eigen::ArrayXd>& coordinates, double diagonal,
                        int threads, Eigen::Ref<Eigen::MatrixXd> delta) {
  const Eigen::Index n = delta.rows();
  const std::size_t dimension = coordinates.size();
  constexpr Eigen::Index kColumnsPerPiece = 32;
  const std::size_t column_pieces =
      static_cast<std::size_t>((n + kColumnsPerPiece - 1) / kColumnsPerPiece);
  const double kernel_work = 0.5 * double(n) * double(n) * double(dimension) * 16.0;
  parallel_for(column_pieces, kernel_work >= kParallelWork ? threads : 1, [&](std::size_t piece) {
    const Eigen::Index begin = static_cast<Eigen::Index>(piece) * kColumnsPerPiece;
    const Eigen::Index end = std::min(n, begin + kColumnsPerPiece);
    Eigen::MatrixXd factors;
    Eigen::VectorXd product;
    for (Eigen::Index j = begin; j < end; ++j) {
      delta(j, j) = diagonal;
      const Eigen::Index below = n - j - 1;
      if (below == 0) continue;
      resize_fresh(factors, below, static_cast<Eigen::Index>(dimension));
      for (std::size_t d = 0; d < dimension; ++d) {
        factor_column(kernel, d, coordinates[d].tail(below), coordinates[d](j),
                      factors.col(static_cast<Eigen::Index>(d)));
      }
      auto column = delta.col(j).tail(below);
      resize_fresh(product, below);
      for (std::size_t c = 0; c < kernel.cliques().size(); ++c) {
        product.setConstant(kernel.clique_scale(c));
        for (int d : kernel.cliques()[c]) product.array() *= factors.col(d).array();
        column += product;
      }
    }
  });
}

// One factorisation in place, checked pivot by pivot as the one-point additions check theirs
// (pivot^2 at least `floor`); the upper triangle is cleared. False: more jitter is needed.
bool factorize_checked(Eigen::Ref<Eigen::MatrixXd> delta, double floor, int threads) {
  if (!cholesky_lower_in_place(delta, threads)) return false;
  for (Eigen::Index i = 0; i < delta.rows(); ++i) {
    const double pivot_squared = delta(i, i) * delta(i, i);
    if (!std::isfinite(pivot_squared) || pivot_squared < floor) return false;
  }
  delta.triangularView<Eigen::StrictlyUpper>().setZero();
  return true;
}

// Per variable: capacity x grid, k_d(x_i, grid_g) at the points (the posterior's
// grid_factors_).
std::vector<Eigen::MatrixXd> grid_factors_at(const AdditiveKernel& kernel,
                                             const std::vector<std::vector<double>>& grid_axes,
                                             const std::vector<Eigen::ArrayXd>& coordinates,
                                             Eigen::Index capacity) {
  std::vector<Eigen::MatrixXd> grid_factors(coordinates.size());
  for (std::size_t d = 0; d < coordinates.size(); ++d) {
    const std::vector<double>& axis = grid_axes[d];
    const Eigen::Index n = coordinates[d].size();
    grid_factors[d].resize(capacity, static_cast<Eigen::Index>(axis.size()));
    for (std::size_t g = 0; g < axis.size(); ++g) {
      factor_column(kernel, d, coordinates[d], axis[g],
                    grid_factors[d].col(static_cast<Eigen::Index>(g)).head(n));
    }
  }
  return grid_factors;
}

}  // namespace

AdditivePosterior::AdditivePosterior(AdditiveKernel kernel,
                                     std::vector<std::vector<double>> grid_axes, double jitter,
                                     int threads)
    : kernel_(std::move(kernel)),
      grid_axes_(std::move(grid_axes)),
      jitter_(jitter),
      threads_(std::max(1, threads)) {
  const std::size_t dimension = kernel_.dimension();
  if (grid_axes_.size() != dimension) {
    throw Error(Status::internal, "AdditivePosterior: one grid axis per variable is required");
  }
  points_.resize(static_cast<Eigen::Index>(dimension), 0);
  grid_factors_.resize(dimension);
  for (std::size_t d = 0; d < dimension; ++d) {
    grid_factors_[d].resize(0, static_cast<Eigen::Index>(grid_axes_[d].size()));
  }
  const std::size_t cliques = kernel_.cliques().size();
  mean_.resize(cliques);
  mean_ones_.resize(cliques);
  variance_real_.resize(cliques);
  for (std::size_t c = 0; c < cliques; ++c) {
    Eigen::Index cells = 1;
    for (int d : kernel_.cliques()[c]) cells *= static_cast<Eigen::Index>(grid_axes_[d].size());
    total_cells_ += static_cast<double>(cells);
    mean_[c] = Eigen::VectorXd::Zero(cells);
    mean_ones_[c] = Eigen::VectorXd::Zero(cells);
    // Prior variance of f_C is s_C everywhere (each factor is 1 at zero distance).
    variance_real_[c] = Eigen::VectorXd::Constant(cells, kernel_.clique_scale(c));
  }
  variance_view_ = variance_real_;
}

Eigen::VectorXd AdditivePosterior::kernel_column(const std::vector<double>& u,
                                                 Eigen::Index count) const {
  const std::size_t dimension = kernel_.dimension();
  // Per-variable factors first: each is shared by every clique containing the variable.
  Eigen::MatrixXd factors(count, static_cast<Eigen::Index>(dimension));
  for (std::size_t d = 0; d < dimension; ++d) {
    for (Eigen::Index i = 0; i < count; ++i) {
      factors(i, d) = kernel_.factor(d, points_(d, i), u[d]);
    }
  }
  Eigen::VectorXd column = Eigen::VectorXd::Zero(count);
  Eigen::VectorXd product(count);
  for (std::size_t c = 0; c < kernel_.cliques().size(); ++c) {
    product.setConstant(kernel_.clique_scale(c));
    for (int d : kernel_.cliques()[c]) product.array() *= factors.col(d).array();
    column += product;
  }
  return column;
}

bool AdditivePosterior::prepare_row(const std::vector<double>& u, Row& row) const {
  row.l = cholesky_.solve_lower(kernel_column(u, point_count_));
  const double diagonal = 1.0 + kernel_.noise_variance() + jitter_;  // k(x, x) = 1
  row.pivot_squared = diagonal - row.l.squaredNorm();
  return std::isfinite(row.pivot_squared) && row.pivot_squared >= pivot_floor();
}

double AdditivePosterior::pivot_floor() const {
  return std::max(1e-12, 0.5 * (kernel_.noise_variance() + jitter_));
}

bool AdditivePosterior::build(const std::vector<std::vector<double>>& points,
                              const std::vector<double>& y) {
  if (point_count_ != 0) {
    throw Error(Status::internal, "AdditivePosterior: build needs an empty posterior");
  }
  if (points.size() != y.size()) {
    throw Error(Status::internal, "AdditivePosterior: one value per point is required");
  }
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  if (n == 0) return true;
  const Eigen::Index capacity = batch_capacity(n);
  Eigen::MatrixXd encoded = encoded_columns(points, kernel_.dimension(), capacity);
  const std::vector<Eigen::ArrayXd> coordinates = point_coordinates(encoded, n);

  // Delta is built and factorised where the factor will be kept.
  Eigen::MatrixXd storage = Eigen::MatrixXd::Zero(capacity, capacity);
  auto delta = storage.topLeftCorner(n, n);
  fill_kernel_matrix(kernel_, coordinates, 1.0 + kernel_.noise_variance() + jitter_, threads_,
                     delta);
  if (!factorize_checked(delta, pivot_floor(), threads_)) return false;

  // Committed from here on: nothing below can fail on the numbers.
  std::vector<Eigen::MatrixXd> grid_factors =
      grid_factors_at(kernel_, grid_axes_, coordinates, capacity);
  points_.swap(encoded);
  grid_factors_.swap(grid_factors);
  point_count_ = n;
  y_ = y;
  standardization_ = standardize(y_);
  Eigen::VectorXd values(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    values(i) = standardization_.standardized(y_[static_cast<std::size_t>(i)]);
  }
  const Eigen::Block<const Eigen::MatrixXd> lower(storage, 0, 0, n, n);
  const auto factor = lower.triangularView<Eigen::Lower>();
  z_ = factor.solve(values);
  z_ones_ = factor.solve(Eigen::VectorXd::Ones(n));
  const Eigen::VectorXd alpha = factor.transpose().solve(z_);  // Delta^-1 y
  const Eigen::VectorXd alpha_ones = factor.transpose().solve(z_ones_);
  build_tables(alpha, alpha_ones, lower);
  cholesky_.assign(std::move(storage), n);
  variance_view_ = variance_real_;
  first_pending_.reset();
  return true;
}

void AdditivePosterior::build_tables(const Eigen::VectorXd& alpha,
                                     const Eigen::VectorXd& alpha_ones,
                                     const Eigen::Ref<const Eigen::MatrixXd>& factor) {
  // The work pieces: per clique one for the mean tables (n x cells multiply-adds) and its
  // variance table in blocks of whole prefix cells of about kBlockColumns columns each. The
  // blocks are fixed by the model alone, so the arithmetic does not depend on the threads.
  constexpr Eigen::Index kBlockColumns = 256;
  struct Piece {
    std::size_t clique;
    Eigen::Index first = 0, count = 0;  // prefix cells; count 0: the mean tables
  };
  std::vector<Piece> pieces;
  for (std::size_t c = 0; c < kernel_.cliques().size(); ++c) {
    const VarSet& clique = kernel_.cliques()[c];
    const Eigen::Index last_size = grid_factors_[clique.back()].cols();
    Eigen::Index prefix_cells = 1;
    for (std::size_t j = 0; j + 1 < clique.size(); ++j)
      prefix_cells *= grid_factors_[clique[j]].cols();
    const Eigen::Index per_block =
        std::max<Eigen::Index>(1, kBlockColumns / std::max<Eigen::Index>(1, last_size));
    pieces.push_back(Piece{c, 0, 0});
    for (Eigen::Index first = 0; first < prefix_cells; first += per_block) {
      pieces.push_back(Piece{c, first, std::min(per_block, prefix_cells - first)});
    }
  }
  const double n = static_cast<double>(point_count_);
  const double table_work = 0.5 * n * n * total_cells_;
  parallel_for(pieces.size(), table_work >= kParallelWork ? threads_ : 1, [&](std::size_t k) {
    const Piece& piece = pieces[k];
    if (piece.count == 0) {
      build_means(piece.clique, alpha, alpha_ones);
    } else {
      build_variances(piece.clique, piece.first, piece.count, factor);
    }
  });
}

void AdditivePosterior::build_means(std::size_t c, const Eigen::VectorXd& alpha,
                                    const Eigen::VectorXd& alpha_ones) {
  std::vector<const Eigen::MatrixXd*> factors;
  for (int d : kernel_.cliques()[c]) factors.push_back(&grid_factors_[d]);
  contract_clique(factors, alpha, kernel_.clique_scale(c), mean_[c]);
  contract_clique(factors, alpha_ones, kernel_.clique_scale(c), mean_ones_[c]);
}

void AdditivePosterior::build_variances(std::size_t c, Eigen::Index first, Eigen::Index count,
                                        const Eigen::Ref<const Eigen::MatrixXd>& factor) {
  // Prefix cell p (every variable of the clique but the last, row-major) spans the columns
  // k_C(X, (p, g)) = w_p * F_last(:, g), w_p = s_C prod_j F_j(:, p_j): a diagonal scaling of
  // the last variable's factors, so the block is formed without any kernel evaluation.
  const VarSet& clique = kernel_.cliques()[c];
  const Eigen::Index n = point_count_;
  const Eigen::MatrixXd& last = grid_factors_[clique.back()];
  const Eigen::Index last_size = last.cols();
  std::vector<Eigen::Index> index(clique.size() - 1, 0);
  for (Eigen::Index rest = first, j = static_cast<Eigen::Index>(index.size()); j-- > 0;) {
    const Eigen::Index size = grid_factors_[clique[static_cast<std::size_t>(j)]].cols();
    index[static_cast<std::size_t>(j)] = rest % size;
    rest /= size;
  }
  // One row per cell (the right-hand sides as rows: solve_rows_against_lower's layout).
  Eigen::MatrixXd block(count * last_size, n);
  const Eigen::MatrixXd last_transposed = last.topRows(n).transpose();  // contiguous per point
  Eigen::VectorXd weights(n);
  for (Eigen::Index b = 0; b < count; ++b) {
    weights.setConstant(kernel_.clique_scale(c));
    for (std::size_t j = 0; j < index.size(); ++j) {
      weights.array() *= grid_factors_[clique[j]].col(index[j]).head(n).array();
    }
    block.middleRows(b * last_size, last_size) = last_transposed * weights.asDiagonal();
    for (std::size_t j = index.size(); j-- > 0;) {  // next prefix, last prefix variable fastest
      if (++index[j] < grid_factors_[clique[j]].cols()) break;
      index[j] = 0;
    }
  }
  solve_rows_against_lower(factor, block);  // row k: (L^-1 k_C(X, cell k))^T
  const double scale = kernel_.clique_scale(c);
  variance_real_[c].segment(first * last_size, count * last_size) =
      scale - block.array().square().rowwise().sum();
}

void AdditivePosterior::append_point(const std::vector<double>& u, const Row& row) {
  const Eigen::Index capacity = points_.cols();
  if (point_count_ == capacity) {
    const Eigen::Index grown = std::max<Eigen::Index>(16, 2 * capacity);
    points_.conservativeResize(Eigen::NoChange, grown);
    for (Eigen::MatrixXd& factors : grid_factors_)
      factors.conservativeResize(grown, Eigen::NoChange);
  }
  for (std::size_t d = 0; d < u.size(); ++d) {
    points_(static_cast<Eigen::Index>(d), point_count_) = u[d];
    for (std::size_t g = 0; g < grid_axes_[d].size(); ++g) {
      grid_factors_[d](point_count_, static_cast<Eigen::Index>(g)) =
          kernel_.factor(d, u[d], grid_axes_[d][g]);
    }
  }
  cholesky_.append(row.l, std::sqrt(row.pivot_squared));
  ++point_count_;
}

template <typename Body>
void AdditivePosterior::for_each_clique(double work_per_cell, Body body) const {
  const std::size_t cliques = kernel_.cliques().size();
  const bool pays = threads_ > 1 && cliques > 1 && total_cells_ * work_per_cell >= kParallelWork;
  parallel_for(cliques, pays ? threads_ : 1, [&](std::size_t c) { body(c); });
}

void AdditivePosterior::append_and_contract(PointUpdate& update) {
  const Eigen::VectorXd w = cholesky_.solve_upper(update.row.l);
  append_point(update.u, update.row);
  // c_C = k_C(cell, x) - k_C(cell, X) w is one contraction over the points X and x (which is
  // now the last row of the grid factors) with weights [-w, 1].
  Eigen::VectorXd weights(w.size() + 1);
  weights.head(w.size()) = -w;
  weights(w.size()) = 1.0;
  update.cross.resize(kernel_.cliques().size());
  for_each_clique(static_cast<double>(point_count_), [&](std::size_t c) {
    std::vector<const Eigen::MatrixXd*> factors;
    for (int d : kernel_.cliques()[c]) factors.push_back(&grid_factors_[d]);
    contract_clique(factors, weights, kernel_.clique_scale(c), update.cross[c]);
  });
}

void AdditivePosterior::restandardize(const Standardization& next) {
  const Standardization& now = standardization_;
  if (next.offset == now.offset && next.scale == now.scale) return;
  // y_next = (y - a') / b' = (b y_now + a - a') / b'; apply the same map to everything linear
  // in y, using the companion quantities computed for y = 1.
  const double gain = now.scale / next.scale;
  const double shift = (now.offset - next.offset) / next.scale;
  z_ = gain * z_ + shift * z_ones_;
  for (std::size_t c = 0; c < mean_.size(); ++c) mean_[c] = gain * mean_[c] + shift * mean_ones_[c];
  standardization_ = next;
}

bool AdditivePosterior::add_observation(const std::vector<double>& u, double y) {
  if (pending_count() != 0) {
    throw Error(Status::internal, "AdditivePosterior: clear pending points before a tell");
  }
  // Telling the point that was the first pending one: its update is already computed.
  const bool reuse = first_pending_ && first_pending_->u == u;
  PointUpdate update;
  if (reuse) {
    update = std::move(*first_pending_);
  } else {
    update.u = u;
    if (!prepare_row(u, update.row)) return false;
  }
  first_pending_.reset();  // computed against the told points, which are about to change

  std::vector<double> all_y = y_;
  all_y.push_back(y);
  restandardize(standardize(all_y));
  y_.swap(all_y);

  const double y_standardised = standardization_.standardized(y);
  const Row& row = update.row;
  const double pivot = std::sqrt(row.pivot_squared);
  const double residual = y_standardised - row.l.dot(z_);
  const double residual_ones = 1.0 - row.l.dot(z_ones_);
  if (reuse) {
    append_point(u, row);
  } else {
    append_and_contract(update);
  }
  push_back(z_, residual / pivot);
  push_back(z_ones_, residual_ones / pivot);

  for_each_clique(3.0, [&](std::size_t c) {
    const Eigen::VectorXd& cross = update.cross[c];
    mean_[c] += (residual / row.pivot_squared) * cross;
    mean_ones_[c] += (residual_ones / row.pivot_squared) * cross;
    variance_real_[c] -= cross.cwiseAbs2() / row.pivot_squared;
  });
  variance_view_ = variance_real_;
  return true;
}

bool AdditivePosterior::add_pending(const std::vector<double>& u, double confidence_weight) {
  PointUpdate update;
  update.u = u;
  if (!prepare_row(u, update.row)) return false;
  const bool first = pending_count() == 0;
  if (first) z_pending_.resize(0);
  // The fantasised value's residual against the current mean at u (told points and earlier
  // fantasies): minus the weight times f's deviation there, 1 - |l|^2 (k(u, u) = 1).
  const double residual =
      confidence_weight > 0.0
          ? -confidence_weight * std::sqrt(std::max(0.0, 1.0 - update.row.l.squaredNorm()))
          : 0.0;
  append_and_contract(update);
  push_back(z_pending_, residual / std::sqrt(update.row.pivot_squared));
  if (residual != 0.0 && !fantasised_) {
    mean_view_ = mean_;
    fantasised_ = true;
  }
  for_each_clique(residual != 0.0 ? 2.0 : 1.0, [&](std::size_t c) {
    variance_view_[c] -= update.cross[c].cwiseAbs2() / update.row.pivot_squared;
    if (residual != 0.0) mean_view_[c] += (residual / update.row.pivot_squared) * update.cross[c];
  });
  if (first) first_pending_ = std::move(update);
  return true;
}

void AdditivePosterior::clear_pending() {
  point_count_ = static_cast<Eigen::Index>(y_.size());
  cholesky_.truncate(point_count_);
  variance_view_ = variance_real_;
  z_pending_.resize(0);
  fantasised_ = false;
}

Eigen::MatrixXd AdditivePosterior::whitened_clique_columns(const std::vector<double>& u,
                                                           Eigen::Index count) const {
  const std::size_t cliques = kernel_.cliques().size();
  Eigen::MatrixXd factors(count, static_cast<Eigen::Index>(kernel_.dimension()));
  for (std::size_t d = 0; d < kernel_.dimension(); ++d) {
    for (Eigen::Index i = 0; i < count; ++i) factors(i, d) = kernel_.factor(d, points_(d, i), u[d]);
  }
  // Column c: k_C(X, u) over the first `count` points.
  Eigen::MatrixXd columns(count, static_cast<Eigen::Index>(cliques));
  for (std::size_t c = 0; c < cliques; ++c) {
    auto column = columns.col(static_cast<Eigen::Index>(c));
    column.setConstant(kernel_.clique_scale(c));
    for (int d : kernel_.cliques()[c]) column.array() *= factors.col(d).array();
  }
  if (count > 0) cholesky_.solve_lower_in_place(columns);
  return columns;
}

void AdditivePosterior::clique_moments(const std::vector<double>& u, std::vector<double>& mean,
                                       std::vector<double>& variance) const {
  const std::size_t cliques = kernel_.cliques().size();
  const Eigen::MatrixXd columns = whitened_clique_columns(u, point_count_);
  // The factor's leading block is that of the told points, so the first n entries of L^-1 k
  // are those of the told points alone: the mean is their product with z = L^-1 y.
  const Eigen::Index told = static_cast<Eigen::Index>(y_.size());
  mean.resize(cliques);
  variance.resize(cliques);
  for (std::size_t c = 0; c < cliques; ++c) {
    const auto column = columns.col(static_cast<Eigen::Index>(c));
    mean[c] = told > 0 ? column.head(told).dot(z_) : 0.0;
    if (fantasised_) mean[c] += column.tail(z_pending_.size()).dot(z_pending_);
    variance[c] = kernel_.clique_scale(c) - column.squaredNorm();
  }
}

double AdditivePosterior::variance_at(const std::vector<double>& u, bool with_pending) const {
  const Eigen::Index count = with_pending ? point_count_ : static_cast<Eigen::Index>(y_.size());
  if (count == 0) return 1.0;  // k(x, x) = 1
  return 1.0 - cholesky_.solve_lower(kernel_column(u, count)).squaredNorm();
}

double AdditivePosterior::mean_at(const std::vector<double>& u) const {
  const Eigen::Index n = static_cast<Eigen::Index>(y_.size());
  if (n == 0) return 0.0;
  return cholesky_.solve_lower(kernel_column(u, n)).dot(z_);
}

AdditivePosterior::Moments AdditivePosterior::told_moments(const std::vector<double>& u) const {
  const std::size_t cliques = kernel_.cliques().size();
  const Eigen::Index told = static_cast<Eigen::Index>(y_.size());
  // L^-1 of the columns' sum is L^-1 k(X, u): the whole f's moments come with the cliques'.
  const Eigen::MatrixXd columns = whitened_clique_columns(u, told);
  Moments moments;
  moments.clique_mean.resize(cliques);
  moments.clique_variance.resize(cliques);
  Eigen::VectorXd whole = Eigen::VectorXd::Zero(told);
  for (std::size_t c = 0; c < cliques; ++c) {
    const auto column = columns.col(static_cast<Eigen::Index>(c));
    moments.clique_mean[c] = told > 0 ? column.dot(z_) : 0.0;
    moments.clique_variance[c] = kernel_.clique_scale(c) - column.squaredNorm();
    whole += column;
  }
  moments.mean = told > 0 ? whole.dot(z_) : 0.0;
  moments.variance = 1.0 - whole.squaredNorm();  // k(u, u) = 1
  return moments;
}

Eigen::VectorXd AdditivePosterior::told_point_means() const {
  const Eigen::Index told = static_cast<Eigen::Index>(y_.size());
  if (told == 0) return Eigen::VectorXd();
  const Eigen::VectorXd alpha = cholesky_.solve_upper(z_);  // Delta^-1 y over the told block
  Eigen::VectorXd means(told);
  for (Eigen::Index i = 0; i < told; ++i) {
    const double y_standardised = standardization_.standardized(y_[static_cast<std::size_t>(i)]);
    means(i) = y_standardised - (kernel_.noise_variance() + jitter_) * alpha(i);
  }
  return means;
}

double AdditivePosterior::log_marginal_likelihood() const {
  const Eigen::Index n = static_cast<Eigen::Index>(y_.size());
  return -0.5 * z_.squaredNorm() - 0.5 * cholesky_.log_determinant(n) -
         0.5 * static_cast<double>(n) * kLogTwoPi;
}

}  // namespace addbo::core
