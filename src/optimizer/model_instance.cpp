#include "optimizer/model_instance.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "acquisition/ucb.hpp"
#include "learn/learning_data.hpp"
#include "learn/lengthscale_factor.hpp"
#include "linalg/numerics.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// The failure model is fitted to at most this many points (and never more than the objective's
// model holds): a dense Laplace fit costs about n^3 / 3 multiply-adds per Newton iteration.
// Learning its hyperparameters fits it some (A + D L) times, to fewer points.
constexpr std::size_t kMaxFailureModelPoints = 500;
constexpr std::size_t kMaxFailureLearningPoints = 150;

// The encoded points of the failure model and their labels: the most recent failures and
// successes, up to `cap`, the failures given at least half of it when there are that many (the
// search is where the recent points are, and the failures mark the boundary to find).
void failure_points(const ModelData& data, std::size_t cap,
                    std::vector<std::vector<double>>& points, std::vector<char>& success) {
  cap = std::min(cap, static_cast<std::size_t>(data.config.max_model_observations));
  const std::size_t successes = data.observations.size(), failures = data.failures.size();
  const std::size_t failed = std::min(failures, std::max(cap / 2, cap - std::min(cap, successes)));
  const std::size_t succeeded = std::min(successes, cap - failed);
  for (std::size_t i = successes - succeeded; i < successes; ++i) {
    points.push_back(data.space.encode_point(data.observations[i].x));
    success.push_back(1);
  }
  for (std::size_t i = failures - failed; i < failures; ++i) {
    points.push_back(data.space.encode_point(data.failures[i].x));
    success.push_back(0);
  }
}

AdditiveKernel make_kernel(const Space& space, const ModelStructure& structure,
                           const ModelParameters& parameters) {
  return AdditiveKernel(space.types(), structure.cliques, parameters.lengthscales,
                        parameters.noise_variance);
}

std::vector<std::size_t> batch_observations(const ModelData& data, std::size_t cap,
                                            std::size_t told) {
  if (data.ranking != nullptr && data.ranking->size() == told) {
    return data.ranking->select(batch_size(cap, told));
  }
  // A batch of fewer than were ranked (after a restore, PosteriorOrigin::batch otherwise keeps
  // it), or data without a ranking (a box's few points): chosen from the values themselves.
  std::vector<double> values;
  values.reserve(told);
  for (std::size_t i = 0; i < told; ++i) values.push_back(data.model_value(data.observations[i].y));
  return select_observations(values, batch_size(cap, told));
}

// The observations of the batch of the first `told` for a model of at most `cap`: those
// `origin` remembers when it was built there.
std::vector<std::size_t> batch_of(const ModelData& data, const PosteriorOrigin& origin,
                                  std::size_t cap, std::size_t told) {
  if (origin.built_at == told && !origin.batch.empty()) return origin.batch;
  return batch_observations(data, cap, told);
}

// The values a posterior models: the objective's in the model's direction (no bound), or the
// bilog margin of a bound.
double response_value(const ModelData& data, const std::optional<ConstraintBound>& bound,
                      const Observation& observation) {
  if (!bound) return data.model_value(observation.y);
  return bilog(data.config.margin(*bound, observation.constraints));
}

double response_value(const ModelData& data, const std::optional<ConstraintBound>& bound,
                      std::size_t i) {
  return response_value(data, bound, data.observations[i]);
}

// The observations `batch` (of the first `told`: at most limits.max_model_observations of them,
// batch_observations) at once at `jitter`, the later ones added one at a time, and for the
// objective the pending points; nothing when a pivot fails.
std::optional<AdditivePosterior> batch_then_replay(
    const ModelData& data, const ModelStructure& structure, const ModelParameters& parameters,
    int response, const std::vector<std::vector<double>>& axes, int threads, double jitter,
    const std::vector<std::size_t>& batch, std::size_t told) {
  std::optional<AdditivePosterior> posterior;
  posterior.emplace(make_kernel(data.space, structure, parameters), axes, jitter, threads);
  std::optional<ConstraintBound> bound;
  if (response >= 0) bound = data.config.constraint_bounds()[static_cast<std::size_t>(response)];
  std::vector<std::vector<double>> points;
  std::vector<double> values;
  for (std::size_t i : batch) {
    points.push_back(data.space.encode_point(data.observations[i].x));
    values.push_back(response_value(data, bound, i));
  }
  if (!posterior->build(points, values)) return std::nullopt;
  for (std::size_t i = told; i < data.observations.size(); ++i) {
    if (!posterior->add_observation(data.space.encode_point(data.observations[i].x),
                                    response_value(data, bound, i))) {
      return std::nullopt;
    }
  }
  if (bound) return posterior;  // a bound's model knows nothing of pending points
  // At most limits.max_pending of them: only a loaded state can hold more, and its asks fail
  // until some are told or cancelled; a prediction meanwhile does not pay for them all.
  const std::size_t pending =
      std::min(data.pending.size(), static_cast<std::size_t>(data.config.max_pending));
  for (std::size_t k = 0; k < pending; ++k) {
    if (!add_pending_to(data, *posterior, data.pending[k])) return std::nullopt;
  }
  return posterior;
}

// The batch of observations a new build starts from: after a restore, the saved optimizer's
// (when its model still fits within the cap), else all of them.
std::size_t build_batch(const ModelData& data, const PosteriorOrigin& origin, std::size_t cap) {
  const std::size_t told = data.observations.size();
  if (origin.built_at && *origin.built_at <= told && origin_fits(cap, *origin.built_at, told)) {
    return *origin.built_at;
  }
  return told;
}

// One posterior built from `batch` (of the first `told`), climbing the jitter ladder from `jitter`
// (updated to the jitter it needed). Throws Error(Status::numerical) past the last step.
AdditivePosterior climb_jitter_ladder(const ModelData& data, const ModelStructure& structure,
                                      const ModelParameters& parameters, int response,
                                      const std::vector<std::vector<double>>& axes, int threads,
                                      const std::vector<std::size_t>& batch, std::size_t told,
                                      double& jitter) {
  for (double step = jitter;; step = next_jitter(step)) {
    if (past_last_jitter(step)) {
      throw Error(Status::numerical,
                  "the kernel matrix stays singular even with jitter 1e-4 added to the noise");
    }
    if (std::optional<AdditivePosterior> posterior = batch_then_replay(
            data, structure, parameters, response, axes, threads, step, batch, told)) {
      jitter = step;
      return std::move(*posterior);
    }
  }
}

// The smoothed share of evaluations that succeeded, (successes + 1) / (told + 2): the failure
// model's prior probability of success where it has no data.
double success_rate(const ModelData& data) {
  const double successes = static_cast<double>(data.observations.size());
  const double failures = static_cast<double>(data.failures.size());
  return (successes + 1.0) / (successes + failures + 2.0);
}

// Builds the constraints' posteriors from `origin`'s batch (each climbing its jitter ladder),
// then makes them and the objective's (built at `jitter`) the model's.
void add_constraints_and_commit(const ModelData& data, ModelInstance& model,
                                const std::vector<std::vector<double>>& axes, int threads,
                                AdditivePosterior objective, double jitter,
                                PosteriorOrigin origin) {
  std::vector<double> jitters;
  std::vector<AdditivePosterior> constraints;
  for (std::size_t k = 0; k < model.constraints.size(); ++k) {
    double constraint_jitter = model.constraints[k].parameters.jitter;
    constraints.push_back(climb_jitter_ladder(
        data, model.structure, model.constraints[k].parameters, static_cast<int>(k), axes, threads,
        origin.batch, *origin.built_at, constraint_jitter));
    jitters.push_back(constraint_jitter);
  }
  model.posterior = std::move(objective);
  model.parameters.jitter = jitter;
  for (std::size_t k = 0; k < model.constraints.size(); ++k) {
    model.constraints[k].posterior = std::move(constraints[k]);
    model.constraints[k].parameters.jitter = jitters[k];
  }
  model.origin = std::move(origin);
}

// Of the classifiers with `parameters`' lengthscales (the continuous and integer ones) times
// each of `factors` (a halving ladder, largest first), the one of highest Laplace evidence;
// nothing when none could be fitted. Every factor's kernel matrix comes from one set of
// exponentials (learn/lengthscale_factor.hpp), then one fit each, on up to `threads` threads.
std::optional<ProbitClassifier> highest_evidence_classifier(
    const std::vector<VariableType>& types, const std::vector<VarSet>& cliques,
    const FailureHyperparameters& parameters, const std::vector<double>& factors,
    const std::vector<std::vector<double>>& points, const std::vector<char>& success,
    double prior_mean, int threads) {
  LengthscaleFactorData ladder;
  ladder.types = types;
  ladder.cliques = cliques;
  ladder.lengthscales = parameters.lengthscales;
  ladder.points.resize(static_cast<Eigen::Index>(points.size()),
                       static_cast<Eigen::Index>(types.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t d = 0; d < types.size(); ++d) {
      ladder.points(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(d)) = points[i][d];
    }
  }
  LengthscaleFactorKernels kernels;
  lengthscale_factor_kernels(ladder, factors.front(), factors.size(), threads, kernels);
  std::vector<std::optional<ProbitClassifier>> fits(factors.size());
  parallel_for(factors.size(), threads, [&](std::size_t k) {
    Eigen::MatrixXd& matrix = kernels.sums[k];
    matrix.triangularView<Eigen::StrictlyUpper>() = matrix.transpose();
    const AdditiveKernel kernel(
        types, cliques, scaled_lengthscales(types, parameters.lengthscales, factors[k]), 1.0);
    fits[k] =
        ProbitClassifier::fit(kernel, points, success, parameters.amplitude, prior_mean, &matrix);
  });
  // The first of equals: a smaller factor must raise the evidence by more than rounding. Where
  // the box's points lie farther apart than the short lengthscales, every label is explained by
  // its own latent and the evidence of the smallest factors differs only in its last digits.
  std::optional<ProbitClassifier> best;
  for (std::optional<ProbitClassifier>& fit : fits) {
    if (fit &&
        (!best || fit->log_evidence() >
                      best->log_evidence() + 1e-9 * (1.0 + std::fabs(best->log_evidence())))) {
      best = std::move(fit);
    }
  }
  return best;
}

}  // namespace

double bilog(double margin) { return std::copysign(std::log1p(std::fabs(margin)), margin); }

double inverse_bilog(double value) { return std::copysign(std::expm1(std::fabs(value)), value); }

ModelStructure build_structure(const Config& config, const Space& space,
                               const std::vector<Edge>& edges) {
  const int dimension = static_cast<int>(space.dimension());
  const Graph graph(dimension, edges);
  std::vector<int> full_sizes(space.dimension());
  for (std::size_t d = 0; d < full_sizes.size(); ++d) full_sizes[d] = space.grid_size(d);
  const auto plan = [&](const std::vector<VarSet>& nodes) {
    try {
      return plan_grids(full_sizes, nodes, config.max_table_cells);
    } catch (const Error& error) {
      throw ConfigError("/structure/edges", error.what());
    }
  };
  // Fail fast: the junction tree's nodes, the maximal cliques of the triangulated graph, are at
  // most D and found in polynomial time, while the given graph can have exponentially many
  // maximal cliques (14 million for a dense graph of 45 variables). A graph whose nodes cannot
  // fit the cell budget is refused before those are listed.
  plan(maximal_cliques(triangulate_min_fill(graph)));
  ModelStructure structure;
  structure.cliques = maximal_cliques(graph);
  structure.tree = build_junction_tree(graph, structure.cliques);
  structure.grids = plan(structure.tree.nodes);
  // The cells of every clique's table (AdditivePosterior's tables are on these grids).
  const std::vector<int> sizes = structure.grids.sizes();
  double cells = 0.0;
  for (const VarSet& clique : structure.cliques) {
    double product = 1.0;
    for (int v : clique) product *= sizes[static_cast<std::size_t>(v)];
    cells += product;
  }
  structure.max_observations = observation_capacity(config, cells);
  return structure;
}

std::vector<std::vector<double>> grid_axes(const Space& space, const ModelStructure& structure) {
  std::vector<std::vector<double>> axes(space.dimension());
  for (std::size_t d = 0; d < axes.size(); ++d) {
    for (int index : structure.grids.indices[d])
      axes[d].push_back(space.encoded_grid_value(d, index));
  }
  return axes;
}

void build_posterior(const ModelData& data, ModelInstance& model) {
  build_posterior_over(data, model, grid_axes(data.space, model.structure),
                       resolve_thread_count(data.config.threads));
}

void build_posterior_over(const ModelData& data, ModelInstance& model,
                          const std::vector<std::vector<double>>& axes, int threads) {
  double jitter = model.parameters.jitter;
  PosteriorOrigin origin;
  AdditivePosterior objective = make_posterior(data, model, axes, threads, jitter, origin);
  // The constraints' posteriors from the objective's batch. After a restore that batch is the
  // saved one only when the objective could be built from it at its saved jitter; each
  // constraint's is then too, as the saved optimizer built it (a failed pivot would have
  // dropped the objective's tables with it).
  add_constraints_and_commit(data, model, axes, threads, std::move(objective), jitter,
                             std::move(origin));
}

void build_posterior_from_batch(const ModelData& data, ModelInstance& model, std::size_t batch) {
  const std::vector<std::vector<double>> axes = grid_axes(data.space, model.structure);
  const int threads = resolve_thread_count(data.config.threads);
  const std::vector<std::vector<double>> no_pending;
  const ModelData told{data.config, data.space, data.observations, no_pending, data.failures};
  PosteriorOrigin origin{batch, std::vector<std::size_t>(batch)};
  std::iota(origin.batch.begin(), origin.batch.end(), std::size_t{0});
  double jitter = model.parameters.jitter;
  AdditivePosterior objective = climb_jitter_ladder(told, model.structure, model.parameters, -1,
                                                    axes, threads, origin.batch, batch, jitter);
  add_constraints_and_commit(told, model, axes, threads, std::move(objective), jitter,
                             std::move(origin));
}

bool add_observation_to(const ModelData& data, ModelInstance& model,
                        const Observation& observation) {
  const std::vector<double> u = data.space.encode_point(observation.x);
  model.posterior->clear_pending();
  if (!model.posterior->add_observation(u, response_value(data, std::nullopt, observation))) {
    return false;
  }
  const std::vector<ConstraintBound> bounds = data.config.constraint_bounds();
  for (std::size_t k = 0; k < model.constraints.size(); ++k) {
    if (!model.constraints[k].posterior->add_observation(
            u, response_value(data, bounds[k], observation))) {
      return false;
    }
  }
  return true;
}

AdditivePosterior make_posterior(const ModelData& data, const ModelInstance& model,
                                 const std::vector<std::vector<double>>& axes, int threads,
                                 double& jitter_used, PosteriorOrigin& origin) {
  const std::size_t told = data.observations.size();
  const double start = model.parameters.jitter;
  // How many observations the batch holds: all of them, or after a restore what the saved
  // optimizer's did. A version 1 state (built_at 0) adds every observation one at a time (the
  // batch is empty), climbing the jitter ladder as then.
  const std::size_t cap = model.structure.max_observations;
  std::size_t batch = build_batch(data, model.origin, cap);
  if (batch > 0 && batch < told) {
    // The saved optimizer's tables, at its jitter. Should a pivot fail, the saved optimizer
    // failed on it too and dropped its tables: then, as it did, all the observations at once.
    std::vector<std::size_t> indices = batch_of(data, model.origin, cap, batch);
    if (std::optional<AdditivePosterior> posterior = batch_then_replay(
            data, model.structure, model.parameters, -1, axes, threads, start, indices, batch)) {
      jitter_used = start;
      origin.built_at = batch;
      origin.batch = std::move(indices);
      return std::move(*posterior);
    }
    batch = told;
  }
  std::vector<std::size_t> indices = batch_of(data, model.origin, cap, batch);
  double jitter = start;
  AdditivePosterior posterior = climb_jitter_ladder(data, model.structure, model.parameters, -1,
                                                    axes, threads, indices, batch, jitter);
  jitter_used = jitter;
  origin.built_at = batch;
  origin.batch = std::move(indices);
  return posterior;
}

bool add_pending_to(const ModelData& data, AdditivePosterior& posterior,
                    const std::vector<double>& x) {
  // Fantasised at f's lower confidence bound with the weight an ask made now would use
  // (t: the told points, the pending points before this one, plus one): see
  // gp/additive_posterior.hpp for why not at the mean.
  const double beta = ucb_beta(data.config.beta_scale,
                               posterior.observation_count() + posterior.pending_count() + 1);
  return posterior.add_pending(data.space.encode_point(x), std::sqrt(beta));
}

std::optional<ProbitClassifier> fit_failure_model(const ModelData& data,
                                                  const ModelInstance& model) {
  if (data.failures.empty()) return std::nullopt;
  if (!model.failure_parameters) {
    throw Error(Status::internal, "the failure model has no hyperparameters");
  }
  std::vector<std::vector<double>> points;
  std::vector<char> success;
  failure_points(data, kMaxFailureModelPoints, points, success);
  const FailureHyperparameters& parameters = *model.failure_parameters;
  const double prior_mean = failure_prior_mean(success_rate(data), parameters.amplitude);
  std::optional<ProbitClassifier> fitted;
  if (model.failure_lengthscale_factors.empty()) {
    const AdditiveKernel kernel(data.space.types(), model.structure.cliques,
                                parameters.lengthscales, 1.0);
    fitted = ProbitClassifier::fit(kernel, points, success, parameters.amplitude, prior_mean);
  } else {
    fitted = highest_evidence_classifier(data.space.types(), model.structure.cliques, parameters,
                                         model.failure_lengthscale_factors, points, success,
                                         prior_mean, resolve_thread_count(data.config.threads));
  }
  if (!fitted) {
    throw Error(Status::numerical, "the failure model could not be fitted to the failures told");
  }
  return fitted;
}

void update_failure_model(const ModelData& data, ModelInstance& model) {
  if (model.failure_model && model.failure_model_observations == data.observations.size() &&
      model.failure_model_failures == data.failures.size()) {
    return;
  }
  model.failure_model = fit_failure_model(data, model);
  model.failure_model_observations = data.observations.size();
  model.failure_model_failures = data.failures.size();
}

FailureLearningInput failure_learning_input(const ModelData& data, const ModelInstance& model,
                                            const std::vector<VarSet>& cliques) {
  FailureLearningInput input;
  input.types = data.space.types();
  input.cliques = cliques;
  failure_points(data, kMaxFailureLearningPoints, input.points, input.success);
  input.success_rate = success_rate(data);
  input.lengthscale_choices = data.config.kernel.lengthscale_choices;
  if (model.failure_parameters) {
    input.start = *model.failure_parameters;
  } else {
    input.start.lengthscales = model.parameters.lengthscales;
  }
  return input;
}

std::size_t observation_capacity(const Config& config, double cells) {
  const std::size_t cap = static_cast<std::size_t>(config.max_model_observations);
  const double affordable = std::floor(
      std::sqrt(2.0 * static_cast<double>(config.max_model_work) / std::max(cells, 1.0)));
  return affordable >= static_cast<double>(cap)
             ? cap
             : std::max<std::size_t>(kMinModelObservations, static_cast<std::size_t>(affordable));
}

std::size_t batch_size(std::size_t cap, std::size_t told) {
  return told <= cap ? told : cap - cap / 4;
}

bool origin_fits(std::size_t cap, std::size_t built_at, std::size_t told) {
  return batch_size(cap, built_at) + (told - built_at) <= cap;
}

std::size_t model_observation_count(std::size_t cap, const PosteriorOrigin& origin,
                                    std::size_t told) {
  const std::optional<std::size_t>& built_at = origin.built_at;
  return built_at && *built_at <= told && origin_fits(cap, *built_at, told)
             ? batch_size(cap, *built_at) + (told - *built_at)
             : batch_size(cap, told);
}

std::vector<std::size_t> model_observations(const ModelData& data, const ModelInstance& model) {
  const std::size_t told = data.observations.size();
  const PosteriorOrigin& origin = model.origin;
  const std::size_t built_at = origin.built_at.value_or(told);
  std::vector<std::size_t> indices =
      batch_of(data, origin, model.structure.max_observations, built_at);
  for (std::size_t i = built_at; i < told; ++i) indices.push_back(i);
  return indices;
}

}  // namespace addbo::core
