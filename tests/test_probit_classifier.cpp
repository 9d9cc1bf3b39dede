// The failure model (gp/probit_classifier, learn/failure_learning) against dense computations
// written out from the definitions: the Laplace mode's stationarity and maximality, the
// predictive moments and probability (by quadrature), the evidence, the tables; the probit's
// special functions against erfc; learning against a known relevant variable.
#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>

#include "gp/probit_classifier.hpp"
#include "learn/failure_learning.hpp"

using namespace addbo::core;

namespace {

struct Labelled {
  AdditiveKernel kernel;
  std::vector<std::vector<double>> points;
  std::vector<char> success;
};

// Points in [0, 1]^3, failing where x0 + x1 > 1 (and a few labels flipped, so that the data are
// not separable), on the kernel of cliques {0, 1} and {2}.
Labelled labelled(std::uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Labelled data{
      AdditiveKernel({VariableType::continuous, VariableType::continuous, VariableType::continuous},
                     {{0, 1}, {2}}, {0.3, 0.4, 0.5}, 1e-4),
      {},
      {}};
  for (int i = 0; i < n; ++i) {
    std::vector<double> u = {unit(rng), unit(rng), unit(rng)};
    const bool flipped = unit(rng) < 0.1;
    data.success.push_back((u[0] + u[1] <= 1.0) != flipped);
    data.points.push_back(std::move(u));
  }
  return data;
}

Eigen::MatrixXd gram(const Labelled& data, double amplitude) {
  const Eigen::Index n = static_cast<Eigen::Index>(data.points.size());
  Eigen::MatrixXd k(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      k(i, j) = amplitude * data.kernel(data.points[static_cast<std::size_t>(i)].data(),
                                        data.points[static_cast<std::size_t>(j)].data());
    }
  }
  return k;
}

// Phi from erfc, the textbook way.
double phi_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double phi_density(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI); }

// log p(labels | g) for the latent values g.
double log_likelihood(const Labelled& data, const Eigen::VectorXd& g) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < g.size(); ++i) {
    const double y = data.success[static_cast<std::size_t>(i)] ? 1.0 : -1.0;
    sum += std::log(phi_cdf(y * g(i)));
  }
  return sum;
}

// d log p / dg and W = -d^2 log p / dg^2 at g, from the definition by central differences.
void derivatives(const Labelled& data, const Eigen::VectorXd& g, Eigen::VectorXd& gradient,
                 Eigen::VectorXd& w) {
  const double h = 1e-4;
  gradient.resize(g.size());
  w.resize(g.size());
  for (Eigen::Index i = 0; i < g.size(); ++i) {
    const double y = data.success[static_cast<std::size_t>(i)] ? 1.0 : -1.0;
    const auto f = [&](double v) { return std::log(phi_cdf(y * v)); };
    gradient(i) = (f(g(i) + h) - f(g(i) - h)) / (2.0 * h);
    w(i) = -(f(g(i) + h) - 2.0 * f(g(i)) + f(g(i) - h)) / (h * h);
  }
}

}  // namespace

TEST_SUITE("gp") {
  TEST_CASE("the probit's special functions agree with erfc and invert") {
    for (double z = -37.0; z <= 8.0; z += 0.25) {
      CAPTURE(z);
      const long double exact = 0.5L * std::erfc(-static_cast<long double>(z) / std::sqrt(2.0L));
      CHECK(log_normal_cdf(z) ==
            doctest::Approx(static_cast<double>(std::log(exact))).epsilon(1e-9));
      const long double density = std::exp(-0.5L * z * z) / std::sqrt(2.0L * M_PI);
      CHECK(normal_hazard(z) ==
            doctest::Approx(static_cast<double>(density / exact)).epsilon(1e-8));
    }
    // Up to z = 5: above, Phi(z) itself keeps too few digits of 1 - Phi(z) to invert.
    for (double z = -8.0; z <= 5.0; z += 0.125) {
      CAPTURE(z);
      CHECK(normal_quantile(normal_cdf(z)) == doctest::Approx(z).epsilon(1e-9));
    }
  }

  TEST_CASE("the Laplace mode is where the posterior of the latent is highest") {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      CAPTURE(seed);
      const Labelled data = labelled(seed, 25);
      const double amplitude = 4.0, prior_mean = 0.3;
      const auto fitted =
          ProbitClassifier::fit(data.kernel, data.points, data.success, amplitude, prior_mean);
      REQUIRE(fitted);
      const Eigen::MatrixXd k = gram(data, amplitude);
      const Eigen::VectorXd g = fitted->latent_mode();
      // Stationary: h = K grad log p(labels | m + h), the gradient by finite differences.
      Eigen::VectorXd gradient, w;
      derivatives(data, g, gradient, w);
      const Eigen::VectorXd h = g.array() - prior_mean;
      CHECK((h - k * gradient).norm() <= 1e-5 * (1.0 + h.norm()));
      // A maximum: psi(a) = log p(labels | m + K a) - a^T K a / 2 is lower at every nearby a.
      const auto psi = [&](const Eigen::VectorXd& a) {
        const Eigen::VectorXd latent = (k * a).array() + prior_mean;
        return log_likelihood(data, latent) - 0.5 * a.dot(k * a);
      };
      std::mt19937_64 rng(seed);
      std::normal_distribution<double> normal(0.0, 0.05);
      const double at_mode = psi(gradient);
      for (int trial = 0; trial < 20; ++trial) {
        Eigen::VectorXd a = gradient;
        for (Eigen::Index i = 0; i < a.size(); ++i) a(i) += normal(rng);
        CHECK(psi(a) <= at_mode + 1e-9);
      }
      // The evidence, R&W eq. 3.32: psi at the mode - log det(I + W^1/2 K W^1/2) / 2.
      const Eigen::MatrixXd b = Eigen::MatrixXd::Identity(k.rows(), k.cols()) +
                                w.cwiseSqrt().asDiagonal() * k * w.cwiseSqrt().asDiagonal();
      const Eigen::LLT<Eigen::MatrixXd> factor(b);
      REQUIRE(factor.info() == Eigen::Success);
      const double log_det = 2.0 * Eigen::MatrixXd(factor.matrixL()).diagonal().array().log().sum();
      CHECK(fitted->log_evidence() == doctest::Approx(at_mode - 0.5 * log_det).epsilon(1e-5));
    }
  }

  TEST_CASE("the failure model's predictions are the Laplace posterior's") {
    const Labelled data = labelled(7, 30);
    const double amplitude = 16.0, prior_mean = -0.2;
    const auto fitted =
        ProbitClassifier::fit(data.kernel, data.points, data.success, amplitude, prior_mean);
    REQUIRE(fitted);
    const Eigen::MatrixXd k = gram(data, amplitude);
    Eigen::VectorXd gradient, w;
    derivatives(data, fitted->latent_mode(), gradient, w);
    // (K + W^-1)^-1, densely.
    const Eigen::MatrixXd inverse_sum =
        (k + Eigen::MatrixXd(w.cwiseInverse().asDiagonal())).inverse();
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int trial = 0; trial < 10; ++trial) {
      const std::vector<double> u = {unit(rng), unit(rng), unit(rng)};
      Eigen::VectorXd cross(k.rows());
      for (Eigen::Index i = 0; i < cross.size(); ++i) {
        cross(i) =
            amplitude * data.kernel(data.points[static_cast<std::size_t>(i)].data(), u.data());
      }
      const double mean = prior_mean + cross.dot(gradient);
      const double variance = amplitude - cross.dot(inverse_sum * cross);
      const ProbitClassifier::Moments moments = fitted->moments(u);
      CHECK(moments.mean == doctest::Approx(mean).epsilon(1e-5));
      CHECK(moments.variance == doctest::Approx(variance).epsilon(1e-5));
      // P(success) = the integral of Phi(g) over the latent's Gaussian, by Simpson's rule.
      const double sd = std::sqrt(moments.variance);
      const int steps = 4000;
      const double from = moments.mean - 12.0 * sd, to = moments.mean + 12.0 * sd;
      const double step = (to - from) / steps;
      double integral = 0.0;
      for (int s = 0; s <= steps; ++s) {
        const double g = from + s * step;
        const double weight = (s == 0 || s == steps) ? 1.0 : (s % 2 == 1 ? 4.0 : 2.0);
        integral += weight * phi_cdf(g) * phi_density((g - moments.mean) / sd) / sd;
      }
      integral *= step / 3.0;
      CHECK(fitted->success_probability(u) == doctest::Approx(integral).epsilon(1e-7));
      // The probability by the latent's mean alone: Phi of the dense mean, from erfc.
      CHECK(fitted->mean_success_probability(u) == doctest::Approx(phi_cdf(mean)).epsilon(1e-5));
    }
    // The safest success by the mean: Phi of the highest latent of a success at the mode, which
    // is the latent's mean there; where that latent is above 0, at least the safest success's
    // predictive probability, which averages the probit over the latent's uncertainty towards
    // 1/2.
    double highest = -INFINITY;
    for (std::size_t i = 0; i < data.points.size(); ++i) {
      const Eigen::Index at = static_cast<Eigen::Index>(i);
      if (data.success[i]) highest = std::max(highest, fitted->latent_mode()(at));
      CHECK(fitted->moments(data.points[i]).mean ==
            doctest::Approx(fitted->latent_mode()(at)).epsilon(1e-8));
    }
    REQUIRE(highest > 0.0);
    CHECK(fitted->safest_mean_success_probability() ==
          doctest::Approx(phi_cdf(highest)).epsilon(1e-12));
    CHECK(fitted->safest_mean_success_probability() >= fitted->safest_success_probability());
  }

  TEST_CASE("the failure model's mean tables add up to its mean at every grid point") {
    const Labelled data = labelled(5, 20);
    const auto fitted = ProbitClassifier::fit(data.kernel, data.points, data.success, 4.0, 0.5);
    REQUIRE(fitted);
    const std::vector<std::vector<double>> axes = {
        {0.0, 0.25, 0.5, 1.0}, {0.0, 0.5, 1.0}, {0.1, 0.9}};
    const std::vector<Eigen::VectorXd> tables = fitted->mean_tables(axes);
    REQUIRE(tables.size() == 2);
    for (std::size_t a = 0; a < axes[0].size(); ++a) {
      for (std::size_t b = 0; b < axes[1].size(); ++b) {
        for (std::size_t c = 0; c < axes[2].size(); ++c) {
          const double sum = tables[0](static_cast<Eigen::Index>(a * axes[1].size() + b)) +
                             tables[1](static_cast<Eigen::Index>(c)) + fitted->prior_mean();
          CHECK(sum == doctest::Approx(fitted->moments({axes[0][a], axes[1][b], axes[2][c]}).mean)
                           .epsilon(1e-10));
        }
      }
    }
  }

  TEST_CASE("learning the failure model finds the variable the failures depend on") {
    // Failures where x0 > 0.6, whatever x1..x3 are: learning raises the evidence, keeps a short
    // lengthscale on x0 and gives the others the lengthscale of an irrelevant variable.
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    FailureLearningInput input;
    input.types.assign(4, VariableType::continuous);
    input.cliques = {{0}, {1}, {2}, {3}};
    for (int i = 0; i < 80; ++i) {
      std::vector<double> u = {unit(rng), unit(rng), unit(rng), unit(rng)};
      input.success.push_back(u[0] <= 0.6);
      input.points.push_back(std::move(u));
    }
    input.success_rate = 0.6;
    input.lengthscale_choices = {0.05, 0.1, 0.2, 0.4, 0.8};
    input.start.lengthscales = {0.2, 0.2, 0.2, 0.2};
    input.start.amplitude = 4.0;
    const FailureHyperparameters learned = learn_failure_model(input);
    CHECK(learned.lengthscales[0] < 1.0);
    for (std::size_t d = 1; d < 4; ++d) {
      CAPTURE(d);
      CHECK(learned.lengthscales[d] == kIrrelevantLengthscale);
    }
    const auto evidence = [&](const FailureHyperparameters& p) {
      const AdditiveKernel kernel(input.types, input.cliques, p.lengthscales, 1.0);
      return ProbitClassifier::fit(kernel, input.points, input.success, p.amplitude,
                                   failure_prior_mean(input.success_rate, p.amplitude))
          ->log_evidence();
    };
    CHECK(evidence(learned) > evidence(input.start));
  }
}
