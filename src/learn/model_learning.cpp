#include "learn/model_learning.hpp"

#include "gp/standardization.hpp"
#include "learn/likelihood.hpp"

namespace addbo::core {

LearningOutput learn_model(const LearningInput& input) {
  input.interrupt.throw_if_requested();
  const Standardization standardization = standardize(input.y_model);
  const Eigen::Index m = static_cast<Eigen::Index>(input.points.size());
  const Eigen::Index dimension = static_cast<Eigen::Index>(input.types.size());
  Eigen::MatrixXd points(m, dimension);
  Eigen::VectorXd y(m);
  for (Eigen::Index k = 0; k < m; ++k) {
    const std::vector<double>& u = input.points[static_cast<std::size_t>(k)];
    for (Eigen::Index d = 0; d < dimension; ++d) points(k, d) = u[static_cast<std::size_t>(d)];
    y(k) = standardization.standardized(input.y_model[static_cast<std::size_t>(k)]);
  }
  // With the noise fixed (1e-4 on a deterministic objective) the observations' variance is the
  // signal's, and the kernel's amplitude is 1. A learned noise takes an unknown share of it:
  // with the amplitude held at 1, a model whose signal is half the variance is best explained
  // by long lengthscales (a near-constant function spends its prior variance where standardised
  // data show none) and spurious edges, and its mean misleads. So the amplitude is profiled,
  // and the noise variance is learned relative to it.
  const SignalAmplitude amplitude =
      input.settings.learn_noise ? SignalAmplitude::profiled : SignalAmplitude::fixed;
  LikelihoodEvaluator evaluator(input.types, std::move(points), std::move(y), input.threads,
                                LikelihoodEvaluator::kExtraFactorBytes, amplitude);
  LearningOutput output;
  output.scan = input.scan;
  output.random = input.random;
  const LearningResult result = run_gibbs(input.settings, evaluator, input.start, input.budget,
                                          output.scan, output.random, input.interrupt);
  output.best = result.best;
  output.log_likelihood = result.log_likelihood;
  output.evaluations = result.evaluations;
  return output;
}

}  // namespace addbo::core
