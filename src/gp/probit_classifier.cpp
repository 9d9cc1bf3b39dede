#include "gp/probit_classifier.hpp"

#include <Eigen/Cholesky>
#include <cmath>

#include "gp/clique_contraction.hpp"
#include "linalg/numerics.hpp"

namespace addbo::core {
namespace {

// Newton's method stops when an iteration raises the objective by less than this (relative),
// and after this many iterations in any case (the probit's mode is usually found in 5 to 10).
constexpr double kConvergence = 1e-10;
constexpr int kMaxIterations = 60;
constexpr int kMaxStepHalvings = 30;

// Below this z, Phi(z) and phi(z) / Phi(z) come from the asymptotic series of the Mills ratio
// (erfc underflows near z = -38; the series is exact to 1e-10 from -30 down).
constexpr double kTail = -30.0;

// sum_i log Phi(y_i g_i) at the labels y = +-1.
double log_likelihood(const Eigen::VectorXd& latent, const std::vector<char>& success) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < latent.size(); ++i) {
    sum += log_normal_cdf(success[static_cast<std::size_t>(i)] ? latent(i) : -latent(i));
  }
  return sum;
}

}  // namespace

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double normal_quantile(double p) {
  // Acklam's rational approximations (relative error 1.2e-9), then one step of Halley's method
  // on Phi(z) - p.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  constexpr double low = 0.02425;
  double z;
  if (p < low) {
    const double q = std::sqrt(-2.0 * std::log(p));
    z = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  } else if (p <= 1.0 - low) {
    const double q = p - 0.5;
    const double r = q * q;
    z = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
  } else {
    const double q = std::sqrt(-2.0 * std::log(1.0 - p));
    z = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  }
  const double error = normal_cdf(z) - p;
  const double u = error * std::exp(0.5 * kLogTwoPi + 0.5 * z * z);  // error / phi(z)
  return z - u / (1.0 + 0.5 * z * u);
}

double log_normal_cdf(double z) {
  if (z >= kTail) return std::log(normal_cdf(z));
  // Phi(z) = phi(z) / (-z) (1 - 1/z^2 + 3/z^4 - 15/z^6 + ...) for z -> -inf.
  const double inverse = 1.0 / (z * z);
  const double series = 1.0 - inverse * (1.0 - 3.0 * inverse * (1.0 - 5.0 * inverse));
  return -0.5 * z * z - 0.5 * kLogTwoPi - std::log(-z) + std::log(series);
}

double normal_hazard(double z) {
  if (z >= kTail) {
    const double density = std::exp(-0.5 * z * z - 0.5 * kLogTwoPi);
    return density / normal_cdf(z);
  }
  const double inverse = 1.0 / (z * z);
  const double series = 1.0 - inverse * (1.0 - 3.0 * inverse * (1.0 - 5.0 * inverse));
  return -z / series;
}

ProbitClassifier::ProbitClassifier(const AdditiveKernel& kernel,
                                   std::vector<std::vector<double>> points, double amplitude,
                                   double prior_mean)
    : kernel_(kernel), points_(std::move(points)), amplitude_(amplitude), prior_mean_(prior_mean) {}

std::optional<ProbitClassifier> ProbitClassifier::fit(
    const AdditiveKernel& kernel, const std::vector<std::vector<double>>& points,
    const std::vector<char>& success, double amplitude, double prior_mean,
    const Eigen::MatrixXd* kernel_matrix) {
  ProbitClassifier classifier(kernel, points, amplitude, prior_mean);
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd gram(n, n);  // a^2 K
  if (kernel_matrix != nullptr) {
    gram = amplitude * *kernel_matrix;
  } else {
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j <= i; ++j) {
        gram(i, j) = gram(j, i) = amplitude * kernel(points[static_cast<std::size_t>(i)].data(),
                                                     points[static_cast<std::size_t>(j)].data());
      }
    }
  }
  if (!classifier.find_mode(gram, success)) return std::nullopt;
  classifier.success_ = success;
  return classifier;
}

bool ProbitClassifier::find_mode(const Eigen::MatrixXd& gram, const std::vector<char>& success) {
  const Eigen::Index n = gram.rows();
  const Eigen::VectorXd sign = Eigen::VectorXd::NullaryExpr(
      n, [&](Eigen::Index i) { return success[static_cast<std::size_t>(i)] ? 1.0 : -1.0; });
  // R&W algorithm 3.1 on h = g - m: the objective psi(h) = log p(y | m + h) - h^T K^-1 h / 2
  // is written through a = K^-1 h, so that K is never inverted (h = K a).
  Eigen::VectorXd a = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd h = Eigen::VectorXd::Zero(n);
  const auto objective = [&](const Eigen::VectorXd& a_, const Eigen::VectorXd& h_) {
    return log_likelihood(h_.array() + prior_mean_, success) - 0.5 * a_.dot(h_);
  };
  double psi = objective(a, h);
  Eigen::VectorXd gradient(n), w(n), sqrt_w(n);
  Eigen::LLT<Eigen::MatrixXd> llt;
  const auto derivatives = [&](const Eigen::VectorXd& h_) {
    for (Eigen::Index i = 0; i < n; ++i) {
      // d/dg log Phi(y g) = y r, d^2/dg^2 = -r (r + y g) with r = phi(y g) / Phi(y g).
      const double z = sign(i) * (h_(i) + prior_mean_);
      const double r = normal_hazard(z);
      gradient(i) = sign(i) * r;
      w(i) = r * (r + z);
    }
    sqrt_w = w.cwiseMax(0.0).cwiseSqrt();
  };
  const auto factorise = [&] {
    Eigen::MatrixXd b = sqrt_w.asDiagonal() * gram * sqrt_w.asDiagonal();
    b.diagonal().array() += 1.0;
    llt.compute(b);
    return llt.info() == Eigen::Success;
  };
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    derivatives(h);
    if (!factorise()) return false;
    // The Newton step's a: b - W^1/2 B^-1 W^1/2 K b, b = W h + grad.
    const Eigen::VectorXd b = w.cwiseProduct(h) + gradient;
    const Eigen::VectorXd kb = gram * b;
    const Eigen::VectorXd newton_a = b - sqrt_w.cwiseProduct(llt.solve(sqrt_w.cwiseProduct(kb)));
    // Step halving keeps every iteration an ascent (Newton's full step can overshoot where the
    // probit's curvature changes fast).
    Eigen::VectorXd step = newton_a - a;
    double next_psi = psi;
    Eigen::VectorXd next_a, next_h;
    bool improved = false;
    for (int halving = 0; halving < kMaxStepHalvings; ++halving) {
      next_a = a + step;
      next_h = gram * next_a;
      next_psi = objective(next_a, next_h);
      if (std::isfinite(next_psi) && next_psi >= psi) {
        improved = true;
        break;
      }
      step *= 0.5;
    }
    if (!improved) break;  // no ascent left at machine precision: the mode
    const double gain = next_psi - psi;
    a = next_a;
    h = next_h;
    psi = next_psi;
    if (gain <= kConvergence * (1.0 + std::fabs(psi))) break;
  }
  // The Laplace approximation at the mode: W, B and the gradient there (R&W algorithm 3.2).
  derivatives(h);
  if (!factorise()) return false;
  mode_ = h.array() + prior_mean_;
  gradient_ = gradient;
  sqrt_w_ = sqrt_w;
  factor_ = llt.matrixL();
  // log q(y) = psi(h^) - sum log diag(L) (R&W eq. 3.32, through B's factor).
  log_evidence_ = psi - factor_.diagonal().array().log().sum();
  return std::isfinite(log_evidence_);
}

Eigen::VectorXd ProbitClassifier::cross_covariance(const std::vector<double>& u) const {
  const Eigen::Index n = static_cast<Eigen::Index>(points_.size());
  Eigen::VectorXd column(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    column(i) = amplitude_ * kernel_(points_[static_cast<std::size_t>(i)].data(), u.data());
  }
  return column;
}

ProbitClassifier::Moments ProbitClassifier::moments(const std::vector<double>& u) const {
  const Eigen::VectorXd column = cross_covariance(u);
  Moments moments;
  moments.mean = prior_mean_ + column.dot(gradient_);
  // a^2 k(u, u) - v^T v, v = L^-1 W^1/2 a^2 k(X, u); k(u, u) = 1.
  const Eigen::VectorXd v =
      factor_.triangularView<Eigen::Lower>().solve(sqrt_w_.cwiseProduct(column));
  moments.variance = std::max(0.0, amplitude_ - v.squaredNorm());
  return moments;
}

double ProbitClassifier::success_probability(const std::vector<double>& u) const {
  const Moments m = moments(u);
  return normal_cdf(m.mean / std::sqrt(1.0 + m.variance));
}

std::optional<std::size_t> ProbitClassifier::safest_success() const {
  std::optional<std::size_t> safest;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (!success_[i]) continue;
    const Eigen::Index at = static_cast<Eigen::Index>(i);
    if (!safest || mode_(at) > mode_(static_cast<Eigen::Index>(*safest))) safest = i;
  }
  return safest;
}

double ProbitClassifier::safest_success_probability() const {
  const std::optional<std::size_t> safest = safest_success();
  return safest ? success_probability(points_[*safest]) : 0.0;
}

double ProbitClassifier::mean_success_probability(const std::vector<double>& u) const {
  return normal_cdf(prior_mean_ + cross_covariance(u).dot(gradient_));
}

double ProbitClassifier::safest_mean_success_probability() const {
  // At a point of the fit the latent's posterior mean is its mode, m + K grad = m + h^.
  const std::optional<std::size_t> safest = safest_success();
  return safest ? normal_cdf(mode_(static_cast<Eigen::Index>(*safest))) : 0.0;
}

std::vector<Eigen::VectorXd> ProbitClassifier::mean_tables(
    const std::vector<std::vector<double>>& axes) const {
  const std::size_t dimension = kernel_.dimension();
  const Eigen::Index n = static_cast<Eigen::Index>(points_.size());
  std::vector<Eigen::MatrixXd> factors(dimension);
  for (std::size_t d = 0; d < dimension; ++d) {
    factors[d].resize(n, static_cast<Eigen::Index>(axes[d].size()));
    for (Eigen::Index i = 0; i < n; ++i) {
      for (std::size_t g = 0; g < axes[d].size(); ++g) {
        factors[d](i, static_cast<Eigen::Index>(g)) =
            kernel_.factor(d, points_[static_cast<std::size_t>(i)][d], axes[d][g]);
      }
    }
  }
  std::vector<Eigen::VectorXd> tables(kernel_.cliques().size());
  for (std::size_t c = 0; c < tables.size(); ++c) {
    std::vector<const Eigen::MatrixXd*> clique_factors;
    for (int d : kernel_.cliques()[c])
      clique_factors.push_back(&factors[static_cast<std::size_t>(d)]);
    contract_clique(clique_factors, gradient_, amplitude_ * kernel_.clique_scale(c), tables[c]);
  }
  return tables;
}

}  // namespace addbo::core
