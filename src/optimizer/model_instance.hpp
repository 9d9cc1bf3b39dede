// A model an ask can maximise over: the graph and hyperparameters, the structure derived from
// them (cliques, junction tree, grids) and the posterior tables built on that structure from
// the told observations and the pending points. The optimizer keeps one, the model of record
// (what tells, predictions, info and the saved state use); the random-tree hedge builds another
// for one ask.
//
// Only the parameters and where the posterior was last built in one batch (PosteriorOrigin)
// are saved: the rest is derived and rebuilt the same way, which gives bit-identical tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "config/config.hpp"
#include "gp/additive_posterior.hpp"
#include "gp/probit_classifier.hpp"
#include "graph/junction_tree.hpp"
#include "learn/failure_learning.hpp"
#include "learn/learning_data.hpp"
#include "learn/model_parameters.hpp"
#include "maximize/grid_plan.hpp"
#include "optimizer/optimizer.hpp"
#include "space/space.hpp"

namespace addbo::core {

// Derived from the graph and the configuration alone.
struct ModelStructure {
  std::vector<VarSet> cliques;  // maximal cliques of the dependency graph (the kernel's groups)
  JunctionTree tree;            // over the triangulated graph, cliques assigned as factors
  GridPlan grids;               // grid points the tables cover
  // The most observations the model is built from: limits.max_model_observations, fewer when
  // building the tables of that many would cost more than limits.max_model_work
  // (observation_capacity).
  std::size_t max_observations = 0;
};

// The most observations a model whose clique tables hold `cells` cells in all is built from:
// limits.max_model_observations, or the largest n with cells x n^2 / 2 <= limits.max_model_work
// when that is fewer (at least 2). Building the variance tables costs a triangular solve per
// cell, n^2 / 2 multiply-adds each: a dense learned graph (groups of three variables on 32-point
// grids, 32,768 cells each) would otherwise make one global ask at 2,000 observations cost
// minutes, while the local phase's box, the known-cell rule and addbo_best still see what the
// model leaves out (docs/limits.md).
std::size_t observation_capacity(const Config& config, double cells);

// How the posterior tables of the model were built, so that a restored optimizer builds them
// again bit for bit (docs/saved-state.md, model.built_at): a batch build and a replay of
// one-point additions agree only up to rounding.
struct PosteriorOrigin {
  // The tables were built from the first `built_at` observations at once, the later ones added
  // one at a time (0: every observation one at a time, as version 1 states were built); none:
  // there are no tables, the next build takes every observation at once.
  std::optional<std::size_t> built_at;
  // The observations of that batch (ascending; derived, not saved): listing what the model
  // holds then costs O(cap), however many observations were told.
  std::vector<std::size_t> batch;
};

// The GP of one bound's margins (Config::margin) through bilog, on the model's structure with
// hyperparameters of its own (docs/real-objectives.md).
struct ConstraintModel {
  ModelParameters parameters;  // lengthscales, noise and jitter; the graph is the model's
  std::optional<AdditivePosterior> posterior;
};

struct ModelInstance {
  ModelParameters parameters;
  ModelStructure structure;
  std::optional<AdditivePosterior> posterior;  // of the objective, built when first needed
  std::vector<ConstraintModel> constraints;    // one per bound (Config::constraint_bounds)
  // How the posteriors (the objective's and the constraints', always built together) were
  // built, or after a restore how to build them.
  PosteriorOrigin origin;
  // The failure model's hyperparameters (learned once a failure is told), and the model fitted
  // with them to the observations and failures it was built for (derived: built when an ask
  // needs it).
  std::optional<FailureHyperparameters> failure_parameters;
  // Factors on failure_parameters' lengthscales (the continuous and integer ones) among which
  // the failure model's fit chooses the one of highest Laplace evidence: largest first, each
  // half the one before (their kernels are one ladder: learn/lengthscale_factor.hpp); empty:
  // the lengthscales as learned. A box's model has kBoxLengthscaleFactors (carried_model).
  std::vector<double> failure_lengthscale_factors;
  std::optional<ProbitClassifier> failure_model;
  std::size_t failure_model_observations = 0, failure_model_failures = 0;

  // Drops the posteriors (derived state, rebuilt when next needed) and with them their origin.
  void drop_posterior() {
    posterior.reset();
    for (ConstraintModel& constraint : constraints) constraint.posterior.reset();
    origin = PosteriorOrigin{};
    failure_model.reset();
  }
};

// Everything a model's posterior is built from: the history and the settings that shape it.
struct ModelData {
  const Config& config;
  const Space& space;
  const std::vector<Observation>& observations;
  const std::vector<std::vector<double>>& pending;
  const std::vector<Failure>& failures;
  // The observations' model values ranked as they were told (every one of them), when the
  // owner keeps a ranking: a batch's choice then costs O(cap log cap) instead of a sort of
  // the whole history.
  const ValueRanking* ranking = nullptr;

  // y in the model's direction: larger is better.
  double model_value(double y) const { return config.goal == Goal::maximize ? y : -y; }
};

// What a bound's model models: bilog(m) = sign(m) log(1 + |m|) of the margin m, as SCBO
// (Eriksson & Poloczek 2021) models its constraints: the sign, and so feasibility, is kept, and
// a margin far from the bound no longer outweighs the ones near it, which decide.
double bilog(double margin);
// Its inverse: the margin of a modelled value.
double inverse_bilog(double value);

// The structure of the graph `edges`: its maximal cliques, the junction tree of its min-fill
// triangulation and the grid plan within limits.max_table_cells. Throws ConfigError at
// /structure/edges when a junction-tree node cannot fit even on 2-point grids.
ModelStructure build_structure(const Config& config, const Space& space,
                               const std::vector<Edge>& edges);

// Builds the model's posteriors, the objective's and every constraint's, over its structure's
// grids (in one batch, then the pending points for the objective), each escalating its jitter
// until every pivot is safely positive; after a restore, as the saved optimizer had built them
// (model.origin). Sets the posteriors, model.origin and the jitters. Throws
// Error(Status::numerical) past the last step.
void build_posterior(const ModelData& data, ModelInstance& model);
// The same over tables on the grid `axes` (encoded values per variable) with `threads` threads.
void build_posterior_over(const ModelData& data, ModelInstance& model,
                          const std::vector<std::vector<double>>& axes, int threads);
// The model's posteriors of the first `batch` observations at once and the later ones added
// one at a time in the order told, without the pending points: each climbs its jitter ladder
// from its parameters' jitter until every pivot of the whole sequence is safely positive (the
// least rung at or above it on which they all are, however many were added before), so that
// one rebuilt later, after more observations, ends as one kept up to date would have.
// Sets the posteriors, model.origin and the jitters. Throws Error(Status::numerical) past the
// last step.
void build_posterior_from_batch(const ModelData& data, ModelInstance& model, std::size_t batch);
// Adds an observation (told with `data`'s settings, whether or not `data` holds it yet) to the
// model's posteriors (the objective's and every constraint's), their pending points dropped
// first. False when a pivot is not safely positive: the posteriors are then part-updated, and
// must be built again.
bool add_observation_to(const ModelData& data, ModelInstance& model,
                        const Observation& observation);

// The objective's posterior build_posterior makes, over tables on the grid `axes` (encoded
// values per variable), changing nothing: the posterior, the jitter it needed and its origin.
AdditivePosterior make_posterior(const ModelData& data, const ModelInstance& model,
                                 const std::vector<std::vector<double>>& axes, int threads,
                                 double& jitter, PosteriorOrigin& origin);

// The encoded axes of the structure's grids.
std::vector<std::vector<double>> grid_axes(const Space& space, const ModelStructure& structure);

// Fits the failure model to the observations (successes) and failures when there are failures
// and it is not fitted to them already (docs/real-objectives.md). Requires
// model.failure_parameters when there are failures.
void update_failure_model(const ModelData& data, ModelInstance& model);
// The failure model update_failure_model keeps, fitted anew (nothing without failures): with
// model.failure_lengthscale_factors, the fit of highest evidence among them (the first of
// equals).
std::optional<ProbitClassifier> fit_failure_model(const ModelData& data,
                                                  const ModelInstance& model);

// What learning the failure model's hyperparameters needs, from `start` (none: the model's
// lengthscales and the middle amplitude): the most recent points, failures given at least half
// of them.
FailureLearningInput failure_learning_input(const ModelData& data, const ModelInstance& model,
                                            const std::vector<VarSet>& cliques);

// Adds the pending point x (user units) to `posterior`, fantasised at the lower confidence
// bound of f there (the next in asking order after the pending points it holds).
bool add_pending_to(const ModelData& data, AdditivePosterior& posterior,
                    const std::vector<double>& x);

// How many of the first `told` observations a batch build takes for a model of at most `cap`
// (ModelStructure::max_observations): all of them up to the cap; past it, three quarters of
// the cap, so that the next quarter of the cap are added one at a time before the model is
// built again (docs/limits.md).
std::size_t batch_size(std::size_t cap, std::size_t told);
// Whether a model built in one batch at `built_at` observations, the later ones added one at
// a time, holds at most `cap` at `told` (else it is built again).
bool origin_fits(std::size_t cap, std::size_t built_at, std::size_t told);
// How many observations a model of at most `cap` built from `origin` holds at `told` (none: a
// new batch).
std::size_t model_observation_count(std::size_t cap, const PosteriorOrigin& origin,
                                    std::size_t told);
// The observations (indices, in the model's order) of the model's posterior, built from its
// origin (none: a batch, as a new build would take them).
std::vector<std::size_t> model_observations(const ModelData& data, const ModelInstance& model);

}  // namespace addbo::core
