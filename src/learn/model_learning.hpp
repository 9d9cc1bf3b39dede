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
  std::vector<std::vector<double>> points;  // encoded observations
  std::vector<double> y_model;              // their values, larger is better (raw units)
  // The values that choose the learning points when there are more than max_points (the best
  // quarter and the most recent: learning_data.hpp); empty: y_model. A constraint's learning
  // takes the objective's, so that its model learns from the points the objective's does.
  std::vector<double> selection_values;
  std::size_t max_points = 0;  // structure.max_learning_points (0: all)
  std::size_t budget = 200;    // likelihood evaluations
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

// Selects the learning points (learn/learning_data.hpp), standardises their values and runs the
// sampler from input.start for input.budget likelihood evaluations. Throws
// Error(Status::interrupted) when input.interrupt is requested.
LearningOutput learn_model(const LearningInput& input);

}  // namespace addbo::core
