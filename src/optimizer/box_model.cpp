#include "optimizer/box_model.hpp"

#include <algorithm>
#include <utility>

namespace addbo::core {

std::vector<double> box_noise_choices(const Config& config, bool noisy) {
  // A deterministic objective's model keeps a noise variance of 1e-4 (kernel.noise_variance)
  // over the whole domain, where an additive model fits no objective exactly and the small
  // noise absorbs what it misses (chosen there by the likelihood, 1e-6 wins from the first
  // learning, when any model interpolates the few points, and the model is overconfident). In
  // a small box the objective is often smooth enough to be interpolated far more closely, and
  // a floor of 1% of the box's spread in standard deviation hides the next step of a converged
  // run. So the box weighs the smaller choices too, and its points decide, as TuRBO fits its
  // trust region's noise (constrained_suite's additive functions ten times closer at 200
  // evaluations, Styblinski-Tang in 60 variables at 3,000: docs/benchmarks-log.md).
  if (!config.kernel.auto_noise || noisy) return {};
  std::vector<double> choices;
  for (double choice : config.kernel.noise_variance_choices) {
    if (choice < config.kernel.noise_variance) choices.push_back(choice);
  }
  if (choices.empty()) return {};
  std::sort(choices.begin(), choices.end());
  choices.push_back(config.kernel.noise_variance);
  return choices;
}

BoxKey box_key(std::size_t centre, double length, std::size_t since, const ModelInstance& source,
               const std::vector<std::size_t>& candidates,
               const std::vector<double>& noise_choices) {
  BoxKey key;
  key.centre = centre;
  key.length = length;
  key.since = since;
  key.parameters = source.parameters;
  for (const ConstraintModel& constraint : source.constraints) {
    key.constraint_parameters.push_back(constraint.parameters);
  }
  key.failure_parameters = source.failure_parameters;
  for (std::size_t i : candidates) {
    if (i < since) key.candidates.push_back(i);
  }
  key.noise_choices = noise_choices;
  return key;
}

bool BoxModel::update(const ModelData& data, const ModelInstance& source, const BoxKey& key,
                      const std::vector<double>& centre, const std::vector<double>& sides) {
  try {
    const bool same_box = key_ && *key_ == key;
    std::size_t held = 0;  // observations of the box its posteriors hold
    if (same_box) {
      held = problem_->observations.size();
      catch_up(*problem_, data);
    } else {
      key_.reset();
      problem_ = zoom_problem(data, key.candidates, centre, sides, key.since);
      if (!problem_) return false;
      carried_ = carried_model(data.config, source, *problem_);
      factor_kernels_ = LengthscaleFactorKernels();
    }
    // The fit from every point the box holds now, as a box built now would choose it (the
    // same as before when no point has joined).
    const bool joined = !same_box || problem_->observations.size() > held;
    const BoxFit fit =
        joined ? box_fit(data.config, carried_, *problem_, key.noise_choices, &factor_kernels_)
               : fit_;
    if (same_box && fit == fit_) {
      const ModelData box_data = problem_->data(data.config);
      bool added = true;
      for (std::size_t i = held; added && i < problem_->observations.size(); ++i) {
        added = add_observation_to(box_data, model_, problem_->observations[i]);
      }
      // A pivot failed: the box is built again, its jitters climbing from where they are
      // (build_posterior_from_batch says why that ends where a new box would).
      if (!added) build(data);
    } else {
      model_ = scaled_model(carried_, *problem_, fit);
      fit_ = fit;
      build(data);
      key_ = key;
    }
    model_.failure_model.reset();  // the box's failures are taken afresh at every ask
    add_pending(data);
    return true;
  } catch (...) {
    clear();
    throw;
  }
}

void BoxModel::clear() {
  key_.reset();
  problem_.reset();
  carried_ = ModelInstance();
  factor_kernels_ = LengthscaleFactorKernels();
  model_ = ModelInstance();
}

void BoxModel::build(const ModelData& data) {
  build_posterior_from_batch(problem_->data(data.config), model_, problem_->nearest_count);
}

void BoxModel::add_pending(const ModelData& data) {
  // At most limits.max_pending of them, as the model of record. Should one not fit (a numerical
  // duplicate of a point already held), the box goes without pending points rather than climb
  // its jitter for a point that is gone at the next tell.
  const ModelData box_data = problem_->data(data.config);
  AdditivePosterior& posterior = *model_.posterior;
  posterior.clear_pending();
  const std::size_t count =
      std::min(problem_->pending.size(), static_cast<std::size_t>(data.config.max_pending));
  for (std::size_t k = 0; k < count; ++k) {
    if (!add_pending_to(box_data, posterior, problem_->pending[k])) {
      posterior.clear_pending();
      return;
    }
  }
}

}  // namespace addbo::core
