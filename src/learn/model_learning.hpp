// Learning's front door: from the observations, the settings and the sample the chain starts
// from, the learned graph and hyperparameters. A pure function of its input (which carries the
// sampler's generator and scan position), so that it can run without the optimizer: under its
// lock when an ask relearns, or outside it when the host calls addbo_learn on a worker thread.
#pragma once

#include <cstddef>
#include <vector>

#include "learn/gibbs_sampler.hpp"
#include "learn/scan_order.hpp"
#include "util/interrupt.hpp"
#include "util/random.hpp"

namespace addbo::core {

struct LearningInput {
  GibbsSettings settings;
  std::vector<VariableType> types;
  // The encoded observations learning uses, already chosen by the caller when there are more
  // than structure.max_learning_points (learn/learning_data.hpp: the optimizer chooses them
  // from a ranking it keeps, without going through every observation told).
  std::vector<std::vector<double>> points;
  std::vector<double> y_model;  // their values, larger is better (raw units)
  std::size_t budget = 200;     // likelihood evaluations
  int threads = 1;
  ModelParameters start;
  ScanOrder scan;
  Random random;
  // The host's request to stop (addbo_interrupt), polled between the sampler's steps.
  InterruptCheck interrupt;
};

struct LearningOutput {
  ModelParameters best;         // the visited sample with the highest posterior
  double log_likelihood = 0.0;  // of `best`, on the standardised learning data
  std::size_t evaluations = 0;  // likelihood evaluations spent
  ScanOrder scan;               // where the scan and the generator stand afterwards
  Random random;
};

// Standardises the values of input.points and runs the sampler from input.start for input.budget
// likelihood evaluations. Throws Error(Status::interrupted) when input.interrupt is requested.
LearningOutput learn_model(const LearningInput& input);

}  // namespace addbo::core
