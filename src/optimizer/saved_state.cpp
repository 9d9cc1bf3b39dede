// The saved-state document (docs/saved-state.md). Loading trusts nothing: every field is checked
// against the configuration stored in the same document, and any problem is
// Error(Status::state) naming the JSON pointer of the field.
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "learn/gibbs_sampler.hpp"
#include "optimizer/optimizer_engine.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo {
namespace {

constexpr const char* kFormat = "addbo-state";
constexpr int kVersion = 2;
// Version 1 (addbo 0.1.0) had no model.built_at: its posterior replayed every observation.
constexpr int kFirstVersion = 1;

using Json = nlohmann::json;

Error state_error(const std::string& pointer, const std::string& message) {
  return Error(Status::state, "saved state " + pointer + ": " + message);
}

const Json& member(const Json& object, const std::string& pointer, const char* key) {
  const auto found = object.find(key);
  if (found == object.end()) throw state_error(pointer + "/" + key, "is missing");
  return *found;
}

void require_keys(const Json& object, const std::string& pointer,
                  std::initializer_list<const char*> keys) {
  if (!object.is_object()) throw state_error(pointer, "must be an object");
  for (const auto& item : object.items()) {
    bool known = false;
    for (const char* key : keys) known = known || item.key() == key;
    if (!known) throw state_error(pointer + "/" + item.key(), "is not a field of the saved state");
  }
}

double finite_number(const Json& value, const std::string& pointer) {
  if (!value.is_number()) throw state_error(pointer, "must be a number");
  const double number = value.get<double>();
  if (!std::isfinite(number)) throw state_error(pointer, "must be finite");
  return number;
}

std::vector<double> point(const Json& value, const std::string& pointer, const Space& space) {
  if (!value.is_array()) throw state_error(pointer, "must be an array of numbers");
  std::vector<double> x;
  for (std::size_t i = 0; i < value.size(); ++i) {
    x.push_back(finite_number(value[i], pointer + "/" + std::to_string(i)));
  }
  try {
    space.check_point(x, "point");
  } catch (const Error& error) {
    throw state_error(pointer, error.what());
  }
  return x;
}

Json edges_json(const std::vector<Edge>& edges) {
  Json array = Json::array();
  for (const Edge& edge : edges) array.push_back({edge.first, edge.second});
  return array;
}

std::vector<Edge> parse_edges(const Json& value, const std::string& pointer, int dimension) {
  if (!value.is_array()) throw state_error(pointer, "must be an array of [i, j] pairs");
  std::vector<Edge> edges;
  for (std::size_t k = 0; k < value.size(); ++k) {
    const Json& pair = value[k];
    const std::string where = pointer + "/" + std::to_string(k);
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
        !pair[1].is_number_integer()) {
      throw state_error(where, "must be a pair of variable indices");
    }
    const long long i = pair[0].get<long long>(), j = pair[1].get<long long>();
    if (i < 0 || j >= dimension || i >= j) {
      throw state_error(where, "must be [i, j] with 0 <= i < j < " + std::to_string(dimension));
    }
    const Edge edge{static_cast<int>(i), static_cast<int>(j)};
    if (!edges.empty() && !(edges.back() < edge)) {
      throw state_error(where, "edges must be sorted and distinct");
    }
    edges.push_back(edge);
  }
  return edges;
}

std::uint64_t unsigned_integer(const Json& value, const std::string& pointer) {
  if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<long long>() >= 0)) {
    throw state_error(pointer, "must be a non-negative integer");
  }
  return value.get<std::uint64_t>();
}

std::vector<int> parse_labels(const Json& value, const std::string& pointer, int dimension,
                              bool required) {
  if (!value.is_array()) throw state_error(pointer, "must be an array");
  if (!required) {
    if (!value.empty()) throw state_error(pointer, "must be empty outside disjoint mode");
    return {};
  }
  if (value.size() != static_cast<std::size_t>(dimension)) {
    throw state_error(pointer, "must hold one group label per variable");
  }
  std::vector<int> labels;
  for (std::size_t d = 0; d < value.size(); ++d) {
    const std::string where = pointer + "/" + std::to_string(d);
    const std::uint64_t label = unsigned_integer(value[d], where);
    if (label >= static_cast<std::uint64_t>(dimension))
      throw state_error(where, "must be below the number of variables");
    labels.push_back(static_cast<int>(label));
  }
  return labels;
}

LearningState parse_learning(const Json& value) {
  require_keys(value, "/learning",
               {"random", "scan", "learned_at", "log_likelihood", "evaluations"});
  LearningState learning;
  const Json& random = member(value, "/learning", "random");
  if (!random.is_string() || !learning.random.set_state(random.get<std::string>())) {
    throw state_error("/learning/random", "is not a valid generator state");
  }
  const Json& scan = member(value, "/learning", "scan");
  require_keys(scan, "/learning/scan", {"size", "stride", "offset", "cursor"});
  learning.scan.size =
      unsigned_integer(member(scan, "/learning/scan", "size"), "/learning/scan/size");
  learning.scan.stride =
      unsigned_integer(member(scan, "/learning/scan", "stride"), "/learning/scan/stride");
  learning.scan.offset =
      unsigned_integer(member(scan, "/learning/scan", "offset"), "/learning/scan/offset");
  learning.scan.cursor =
      unsigned_integer(member(scan, "/learning/scan", "cursor"), "/learning/scan/cursor");
  if (learning.scan.size > 0 &&
      (learning.scan.stride == 0 || learning.scan.offset >= learning.scan.size ||
       learning.scan.cursor > learning.scan.size ||
       std::gcd(learning.scan.stride, learning.scan.size) != 1)) {
    throw state_error("/learning/scan", "is not a valid scan order");
  }
  learning.learned_at =
      unsigned_integer(member(value, "/learning", "learned_at"), "/learning/learned_at");
  // A learning whose every candidate was numerically impossible has no finite likelihood; it
  // is saved as null (JSON has no NaN; in memory the document still holds the double) and
  // restored as such: information only, nothing depends on it.
  const Json& log_likelihood = member(value, "/learning", "log_likelihood");
  const bool not_finite = log_likelihood.is_null() || (log_likelihood.is_number_float() &&
                                                       !std::isfinite(log_likelihood.get<double>()));
  learning.log_likelihood =
      not_finite ? std::numeric_limits<double>::quiet_NaN()
                 : finite_number(log_likelihood, "/learning/log_likelihood");
  learning.evaluations =
      unsigned_integer(member(value, "/learning", "evaluations"), "/learning/evaluations");
  return learning;
}

}  // namespace

Json save_state(const OptimizerEngine& engine) {
  Json observations = Json::array();
  for (const Observation& observation : engine.observations()) {
    observations.push_back({{"x", observation.x}, {"y", observation.y}});
  }
  const ModelParameters& parameters = engine.parameters();
  const LearningState& learning = engine.learning();
  return Json{
      {"format", kFormat},
      {"version", kVersion},
      {"config", config_to_json(engine.config())},
      {"observations", observations},
      {"pending", engine.pending()},
      {"model",
       {{"edges", edges_json(parameters.edges)},
        {"labels", parameters.labels},
        {"lengthscales", parameters.lengthscales},
        {"noise_variance", parameters.noise_variance},
        {"jitter", parameters.jitter},
        {"built_at", engine.posterior_origin().built_at
                         ? Json(*engine.posterior_origin().built_at)
                         : Json(nullptr)}}},
      {"random", engine.random().state()},
      {"learning",
       {{"random", learning.random.state()},
        {"scan",
         {{"size", learning.scan.size},
          {"stride", learning.scan.stride},
          {"offset", learning.scan.offset},
          {"cursor", learning.scan.cursor}}},
        {"learned_at", learning.learned_at},
        {"log_likelihood", learning.log_likelihood},
        {"evaluations", learning.evaluations}}},
  };
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

OptimizerEngine restore_checked(const Json& state) {
  require_keys(
      state, "",
      {"format", "version", "config", "observations", "pending", "model", "random", "learning"});
  const Json& format = member(state, "", "format");
  if (!format.is_string() || format.get<std::string>() != kFormat) {
    throw state_error("/format", std::string("must be \"") + kFormat + "\"");
  }
  const Json& version = member(state, "", "version");
  if (!version.is_number_integer() || version.get<long long>() < kFirstVersion ||
      version.get<long long>() > kVersion) {
    throw state_error("/version", "must be " + std::to_string(kFirstVersion) + " to " +
                                      std::to_string(kVersion));
  }
  const bool first_version = version.get<long long>() == kFirstVersion;

  Config config;
  try {
    config = parse_config(member(state, "", "config"));
  } catch (const ConfigError& error) {
    throw state_error("/config" + error.pointer(), error.message());
  }
  const Space space(config.variables);
  const int dimension = static_cast<int>(space.dimension());

  const Json& observations_json = member(state, "", "observations");
  if (!observations_json.is_array()) throw state_error("/observations", "must be an array");
  std::vector<Observation> observations;
  for (std::size_t i = 0; i < observations_json.size(); ++i) {
    const std::string where = "/observations/" + std::to_string(i);
    const Json& item = observations_json[i];
    require_keys(item, where, {"x", "y"});
    Observation observation;
    observation.x = point(member(item, where, "x"), where + "/x", space);
    observation.y = finite_number(member(item, where, "y"), where + "/y");
    observations.push_back(std::move(observation));
  }

  const Json& pending_json = member(state, "", "pending");
  if (!pending_json.is_array()) throw state_error("/pending", "must be an array");
  std::vector<std::vector<double>> pending;
  for (std::size_t i = 0; i < pending_json.size(); ++i) {
    pending.push_back(point(pending_json[i], "/pending/" + std::to_string(i), space));
  }

  const Json& model = member(state, "", "model");
  if (first_version) {
    require_keys(model, "/model", {"edges", "labels", "lengthscales", "noise_variance", "jitter"});
  } else {
    require_keys(model, "/model",
                 {"edges", "labels", "lengthscales", "noise_variance", "jitter", "built_at"});
  }
  ModelParameters parameters;
  parameters.edges = parse_edges(member(model, "/model", "edges"), "/model/edges", dimension);
  parameters.labels = parse_labels(member(model, "/model", "labels"), "/model/labels", dimension,
                                   config.structure.mode == StructureMode::disjoint);
  if (!parameters.labels.empty() && edges_of_labels(parameters.labels) != parameters.edges) {
    throw state_error("/model/edges", "must join exactly the variables of equal label");
  }
  const Json& lengthscales = member(model, "/model", "lengthscales");
  if (!lengthscales.is_array() || lengthscales.size() != space.dimension()) {
    throw state_error("/model/lengthscales", "must hold one lengthscale per variable");
  }
  for (std::size_t d = 0; d < lengthscales.size(); ++d) {
    const double value = finite_number(lengthscales[d], "/model/lengthscales/" + std::to_string(d));
    if (value <= 0.0)
      throw state_error("/model/lengthscales/" + std::to_string(d), "must be positive");
    parameters.lengthscales.push_back(value);
  }
  parameters.noise_variance =
      finite_number(member(model, "/model", "noise_variance"), "/model/noise_variance");
  if (parameters.noise_variance <= 0.0)
    throw state_error("/model/noise_variance", "must be positive");
  parameters.jitter = finite_number(member(model, "/model", "jitter"), "/model/jitter");
  if (parameters.jitter < 0.0 || parameters.jitter > 1e-3) {
    throw state_error("/model/jitter", "must be in [0, 1e-3]");
  }

  const Json& random_json = member(state, "", "random");
  Random random;
  if (!random_json.is_string() || !random.set_state(random_json.get<std::string>())) {
    throw state_error("/random", "is not a valid generator state");
  }

  // Where the saved optimizer built its posterior tables, so that they are built again the
  // same way (version 1: every observation one at a time, built_at 0).
  PosteriorOrigin origin;
  if (first_version) {
    origin.built_at = 0;
  } else {
    const Json& built_at = member(model, "/model", "built_at");
    if (!built_at.is_null()) {
      origin.built_at = unsigned_integer(built_at, "/model/built_at");
      if (*origin.built_at > observations.size()) {
        throw state_error("/model/built_at", "is larger than the number of observations");
      }
    }
  }

  const LearningState learning = parse_learning(member(state, "", "learning"));
  if (learning.learned_at > observations.size()) {
    throw state_error("/learning/learned_at", "is larger than the number of observations");
  }
  try {
    return OptimizerEngine(config, std::move(parameters), std::move(observations),
                           std::move(pending), random, learning, origin);
  } catch (const ConfigError& error) {
    throw state_error("/config" + error.pointer(), error.message());
  }
}

}  // namespace

OptimizerEngine restore_state(const Json& state) {
  reject_configuration(state);
  try {
    return restore_checked(state);
  } catch (const Json::exception& error) {
    // Every field is checked before it is read, so this is a defect; it still leaves as a
    // state error without the JSON library's tag.
    throw Error(Status::state, "saved state: " + without_json_tag(error.what()));
  }
}

}  // namespace addbo
