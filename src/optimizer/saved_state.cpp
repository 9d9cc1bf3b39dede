// The saved-state document (docs/saved-state.md). Loading trusts nothing: every field is checked
// against the configuration stored in the same document, with the field readers the
// configuration is read with (json/json_fields.hpp), and any problem is a StateError naming the
// JSON pointer of the field.
#include "optimizer/saved_state.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>

#include "json/json_error.hpp"
#include "json/json_fields.hpp"
#include "json/json_text.hpp"
#include "learn/gibbs_sampler.hpp"
#include "optimizer/optimizer_engine.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo::core {
namespace {

constexpr const char* kFormat = "addbo-state";
constexpr int kVersion = 4;
// The oldest version read: addbo 0.1.0's.
constexpr int kFirstVersion = 1;
constexpr std::uint64_t kMaxUnsigned = std::numeric_limits<std::uint64_t>::max();

using Json = nlohmann::json;

std::uint64_t unsigned_member(const JsonObject& object, const char* key) {
  return require_integer(object.require(key), object.at(key), 0, kMaxUnsigned);
}

void read_generator(const Json& value, const std::string& pointer, Random& random) {
  if (!random.set_state(require_string(value, pointer))) {
    fail_at(pointer, "is not a valid generator state");
  }
}

std::vector<double> point(const Json& value, const std::string& pointer, const Space& space) {
  require_array(value, pointer, "an array of numbers");
  std::vector<double> x;
  for (std::size_t i = 0; i < value.size(); ++i) {
    x.push_back(require_finite(value[i], pointer_child(pointer, i)));
  }
  try {
    space.check_point(x, "point");
  } catch (const Error& error) {
    fail_at(pointer, error.what());
  }
  return x;
}

std::vector<Edge> parse_edges(const Json& value, const std::string& pointer, int dimension) {
  require_array(value, pointer, "an array of [i, j] pairs");
  const std::uint64_t last = static_cast<std::uint64_t>(dimension) - 1;
  std::vector<Edge> edges;
  for (std::size_t k = 0; k < value.size(); ++k) {
    const Json& pair = value[k];
    const std::string where = pointer_child(pointer, k);
    require_array(pair, where, "a pair [i, j] of variable indices");
    require_length(pair, where, 2, "variable indices");
    const Edge edge{static_cast<int>(require_integer(pair[0], pointer_child(where, 0), 0, last)),
                    static_cast<int>(require_integer(pair[1], pointer_child(where, 1), 0, last))};
    if (edge.first >= edge.second) fail_at(where, "must be [i, j] with i < j");
    if (!edges.empty() && !(edges.back() < edge)) {
      fail_at(where, "edges must be sorted and distinct");
    }
    edges.push_back(edge);
  }
  return edges;
}

std::vector<int> parse_labels(const Json& value, const std::string& pointer, int dimension,
                              bool required) {
  require_array(value, pointer, "an array of group labels");
  if (!required) {
    if (!value.empty()) fail_at(pointer, "must be empty outside disjoint mode");
    return {};
  }
  require_length(value, pointer, static_cast<std::size_t>(dimension),
                 "group labels, one per variable");
  std::vector<int> labels;
  for (std::size_t d = 0; d < value.size(); ++d) {
    labels.push_back(static_cast<int>(require_integer(value[d], pointer_child(pointer, d), 0,
                                                      static_cast<std::uint64_t>(dimension) - 1)));
  }
  return labels;
}

LearningState parse_learning(const Json& value, const std::string& pointer) {
  const JsonObject fields(value, pointer,
                          {"random", "scan", "learned_at", "log_likelihood", "evaluations"});
  LearningState learning;
  read_generator(fields.require("random"), fields.at("random"), learning.random);
  const JsonObject scan(fields.require("scan"), fields.at("scan"),
                        {"size", "stride", "offset", "cursor"});
  learning.scan.size = unsigned_member(scan, "size");
  learning.scan.stride = unsigned_member(scan, "stride");
  learning.scan.offset = unsigned_member(scan, "offset");
  learning.scan.cursor = unsigned_member(scan, "cursor");
  if (learning.scan.size > 0 &&
      (learning.scan.stride == 0 || learning.scan.offset >= learning.scan.size ||
       learning.scan.cursor > learning.scan.size ||
       std::gcd(learning.scan.stride, learning.scan.size) != 1)) {
    fail_at(scan.pointer(), "is not a valid scan order");
  }
  learning.learned_at = unsigned_member(fields, "learned_at");
  // A learning whose every candidate was numerically impossible has no finite likelihood; it
  // is saved as null (JSON has no NaN; in memory the document still holds the double) and
  // restored as such: information only, nothing depends on it.
  const Json& log_likelihood = fields.require("log_likelihood");
  const bool not_finite =
      log_likelihood.is_null() ||
      (log_likelihood.is_number_float() && !std::isfinite(log_likelihood.get<double>()));
  learning.log_likelihood = not_finite
                                ? std::numeric_limits<double>::quiet_NaN()
                                : require_finite(log_likelihood, fields.at("log_likelihood"));
  learning.evaluations = unsigned_member(fields, "evaluations");
  return learning;
}

// The fields a state of each version holds beyond those of version 1, the one place where a
// version decides what is read (docs/saved-state.md#versions). Versions 2 and 3 were written by
// development builds between addbo 0.1.0 and the release that writes version 4.
struct Layout {
  bool built_at;    // model.built_at (version 2); version 1 replayed every observation
  bool edge_since;  // model.edge_since (version 3)
  // failures, the observations' constraints, model.constraints, model.failure_model (version 4)
  bool outcomes;
};

Layout layout_of(long long version) { return Layout{version >= 2, version >= 3, version >= 4}; }

// Configuration keys added after 0.1.0 that change how a run in progress searches: a saved
// configuration without one reads as the value the run searched with (docs/saved-state.md),
// not as the default for new optimizers: no random-tree hedge, the uniform lengthscale prior,
// independent lengthscales.
void keep_policy_of_older_run(const Json& saved_config, Config& config) {
  const auto names = [&](const char* section, const char* key) {
    return saved_config.contains(section) && saved_config.at(section).contains(key);
  };
  if (!names("structure", "random_tree_share")) config.structure.random_tree_share = 0.0;
  if (!names("kernel", "lengthscale_prior")) {
    config.kernel.lengthscale_prior = LengthscalePrior::uniform;
  }
  if (!names("kernel", "lengthscale_spread")) config.kernel.lengthscale_spread = 0.0;
}

}  // namespace

Json save_state(const OptimizerEngine& engine) {
  return build_json_object([&](Json& state) {
    state["format"] = kFormat;
    state["version"] = kVersion;
    config_to_json(engine.config(), state["config"]);
    const bool constrained = !engine.config().constraints.empty();
    Json& observations = state["observations"] = Json::array();
    for (const Observation& observation : engine.observations()) {
      Json& item = observations.emplace_back(Json::object());
      put(item["x"], observation.x);
      item["y"] = observation.y;
      if (constrained) put(item["constraints"], observation.constraints);
    }
    set_array_of_arrays(state["pending"], engine.pending());
    Json& failures = state["failures"] = Json::array();
    for (const Failure& failure : engine.failures()) {
      Json& item = failures.emplace_back(Json::object());
      put(item["x"], failure.x);
      item["after"] = failure.observations_before;
    }

    // A learning an ask began is recorded as the next ask will have committed it.
    const ModelRecord record = engine.model_record();
    const ModelParameters& parameters = record.parameters;
    Json& model = state["model"] = Json::object();
    set_array_of_arrays(model["edges"], parameters.edges);
    put(model["labels"], parameters.labels);
    put(model["lengthscales"], parameters.lengthscales);
    model["noise_variance"] = parameters.noise_variance;
    model["jitter"] = parameters.jitter;
    model["built_at"] = record.built_at ? Json(*record.built_at) : Json(nullptr);
    put(model["edge_since"], record.edge_since);
    Json& failure_model = model["failure_model"];
    if (const std::optional<FailureHyperparameters>& failure = record.failure_parameters) {
      failure_model = Json::object();
      put(failure_model["lengthscales"], failure->lengthscales);
      failure_model["amplitude"] = failure->amplitude;
    }
    Json& constraint_models = model["constraints"] = Json::array();
    for (std::size_t k = 0; k < engine.config().constraint_bounds().size(); ++k) {
      const ModelParameters& constraint = record.constraints[k];
      Json& item = constraint_models.emplace_back(Json::object());
      put(item["lengthscales"], constraint.lengthscales);
      item["noise_variance"] = constraint.noise_variance;
      item["jitter"] = constraint.jitter;
    }
    state["random"] = engine.random().state();

    const LearningState& learning = record.learning;
    Json& saved_learning = state["learning"] = Json::object();
    saved_learning["random"] = learning.random.state();
    Json& scan = saved_learning["scan"] = Json::object();
    scan["size"] = learning.scan.size;
    scan["stride"] = learning.scan.stride;
    scan["offset"] = learning.scan.offset;
    scan["cursor"] = learning.scan.cursor;
    saved_learning["learned_at"] = learning.learned_at;
    saved_learning["log_likelihood"] = learning.log_likelihood;
    saved_learning["evaluations"] = learning.evaluations;
  });
}

namespace {

// A configuration passed where a saved state belongs (addbo_load instead of addbo_create) is
// named as such, not by its first key that a state does not have.
void reject_configuration(const Json& state) {
  if (!state.is_object() || state.contains("format")) return;
  for (const char* key : {"variables", "dimension"}) {
    if (state.contains(key)) {
      throw Error(Status::state, std::string("this looks like a configuration (it has \"") + key +
                                     "\" and no \"format\"), not a saved state; use "
                                     "addbo_create to make an optimizer from a configuration");
    }
  }
}

// A list of finite numbers of a fixed length.
std::vector<double> numbers(const Json& value, const std::string& pointer, std::size_t length,
                            const char* what) {
  require_array(value, pointer, "an array of numbers");
  require_length(value, pointer, length, what);
  std::vector<double> list;
  for (std::size_t i = 0; i < value.size(); ++i) {
    list.push_back(require_finite(value[i], pointer_child(pointer, i)));
  }
  return list;
}

// A model's lengthscales (D positive numbers), noise variance and jitter.
void parse_kernel_parameters(const JsonObject& model, std::size_t dimension,
                             ModelParameters& parameters) {
  const Json& lengthscales = model.require("lengthscales");
  require_array(lengthscales, model.at("lengthscales"), "an array of lengthscales");
  require_length(lengthscales, model.at("lengthscales"), dimension,
                 "lengthscales, one per variable");
  for (std::size_t d = 0; d < lengthscales.size(); ++d) {
    parameters.lengthscales.push_back(
        require_positive(lengthscales[d], pointer_child(model.at("lengthscales"), d)));
  }
  parameters.noise_variance =
      require_positive(model.require("noise_variance"), model.at("noise_variance"));
  parameters.jitter = require_finite(model.require("jitter"), model.at("jitter"));
  if (parameters.jitter < 0.0 || parameters.jitter > 1e-3) {
    fail_at(model.at("jitter"), "must be in [0, 1e-3]");
  }
}

OptimizerEngine restore_checked(const Json& state) {
  // The fields are checked against the layout of the version the state claims, before the
  // version itself is.
  const bool claims_version =
      state.is_object() && state.contains("version") && state.at("version").is_number_integer();
  const Layout layout =
      layout_of(claims_version ? state.at("version").get<long long>() : kFirstVersion);
  std::vector<std::string> root_keys = {"format", "version", "config", "observations", "pending"};
  if (layout.outcomes) root_keys.push_back("failures");
  root_keys.insert(root_keys.end(), {"model", "random", "learning"});
  const JsonObject root(state, "", root_keys);
  const Json& format = root.require("format");
  if (!format.is_string() || format.get<std::string>() != kFormat) {
    fail_at(root.at("format"), std::string("must be \"") + kFormat + "\"" + got_value(format));
  }
  const Json& version = root.require("version");
  if (!version.is_number_integer() || version.get<long long>() < kFirstVersion ||
      version.get<long long>() > kVersion) {
    fail_at(root.at("version"), "must be " + std::to_string(kFirstVersion) + " to " +
                                    std::to_string(kVersion) + got_value(version));
  }
  const long long version_number = version.get<long long>();

  Config config;
  try {
    config = parse_config(root.require("config"));
  } catch (const ConfigError& error) {
    fail_at(root.at("config") + error.pointer(), error.message());
  }
  keep_policy_of_older_run(root.require("config"), config);
  if (!layout.outcomes && !config.constraints.empty()) {
    fail_at(root.at("config") + "/constraints", "must be empty in a version " +
                                                    std::to_string(version_number) +
                                                    " state (constraints came with version 4)");
  }
  const Space space(config.variables);
  const int dimension = static_cast<int>(space.dimension());
  const std::size_t constraint_count = config.constraints.size();

  const Json& observations_json = root.require("observations");
  require_array(observations_json, root.at("observations"), "an array of observations");
  std::vector<Observation> observations;
  for (std::size_t i = 0; i < observations_json.size(); ++i) {
    const std::string where = pointer_child(root.at("observations"), i);
    const JsonObject item = constraint_count > 0
                                ? JsonObject(observations_json[i], where, {"x", "y", "constraints"})
                                : JsonObject(observations_json[i], where, {"x", "y"});
    Observation observation;
    observation.x = point(item.require("x"), item.at("x"), space);
    observation.y = require_finite(item.require("y"), item.at("y"));
    if (constraint_count > 0) {
      observation.constraints = numbers(item.require("constraints"), item.at("constraints"),
                                        constraint_count, "values, one per constraint");
    }
    observations.push_back(std::move(observation));
  }

  const Json& pending_json = root.require("pending");
  require_array(pending_json, root.at("pending"), "an array of points");
  std::vector<std::vector<double>> pending;
  for (std::size_t i = 0; i < pending_json.size(); ++i) {
    pending.push_back(point(pending_json[i], pointer_child(root.at("pending"), i), space));
  }

  std::vector<Failure> failures;
  if (layout.outcomes) {
    const Json& failures_json = root.require("failures");
    require_array(failures_json, root.at("failures"), "an array of failures");
    for (std::size_t i = 0; i < failures_json.size(); ++i) {
      const JsonObject item(failures_json[i], pointer_child(root.at("failures"), i),
                            {"x", "after"});
      Failure failure;
      failure.x = point(item.require("x"), item.at("x"), space);
      failure.observations_before = static_cast<std::size_t>(require_integer(
          item.require("after"), item.at("after"),
          failures.empty() ? 0 : failures.back().observations_before, observations.size()));
      failures.push_back(std::move(failure));
    }
  }

  std::vector<std::string> model_keys = {"edges", "labels", "lengthscales", "noise_variance",
                                         "jitter"};
  if (layout.built_at) model_keys.push_back("built_at");
  if (layout.edge_since) model_keys.push_back("edge_since");
  if (layout.outcomes) {
    model_keys.push_back("constraints");
    model_keys.push_back("failure_model");
  }
  const JsonObject model(root.require("model"), root.at("model"), model_keys);
  ModelParameters parameters;
  parameters.edges = parse_edges(model.require("edges"), model.at("edges"), dimension);
  parameters.labels = parse_labels(model.require("labels"), model.at("labels"), dimension,
                                   config.structure.mode == StructureMode::disjoint);
  if (!parameters.labels.empty() && edges_of_labels(parameters.labels) != parameters.edges) {
    fail_at(model.at("edges"), "must join exactly the variables of equal label");
  }
  parse_kernel_parameters(model, space.dimension(), parameters);
  std::vector<ModelParameters> constraint_parameters;
  if (layout.outcomes) {
    const Json& constraint_models = model.require("constraints");
    require_array(constraint_models, model.at("constraints"), "an array of constraint models");
    const std::size_t bound_count = config.constraint_bounds().size();
    require_length(constraint_models, model.at("constraints"), bound_count,
                   "models, one per bound of a constraint");
    for (std::size_t k = 0; k < bound_count; ++k) {
      const JsonObject item(constraint_models[k], pointer_child(model.at("constraints"), k),
                            {"lengthscales", "noise_variance", "jitter"});
      parse_kernel_parameters(item, space.dimension(), constraint_parameters.emplace_back());
    }
  }
  std::optional<FailureHyperparameters> failure_parameters;
  if (layout.outcomes && !model.require("failure_model").is_null()) {
    const JsonObject item(model.require("failure_model"), model.at("failure_model"),
                          {"lengthscales", "amplitude"});
    FailureHyperparameters failure;
    failure.lengthscales = numbers(item.require("lengthscales"), item.at("lengthscales"),
                                   space.dimension(), "lengthscales, one per variable");
    for (std::size_t d = 0; d < failure.lengthscales.size(); ++d) {
      if (!(failure.lengthscales[d] > 0)) {
        fail_at(pointer_child(item.at("lengthscales"), d), "must be greater than 0");
      }
    }
    failure.amplitude = require_positive(item.require("amplitude"), item.at("amplitude"));
    failure_parameters = std::move(failure);
  }

  Random random;
  read_generator(root.require("random"), root.at("random"), random);

  // Where the saved optimizer built its posterior tables, so that they are built again the
  // same way (version 1: every observation one at a time, built_at 0).
  PosteriorOrigin origin;
  if (!layout.built_at) {
    origin.built_at = 0;
  } else {
    const Json& built_at = model.require("built_at");
    if (!built_at.is_null()) {
      origin.built_at = unsigned_member(model, "built_at");
      if (*origin.built_at > observations.size()) {
        fail_at(model.at("built_at"), "is larger than the number of observations");
      }
    }
  }

  const LearningState learning = parse_learning(root.require("learning"), root.at("learning"));
  if (learning.learned_at > observations.size()) {
    fail_at(root.at("learning") + "/learned_at", "is larger than the number of observations");
  }

  // Without model.edge_since the last learning is the latest each edge can have entered.
  std::vector<std::size_t> edge_since(parameters.edges.size(), learning.learned_at);
  if (layout.edge_since) {
    const Json& since = model.require("edge_since");
    require_array(since, model.at("edge_since"), "an array of observation counts");
    require_length(since, model.at("edge_since"), parameters.edges.size(),
                   "observation counts, one per edge");
    for (std::size_t e = 0; e < since.size(); ++e) {
      edge_since[e] = static_cast<std::size_t>(require_integer(
          since[e], pointer_child(model.at("edge_since"), e), 0, observations.size()));
    }
  }
  try {
    OptimizerEngine::Restored restored{std::move(parameters),
                                       std::move(constraint_parameters),
                                       std::move(failure_parameters),
                                       std::move(observations),
                                       std::move(pending),
                                       std::move(failures),
                                       random,
                                       learning,
                                       origin,
                                       std::move(edge_since)};
    return OptimizerEngine(config, std::move(restored));
  } catch (const ConfigError& error) {
    fail_at(root.at("config") + error.pointer(), error.message());
  }
}

}  // namespace

OptimizerEngine restore_state(const Json& state) {
  reject_configuration(state);
  try {
    return restore_checked(state);
  } catch (const JsonError& error) {
    throw StateError(error.pointer(), error.message());
  } catch (const Json::exception& error) {
    // Every field is checked before it is read, so this is a defect; it still leaves as a
    // state error without the JSON library's tag.
    throw StateError("", "unexpected JSON error: " + without_json_tag(error.what()));
  }
}

Json parse_state_text(const std::string& text) {
  try {
    return parse_json_text(text, JsonTextRules{"saved state", kMaxStateDepth});
  } catch (const JsonError& error) {
    throw StateError(error.pointer(), error.message());
  }
}

}  // namespace addbo::core
