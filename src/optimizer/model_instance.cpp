#include "optimizer/model_instance.hpp"

#include <cmath>

#include "acquisition/ucb.hpp"
#include "learn/learning_data.hpp"
#include "linalg/numerics.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

AdditiveKernel make_kernel(const Space& space, const ModelInstance& model) {
  std::vector<VariableType> types(space.dimension());
  for (std::size_t d = 0; d < types.size(); ++d) types[d] = space.type(d);
  return AdditiveKernel(std::move(types), model.structure.cliques, model.parameters.lengthscales,
                        model.parameters.noise_variance);
}

std::vector<std::size_t> batch_observations(const ModelData& data, std::size_t told) {
  std::vector<double> values;
  values.reserve(told);
  for (std::size_t i = 0; i < told; ++i) values.push_back(data.model_value(data.observations[i].y));
  return select_observations(values, batch_size(data.config, told));
}

// The first `batch` observations at once at `jitter` (at most limits.max_model_observations
// of them: batch_observations), the later ones and the pending points added one at a time;
// nothing when a pivot fails.
std::optional<AdditivePosterior> batch_then_replay(const ModelData& data,
                                                   const ModelInstance& model,
                                                   const std::vector<std::vector<double>>& axes,
                                                   int threads, double jitter, std::size_t batch) {
  std::optional<AdditivePosterior> posterior;
  posterior.emplace(make_kernel(data.space, model), axes, jitter, threads);
  std::vector<std::vector<double>> points;
  std::vector<double> values;
  for (std::size_t i : batch_observations(data, batch)) {
    points.push_back(data.space.encode_point(data.observations[i].x));
    values.push_back(data.model_value(data.observations[i].y));
  }
  if (!posterior->build(points, values)) return std::nullopt;
  for (std::size_t i = batch; i < data.observations.size(); ++i) {
    if (!posterior->add_observation(data.space.encode_point(data.observations[i].x),
                                    data.model_value(data.observations[i].y))) {
      return std::nullopt;
    }
  }
  // At most limits.max_pending of them: only a loaded state can hold more, and its asks fail
  // until some are told or cancelled; a prediction meanwhile does not pay for them all.
  const std::size_t pending =
      std::min(data.pending.size(), static_cast<std::size_t>(data.config.max_pending));
  for (std::size_t k = 0; k < pending; ++k) {
    if (!add_pending_to(data, *posterior, data.pending[k])) return std::nullopt;
  }
  return posterior;
}

}  // namespace

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
  return structure;
}

void build_posterior(const ModelData& data, ModelInstance& model) {
  std::vector<std::vector<double>> axes(data.space.dimension());
  for (std::size_t d = 0; d < axes.size(); ++d) {
    for (int index : model.structure.grids.indices[d])
      axes[d].push_back(data.space.encoded_grid_value(d, index));
  }
  double jitter = model.parameters.jitter;
  PosteriorOrigin origin;
  model.posterior =
      make_posterior(data, model, axes, resolve_thread_count(data.config.threads), jitter, origin);
  model.parameters.jitter = jitter;
  model.origin = origin;
}

AdditivePosterior make_posterior(const ModelData& data, const ModelInstance& model,
                                 const std::vector<std::vector<double>>& axes, int threads,
                                 double& jitter_used, PosteriorOrigin& origin) {
  const std::size_t told = data.observations.size();
  const double start = model.parameters.jitter;
  // How many observations the batch holds: all of them, or after a restore what the saved
  // optimizer's did. A version 1 state (built_at 0) adds every observation one at a time (the
  // batch is empty), climbing the jitter ladder as then.
  std::size_t batch = told;
  const std::optional<std::size_t>& built_at = model.origin.built_at;
  if (built_at && *built_at <= told && origin_fits(data.config, *built_at, told)) {
    batch = *built_at;
    // The saved optimizer's tables, at its jitter. Should a pivot fail, the saved optimizer
    // failed on it too and dropped its tables: then, as it did, all the observations at once.
    if (batch > 0) {
      if (std::optional<AdditivePosterior> posterior =
              batch_then_replay(data, model, axes, threads, start, batch)) {
        jitter_used = start;
        origin.built_at = batch;
        return std::move(*posterior);
      }
      batch = told;
    }
  }
  for (double jitter = start;; jitter = next_jitter(jitter)) {
    if (past_last_jitter(jitter)) {
      throw Error(Status::numerical,
                  "the kernel matrix stays singular even with jitter 1e-4 added to the noise");
    }
    if (std::optional<AdditivePosterior> posterior =
            batch_then_replay(data, model, axes, threads, jitter, batch)) {
      jitter_used = jitter;
      origin.built_at = batch;
      return std::move(*posterior);
    }
  }
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

std::size_t batch_size(const Config& config, std::size_t told) {
  const std::size_t cap = static_cast<std::size_t>(config.max_model_observations);
  return told <= cap ? told : cap - cap / 4;
}

bool origin_fits(const Config& config, std::size_t built_at, std::size_t told) {
  return batch_size(config, built_at) + (told - built_at) <=
         static_cast<std::size_t>(config.max_model_observations);
}

std::size_t model_observation_count(const Config& config, const PosteriorOrigin& origin,
                                    std::size_t told) {
  const std::optional<std::size_t>& built_at = origin.built_at;
  return built_at && *built_at <= told && origin_fits(config, *built_at, told)
             ? batch_size(config, *built_at) + (told - *built_at)
             : batch_size(config, told);
}

std::vector<std::size_t> model_observations(const ModelData& data, const PosteriorOrigin& origin) {
  const std::size_t told = data.observations.size();
  std::vector<std::size_t> indices = batch_observations(data, origin.built_at.value_or(told));
  for (std::size_t i = origin.built_at.value_or(told); i < told; ++i) indices.push_back(i);
  return indices;
}

}  // namespace addbo::core
