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

#include "config/json_text.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo {

namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Limits (docs/configuration.md) that only this file needs.

constexpr std::uint64_t kMaxInitialPoints = 1000000;
constexpr std::uint64_t kMaxGibbsEvaluations = 10000000;
constexpr std::uint64_t kMaxTableCells = std::uint64_t{1} << 40;
constexpr std::uint64_t kMinTableCells = 2;
// Unknown keys longer than this are shortened in error messages.
constexpr std::size_t kLongestKeyShown = 64;
constexpr std::uint64_t kMaxThreads = 1024;
constexpr std::uint64_t kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
// Integer-variable bounds must survive the trip through a double unchanged.
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53
constexpr double kTwoTo64 = 18446744073709551616.0;

// ---------------------------------------------------------------------------------------------
// Enumerations: one table per enum, used both to parse and to print, so the two cannot drift.

template <class E>
using NameTable = std::initializer_list<std::pair<const char*, E>>;

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

const NameTable<bool> kRelearnModes = {{"auto", false}, {"manual", true}};

const char* kLearn = "learn";

template <class E>
const char* name_of(const NameTable<E>& table, E value) {
  for (const auto& entry : table) {
    if (entry.second == value) return entry.first;
  }
  return "";  // unreachable for a valid enum value
}

// ---------------------------------------------------------------------------------------------
// Reading scalars. Each helper either returns a valid value or throws ConfigError at `pointer`.

[[noreturn]] void fail(const std::string& pointer, const std::string& message) {
  throw ConfigError(pointer, message);
}

bool is_whole(double value) { return std::isfinite(value) && std::floor(value) == value; }

// A short rendering of a value for "(got ...)" in messages.
std::string describe(const json& value) {
  switch (value.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      if (value.empty()) return "an empty array";
      return "an array of " + std::to_string(value.size()) +
             (value.size() == 1 ? " element" : " elements");
    case json::value_t::number_float:
      return format_number(value.get<double>());
    default:
      return shorten_for_message(value.dump(-1, ' ', false, json::error_handler_t::replace));
  }
}

std::string got(const json& value) { return " (got " + describe(value) + ")"; }

// Every integer field of the schema has a non-negative range, so one unsigned reader serves all.
// Accepts JSON integers and floats with an exact whole value (7.0, 1e3); never booleans. `noun`
// names what is expected in messages ("must be an integer from 1 to 8").
std::uint64_t require_integer(const json& value, const std::string& pointer, std::uint64_t min,
                              std::uint64_t max, const char* noun = "an integer") {
  bool in_range = false;
  std::uint64_t result = 0;
  if (value.is_number_unsigned()) {
    result = value.get<std::uint64_t>();
    in_range = true;
  } else if (value.is_number_integer()) {
    const std::int64_t signed_value = value.get<std::int64_t>();
    in_range = signed_value >= 0;
    result = static_cast<std::uint64_t>(signed_value);
  } else if (value.is_number_float() && is_whole(value.get<double>())) {
    const double whole = value.get<double>();
    in_range = whole >= 0 && whole < kTwoTo64;
    if (in_range) result = static_cast<std::uint64_t>(whole);
  } else {
    fail(pointer, "must be " + std::string(noun) + got(value));
  }
  if (!in_range || result < min || result > max) {
    fail(pointer, "must be " + std::string(noun) + " from " + std::to_string(min) + " to " +
                      std::to_string(max) + got(value));
  }
  return result;
}

double require_finite(const json& value, const std::string& pointer) {
  if (!value.is_number()) fail(pointer, "must be a number" + got(value));
  const double number = value.get<double>();
  if (!std::isfinite(number)) fail(pointer, "must be a finite number" + got(value));
  return number;
}

double require_positive(const json& value, const std::string& pointer) {
  const double number = require_finite(value, pointer);
  if (!(number > 0)) fail(pointer, "must be greater than 0" + got(value));
  return number;
}

// Strings end up in saved state and error messages, so they must dump as valid UTF-8 (text input
// is already checked by the parser; this catches documents built in C++).
const std::string& require_string(const json& value, const std::string& pointer) {
  if (!value.is_string()) fail(pointer, "must be a string" + got(value));
  try {
    (void)value.dump();
  } catch (const json::type_error&) {
    fail(pointer, "must be valid UTF-8");
  }
  return value.get_ref<const std::string&>();
}

template <class E>
E require_name(const json& value, const std::string& pointer, const NameTable<E>& table) {
  std::string options;
  for (const auto& entry : table) {
    if (value.is_string() && value.get_ref<const std::string&>() == entry.first) {
      return entry.second;
    }
    options += (options.empty() ? "\"" : ", \"") + std::string(entry.first) + "\"";
  }
  fail(pointer, "must be one of " + options + got(value));
}

// ---------------------------------------------------------------------------------------------
// Objects of the schema.

// A JSON object whose keys have all been checked against the schema's list for it.
class Fields {
 public:
  Fields(const json& value, std::string pointer, std::initializer_list<const char*> allowed)
      : value_(value), pointer_(std::move(pointer)) {
    if (!value.is_object()) fail(pointer_, "must be an object" + got(value));
    for (const auto& item : value.items()) {
      const auto is_key = [&](const char* name) { return item.key() == name; };
      if (std::none_of(allowed.begin(), allowed.end(), is_key)) {
        std::string list;
        for (const char* name : allowed) list += (list.empty() ? "" : ", ") + std::string(name);
        // The key is in the message's pointer: a long one is cut (a 100 MB key is not echoed).
        fail(at(shorten_for_message(item.key(), kLongestKeyShown)),
             "unknown key (allowed here: " + list + ")");
      }
    }
  }

  const json* find(const char* key) const {
    const auto it = value_.find(key);
    return it == value_.end() ? nullptr : &*it;
  }
  const json& require(const char* key, const std::string& why) const {
    const json* value = find(key);
    if (value == nullptr) fail(at(key), "is required " + why);
    return *value;
  }
  // For a key that the schema allows in this object only in other cases.
  void forbid(const char* key, const std::string& why) const {
    if (find(key) != nullptr) fail(at(key), "is not allowed " + why);
  }
  std::string at(const std::string& key) const { return pointer_child(pointer_, key); }

  template <class T>
  void read_integer(const char* key, std::uint64_t min, std::uint64_t max, T& out) const {
    if (const json* value = find(key))
      out = static_cast<T>(require_integer(*value, at(key), min, max));
  }
  template <class E>
  void read_name(const char* key, const NameTable<E>& table, E& out) const {
    if (const json* value = find(key)) out = require_name(*value, at(key), table);
  }

 private:
  const json& value_;
  std::string pointer_;
};

// A non-empty array of positive finite numbers; `exact_size` > 0 demands that many entries.
std::vector<double> require_positive_list(const json& value, const std::string& pointer,
                                          std::size_t exact_size, bool distinct) {
  if (!value.is_array()) fail(pointer, "must be an array of positive numbers" + got(value));
  if (exact_size > 0 && value.size() != exact_size) {
    fail(pointer, "must have exactly " + std::to_string(exact_size) + " entries, one per variable" +
                      got(value));
  }
  if (value.empty()) fail(pointer, "must not be empty");
  std::vector<double> numbers;
  std::set<double> seen;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string element = pointer_child(pointer, i);
    numbers.push_back(require_positive(value[i], element));
    if (distinct && !seen.insert(numbers.back()).second) {
      fail(element, "repeats the value " + format_number(numbers.back()));
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
  const double number = require_finite(value, pointer);
  if (!is_whole(number)) {
    fail(pointer, "must be a whole number for an integer variable" + got(value));
  }
  if (std::fabs(number) > kMaxExactInteger) {
    fail(pointer,
         "must be at most 2^53 in magnitude, so that it is exact in a double" + got(value));
  }
  return number;
}

void read_bounds(const Fields& fields, const std::string& kind, VariableSpec& variable) {
  const bool whole = variable.type == VariableType::integer;
  const std::string why = "for " + kind + " variable";
  const auto read = [&](const char* key) {
    const json& value = fields.require(key, why);
    return whole ? require_whole_bound(value, fields.at(key))
                 : require_finite(value, fields.at(key));
  };
  variable.lower = read("lower");
  if (variable.scale == Scale::log && !(variable.lower > 0)) {
    fail(fields.at("lower"), "must be greater than 0 for a variable with \"scale\": \"log\"" +
                                 got(*fields.find("lower")));
  }
  variable.upper = read("upper");
  if (!(variable.upper > variable.lower)) {
    fail(fields.at("upper"), "must be greater than lower (" + format_number(variable.lower) + ")");
  }
  // Encoding to the unit cube divides by the span; it must be a finite double.
  if (!std::isfinite(variable.upper - variable.lower)) {
    fail(fields.at("upper"), "upper - lower overflows a double; use a narrower range");
  }
  // On a log scale the span is log(upper) - log(lower), which rounds to 0 for bounds a few
  // units in the last place apart.
  if (variable.scale == Scale::log && !(std::log(variable.upper) > std::log(variable.lower))) {
    fail(fields.at("upper"), "is too close to lower (" + format_number(variable.lower) +
                                 ") for a log scale: log(upper) - log(lower) is 0 in double "
                                 "precision");
  }
}

void read_continuous(const Fields& fields, VariableSpec& variable) {
  fields.forbid("choices", "for a continuous variable (only categorical variables have choices)");
  read_bounds(fields, "a continuous", variable);
  fields.read_integer("grid", kMinGrid, kMaxGrid, variable.grid);
}

void read_integer_variable(const Fields& fields, VariableSpec& variable) {
  fields.forbid("choices", "for an integer variable (only categorical variables have choices)");
  if (variable.scale == Scale::log) {
    // The grid is `grid` geometric points rounded to distinct integers (space/space.hpp), so the
    // range may hold any number of values.
    read_bounds(fields, "an integer", variable);
    fields.read_integer("grid", kMinGrid, kMaxGrid, variable.grid);
    return;
  }
  fields.forbid("grid",
                "for an integer variable on a linear scale (it uses every integer from lower to "
                "upper; \"scale\": \"log\" takes a grid)");
  read_bounds(fields, "an integer", variable);
  const double count = variable.upper - variable.lower + 1;
  if (count > kMaxIntegerValues) {
    fail(fields.at("upper"), "the range from " + format_number(variable.lower) + " to " +
                                 format_number(variable.upper) + " has " + format_number(count) +
                                 " values; at most " + std::to_string(kMaxIntegerValues) +
                                 " are allowed");
  }
  variable.grid = static_cast<int>(count);
}

void read_categorical(const Fields& fields, VariableSpec& variable) {
  const std::string why = "for a categorical variable (its values are the indices of its choices)";
  fields.forbid("lower", why);
  fields.forbid("upper", why);
  fields.forbid("grid", why);
  const std::string pointer = fields.at("choices");
  const json& choices = fields.require("choices", "for a categorical variable");
  if (!choices.is_array()) fail(pointer, "must be an array of strings" + got(choices));
  if (choices.size() < 2) fail(pointer, "must have at least 2 choices" + got(choices));
  if (choices.size() > static_cast<std::size_t>(kMaxGrid)) {
    fail(pointer, "must have at most " + std::to_string(kMaxGrid) + " choices" + got(choices));
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const std::string element = pointer_child(pointer, i);
    const std::string& choice = require_string(choices[i], element);
    if (!seen.insert(choice).second) {
      fail(element, "repeats the choice \"" + shorten_for_message(choice) + "\"");
    }
    variable.choices.push_back(choice);
  }
  variable.lower = 0;
  variable.upper = static_cast<double>(choices.size() - 1);
  variable.grid = static_cast<int>(choices.size());
}

VariableSpec read_variable(const json& value, const std::string& pointer, std::size_t index) {
  const Fields fields(value, pointer,
                      {"name", "type", "scale", "lower", "upper", "grid", "choices"});
  VariableSpec variable;
  variable.name = default_name(index);
  if (const json* name = fields.find("name")) {
    variable.name = require_string(*name, fields.at("name"));
    if (variable.name.empty()) fail(fields.at("name"), "must not be empty");
  }
  fields.read_name("type", kVariableTypes, variable.type);
  if (variable.type == VariableType::categorical) {
    fields.forbid("scale", "for a categorical variable (its choices have no order)");
  }
  fields.read_name("scale", kScales, variable.scale);
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
  if (!value.is_array()) fail(pointer, "must be an array of variables" + got(value));
  if (value.empty()) fail(pointer, "must contain at least one variable");
  if (value.size() > kMaxVariables) {
    fail(pointer, "has " + std::to_string(value.size()) + " variables; at most " +
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
      fail(pointer_child(element, "name"),
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
    if (it == names.end()) fail(pointer, "no variable is named " + describe(value));
    return static_cast<int>(it->second);
  }
  if (!value.is_number()) fail(pointer, "must be a variable index or name" + got(value));
  return static_cast<int>(require_integer(value, pointer, 0, dimension - 1, "a variable index"));
}

std::vector<std::pair<int, int>> read_edges(const json& value, const std::string& pointer,
                                            const std::vector<VariableSpec>& variables) {
  if (!value.is_array()) fail(pointer, "must be an array of [i, j] pairs" + got(value));
  NameIndex names;
  for (std::size_t i = 0; i < variables.size(); ++i) names.emplace(variables[i].name, i);
  // Kept in a set: rejects repeats as they are read and leaves the edges sorted.
  std::set<std::pair<int, int>> edges;
  for (std::size_t k = 0; k < value.size(); ++k) {
    const std::string element = pointer_child(pointer, k);
    const json& edge = value[k];
    if (!edge.is_array() || edge.size() != 2) {
      fail(element, "must be a pair [i, j] of variable indices or names" + got(edge));
    }
    const int a = read_endpoint(edge[0], pointer_child(element, 0), names, variables.size());
    const int b = read_endpoint(edge[1], pointer_child(element, 1), names, variables.size());
    if (a == b) fail(element, "is a self-loop on variable " + std::to_string(a));
    if (!edges.emplace(std::min(a, b), std::max(a, b)).second) {
      fail(element, "repeats the edge between variables " + std::to_string(std::min(a, b)) +
                        " and " + std::to_string(std::max(a, b)));
    }
  }
  return std::vector<std::pair<int, int>>(edges.begin(), edges.end());
}

StructureSpec read_structure(const json& value, const std::string& pointer,
                             const std::vector<VariableSpec>& variables) {
  const Fields fields(
      value, pointer,
      {"mode", "edges", "expected_degree", "edge_prior", "max_clique_cells", "tree_edges",
       "relearn", "relearn_every", "gibbs_evaluations", "max_learning_points"});
  StructureSpec structure;
  fields.read_name("mode", kStructureModes, structure.mode);
  if (const json* edges = fields.find("edges")) {
    structure.edges = read_edges(*edges, fields.at("edges"), variables);
  }
  if (const json* degree = fields.find("expected_degree")) {
    structure.expected_degree = require_finite(*degree, fields.at("expected_degree"));
    const double most = std::max(1.0, static_cast<double>(variables.size()) - 1.0);
    if (!(structure.expected_degree > 0 && structure.expected_degree <= most)) {
      fail(fields.at("expected_degree"),
           "must be greater than 0 and at most the number of variables minus 1" + got(*degree));
    }
  }
  if (const json* prior = fields.find("edge_prior")) {
    structure.edge_prior = require_finite(*prior, fields.at("edge_prior"));
    if (!(structure.edge_prior > 0 && structure.edge_prior < 1)) {
      fail(fields.at("edge_prior"), "must be strictly between 0 and 1" + got(*prior));
    }
  }
  fields.read_integer("max_clique_cells", kMinTableCells, kMaxTableCells,
                      structure.max_clique_cells);
  fields.read_integer("tree_edges", 0, kMaxInt, structure.tree_edges);
  if (structure.tree_edges >= static_cast<int>(std::max<std::size_t>(variables.size(), 1))) {
    fail(fields.at("tree_edges"),
         "must be less than the number of variables (a tree on D "
         "variables has D - 1 edges)" +
             got(*fields.find("tree_edges")));
  }
  fields.read_name("relearn", kRelearnModes, structure.manual_relearn);
  fields.read_integer("relearn_every", 1, kMaxInt, structure.relearn_every);
  fields.read_integer("gibbs_evaluations", 1, kMaxGibbsEvaluations, structure.gibbs_evaluations);
  fields.read_integer("max_learning_points", 0, kMaxInt, structure.max_learning_points);
  return structure;
}

// ---------------------------------------------------------------------------------------------
// Kernel, acquisition, limits.

bool is_learn(const json& value) { return value.is_string() && value == kLearn; }

KernelSpec read_kernel(const json& value, const std::string& pointer, std::size_t dimension) {
  const Fields fields(
      value, pointer,
      {"lengthscales", "lengthscale_choices", "noise_variance", "noise_variance_choices"});
  KernelSpec kernel;
  if (const json* lengthscales = fields.find("lengthscales")) {
    kernel.learn_lengthscales = is_learn(*lengthscales);
    if (!kernel.learn_lengthscales) {
      if (!lengthscales->is_array()) {
        fail(fields.at("lengthscales"),
             "must be \"learn\" or an array of positive numbers, one per variable" +
                 got(*lengthscales));
      }
      kernel.lengthscales =
          require_positive_list(*lengthscales, fields.at("lengthscales"), dimension, false);
    }
  }
  if (const json* choices = fields.find("lengthscale_choices")) {
    kernel.lengthscale_choices =
        require_positive_list(*choices, fields.at("lengthscale_choices"), 0, true);
  }
  if (const json* noise = fields.find("noise_variance")) {
    kernel.learn_noise = is_learn(*noise);
    if (!kernel.learn_noise) {
      if (!noise->is_number()) {
        fail(fields.at("noise_variance"), "must be \"learn\" or a positive number" + got(*noise));
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

Config read_config(const json& document) {
  // A saved state passed where a configuration belongs (addbo_create instead of addbo_load).
  if (document.is_object()) {
    const auto format = document.find("format");
    if (format != document.end() && format->is_string() && *format == "addbo-state") {
      fail("/format",
           "this looks like a saved state (\"format\": \"addbo-state\"), not a configuration; "
           "use addbo_load to restore an optimizer from it");
    }
  }
  const Fields root(document, "",
                    {"variables", "dimension", "goal", "seed", "initial_points", "strategy",
                     "structure", "kernel", "acquisition", "limits"});
  Config config;
  const json* variables = root.find("variables");
  const json* dimension = root.find("dimension");
  if (variables != nullptr && dimension != nullptr) {
    fail(root.at("dimension"), "cannot be given together with \"variables\"; use one of them");
  }
  if (variables != nullptr) {
    config.variables = read_variables(*variables, root.at("variables"));
  } else if (dimension != nullptr) {
    config.variables =
        unit_cube_variables(require_integer(*dimension, root.at("dimension"), 1, kMaxVariables));
  } else {
    fail(root.at("variables"),
         "is required (or give \"dimension\" for continuous variables on [0, 1])");
  }

  root.read_name("goal", kGoals, config.goal);
  root.read_integer("seed", 0, std::numeric_limits<std::uint64_t>::max(), config.seed);
  root.read_integer("initial_points", 1, kMaxInitialPoints, config.initial_points);
  root.read_name("strategy", kStrategies, config.strategy);
  if (const json* structure = root.find("structure")) {
    config.structure = read_structure(*structure, root.at("structure"), config.variables);
  }
  if (const json* kernel = root.find("kernel")) {
    config.kernel = read_kernel(*kernel, root.at("kernel"), config.dimension());
  }
  if (const json* acquisition = root.find("acquisition")) {
    const Fields fields(*acquisition, root.at("acquisition"), {"beta_scale", "local_search"});
    if (const json* local = fields.find("local_search")) {
      if (!local->is_boolean())
        fail(fields.at("local_search"), "must be true or false" + got(*local));
      config.local_search = local->get<bool>();
    }
    if (const json* beta = fields.find("beta_scale")) {
      config.beta_scale = require_finite(*beta, fields.at("beta_scale"));
      if (!(config.beta_scale >= 0)) {
        fail(fields.at("beta_scale"), "must be greater than or equal to 0" + got(*beta));
      }
    }
  }
  if (const json* limits = root.find("limits")) {
    const Fields fields(*limits, root.at("limits"), {"max_table_cells", "threads"});
    fields.read_integer("max_table_cells", kMinTableCells, kMaxTableCells, config.max_table_cells);
    fields.read_integer("threads", 0, kMaxThreads, config.threads);
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

json variable_json(const VariableSpec& variable) {
  json out = json::object();
  out["name"] = variable.name;
  out["type"] = name_of(kVariableTypes, variable.type);
  // Written only when "log": linear variables echo as they did before the key existed.
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
      out["choices"] = variable.choices;
      break;
  }
  return out;
}

}  // namespace

double StructureSpec::edge_probability(std::size_t dimension) const {
  if (edge_prior > 0.0) return edge_prior;
  if (dimension < 3) return 0.5;  // one pair at most: an even prior
  return std::min(0.5, expected_degree / (static_cast<double>(dimension) - 1.0));
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
  } catch (const json::exception& error) {
    // The readers check types before every access, so this is a defect, but it must still leave
    // as the one exception type callers are promised.
    throw ConfigError("", "unexpected JSON error: " + without_json_tag(error.what()));
  }
}

Config parse_config_text(const std::string& text) { return parse_config(parse_json_text(text)); }

nlohmann::json config_to_json(const Config& config) {
  json variables = json::array();
  for (const VariableSpec& variable : config.variables)
    variables.push_back(variable_json(variable));

  json edges = json::array();
  for (const auto& edge : config.structure.edges) edges.push_back({edge.first, edge.second});

  json structure = json::object();
  structure["mode"] = name_of(kStructureModes, config.structure.mode);
  structure["edges"] = std::move(edges);
  structure["expected_degree"] = config.structure.expected_degree;
  // Written only when given: absent, the prior follows expected_degree.
  if (config.structure.edge_prior > 0.0) structure["edge_prior"] = config.structure.edge_prior;
  structure["max_clique_cells"] = config.structure.max_clique_cells;
  structure["tree_edges"] = config.structure.tree_edges;
  structure["relearn"] = name_of(kRelearnModes, config.structure.manual_relearn);
  structure["relearn_every"] = config.structure.relearn_every;
  structure["gibbs_evaluations"] = config.structure.gibbs_evaluations;
  structure["max_learning_points"] = config.structure.max_learning_points;

  const KernelSpec& kernel_spec = config.kernel;
  json kernel = json::object();
  kernel["lengthscales"] =
      kernel_spec.learn_lengthscales ? json(kLearn) : json(kernel_spec.lengthscales);
  kernel["lengthscale_choices"] = kernel_spec.lengthscale_choices;
  kernel["noise_variance"] =
      kernel_spec.learn_noise ? json(kLearn) : json(kernel_spec.noise_variance);
  kernel["noise_variance_choices"] = kernel_spec.noise_variance_choices;

  json out = json::object();
  out["variables"] = std::move(variables);
  out["goal"] = name_of(kGoals, config.goal);
  out["seed"] = config.seed;
  out["initial_points"] = config.initial_points;
  out["strategy"] = name_of(kStrategies, config.strategy);
  out["structure"] = std::move(structure);
  out["kernel"] = std::move(kernel);
  out["acquisition"] = {{"beta_scale", config.beta_scale}, {"local_search", config.local_search}};
  out["limits"] = {{"max_table_cells", config.max_table_cells}, {"threads", config.threads}};
  return out;
}

}  // namespace addbo
