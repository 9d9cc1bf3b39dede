// The ask/tell engine: owns the configuration, the observations, the pending points, the random
// generator and the model, and is the only module that mutates them.
//
// Guarantees relied on by the C API:
//  - every public method either succeeds or throws addbo::Error (or std::bad_alloc) and leaves
//    the observable state (observations, pending points, generator, counters) unchanged;
//  - x is in the user's units: continuous values as given, integers as whole doubles,
//    categorical variables as the choice index;
//  - save() is a pure function of the call history, and from_state(save()) continues
//    bit-identically (the next ask returns the same point).
#pragma once

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "util/interrupt.hpp"

namespace addbo::core {

struct Observation {
  std::vector<double> x;            // user units
  double y = 0.0;                   // as told (not negated for minimisation)
  std::vector<double> constraints;  // the values of the configured constraints, in their order
};

// An evaluation that failed (crashed, diverged, gave no value).
struct Failure {
  std::vector<double> x;                // user units
  std::size_t observations_before = 0;  // how many observations were told before it
};

// The model's posterior at a point (addbo_predict, docs/c-api.md), in the units of y as told
// (not negated for minimisation), given the told observations only (pending points never
// count). stddev is the uncertainty of the objective itself, without the observation noise.
// The model is additive: mean = offset + the sum of clique_mean (up to rounding); each
// component's stddev is that of its own value (the components are correlated, so these do not
// add up to stddev).
struct Prediction {
  double mean = 0.0;
  double stddev = 0.0;
  double offset = 0.0;        // the constant of the model (the standardisation's offset)
  double noise_stddev = 0.0;  // of one evaluation: sqrt(noise_variance + jitter) in y units
  // The observations the prediction is made from: every one told up to
  // limits.max_model_observations, then the model's chosen part.
  std::size_t observations = 0;
  std::vector<std::vector<int>> cliques;  // the kernel's groups of variables
  std::vector<double> clique_mean, clique_stddev;
  // Each constraint's model there: the posterior mean and standard deviation of its value, and
  // the probability that it meets its bounds.
  struct Constraint {
    double mean = 0.0, stddev = 0.0, probability = 0.0;
  };
  std::vector<Constraint> constraints;
  // The failure model's probability that an evaluation there succeeds (1 before any failure).
  double success_probability = 1.0;
};

// The told point whose posterior mean is best (addbo_predicted_best) and its prediction.
struct PredictedBest {
  std::vector<double> x;  // user units
  Prediction prediction;
};

class OptimizerEngine;  // private implementation (optimizer_engine.hpp)
struct LearningJob;     // a learning in progress (optimizer_engine.hpp)

// The core's facade: the C API talks to this class only. It also owns the text boundary: every
// document crosses it as text through the JSON layer (json/), so the C API handles no JSON.
class Optimizer {
 public:
  explicit Optimizer(const Config& config);
  // Restores a document written by save(); throws StateError (Status::state) naming the field.
  static Optimizer from_state(const nlohmann::json& state);

  // Text in: a configuration (addbo_create; throws ConfigError naming the field) and a saved
  // state (addbo_load; throws StateError, or Error(Status::state) for a configuration given
  // instead). Both texts are held to the same rules (json/json_text.hpp): one JSON value, no key
  // twice in an object, no number beyond a double, a depth limit (kMaxJsonDepth,
  // kMaxStateDepth).
  static Optimizer from_config_text(const std::string& config_text);
  static Optimizer from_state_text(const std::string& state_text);

  Optimizer(Optimizer&&) noexcept;
  Optimizer& operator=(Optimizer&&) noexcept;
  Optimizer(const Optimizer&);
  Optimizer& operator=(const Optimizer&);
  ~Optimizer();

  const Config& config() const;
  std::size_t dimension() const;

  // The next point to evaluate; it is registered as pending until told or cancelled. A request
  // on `interrupt` stops a learning the ask runs: Error(Status::interrupted), nothing changed.
  std::vector<double> ask(const InterruptCheck& interrupt = InterruptCheck());
  // Records an evaluation. x may be any point of the domain, asked or not; if it equals a
  // pending point that point stops being pending. Throws Error(Status::invalid_argument) for a
  // wrong length, NaN/Inf y, a value outside the domain, a non-integer value of an integer
  // variable or a categorical index out of range; the message names the offending index.
  void tell(const std::vector<double>& x, double y);
  // The same with the values of the configured constraints (one per constraint, in the order
  // of "constraints"); Error(Status::invalid_argument) for another count or a value that is
  // not finite. tell(x, y) is this with no values, for configurations without constraints.
  void tell(const std::vector<double>& x, double y, const std::vector<double>& constraints);
  // Evaluating x failed (crashed, diverged, gave no value): x is kept as a failure, which the
  // failure model learns from and no ask repeats; if x is pending it stops being pending. Throws
  // invalid_argument for a point outside the domain, as tell.
  void tell_failure(const std::vector<double>& x);
  // The evaluation of a pending point failed: forget it. Throws invalid_argument if x is not
  // pending.
  void cancel(const std::vector<double>& x);
  // The best told observation (pending points never count). Throws Error(Status::state) before
  // the first tell.
  Observation best() const;
  std::size_t observation_count() const;
  std::size_t pending_count() const;
  std::size_t failure_count() const;

  // Learning when the host decides (structure.relearn "manual", or any time): learn() runs a
  // learning round on the current observations now; false when the configuration learns
  // nothing or fewer than two observations are told. The same in three steps, so that the
  // round itself can run outside a lock while other threads ask and tell: begin_learning()
  // (null when there is nothing to learn), run_learning() (touches no optimizer),
  // finish_learning() (false, changing nothing, when another learning was committed since).
  bool learn();
  // The job's learning stops at a request on `interrupt` (run_learning throws
  // Error(Status::interrupted); nothing is committed). begin_learning() first commits a
  // learning the last ask began, as the next ask would (waiting for it; `interrupt` stops the
  // wait, changing nothing).
  std::shared_ptr<LearningJob> begin_learning(const InterruptCheck& interrupt = InterruptCheck());
  static void run_learning(LearningJob& job);
  bool finish_learning(const LearningJob& job);

  // The posterior of the current model at x (user units), from the told observations. Changes
  // nothing (neither the saved state nor the next ask). Throws invalid_argument for a point
  // outside the domain (as tell), Error(Status::state) before the first tell.
  Prediction predict(const std::vector<double>& x) const;
  // Among the told points, the one with the best posterior mean (largest when maximising,
  // smallest when minimising; the first told on a tie). Throws Error(Status::state) before the
  // first tell.
  PredictedBest predicted_best() const;
  // A prediction as the JSON object of addbo_predict_json (variable names from the
  // configuration).
  nlohmann::json prediction_json(const Prediction& prediction) const;

  // Graph, cliques, junction tree, lengthscales, noise, counts, last learning (docs/c-api.md,
  // addbo_info).
  nlohmann::json info() const;
  // The saved state (docs/saved-state.md).
  nlohmann::json save() const;

  // Text out: the compact text of info(), save() and prediction_json(); save_text() is what
  // addbo_save returns, byte for byte.
  std::string info_text() const;
  std::string save_text() const;
  std::string prediction_text(const Prediction& prediction) const;

 private:
  explicit Optimizer(std::unique_ptr<OptimizerEngine> engine);
  std::unique_ptr<OptimizerEngine> engine_;
};

}  // namespace addbo::core
