// The state behind addbo::Optimizer. What is saved (docs/saved-state.md) is only the
// history-determined part: configuration, observations, pending points, model parameters,
// generator, and where the posterior tables were built in one batch. Everything else (cliques,
// junction tree, grid plan, posterior tables) is derived from it and can be rebuilt at any time
// (a batch build, then the later observations added one at a time), which gives bit-identical
// tables.
#pragma once

#include <chrono>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "config/config.hpp"
#include "gp/additive_posterior.hpp"
#include "graph/junction_tree.hpp"
#include "learn/model_learning.hpp"
#include "learn/model_parameters.hpp"
#include "learn/scan_order.hpp"
#include "maximize/grid_plan.hpp"
#include "maximize/max_sum.hpp"
#include "optimizer/optimizer.hpp"
#include "optimizer/trust_region.hpp"
#include "space/latin_hypercube.hpp"
#include "space/space.hpp"
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
};

// Derived from the graph and the configuration alone.
struct ModelStructure {
  std::vector<VarSet> cliques;  // maximal cliques of the dependency graph (the kernel's groups)
  JunctionTree tree;            // over the triangulated graph, cliques assigned as factors
  GridPlan grids;               // grid points the tables cover
};

// How the posterior tables of the model were built, so that a restored optimizer builds them
// again bit for bit (docs/saved-state.md, model.built_at): a batch build and a replay of
// one-point additions agree only up to rounding.
struct PosteriorOrigin {
  // The tables were built from the first `built_at` observations at once, the later ones added
  // one at a time (0: every observation one at a time, as version 1 states were built); none:
  // there are no tables, the next build takes every observation at once.
  std::optional<std::size_t> built_at;
};

// A learning prepared under the optimizer's lock, run without it (run_learning), and committed
// under it again (OptimizerEngine::finish_learning): the host's worker thread can learn while
// other threads keep asking and telling with the current model.
struct LearningJob {
  LearningInput input;
  std::size_t observations = 0;  // how many observations the learning saw
  LearningState learning_before;
  LearningOutput output;
  double seconds = 0.0;
  bool done = false;
};

// Runs the job's learning (no optimizer access: safe outside the lock).
void run_learning(LearningJob& job);

// A point evaluated or pending in a grid cell, encoded (point_choice.cpp).
struct CellOccupant {
  std::vector<double> u;
  bool pending = false;
};
using CellOccupants = std::map<std::vector<int>, std::vector<CellOccupant>>;

class OptimizerEngine {
 public:
  // A fresh optimizer. Throws ConfigError when the given graph cannot be maximised within
  // limits.max_table_cells.
  explicit OptimizerEngine(const Config& config);
  // A restored optimizer; the caller has validated every piece against the configuration.
  OptimizerEngine(const Config& config, ModelParameters parameters,
                  std::vector<Observation> observations, std::vector<std::vector<double>> pending,
                  const Random& random, LearningState learning, PosteriorOrigin origin,
                  std::vector<std::size_t> edge_since);

  const Config& config() const { return config_; }
  const Space& space() const { return space_; }
  const ModelParameters& parameters() const { return parameters_; }
  // Per edge of parameters().edges, the observations told when it entered the graph and has
  // stayed since (optimizer/edge_history.hpp).
  const std::vector<std::size_t>& edge_since() const { return edge_since_; }
  const std::vector<Observation>& observations() const { return observations_; }
  const std::vector<std::vector<double>>& pending() const { return pending_; }
  const Random& random() const { return random_; }
  const LearningState& learning() const { return learning_; }
  const PosteriorOrigin& posterior_origin() const { return origin_; }
  bool learns() const;  // does this configuration learn anything?

  // The host's learning step (addbo_learn): a job for the current data, or nothing when the
  // configuration learns nothing or fewer than two observations are told.
  std::unique_ptr<LearningJob> begin_learning() const;
  // Commits a job that has run; false (nothing changed) when another learning was committed
  // since the job began.
  bool finish_learning(const LearningJob& job);

  std::vector<double> ask();
  void tell(const std::vector<double>& x, double y);
  void cancel(const std::vector<double>& x);
  Observation best() const;
  nlohmann::json info() const;

  // The model's posterior from the told observations (prediction.cpp; addbo_predict): const,
  // so neither the saved state, the generators nor the next ask change.
  Prediction predict(const std::vector<double>& x) const;
  PredictedBest predicted_best() const;
  nlohmann::json prediction_json(const Prediction& prediction) const;

 private:
  ModelParameters initial_parameters() const;
  bool learning_due() const;
  // Gibbs-samples the graph and hyperparameters from the observations (structure.*), then
  // rebuilds the structure; the posterior is rebuilt on demand.
  void relearn();
  // What learning needs from the current state (learn/model_learning.hpp).
  LearningInput learning_input() const;
  // Makes a learning's result the model (structure rebuilt, posterior dropped when the
  // parameters changed); on failure nothing changes.
  void commit_learning(const LearningOutput& output, std::size_t learned_at, double seconds);
  void build_structure();
  // The most cells a junction-tree node of a learned or random graph may hold.
  std::int64_t node_cell_limit() const;
  // A random forest of structure.tree_edges edges (RDUCB's draw), none of a node too large.
  std::vector<Edge> random_tree_edges(Random& random) const;
  // random-tree mode: replaces the graph by a new random forest (structure rebuilt).
  void draw_random_tree(Random& random);
  AdditiveKernel make_kernel() const;
  // Builds the posterior of the observations (in one batch) and adds the pending points,
  // escalating the jitter until every pivot is safely positive; after a restore, as the saved
  // optimizer had built it (origin_). Throws Error(Status::numerical) past the last step.
  void build_posterior();
  // Drops the posterior (derived state, rebuilt when next needed) and with it its origin.
  void drop_posterior();
  // The posterior build_posterior makes, over tables on the grid `axes` (encoded values per
  // variable), changing nothing: the posterior, the jitter it needed and its origin.
  AdditivePosterior make_posterior(const std::vector<std::vector<double>>& axes, int threads,
                                   double& jitter, PosteriorOrigin& origin) const;
  // The first `batch` observations at once at `jitter` (at most limits.max_model_observations
  // of them: batch_observations), the later ones and the pending points added one at a time;
  // nothing when a pivot fails.
  std::optional<AdditivePosterior> batch_then_replay(const std::vector<std::vector<double>>& axes,
                                                     int threads, double jitter,
                                                     std::size_t batch) const;
  // How many, and which (ascending), of the first `told` observations a batch build takes: all
  // of them up to limits.max_model_observations; past it, three quarters of the cap, the best
  // quarter of those and the most recent (select_observations), so that the next quarter of the
  // cap are added one at a time before the model is built again (docs/limits.md).
  std::size_t batch_size(std::size_t told) const;
  std::vector<std::size_t> batch_observations(std::size_t told) const;
  // Whether a model built in one batch at `built_at` observations, the later ones added one at
  // a time, holds at most limits.max_model_observations at `told` (else it is built again).
  bool origin_fits(std::size_t built_at, std::size_t told) const;
  // The observations (indices, in the model's order) of a posterior built from `origin` (none:
  // a batch of all of them, as a new build would take them).
  std::vector<std::size_t> model_observations(const PosteriorOrigin& origin) const;
  std::size_t max_pending() const { return static_cast<std::size_t>(config_.max_pending); }
  // The model's posterior for predictions: the engine's own, or when it has none (before the
  // first model-based ask, after a restore or a new model) a replay into `scratch` over a
  // one-point grid (no tables to fill), which has the same factor and standardisation.
  const AdditivePosterior& prediction_posterior(std::optional<AdditivePosterior>& scratch,
                                                PosteriorOrigin& origin) const;
  // The told observations' posterior at the encoded point u, in the user's units.
  Prediction prediction_at(const AdditivePosterior& posterior, const std::vector<double>& u) const;
  // Replaces the posterior's pending points by `pending` after a change of the real data or of
  // the pending list; drops the posterior (to be rebuilt with more jitter) if a pivot fails.
  void refresh_pending(const std::vector<std::vector<double>>& pending);
  // After a failed call: drops a posterior the call may have changed half way, and puts back
  // the origin it was built from before the call, so that the next ask rebuilds the tables a
  // handle restored from the (unchanged) saved state builds.
  void discard_posterior(const PosteriorOrigin& origin) noexcept;
  // Adds the pending point x (user units) to `posterior`, fantasised at the lower confidence
  // bound of f there (the next in asking order after the pending points it holds).
  bool add_pending_to(AdditivePosterior& posterior, const std::vector<double>& x) const;
  std::vector<double> choose_point(Random& random);
  // Posterior variance at or below which a point counts as known.
  double known_variance() const;
  // The UCB maximiser over the grid points not yet known, with the exploration widened as
  // little as leads to a new cell when the search has settled on an observed point, refined
  // off the grid; nothing when no grid point is left (or too many known ones rank first).
  std::optional<std::vector<double>> maximize_acquisition(double beta);
  // Whether the model-based ask with `known` points told or pending is one of the hedge's.
  bool random_tree_ask_due(std::size_t known) const;
  // learn mode's hedge: the same over a fresh random forest with the learned hyperparameters,
  // whose posterior is built for this ask only; the learned model is set aside and put back.
  std::optional<std::vector<double>> maximize_over_random_tree(double beta, Random& random);
  // The same over the grid points `allowed` admits (empty: all): the global search (one point
  // per cell, widening when settled), or the local box (known by variance, no widening).
  std::optional<std::vector<double>> maximize_acquisition_within(double beta,
                                                                 const DomainMasks& allowed,
                                                                 bool global,
                                                                 const CellOccupants& occupants);
  // Where local search stands after the observations (optimizer/trust_region.hpp), and the
  // grid points of its box when it is in the local phase.
  TrustRegionState trust_region() const;
  std::optional<DomainMasks> trust_region_box() const;
  std::vector<double> grid_point(const std::vector<int>& cell) const;  // plan indices -> x
  // The point asked for a chosen grid cell: its continuous variables refined within the cell
  // on the interpolated acquisition, kept when the exact acquisition there is higher.
  std::vector<double> refined_point(const std::vector<Table>& tables, const std::vector<int>& cell,
                                    double sd_weight, const CellOccupants& occupants) const;
  // The evaluated (and pending) points by grid cell, encoded.
  CellOccupants cell_occupants() const;
  // Whether the encoded point u of `cell` is known: a point was evaluated (or is pending, when
  // `with_pending`) in the cell, and the posterior variance at u given those points is within
  // known_variance().
  bool is_known(const std::vector<double>& u, const CellOccupants& occupants,
                const std::vector<int>& cell, bool with_pending) const;
  // Per variable, the index into the plan's grid nearest to x (user units).
  std::vector<int> grid_cell(const std::vector<double>& x) const;
  // Point k of the initial design, moved within its strata (or replaced) when its grid cell is
  // already known.
  std::vector<double> initial_point(std::size_t k, Random& random) const;
  // A uniformly random point whose grid cell is not known, when one can be found; on a small
  // discrete domain the unknown cells are listed, so one is always found while any is left.
  std::vector<double> unknown_random_point(const CellOccupants& known, Random& random) const;
  std::ptrdiff_t find_pending(const std::vector<double>& x) const;
  double goal_value(double y) const { return config_.goal == Goal::maximize ? y : -y; }
  double model_value(double y) const { return goal_value(y); }

  Config config_;
  Space space_;
  Random random_;
  ModelParameters parameters_;
  std::vector<std::size_t> edge_since_;  // parallel to parameters_.edges
  LearningState learning_;
  std::vector<Observation> observations_;
  std::vector<std::vector<double>> pending_;

  LatinHypercube design_;  // derived from the configuration alone
  // How an ask chose its point (info only): set while choosing, kept when the ask succeeds.
  enum class AskChoice { none, initial_design, global, local, random };
  AskChoice choice_ = AskChoice::none;
  bool ask_random_tree_ = false;  // the current ask maximises over a random tree (learn's hedge)
  std::vector<Edge> ask_random_edges_;  // and these are the tree's edges
  AskChoice last_choice_ = AskChoice::none;
  // Also info only, never saved: a model-based ask's beta_t, the exploration weight it
  // maximised with (sqrt(beta_t) times any widening) and the exact acquisition of the point
  // chosen (standardised units; refined_point), set while choosing (NaN otherwise); what the
  // last successful ask recorded; and the wall-clock times of the last ask and tell.
  double ask_beta_ = std::numeric_limits<double>::quiet_NaN();
  double ask_weight_ = std::numeric_limits<double>::quiet_NaN();
  mutable double ask_acquisition_ = std::numeric_limits<double>::quiet_NaN();
  struct AskRecord {
    double beta = std::numeric_limits<double>::quiet_NaN();
    double weight = std::numeric_limits<double>::quiet_NaN();
    double acquisition = std::numeric_limits<double>::quiet_NaN();
    bool random_tree = false;  // over a random tree rather than the model's graph
    std::vector<Edge> random_edges;
    std::vector<double> x;
    std::optional<std::chrono::system_clock::time_point> time;
  };
  AskRecord last_ask_;
  std::optional<std::chrono::system_clock::time_point> last_tell_time_;
  ModelStructure structure_;
  std::optional<AdditivePosterior> posterior_;  // built on the first model-based ask
  PosteriorOrigin origin_;  // how posterior_ was built, or after a restore how to build it
};

// Saved-state document <-> engine (saved_state.cpp).
nlohmann::json save_state(const OptimizerEngine& engine);
OptimizerEngine restore_state(const nlohmann::json& state);

}  // namespace addbo::core
