#include "config/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "json/json_error.hpp"
#include "json/json_fields.hpp"
#include "json/json_text.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo::core {

namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Limits (docs/configuration.md) that only this file needs.

constexpr std::uint64_t kMaxInitialPoints = 1000000;
constexpr std::uint64_t kMaxGibbsEvaluations = 10000000;
constexpr std::uint64_t kMaxTableCells = std::uint64_t{1} << 40;
constexpr std::uint64_t kMinTableCells = 2;
constexpr std::uint64_t kMaxThreads = 1024;
constexpr std::uint64_t kMinModelWork = 1000000;
constexpr std::uint64_t kMaxModelWork = std::uint64_t{1} << 62;
constexpr std::uint64_t kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
// Integer-variable bounds must survive the trip through a double unchanged.
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53
constexpr std::uint64_t kMaxExactWhole = std::uint64_t{1} << 53;

// ---------------------------------------------------------------------------------------------
// Enumerations: one table per enum, used both to parse and to print, so the two cannot drift.

const NameTable<VariableType> kVariableTypes = {{"continuous", VariableType::continuous},
                                                {"integer", VariableType::integer},
                                                {"categorical", VariableType::categorical}};
const NameTable<Scale> kScales = {{"linear", Scale::linear}, {"log", Scale::log}};
const NameTable<Goal> kGoals = {{"maximize", Goal::maximize}, {"minimize", Goal::minimize}};
const NameTable<Strategy> kStrategies = {{"gp-ucb", Strategy::gp_ucb},
                                         {"random", Strategy::random}};
const NameTable<StructureMode> kStructureModes = {{"learn", StructureMode::learn},
                                                  {"disjoint", StructureMode::disjoint},
                                                  {"fixed", StructureMode::fixed},
                                                  {"random-tree", StructureMode::random_tree}};

const NameTable<Relearn> kRelearnModes = {
    {"auto", Relearn::automatic}, {"ahead", Relearn::ahead}, {"manual", Relearn::manual}};
const NameTable<LengthscalePrior> kLengthscalePriors = {
    {"dimension-scaled", LengthscalePrior::dimension_scaled},
    {"uniform", LengthscalePrior::uniform}};

const char* kLearn = "learn";
const char* kAuto = "auto";

// ---------------------------------------------------------------------------------------------
// Reading fields: the JSON layer's readers (json/json_fields.hpp), which throw JsonError at the
// field's pointer; parse_config turns that into ConfigError.

bool is_whole(double value) { return std::isfinite(value) && std::floor(value) == value; }

// The configuration's integers may also be written as whole floats (7.0, 1e3).
std::uint64_t config_integer(const json& value, const std::string& pointer, std::uint64_t min,
                             std::uint64_t max, const char* noun = "an integer") {
  return require_integer(value, pointer, min, max, IntegerSpelling::whole_number, noun);
}

// The seed: an integer from 0 to 2^64 - 1, or the same as a string of decimal digits, for hosts
// whose numbers cannot hold every 64-bit integer (a Lua table, JavaScript): a saved state's
// seed then goes through them exactly.
std::uint64_t read_seed(const json& value, const std::string& pointer) {
  if (!value.is_string()) {
    return config_integer(value, pointer, 0, std::numeric_limits<std::uint64_t>::max());
  }
  const std::string& digits = value.get_ref<const std::string&>();
  std::uint64_t seed = 0;
  bool valid = !digits.empty() && digits.size() <= 20;
  for (const char c : digits) {
    if (!valid) break;
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    valid =
        c >= '0' && c <= '9' && seed <= (std::numeric_limits<std::uint64_t>::max() - digit) / 10;
    if (valid) seed = seed * 10 + digit;
  }
  if (!valid) {
    fail_at(pointer,
            "must be an integer from 0 to 18446744073709551615, or such an integer as a string of "
            "decimal digits" +
                got_value(value));
  }
  return seed;
}

// Optional members: `out` keeps its default when the key is absent.
template <class T>
void read_integer(const JsonObject& fields, const char* key, std::uint64_t min, std::uint64_t max,
                  T& out) {
  if (const json* value = fields.find(key)) {
    out = static_cast<T>(config_integer(*value, fields.at(key), min, max));
  }
}
template <class E>
void read_name(const JsonObject& fields, const char* key, const NameTable<E>& table, E& out) {
  if (const json* value = fields.find(key)) out = require_name(*value, fields.at(key), table);
}

// ---------------------------------------------------------------------------------------------
// Arrays.

// A non-empty array of positive finite numbers; `exact_size` > 0 demands that many entries.
std::vector<double> require_positive_list(const json& value, const std::string& pointer,
                                          std::size_t exact_size, bool distinct) {
  require_array(value, pointer, "an array of positive numbers");
  if (exact_size > 0) require_length(value, pointer, exact_size, "entries, one per variable");
  if (value.empty()) fail_at(pointer, "must not be empty");
  std::vector<double> numbers;
  std::set<double> seen;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string element = pointer_child(pointer, i);
    numbers.push_back(require_positive(value[i], element));
    if (distinct && !seen.insert(numbers.back()).second) {
      fail_at(element, "repeats the value " + format_number(numbers.back()));
    }
  }
  return numbers;
}

// ---------------------------------------------------------------------------------------------
// Variables.

using NameIndex = std::unordered_map<std::string, std::size_t>;

std::string default_name(std::size_t index) { return "x" + std::to_string(index); }

// An integer variable's bound: a whole number small enough to be exact in a double.
double require_whole_bound(const json& value, const std::string& pointer) {
  // A JSON integer is judged before it becomes a double: 2^53 + 1 would round to 2^53 and pass.
  const bool too_large =
      (value.is_number_unsigned() && value.get<std::uint64_t>() > kMaxExactWhole) ||
      (value.is_number_integer() && !value.is_number_unsigned() &&
       (value.get<std::int64_t>() > static_cast<std::int64_t>(kMaxExactWhole) ||
        value.get<std::int64_t>() < -static_cast<std::int64_t>(kMaxExactWhole)));
  if (too_large) {
    fail_at(pointer, "must be at most 2^53 in magnitude, so that it is exact in a double" +
                         got_value(value));
  }
  const double number = require_finite(value, pointer);
  if (!is_whole(number)) {
    fail_at(pointer, "must be a whole number for an integer variable" + got_value(value));
  }
  if (std::fabs(number) > kMaxExactInteger) {
    fail_at(pointer, "must be at most 2^53 in magnitude, so that it is exact in a double" +
                         got_value(value));
  }
  return number;
}

void read_bounds(const JsonObject& fields, const std::string& kind, VariableSpec& variable) {
  const bool whole = variable.type == VariableType::integer;
  const std::string why = "for " + kind + " variable";
  const auto read = [&](const char* key) {
    const json& value = fields.require(key, why);
    return whole ? require_whole_bound(value, fields.at(key))
                 : require_finite(value, fields.at(key));
  };
  variable.lower = read("lower");
  if (variable.scale == Scale::log && !(variable.lower > 0)) {
    fail_at(fields.at("lower"), "must be greater than 0 for a variable with \"scale\": \"log\"" +
                                    got_value(*fields.find("lower")));
  }
  variable.upper = read("upper");
  if (!(variable.upper > variable.lower)) {
    fail_at(fields.at("upper"),
            "must be greater than lower (" + format_number(variable.lower) + ")");
  }
  // Encoding to the unit cube divides by the span; it must be a finite double.
  if (!std::isfinite(variable.upper - variable.lower)) {
    fail_at(fields.at("upper"), "upper - lower overflows a double; use a narrower range");
  }
  // On a log scale the span is log(upper) - log(lower), which rounds to 0 for bounds a few
  // units in the last place apart.
  if (variable.scale == Scale::log && !(std::log(variable.upper) > std::log(variable.lower))) {
    fail_at(fields.at("upper"), "is too close to lower (" + format_number(variable.lower) +
                                    ") for a log scale: log(upper) - log(lower) is 0 in double "
                                    "precision");
  }
}

void read_continuous(const JsonObject& fields, VariableSpec& variable) {
  fields.forbid("choices", "for a continuous variable (only categorical variables have choices)");
  read_bounds(fields, "a continuous", variable);
  read_integer(fields, "grid", kMinGrid, kMaxGrid, variable.grid);
}

void read_integer_variable(const JsonObject& fields, VariableSpec& variable) {
  fields.forbid("choices", "for an integer variable (only categorical variables have choices)");
  if (variable.scale == Scale::log) {
    // The grid is `grid` geometric points rounded to distinct integers (space/space.hpp), so the
    // range may hold any number of values.
    read_bounds(fields, "an integer", variable);
    read_integer(fields, "grid", kMinGrid, kMaxGrid, variable.grid);
    return;
  }
  fields.forbid("grid",
                "for an integer variable on a linear scale (it uses every integer from lower to "
                "upper; \"scale\": \"log\" takes a grid)");
  read_bounds(fields, "an integer", variable);
  const double count = variable.upper - variable.lower + 1;
  if (count > kMaxIntegerValues) {
    fail_at(fields.at("upper"), "the range from " + format_number(variable.lower) + " to " +
                                    format_number(variable.upper) + " has " + format_number(count) +
                                    " values; at most " + std::to_string(kMaxIntegerValues) +
                                    " are allowed");
  }
  variable.grid = static_cast<int>(count);
}

void read_categorical(const JsonObject& fields, VariableSpec& variable) {
  const std::string why = "for a categorical variable (its values are the indices of its choices)";
  fields.forbid("lower", why);
  fields.forbid("upper", why);
  fields.forbid("grid", why);
  const std::string pointer = fields.at("choices");
  const json& choices = fields.require("choices", "for a categorical variable");
  require_array(choices, pointer, "an array of strings");
  if (choices.size() < 2) fail_at(pointer, "must have at least 2 choices" + got_value(choices));
  if (choices.size() > static_cast<std::size_t>(kMaxGrid)) {
    fail_at(pointer,
            "must have at most " + std::to_string(kMaxGrid) + " choices" + got_value(choices));
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const std::string element = pointer_child(pointer, i);
    const std::string& choice = require_string(choices[i], element);
    if (!seen.insert(choice).second) {
      fail_at(element, "repeats the choice \"" + shorten_for_message(choice) + "\"");
    }
    variable.choices.push_back(choice);
  }
  variable.lower = 0;
  variable.upper = static_cast<double>(choices.size() - 1);
  variable.grid = static_cast<int>(choices.size());
}

VariableSpec read_variable(const json& value, const std::string& pointer, std::size_t index) {
  const JsonObject fields(value, pointer,
                          {"name", "type", "scale", "lower", "upper", "grid", "choices"});
  VariableSpec variable;
  variable.name = default_name(index);
  if (const json* name = fields.find("name")) {
    variable.name = require_string(*name, fields.at("name"));
    if (variable.name.empty()) fail_at(fields.at("name"), "must not be empty");
  }
  read_name(fields, "type", kVariableTypes, variable.type);
  if (variable.type == VariableType::categorical) {
    fields.forbid("scale", "for a categorical variable (its choices have no order)");
  }
  read_name(fields, "scale", kScales, variable.scale);
  switch (variable.type) {
    case VariableType::continuous:
      read_continuous(fields, variable);
      break;
    case VariableType::integer:
      read_integer_variable(fields, variable);
      break;
    case VariableType::categorical:
      read_categorical(fields, variable);
      break;
  }
  return variable;
}

std::vector<VariableSpec> read_variables(const json& value, const std::string& pointer) {
  require_array(value, pointer, "an array of variables");
  if (value.empty()) fail_at(pointer, "must contain at least one variable");
  if (value.size() > kMaxVariables) {
    fail_at(pointer, "has " + std::to_string(value.size()) + " variables; at most " +
                         std::to_string(kMaxVariables) + " are allowed");
  }
  std::vector<VariableSpec> variables;
  variables.reserve(value.size());
  NameIndex names;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string element = pointer_child(pointer, i);
    variables.push_back(read_variable(value[i], element, i));
    const auto inserted = names.emplace(variables.back().name, i);
    if (!inserted.second) {
      const bool named = value[i].contains("name");
      fail_at(pointer_child(element, "name"),
              std::string(named ? "\"" : "the default name \"") +
                  shorten_for_message(variables.back().name) + "\" is already used by variable " +
                  std::to_string(inserted.first->second) +
                  (named ? "; names must be unique" : "; give this variable a name"));
    }
  }
  return variables;
}

std::vector<VariableSpec> unit_cube_variables(std::size_t dimension) {
  std::vector<VariableSpec> variables(dimension);
  for (std::size_t i = 0; i < dimension; ++i) variables[i].name = default_name(i);
  return variables;
}

// ---------------------------------------------------------------------------------------------
// Structure.

int read_endpoint(const json& value, const std::string& pointer, const NameIndex& names,
                  std::size_t dimension) {
  if (value.is_string()) {
    const auto it = names.find(value.get_ref<const std::string&>());
    if (it == names.end()) fail_at(pointer, "no variable is named " + describe_value(value));
    return static_cast<int>(it->second);
  }
  if (!value.is_number()) fail_at(pointer, "must be a variable index or name" + got_value(value));
  return static_cast<int>(config_integer(value, pointer, 0, dimension - 1, "a variable index"));
}

std::vector<std::pair<int, int>> read_edges(const json& value, const std::string& pointer,
                                            const std::vector<VariableSpec>& variables) {
  require_array(value, pointer, "an array of [i, j] pairs");
  NameIndex names;
  for (std::size_t i = 0; i < variables.size(); ++i) names.emplace(variables[i].name, i);
  // Kept in a set: rejects repeats as they are read and leaves the edges sorted.
  std::set<std::pair<int, int>> edges;
  for (std::size_t k = 0; k < value.size(); ++k) {
    const std::string element = pointer_child(pointer, k);
    const json& edge = value[k];
    if (!edge.is_array() || edge.size() != 2) {
      fail_at(element, "must be a pair [i, j] of variable indices or names" + got_value(edge));
    }
    const int a = read_endpoint(edge[0], pointer_child(element, 0), names, variables.size());
    const int b = read_endpoint(edge[1], pointer_child(element, 1), names, variables.size());
    if (a == b) fail_at(element, "is a self-loop on variable " + std::to_string(a));
    if (!edges.emplace(std::min(a, b), std::max(a, b)).second) {
      fail_at(element, "repeats the edge between variables " + std::to_string(std::min(a, b)) +
                           " and " + std::to_string(std::max(a, b)));
    }
  }
  return std::vector<std::pair<int, int>>(edges.begin(), edges.end());
}

// The edge probability that gives each variable `degree` neighbours in expectation, capped at
// 0.5; 0.5 below three variables (one pair at most: an even prior).
double edge_prior_of_degree(double degree, std::size_t dimension) {
  if (dimension < 3) return 0.5;
  return std::min(0.5, degree / (static_cast<double>(dimension) - 1.0));
}

StructureSpec read_structure(const json& value, const std::string& pointer,
                             const std::vector<VariableSpec>& variables) {
  const JsonObject fields(value, pointer,
                          {"mode", "edges", "expected_degree", "edge_prior", "max_clique_cells",
                           "tree_edges", "random_tree_share", "relearn", "relearn_every",
                           "gibbs_evaluations", "max_learning_points"});
  StructureSpec structure;
  read_name(fields, "mode", kStructureModes, structure.mode);
  if (const json* edges = fields.find("edges")) {
    structure.edges = read_edges(*edges, fields.at("edges"), variables);
  }
  // structure.edge_prior, or derived from structure.expected_degree (its deprecated alias, which
  // gives way when both are given: a configuration that names both means the canonical key).
  double expected_degree = 1.0;
  if (const json* degree = fields.find("expected_degree")) {
    expected_degree = require_finite(*degree, fields.at("expected_degree"));
    const double most = std::max(1.0, static_cast<double>(variables.size()) - 1.0);
    if (!(expected_degree > 0 && expected_degree <= most)) {
      fail_at(fields.at("expected_degree"),
              "must be greater than 0 and at most the number of variables minus 1" +
                  got_value(*degree));
    }
  }
  structure.edge_prior = edge_prior_of_degree(expected_degree, variables.size());
  if (const json* prior = fields.find("edge_prior")) {
    structure.edge_prior = require_finite(*prior, fields.at("edge_prior"));
    if (!(structure.edge_prior > 0 && structure.edge_prior < 1)) {
      fail_at(fields.at("edge_prior"), "must be strictly between 0 and 1" + got_value(*prior));
    }
  }
  read_integer(fields, "max_clique_cells", kMinTableCells, kMaxTableCells,
               structure.max_clique_cells);
  read_integer(fields, "tree_edges", 0, kMaxInt, structure.tree_edges);
  if (structure.tree_edges >= static_cast<int>(std::max<std::size_t>(variables.size(), 1))) {
    fail_at(fields.at("tree_edges"),
            "must be less than the number of variables (a tree on D "
            "variables has D - 1 edges)" +
                got_value(*fields.find("tree_edges")));
  }
  if (const json* share = fields.find("random_tree_share")) {
    structure.random_tree_share = require_finite(*share, fields.at("random_tree_share"));
    if (!(structure.random_tree_share >= 0.0 && structure.random_tree_share <= 1.0)) {
      fail_at(fields.at("random_tree_share"), "must be from 0 to 1" + got_value(*share));
    }
  }
  read_name(fields, "relearn", kRelearnModes, structure.relearn);
  read_integer(fields, "relearn_every", 1, kMaxInt, structure.relearn_every);
  read_integer(fields, "gibbs_evaluations", 1, kMaxGibbsEvaluations, structure.gibbs_evaluations);
  read_integer(fields, "max_learning_points", 0, kMaxInt, structure.max_learning_points);
  return structure;
}

// ---------------------------------------------------------------------------------------------
// Kernel, acquisition, limits.

bool is_learn(const json& value) { return is_string_value(value, kLearn); }

KernelSpec read_kernel(const json& value, const std::string& pointer, std::size_t dimension) {
  const JsonObject fields(value, pointer,
                          {"lengthscales", "lengthscale_choices", "lengthscale_prior",
                           "lengthscale_spread", "noise_variance", "noise_variance_choices"});
  KernelSpec kernel;
  if (const json* lengthscales = fields.find("lengthscales")) {
    kernel.learn_lengthscales = is_learn(*lengthscales);
    if (!kernel.learn_lengthscales) {
      if (!lengthscales->is_array()) {
        fail_at(fields.at("lengthscales"),
                "must be \"learn\" or an array of positive numbers, one per variable" +
                    got_value(*lengthscales));
      }
      kernel.lengthscales =
          require_positive_list(*lengthscales, fields.at("lengthscales"), dimension, false);
    }
  }
  if (const json* choices = fields.find("lengthscale_choices")) {
    kernel.lengthscale_choices =
        require_positive_list(*choices, fields.at("lengthscale_choices"), 0, true);
  }
  read_name(fields, "lengthscale_prior", kLengthscalePriors, kernel.lengthscale_prior);
  if (const json* spread = fields.find("lengthscale_spread")) {
    kernel.lengthscale_spread = require_finite(*spread, fields.at("lengthscale_spread"));
    if (!(kernel.lengthscale_spread >= 0.0 && kernel.lengthscale_spread <= 100.0)) {
      fail_at(fields.at("lengthscale_spread"), "must be from 0 to 100" + got_value(*spread));
    }
  }
  if (const json* noise = fields.find("noise_variance")) {
    kernel.learn_noise = is_learn(*noise);
    kernel.auto_noise = is_string_value(*noise, kAuto);
    if (!kernel.learn_noise && !kernel.auto_noise) {
      if (!noise->is_number()) {
        fail_at(fields.at("noise_variance"),
                "must be \"auto\", \"learn\" or a positive number" + got_value(*noise));
      }
      kernel.noise_variance = require_positive(*noise, fields.at("noise_variance"));
    }
  }
  if (const json* choices = fields.find("noise_variance_choices")) {
    kernel.noise_variance_choices =
        require_positive_list(*choices, fields.at("noise_variance_choices"), 0, true);
  }
  return kernel;
}

// ---------------------------------------------------------------------------------------------
// Constraints.

std::vector<ConstraintSpec> read_constraints(const json& value, const std::string& pointer) {
  require_array(value, pointer, "an array of constraint objects");
  if (value.size() > kMaxConstraints) {
    fail_at(pointer, "has " + std::to_string(value.size()) + " constraints; at most " +
                         std::to_string(kMaxConstraints) + " are allowed");
  }
  std::vector<ConstraintSpec> constraints;
  NameIndex names;
  for (std::size_t k = 0; k < value.size(); ++k) {
    const std::string element = pointer_child(pointer, k);
    const JsonObject fields(value[k], element, {"name", "lower", "upper"});
    ConstraintSpec constraint;
    constraint.name = require_string(fields.require("name"), fields.at("name"));
    if (constraint.name.empty()) fail_at(fields.at("name"), "must not be empty");
    const auto inserted = names.emplace(constraint.name, k);
    if (!inserted.second) {
      fail_at(fields.at("name"),
              "\"" + shorten_for_message(constraint.name) + "\" is already used by constraint " +
                  std::to_string(inserted.first->second) + "; names must be unique");
    }
    if (const json* lower = fields.find("lower")) {
      constraint.has_lower = true;
      constraint.lower = require_finite(*lower, fields.at("lower"));
    }
    if (const json* upper = fields.find("upper")) {
      constraint.has_upper = true;
      constraint.upper = require_finite(*upper, fields.at("upper"));
    }
    if (!constraint.has_lower && !constraint.has_upper) {
      fail_at(element, "needs a bound: \"lower\", \"upper\" or both");
    }
    if (constraint.has_lower && constraint.has_upper && !(constraint.upper > constraint.lower)) {
      fail_at(fields.at("upper"),
              "must be greater than lower (" + format_number(constraint.lower) + ")");
    }
    constraints.push_back(std::move(constraint));
  }
  return constraints;
}

Config read_config(const json& document) {
  // A saved state passed where a configuration belongs (addbo_create instead of addbo_load).
  if (document.is_object()) {
    const auto format = document.find("format");
    if (format != document.end() && is_string_value(*format, "addbo-state")) {
      fail_at("/format",
              "this looks like a saved state (\"format\": \"addbo-state\"), not a configuration; "
              "use addbo_load to restore an optimizer from it");
    }
  }
  const JsonObject root(document, "",
                        {"variables", "dimension", "goal", "seed", "initial_points", "strategy",
                         "structure", "kernel", "acquisition", "limits", "constraints"});
  Config config;
  const json* variables = root.find("variables");
  const json* dimension = root.find("dimension");
  if (variables != nullptr && dimension != nullptr) {
    fail_at(root.at("dimension"), "cannot be given together with \"variables\"; use one of them");
  }
  if (variables != nullptr) {
    config.variables = read_variables(*variables, root.at("variables"));
  } else if (dimension != nullptr) {
    config.variables =
        unit_cube_variables(config_integer(*dimension, root.at("dimension"), 1, kMaxVariables));
  } else {
    fail_at(root.at("variables"),
            "is required (or give \"dimension\" for continuous variables on [0, 1])");
  }

  read_name(root, "goal", kGoals, config.goal);
  if (const json* seed = root.find("seed")) config.seed = read_seed(*seed, root.at("seed"));
  read_integer(root, "initial_points", 1, kMaxInitialPoints, config.initial_points);
  read_name(root, "strategy", kStrategies, config.strategy);
  // Read even when absent: its edge prior's default depends on the number of variables.
  const json no_structure = json::object();
  const json* structure = root.find("structure");
  config.structure =
      read_structure(structure ? *structure : no_structure, root.at("structure"), config.variables);
  if (const json* kernel = root.find("kernel")) {
    config.kernel = read_kernel(*kernel, root.at("kernel"), config.dimension());
  }
  if (const json* acquisition = root.find("acquisition")) {
    const JsonObject fields(*acquisition, root.at("acquisition"), {"beta_scale", "local_search"});
    if (const json* local = fields.find("local_search")) {
      config.local_search = require_boolean(*local, fields.at("local_search"));
    }
    if (const json* beta = fields.find("beta_scale")) {
      config.beta_scale = require_finite(*beta, fields.at("beta_scale"));
      if (!(config.beta_scale >= 0)) {
        fail_at(fields.at("beta_scale"), "must be greater than or equal to 0" + got_value(*beta));
      }
    }
  }
  if (const json* limits = root.find("limits")) {
    const JsonObject fields(
        *limits, root.at("limits"),
        {"max_table_cells", "threads", "max_model_observations", "max_model_work", "max_pending"});
    read_integer(fields, "max_table_cells", kMinTableCells, kMaxTableCells, config.max_table_cells);
    read_integer(fields, "threads", 0, kMaxThreads, config.threads);
    read_integer(fields, "max_model_observations", kMinModelObservations, kMaxInt,
                 config.max_model_observations);
    read_integer(fields, "max_model_work", kMinModelWork, kMaxModelWork, config.max_model_work);
    read_integer(fields, "max_pending", 1, kMaxInt, config.max_pending);
  }
  if (const json* constraints = root.find("constraints")) {
    config.constraints = read_constraints(*constraints, root.at("constraints"));
  }
  return config;
}

// An integer variable's bound as a JSON integer. Bounds of a valid Config are whole and within
// 2^53; anything else is written as a double (which parse_config will then reject) rather than
// converted with undefined behaviour.
json whole_number_json(double value) {
  if (is_whole(value) && std::fabs(value) <= kMaxExactInteger) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

// Written in place into `out`, an empty object (json_text.hpp's build_json_object).
void write_variable(const VariableSpec& variable, json& out) {
  out["name"] = variable.name;
  out["type"] = name_of(kVariableTypes, variable.type);
  // Written only when "log": the canonical form of a linear variable names no scale, so that
  // documents written without the key (every state of addbo 0.1.0) are already canonical.
  if (variable.scale == Scale::log) out["scale"] = name_of(kScales, variable.scale);
  switch (variable.type) {
    case VariableType::continuous:
      out["lower"] = variable.lower;
      out["upper"] = variable.upper;
      out["grid"] = variable.grid;
      break;
    case VariableType::integer:
      out["lower"] = whole_number_json(variable.lower);
      out["upper"] = whole_number_json(variable.upper);
      if (variable.scale == Scale::log) out["grid"] = variable.grid;
      break;
    case VariableType::categorical:
      put(out["choices"], variable.choices);
      break;
  }
}

}  // namespace

bool StructureSpec::random_tree_ask(std::size_t known, double scale) const {
  const double share = random_tree_share * scale;
  if (mode != StructureMode::learn || !(share > 0.0)) return false;
  const double before = std::floor(static_cast<double>(known) * share);
  const double after = std::floor(static_cast<double>(known + 1) * share);
  return after > before;
}

int StructureSpec::tree_edge_count(std::size_t dimension) const {
  if (dimension < 2) return 0;
  if (tree_edges > 0) return tree_edges;
  // Random decompositions with about D / 5 edges (Ziomek & Bou-Ammar, 2023).
  return std::max(1, static_cast<int>(dimension / 5));
}

Config parse_config(const nlohmann::json& document) {
  try {
    return read_config(document);
  } catch (const JsonError& error) {
    throw ConfigError(error.pointer(), error.message());
  } catch (const json::exception& error) {
    // The readers check types before every access, so this is a defect, but it must still leave
    // as the one exception type callers are promised.
    throw ConfigError("", "unexpected JSON error: " + without_json_tag(error.what()));
  }
}

Config parse_config_text(const std::string& text) {
  json document;
  try {
    document = parse_json_text(text, JsonTextRules{"configuration", kMaxJsonDepth});
  } catch (const JsonError& error) {
    throw ConfigError(error.pointer(), error.message());
  }
  const JsonRelease release(document);
  return parse_config(document);
}

nlohmann::json config_to_json(const Config& config) {
  return build_json_object([&](json& out) { config_to_json(config, out); });
}

void config_to_json(const Config& config, nlohmann::json& out) {
  out = json::object();
  json& variables = out["variables"] = json::array();
  for (const VariableSpec& variable : config.variables) {
    write_variable(variable, variables.emplace_back(json::object()));
  }
  out["goal"] = name_of(kGoals, config.goal);
  out["seed"] = config.seed;
  out["initial_points"] = config.initial_points;
  out["strategy"] = name_of(kStrategies, config.strategy);

  json& structure = out["structure"] = json::object();
  structure["mode"] = name_of(kStructureModes, config.structure.mode);
  json& edges = structure["edges"] = json::array();
  for (const auto& edge : config.structure.edges) edges.emplace_back(edge);
  structure["edge_prior"] = config.structure.edge_prior;
  structure["max_clique_cells"] = config.structure.max_clique_cells;
  structure["tree_edges"] = config.structure.tree_edges;
  structure["random_tree_share"] = config.structure.random_tree_share;
  structure["relearn"] = name_of(kRelearnModes, config.structure.relearn);
  structure["relearn_every"] = config.structure.relearn_every;
  structure["gibbs_evaluations"] = config.structure.gibbs_evaluations;
  structure["max_learning_points"] = config.structure.max_learning_points;

  const KernelSpec& kernel_spec = config.kernel;
  json& kernel = out["kernel"] = json::object();
  if (kernel_spec.learn_lengthscales) {
    kernel["lengthscales"] = kLearn;
  } else {
    put(kernel["lengthscales"], kernel_spec.lengthscales);
  }
  put(kernel["lengthscale_choices"], kernel_spec.lengthscale_choices);
  kernel["lengthscale_prior"] = name_of(kLengthscalePriors, kernel_spec.lengthscale_prior);
  kernel["lengthscale_spread"] = kernel_spec.lengthscale_spread;
  kernel["noise_variance"] = kernel_spec.learn_noise  ? json(kLearn)
                             : kernel_spec.auto_noise ? json(kAuto)
                                                      : json(kernel_spec.noise_variance);
  put(kernel["noise_variance_choices"], kernel_spec.noise_variance_choices);

  json& acquisition = out["acquisition"] = json::object();
  acquisition["beta_scale"] = config.beta_scale;
  acquisition["local_search"] = config.local_search;
  json& limits = out["limits"] = json::object();
  limits["max_table_cells"] = config.max_table_cells;
  limits["threads"] = config.threads;
  limits["max_model_observations"] = config.max_model_observations;
  limits["max_model_work"] = config.max_model_work;
  limits["max_pending"] = config.max_pending;
  json& constraints = out["constraints"] = json::array();
  for (const ConstraintSpec& constraint : config.constraints) {
    json& item = constraints.emplace_back(json::object());
    item["name"] = constraint.name;
    if (constraint.has_lower) item["lower"] = constraint.lower;
    if (constraint.has_upper) item["upper"] = constraint.upper;
  }
}

}  // namespace addbo::core
