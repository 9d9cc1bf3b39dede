// A learning round as a value: what it learns from, copied out of the optimizer (so that it can
// run on another thread while the optimizer is used), and what it found. The engine prepares
// and commits jobs (optimizer/optimizer_engine.hpp); run_learning runs one and touches nothing
// else.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "learn/failure_learning.hpp"
#include "learn/model_learning.hpp"
#include "learn/scan_order.hpp"
#include "util/random.hpp"

namespace addbo::core {

// Where structure learning stands. The sampler draws from its own generator so that learning
// and the asks' random draws do not shift each other.
struct LearningState {
  Random random;
  ScanOrder scan;
  std::size_t learned_at = 0;   // observation count at the last learning; 0: not yet
  double log_likelihood = 0.0;  // of the chosen sample, on the learning data
  std::size_t evaluations = 0;  // likelihood evaluations of the last learning
  double seconds = 0.0;         // wall time of the last learning (info only, never saved)
  // Whether the last learning ran on a worker thread while the host evaluated (from the ask
  // that found it due to the next: optimizer/learning_ahead.hpp), and how long that next ask
  // waited for it (info only, never saved).
  bool on_worker = false;
  double waited_seconds = 0.0;
};

// A learning prepared under the optimizer's lock, run without it (run_learning), and committed
// under it again (OptimizerEngine::finish_learning): the host's worker thread can learn while
// other threads keep asking and telling with the current model.
struct LearningJob {
  LearningInput input;
  // One learning per constraint after the objective's, on its graph (their `start.edges` are set
  // then) and with the generator where the previous learning left it.
  std::vector<LearningInput> constraint_inputs;
  std::vector<LearningOutput> constraint_outputs;
  bool constraints_follow_graph = true;  // false: they keep the input's edges (random-tree)
  // Once evaluations have failed, the failure model's hyperparameters, learned on the graph the
  // objective's learning chose (its `cliques` are set then).
  std::optional<FailureLearningInput> failure_input;
  std::optional<FailureHyperparameters> failure_output;
  std::size_t observations = 0;  // how many observations the learning saw
  LearningState learning_before;
  LearningOutput output;
  double seconds = 0.0;
  bool done = false;
};

// Runs the job's learning (no optimizer access: safe outside the lock).
void run_learning(LearningJob& job);

}  // namespace addbo::core
