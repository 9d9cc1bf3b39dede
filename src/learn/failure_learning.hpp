// The failure model's hyperparameters (gp/probit_classifier.hpp), learned from the labels of
// the evaluations told (success or failure) by the Laplace approximation's evidence: the
// latent's amplitude, and one lengthscale per variable. The lengthscales are the classifier's
// own, not the objective's: where evaluations fail often depends on a few variables only, and a
// variable the failures do not depend on takes a long lengthscale, which makes its component a
// constant the labels pin down, instead of an uncertainty about every point that would hide
// what the labels do show (automatic relevance determination, Rasmussen & Williams 2006,
// section 5.1).
#pragma once

#include <cstddef>
#include <vector>

#include "graph/graph.hpp"
#include "space/variable.hpp"

namespace addbo::core {

struct FailureHyperparameters {
  std::vector<double> lengthscales;  // one per variable, on the encoded scale
  double amplitude = 4.0;            // the latent's prior variance

  bool operator==(const FailureHyperparameters& o) const {
    return lengthscales == o.lengthscales && amplitude == o.amplitude;
  }
};

// The amplitudes and the lengthscale that stands for "does not depend on this variable" that
// learning may choose besides the kernel's lengthscale choices.
extern const std::vector<double> kFailureAmplitudeChoices;
constexpr double kIrrelevantLengthscale = 3.2;

struct FailureLearningInput {
  std::vector<VariableType> types;
  std::vector<VarSet> cliques;              // the kernel's groups (the model's)
  std::vector<std::vector<double>> points;  // encoded
  std::vector<char> success;                // one label per point
  double success_rate = 0.5;                // the prior probability of success (failure_prior_mean)
  std::vector<double> lengthscale_choices;  // kernel.lengthscale_choices
  FailureHyperparameters start;
};

// One sweep of coordinate ascent on the evidence from `start`: the amplitude over its choices,
// then each variable's lengthscale in turn over the lengthscale choices and
// kIrrelevantLengthscale, a value kept only when it raises the evidence. Deterministic.
FailureHyperparameters learn_failure_model(const FailureLearningInput& input);

// The latent's prior mean for amplitude a^2 that makes the prior probability of success,
// Phi(m / sqrt(1 + a^2)), the given rate.
double failure_prior_mean(double success_rate, double amplitude);

}  // namespace addbo::core
