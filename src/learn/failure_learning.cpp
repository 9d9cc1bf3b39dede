#include "learn/failure_learning.hpp"

#include <Eigen/Core>
#include <cmath>
#include <optional>

#include "gp/additive_kernel.hpp"
#include "gp/probit_classifier.hpp"

namespace addbo::core {

const std::vector<double> kFailureAmplitudeChoices = {1.0, 4.0, 16.0, 64.0};

double failure_prior_mean(double success_rate, double amplitude) {
  return normal_quantile(success_rate) * std::sqrt(1.0 + amplitude);
}

namespace {

// The evidence of the hyperparameters, computed from per-variable kernel factors that are kept
// between candidates: a candidate lengthscale of one variable recomputes that variable's factor
// only.
class EvidenceSearch {
 public:
  explicit EvidenceSearch(const FailureLearningInput& input)
      : input_(input),
        kernel_(input.types, input.cliques, input.start.lengthscales, 1.0),
        n_(static_cast<Eigen::Index>(input.points.size())) {
    for (std::size_t d = 0; d < input.types.size(); ++d) {
      factors_.push_back(factor(d, input.start.lengthscales[d]));
    }
  }

  Eigen::MatrixXd factor(std::size_t d, double lengthscale) const {
    Eigen::MatrixXd f(n_, n_);
    for (Eigen::Index i = 0; i < n_; ++i) {
      for (Eigen::Index j = 0; j <= i; ++j) {
        f(i, j) = f(j, i) = variable_factor(input_.types[d], lengthscale,
                                            input_.points[static_cast<std::size_t>(i)][d],
                                            input_.points[static_cast<std::size_t>(j)][d]);
      }
    }
    return f;
  }

  // The Laplace evidence with variable d's factor replaced by `replacement` (none: as kept).
  double evidence(const FailureHyperparameters& parameters, std::optional<std::size_t> d,
                  const Eigen::MatrixXd* replacement) const {
    Eigen::MatrixXd k = Eigen::MatrixXd::Zero(n_, n_);
    for (std::size_t c = 0; c < input_.cliques.size(); ++c) {
      Eigen::MatrixXd product = Eigen::MatrixXd::Constant(n_, n_, kernel_.clique_scale(c));
      for (int v : input_.cliques[c]) {
        const std::size_t variable = static_cast<std::size_t>(v);
        const Eigen::MatrixXd& f = d && *d == variable ? *replacement : factors_[variable];
        product.array() *= f.array();
      }
      k += product;
    }
    const AdditiveKernel kernel(input_.types, input_.cliques, parameters.lengthscales, 1.0);
    const std::optional<ProbitClassifier> fitted = ProbitClassifier::fit(
        kernel, input_.points, input_.success, parameters.amplitude,
        failure_prior_mean(input_.success_rate, parameters.amplitude), &k);
    return fitted ? fitted->log_evidence() : -INFINITY;
  }

  void keep(std::size_t d, Eigen::MatrixXd factor) { factors_[d] = std::move(factor); }

 private:
  const FailureLearningInput& input_;
  AdditiveKernel kernel_;  // for the clique scales
  Eigen::Index n_;
  std::vector<Eigen::MatrixXd> factors_;
};

}  // namespace

FailureHyperparameters learn_failure_model(const FailureLearningInput& input) {
  FailureHyperparameters best = input.start;
  if (input.points.empty()) return best;
  EvidenceSearch search(input);
  double best_evidence = search.evidence(best, std::nullopt, nullptr);
  for (double amplitude : kFailureAmplitudeChoices) {
    if (amplitude == best.amplitude) continue;
    FailureHyperparameters candidate = best;
    candidate.amplitude = amplitude;
    const double evidence = search.evidence(candidate, std::nullopt, nullptr);
    if (evidence > best_evidence) {
      best = candidate;
      best_evidence = evidence;
    }
  }
  std::vector<double> choices = input.lengthscale_choices;
  choices.push_back(kIrrelevantLengthscale);
  for (std::size_t d = 0; d < input.types.size(); ++d) {
    for (double lengthscale : choices) {
      if (lengthscale == best.lengthscales[d]) continue;
      FailureHyperparameters candidate = best;
      candidate.lengthscales[d] = lengthscale;
      Eigen::MatrixXd factor = search.factor(d, lengthscale);
      const double evidence = search.evidence(candidate, d, &factor);
      if (evidence > best_evidence) {
        best = candidate;
        best_evidence = evidence;
        search.keep(d, std::move(factor));
      }
    }
  }
  return best;
}

}  // namespace addbo::core
