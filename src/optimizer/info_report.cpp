#include "optimizer/info_report.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "json/json_text.hpp"

namespace addbo::core {
namespace {

using Json = nlohmann::json;

// A wall-clock time as ISO 8601 UTC with milliseconds ("2025-01-31T12:00:00.123Z"); null when
// there is none.
Json iso_time(const std::optional<std::chrono::system_clock::time_point>& time) {
  if (!time) return nullptr;
  const auto since_epoch = time->time_since_epoch();
  const std::int64_t milliseconds =
      std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count();
  const std::int64_t seconds =
      milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000;
  const std::time_t whole = static_cast<std::time_t>(seconds);
  std::tm utc{};
  if (gmtime_r(&whole, &utc) == nullptr) return nullptr;
  char text[40];
  const int written =
      std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                    utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                    static_cast<int>(milliseconds - seconds * 1000));
  if (written <= 0 || written >= static_cast<int>(sizeof text)) return nullptr;
  return std::string(text);
}

// A finite number, or null (NaN: not recorded).
Json number_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

const char* phase_name(AskPhase phase) {
  switch (phase) {
    case AskPhase::none:
      return "none";
    case AskPhase::initial_design:
      return "initial design";
    case AskPhase::global:
      return "global";
    case AskPhase::local:
      return "local";
    case AskPhase::random:
      return "random";
    case AskPhase::fallback:
      return "fallback";
  }
  return "none";
}

}  // namespace

Json info_report(const OptimizerEngine& engine) {
  const ModelParameters& parameters = engine.parameters();
  const ModelStructure& structure = engine.structure();
  const LearningState& learning = engine.learning();
  const Space& space = engine.space();
  // Built in place, every member set with operator[] (json_text.hpp, build_json_object).
  return build_json_object([&](Json& info) {
    set_array_of_arrays(info["edges"], parameters.edges);
    put(info["edge_since"], engine.edge_since());
    set_array_of_arrays(info["cliques"], structure.cliques);
    Json& tree = info["junction_tree"] = Json::object();
    set_array_of_arrays(tree["nodes"], structure.tree.nodes);
    set_array_of_arrays(tree["links"], structure.tree.links);
    put(tree["factor_node"], structure.tree.factor_node);
    put(tree["grid_sizes"], structure.grids.sizes());
    tree["coarsened"] = structure.grids.coarsened;
    put(info["lengthscales"], parameters.lengthscales);
    info["noise_variance"] = parameters.noise_variance;
    info["jitter"] = parameters.jitter;
    const std::size_t told = engine.observations().size();
    info["observations"] = told;
    info["pending"] = engine.pending().size();
    info["failures"] = engine.failures().size();
    // With constraints, the observations that meet every one (all of them without).
    info["feasible_observations"] = engine.feasible_count();
    // How many of the observations the model holds, and the most it holds
    // (limits.max_model_observations, fewer when limits.max_model_work bounds it).
    info["model_observations"] =
        model_observation_count(engine.model_capacity(), engine.posterior_origin(), told);
    info["model_capacity"] = engine.model_capacity();
    set_array_of_arrays(info["pending_points"], engine.pending());
    info["likelihood_evaluations"] = learning.evaluations;
    info["seconds"] = learning.seconds;
    info["learned_on_worker"] = learning.on_worker;
    info["learning_wait_seconds"] = learning.waited_seconds;
    info["learned_at_observations"] = learning.learned_at;
    if (!parameters.labels.empty()) put(info["labels"], parameters.labels);
    // Where the next model-based ask searches: the whole grid, or the local box.
    const TrustRegionState region = engine.trust_region();
    const AskRecord& last = engine.last_ask();
    const AskPhase phase = last.decision.phase;
    Json& search = info["search"] = Json::object();
    search["phase"] = region.local ? "local" : "global";
    search["box_length"] = region.local ? region.length : 0.0;
    if (const std::optional<std::size_t> centre = engine.box_centre()) {
      put(search["box_centre"], engine.observations()[*centre].x);
    } else {
      search["box_centre"] = nullptr;
    }
    search["restarts"] = region.restarts;
    search["around_best"] = region.around_best;
    search["run_start"] = region.run_start;
    search["exploiting"] = region.exploiting;
    // Deprecated: last_ask.phase, with a fallback named "random".
    search["last_ask"] = phase_name(phase == AskPhase::fallback ? AskPhase::random : phase);
    // Names beside indices: the variables, and the edges, cliques and junction-tree nodes by
    // name.
    Json& names = info["variables"] = Json::array();
    for (std::size_t d = 0; d < space.dimension(); ++d) names.push_back(space.variable(d).name);
    const auto write_named = [&](const VarSet& set, Json& list) {
      list = Json::array();
      for (int v : set) list.push_back(names[static_cast<std::size_t>(v)]);
    };
    Json& edge_names = info["edge_names"] = Json::array();
    for (const Edge& edge : parameters.edges) {
      write_named({edge.first, edge.second}, edge_names.emplace_back());
    }
    Json& clique_names = info["clique_names"] = Json::array();
    for (const VarSet& clique : structure.cliques) write_named(clique, clique_names.emplace_back());
    Json& node_names = tree["node_names"] = Json::array();
    for (const VarSet& node : structure.tree.nodes) write_named(node, node_names.emplace_back());
    // The models of the constraints' bounds and of where evaluations fail.
    Json& constraints = info["constraints"] = Json::array();
    const std::vector<ConstraintBound> bounds = engine.config().constraint_bounds();
    for (std::size_t b = 0; b < bounds.size(); ++b) {
      Json& constraint = constraints.emplace_back(Json::object());
      constraint["name"] = engine.config().constraints[bounds[b].constraint].name;
      constraint["bound"] = bounds[b].upper ? "upper" : "lower";
      put(constraint["lengthscales"], engine.constraint_parameters(b).lengthscales);
      constraint["noise_variance"] = engine.constraint_parameters(b).noise_variance;
      constraint["jitter"] = engine.constraint_parameters(b).jitter;
    }
    Json& failure_model = info["failure_model"];
    if (const std::optional<FailureHyperparameters>& failure = engine.failure_parameters()) {
      failure_model = Json::object();
      put(failure_model["lengthscales"], failure->lengthscales);
      failure_model["amplitude"] = failure->amplitude;
    }
    // The best told observation, as addbo_best gives it (with constraints, the best feasible
    // one; null while none is).
    Json& best_json = info["best"];
    if (engine.feasible_count() > 0) {
      const Observation top = engine.best();
      best_json = Json::object();
      put(best_json["x"], top.x);
      best_json["y"] = top.y;
    }
    // The last ask and tell of this handle (not saved: null after a restore).
    Json& last_ask = info["last_ask"] = Json::object();
    last_ask["phase"] = phase_name(phase);
    Json& last_x = last_ask["x"];
    if (last.time) put(last_x, last.decision.x);
    last_ask["beta"] = number_or_null(last.decision.beta);
    last_ask["exploration_weight"] = number_or_null(last.decision.exploration_weight);
    last_ask["acquisition"] = number_or_null(last.decision.acquisition);
    // The weight of the conditions' margins that steered the ask (constraints, failures).
    last_ask["condition_weight"] = number_or_null(last.decision.condition_weight);
    last_ask["graph"] = !last.time || std::isnan(last.decision.beta)
                            ? Json(nullptr)
                            : Json(last.random_tree ? "random tree" : "model");
    if (last.random_tree) {
      set_array_of_arrays(last_ask["random_tree_edges"], last.random_tree_edges);
    } else {
      last_ask["random_tree_edges"] = nullptr;
    }
    last_ask["time"] = iso_time(last.time);
    Json& last_tell = info["last_tell"] = Json::object();
    last_tell["time"] = iso_time(engine.last_tell_time());
    info["unmatched_tells"] = engine.unmatched_tells();
    // The last learning's chosen sample; without learning, the current model on all the data.
    if (learning.learned_at > 0) {
      info["log_likelihood"] = learning.log_likelihood;
    } else {
      const std::optional<AdditivePosterior>& posterior = engine.posterior();
      info["log_likelihood"] =
          posterior ? Json(posterior->log_marginal_likelihood()) : Json(nullptr);
    }
  });
}

}  // namespace addbo::core
