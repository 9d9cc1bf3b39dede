// The state behind addbo::Optimizer, and the only code that changes it. What is saved
// (docs/saved-state.md) is the history-determined part: configuration, observations, pending
// points, model parameters, generators, and where the posterior tables were built in one batch.
// Everything else is derived from it and can be rebuilt at any time: the model's structure and
// posterior (optimizer/model_instance.hpp), and the indexes each tell keeps up to date (the
// points by grid cell, the local search's state, the best observation).
//
// How an ask chooses its point is decided elsewhere, by pure functions of a view of the model
// (acquisition/ask_policy.hpp); the engine decides which model the ask sees, and commits the
// decision.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "acquisition/ask_policy.hpp"
#include "acquisition/grid_cells.hpp"
#include "acquisition/trust_region.hpp"
#include "config/config.hpp"
#include "learn/model_learning.hpp"
#include "learn/model_parameters.hpp"
#include "learn/scan_order.hpp"
#include "optimizer/box_model.hpp"
#include "optimizer/learning_ahead.hpp"
#include "optimizer/learning_job.hpp"
#include "optimizer/model_instance.hpp"
#include "optimizer/optimizer.hpp"
#include "optimizer/zoomed_problem.hpp"
#include "space/latin_hypercube.hpp"
#include "space/space.hpp"
#include "util/random.hpp"

namespace addbo::core {

// What this handle's last successful ask chose, and when (info only, never saved).
struct AskRecord {
  AskDecision decision;
  // The graph a model-based ask maximised over: the model's, or a random tree of the hedge.
  bool random_tree = false;
  std::vector<Edge> random_tree_edges;
  std::optional<std::chrono::system_clock::time_point> time;
};

// What committing a learning changes (OptimizerEngine::learning_commit).
struct LearningCommit {
  LearningState learning;
  // The new model when its parameters changed: `structure` is then its structure, and the
  // posteriors are dropped; else none of these is used.
  ModelParameters parameters;
  std::vector<ModelParameters> constraints;
  std::optional<ModelStructure> structure;
  std::vector<std::size_t> edge_since;
  std::optional<FailureHyperparameters> failure_parameters;
  bool failure_changed = false;
};

// The saved state's record of the model and the learning (OptimizerEngine::model_record).
struct ModelRecord {
  ModelParameters parameters;
  std::vector<ModelParameters> constraints;
  std::optional<FailureHyperparameters> failure_parameters;
  std::optional<std::size_t> built_at;
  std::vector<std::size_t> edge_since;
  LearningState learning;
};

class OptimizerEngine {
 public:
  // A fresh optimizer. Throws ConfigError when the given graph cannot be maximised within
  // limits.max_table_cells.
  explicit OptimizerEngine(const Config& config);
  // A restored optimizer; the caller has validated every piece against the configuration.
  struct Restored {
    ModelParameters parameters;
    std::vector<ModelParameters> constraint_parameters;  // one per constraint
    std::optional<FailureHyperparameters> failure_parameters;
    std::vector<Observation> observations;
    std::vector<std::vector<double>> pending;
    std::vector<Failure> failures;
    Random random;
    LearningState learning;
    PosteriorOrigin origin;
    std::vector<std::size_t> edge_since;
  };
  OptimizerEngine(const Config& config, Restored restored);

  const Config& config() const { return config_; }
  const Space& space() const { return space_; }
  const ModelParameters& parameters() const { return model_.parameters; }
  // The failure model's hyperparameters (none before the first failure).
  const std::optional<FailureHyperparameters>& failure_parameters() const {
    return model_.failure_parameters;
  }
  // The hyperparameters of constraint k's model.
  const ModelParameters& constraint_parameters(std::size_t k) const {
    return model_.constraints[k].parameters;
  }
  const ModelStructure& structure() const { return model_.structure; }
  // The model of record's posterior, when built (before the first model-based ask, after a
  // restore or a new model: none).
  const std::optional<AdditivePosterior>& posterior() const { return model_.posterior; }
  // Per edge of parameters().edges, the observations told when it entered the graph and has
  // stayed since (optimizer/edge_history.hpp).
  const std::vector<std::size_t>& edge_since() const { return edge_since_; }
  const std::vector<Observation>& observations() const { return observations_; }
  const std::vector<std::vector<double>>& pending() const { return pending_; }
  // The evaluations that failed, in the order told.
  const std::vector<Failure>& failures() const { return failures_; }
  // How many observations meet every constraint (all of them without constraints).
  std::size_t feasible_count() const { return feasible_count_; }
  // Whether two evaluations of one point disagreed: the objective is noisy (with "noise_variance":
  // "auto" its noise is then learned, a point may be evaluated again, and the best is judged by
  // the model).
  bool noisy() const { return noisy_since_.has_value(); }
  const Random& random() const { return random_; }
  const LearningState& learning() const { return learning_; }
  const PosteriorOrigin& posterior_origin() const { return model_.origin; }
  // What the saved state records of the model and learning: the current ones, or once an ask
  // has begun a learning, those its commit at the next ask will make (waiting for it).
  ModelRecord model_record() const;
  // The most observations the model of record is built from (ModelStructure::max_observations).
  std::size_t model_capacity() const { return model_.structure.max_observations; }
  // Where local search stands after the observations (acquisition/trust_region.hpp).
  TrustRegionState trust_region() const;
  // In the local phase, the observation its box is centred on: the best of the current run
  // (on a noisy objective by the model's mean, as best() judges); none in the global phase.
  std::optional<std::size_t> box_centre() const;
  const AskRecord& last_ask() const { return last_ask_; }
  const std::optional<std::chrono::system_clock::time_point>& last_tell_time() const {
    return last_tell_time_;
  }
  // The tells (and failures told) of this handle that matched no pending point while points
  // were pending: a point that went through text with too few digits, or a warm start told in
  // the middle of a run (info only, never saved).
  std::size_t unmatched_tells() const { return unmatched_tells_; }
  bool learns() const;  // does this configuration learn anything?

  // The host's learning step (addbo_learn): a job for the current data, or nothing when the
  // configuration learns nothing or fewer than two observations are told. A learning the last
  // ask began ("relearn": "ahead") is committed first, as the next ask would.
  std::unique_ptr<LearningJob> begin_learning(const InterruptCheck& interrupt);
  // Commits a job that has run; false (nothing changed) when another learning was committed
  // since the job began.
  bool finish_learning(const LearningJob& job);

  // `interrupt` stops a learning the ask runs (Error(Status::interrupted), nothing changed).
  std::vector<double> ask(const InterruptCheck& interrupt = InterruptCheck());
  // `constraints` holds one value per configured constraint.
  void tell(const std::vector<double>& x, double y, const std::vector<double>& constraints);
  void tell_failure(const std::vector<double>& x);
  void cancel(const std::vector<double>& x);
  // The best feasible observation (by its value, or on a noisy objective by the model's
  // posterior mean); Error(Status::state) when none is told yet.
  Observation best() const;

  // The model's posterior from the told observations (prediction.cpp; addbo_predict): const,
  // so neither the saved state, the generators nor the next ask change.
  Prediction predict(const std::vector<double>& x) const;
  PredictedBest predicted_best() const;
  nlohmann::json prediction_json(const Prediction& prediction) const;

 private:
  // The told and failed points by grid cell, on the grids of the model of record when the
  // index was made (an ask makes it again when a learning changed them).
  struct ObservedCells {
    GridPlan grids;
    CellPoints cells;
    CellPoints failed;
  };

  ModelData data() const {
    return ModelData{config_, space_, observations_, pending_, failures_, &ranking_};
  }
  ModelParameters initial_parameters() const;
  bool learning_due() const;
  // Gibbs-samples the graph and hyperparameters from the observations (structure.*), then
  // rebuilds the structure; the posterior is rebuilt on demand.
  void relearn(const InterruptCheck& interrupt);
  // "relearn": "ahead": prepares the learning due at this ask, for the ask to hold once it
  // succeeds (begun_learning_); with limits.threads 1 runs it too. The next ask commits it
  // (commit_learning_ahead).
  void begin_learning_at_ask(const InterruptCheck& interrupt);
  // Commits the learning an earlier ask began, waiting for it if need be.
  void commit_learning_ahead(const InterruptCheck& interrupt);
  // Whether a learning was committed since `job` was prepared.
  bool learned_since(const LearningJob& job) const;
  // What learning needs from the current state (learn/model_learning.hpp), the constraints'
  // learnings included.
  std::unique_ptr<LearningJob> learning_job(const InterruptCheck& interrupt) const;
  // What committing a learning's result changes (everything that can throw: the new
  // structure), and the commit itself, which only moves.
  LearningCommit learning_commit(const LearningJob& job) const;
  void commit_learning(LearningCommit&& commit) noexcept;
  // The most cells a junction-tree node of a learned or random graph may hold.
  std::int64_t node_cell_limit() const;
  // A random forest of structure.tree_edges edges (RDUCB's draw), none of a node too large.
  std::vector<Edge> random_tree_edges(Random& random) const;
  // random-tree mode: replaces the graph by a new random forest (structure rebuilt).
  void draw_random_tree(Random& random);
  // The UCB's beta for the model-based ask with `known` points told, failed or pending: beta_t,
  // or a hundredth of it while the global search after a restart exploits the model.
  double ask_beta(std::size_t known) const;
  // Whether the model-based ask with `known` points told or pending is one of the hedge's.
  bool random_tree_ask_due(std::size_t known) const;

  // The ask's decision, drawing from `random`; may learn, draw a random graph and build the
  // posterior of the model of record. `record` receives the graph a model-based ask used.
  AskDecision decide(Random& random, AskRecord& record, const InterruptCheck& interrupt);
  // What an ask over `model` (of the problem `data`, its posteriors built) maximises besides
  // the objective's UCB, and the conditions its point must meet: the failure model's (judged as
  // `scope` judges a chance of success), the constraints' (the conditions refer to the model's
  // posteriors).
  struct AskTerms {
    std::vector<AcquisitionTerm> objective;
    std::vector<AskCondition> conditions;
  };
  AskTerms ask_terms(const ModelData& data, ModelInstance& model, SearchScope scope) const;
  // The global search over `model` (its posteriors built), or nothing; with failures or
  // constraints, the fallback random point that meets the most conditions.
  std::optional<AskDecision> choose_over(ModelInstance& model, double beta, Random& random);
  // The local phase's search: the box around the run's best point, on the box's own model
  // carried over from `source` (optimizer/zoomed_problem.hpp); nothing when the box has nothing
  // left to ask. When no point of the box's grid meets the ask's conditions, the box is searched
  // among points drawn from `random`.
  std::optional<AskDecision> choose_in_box(const ModelInstance& source, double beta,
                                           Random& random);
  // The observation a search builds on: the best feasible one, or while none is feasible the
  // one that violates the constraints least; none before the first success.
  std::optional<std::size_t> incumbent() const;
  // Among the feasible observations the model holds, the one with the best posterior mean
  // (prediction.cpp); Error(Status::state) when none is feasible.
  std::size_t best_by_model() const;
  // The same among the observations told from index `first` on; none when none is feasible.
  std::optional<std::size_t> best_by_model_since(std::size_t first) const;
  // The initial design's last point repeats the first observation when the noise is "auto", so
  // that a noisy objective shows itself (docs/configuration.md).
  bool noise_probe_due(std::size_t known) const;
  // Whether an evaluation of u (encoded, in `cell`) with value y disagrees with a told
  // evaluation of the same point, among the kMostCellPoints newest of the cell.
  bool disagrees(const std::vector<int>& cell, const std::vector<double>& u, double y) const;
  // The noise variance the replicated evaluations the model holds show, in the model's
  // standardised units: the choice of kernel.noise_variance_choices nearest (on a log scale) to
  // their pooled variance.
  double replicate_noise() const;
  // Of the observations the model holds, the one whose constraint values are nearest their
  // bounds (violations in units of each constraint's observed spread, summed); none before
  // the first success.
  std::optional<std::size_t> least_violating() const;
  // The told and failed points by cell of `grids`: the engine's index when it is on those
  // grids, else one built into `scratch`.
  const ObservedCells& observed_cells_on(const GridPlan& grids,
                                         std::optional<ObservedCells>& scratch) const;

  // Replaces the posterior's pending points by `pending` after a change of the real data or of
  // the pending list; drops the posterior (to be rebuilt with more jitter) if a pivot fails.
  void refresh_pending(const std::vector<std::vector<double>>& pending);
  // After a failed call: drops a posterior the call may have changed half way, and puts back
  // the origin it was built from before the call, so that the next ask rebuilds the tables a
  // handle restored from the (unchanged) saved state builds.
  void discard_posterior(PosteriorOrigin&& origin) noexcept;
  std::ptrdiff_t find_pending(const std::vector<double>& x) const;
  double goal_value(double y) const { return config_.goal == Goal::maximize ? y : -y; }
  // The indexes derived from the observations, rebuilt from them (construction).
  void index_observations();
  // The told points by cell of `grids`.
  ObservedCells index_cells(const GridPlan& grids) const;

  Config config_;
  Space space_;
  Random random_;
  std::vector<std::size_t> edge_since_;  // parallel to model_.parameters.edges
  LearningState learning_;
  std::vector<Observation> observations_;
  std::vector<std::vector<double>> pending_;
  std::vector<Failure> failures_;
  ModelInstance model_;  // the model of record

  // Derived from the configuration alone.
  LatinHypercube design_;
  TrustRegionRule region_rule_;
  // Derived from the observations, and kept up to date by each tell.
  ObservedCells observed_cells_;
  TrustRegionTracker region_;
  // The local search's box on the model of record, kept from one ask to the next.
  BoxModel box_;
  std::optional<std::size_t> best_index_;  // the best feasible observation (first on a tie)
  std::size_t feasible_count_ = 0;
  // The number of observations told when two evaluations of one point first disagreed.
  std::optional<std::size_t> noisy_since_;
  // The observations' values in the goal's direction, ranked: which the model and learning
  // take past their caps (learn/learning_data.hpp).
  ValueRanking ranking_;

  // "relearn": "ahead": the learning an ask began, committed at the next ask; and the one this
  // ask prepares, held once it succeeds (optimizer/learning_ahead.hpp).
  LearningAhead learning_ahead_;
  LearningAhead begun_learning_;

  // This handle's last ask and tell (info only, never saved: none after a restore).
  AskRecord last_ask_;
  std::optional<std::chrono::system_clock::time_point> last_tell_time_;
  std::size_t unmatched_tells_ = 0;
};

// Saved-state document <-> engine (saved_state.cpp).
nlohmann::json save_state(const OptimizerEngine& engine);
OptimizerEngine restore_state(const nlohmann::json& state);

}  // namespace addbo::core
