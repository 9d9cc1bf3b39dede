// Tests of the configuration module (docs/configuration.md): defaults, shorthand, variable types,
// edge normalisation, the canonical round trip, and one rejection per rule with its exact JSON
// pointer.
// tests/data/bad_configs.txt holds the hostile inputs, one per line, shared with the C API tests.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "util/error.hpp"

TEST_SUITE_BEGIN("config");

namespace addbo::core {
namespace {

using json = nlohmann::json;

std::vector<VariableSpec> unit_variables(std::size_t dimension) {
  std::vector<VariableSpec> variables(dimension);
  for (std::size_t i = 0; i < dimension; ++i) variables[i].name = "x" + std::to_string(i);
  return variables;
}

bool contains(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

// Runs `parse` (which must throw ConfigError) and checks the pointer and a message fragment.
template <class Parse>
void check_rejected_by(Parse parse, const std::string& pointer, const std::string& fragment) {
  bool threw = false;
  try {
    parse();
  } catch (const ConfigError& error) {
    threw = true;
    CHECK(error.pointer() == pointer);
    CHECK(error.status() == Status::config);
    const std::string what = error.what();
    CHECK_MESSAGE(contains(what, fragment), what);
    // what() is "<pointer>: <message>", "/" standing for the root.
    CHECK(what.rfind((pointer.empty() ? std::string("/") : pointer) + ": ", 0) == 0);
  }
  CHECK_MESSAGE(threw, "accepted a bad configuration");
}

void check_rejected(const std::string& text, const std::string& pointer,
                    const std::string& fragment = "") {
  CAPTURE(text);
  check_rejected_by([&] { (void)parse_config_text(text); }, pointer, fragment);
}

void check_rejected_json(const json& document, const std::string& pointer,
                         const std::string& fragment = "") {
  check_rejected_by([&] { (void)parse_config(document); }, pointer, fragment);
}

// Both ways a valid Config can be rebuilt from its canonical form must give it back exactly.
void check_round_trip(const Config& config) {
  const json canonical = config_to_json(config);
  CAPTURE(canonical.dump());
  CHECK(parse_config(canonical) == config);
  CHECK(parse_config_text(canonical.dump()) == config);
  CHECK(parse_config_text(canonical.dump(2)) == config);
  // Canonical means a fixed point: printing the re-parsed config gives the same document.
  CHECK(config_to_json(parse_config(canonical)) == canonical);
}

TEST_CASE("test_config: defaults match config.hpp and docs/configuration.md") {
  const Config config = parse_config_text(R"({"dimension": 3})");
  Config expected;
  expected.variables = unit_variables(3);
  CHECK(config == expected);

  CHECK(config.dimension() == 3);
  CHECK(config.goal == Goal::maximize);
  CHECK(config.seed == 0);
  CHECK(config.initial_points == 10);
  CHECK(config.strategy == Strategy::gp_ucb);
  CHECK(config.structure.mode == StructureMode::learn);
  CHECK(config.structure.edges.empty());
  // Derived from an expected degree of 1 (D = 3: 1 / 2); at D = 30, 1 / 29.
  CHECK(config.structure.edge_prior == 0.5);
  CHECK(parse_config(json{{"dimension", 30}}).structure.edge_prior == 1.0 / 29.0);
  // structure.expected_degree is a deprecated alias: converted, echoed as edge_prior, and giving
  // way to edge_prior when both are given (as states saved before the alias hold both).
  const Config degree =
      parse_config(json{{"dimension", 11}, {"structure", {{"expected_degree", 2}}}});
  CHECK(degree.structure.edge_prior == 0.2);
  CHECK(config_to_json(degree)["structure"]["edge_prior"] == 0.2);
  CHECK_FALSE(config_to_json(degree)["structure"].contains("expected_degree"));
  CHECK(parse_config(
            json{{"dimension", 11}, {"structure", {{"expected_degree", 2}, {"edge_prior", 0.3}}}})
            .structure.edge_prior == 0.3);
  CHECK(config.structure.max_clique_cells == 32768);
  CHECK(config.structure.tree_edges == 0);
  CHECK(config.structure.tree_edge_count(30) == 6);
  CHECK(config.structure.relearn_every == 30);
  CHECK(config.structure.gibbs_evaluations == 200);
  CHECK(config.structure.max_learning_points == 500);
  CHECK(config.kernel.learn_lengthscales);
  CHECK(config.kernel.lengthscales.empty());
  CHECK(config.kernel.lengthscale_choices == std::vector<double>{0.05, 0.1, 0.2, 0.4, 0.8});
  CHECK(config.kernel.lengthscale_prior == LengthscalePrior::dimension_scaled);
  CHECK(config.kernel.lengthscale_spread == 0.5);
  CHECK_FALSE(config.kernel.learn_noise);
  CHECK(config.kernel.auto_noise);
  CHECK(config.kernel.noise_variance == 1e-4);
  CHECK(config.kernel.noise_variance_choices ==
        std::vector<double>{1e-6, 1e-4, 1e-3, 1e-2, 1e-1, 0.3, 1.0});
  CHECK(config.beta_scale == 0.5);
  CHECK(config.local_search);
  CHECK(config.structure.relearn == addbo::core::Relearn::automatic);
  CHECK(config.max_table_cells == 4000000);
  CHECK(config.threads == 0);
  CHECK(config.max_model_observations == 2000);
  CHECK(config.max_pending == 256);
}

TEST_CASE("test_config: the dimension shorthand gives continuous variables on [0, 1]") {
  for (const int dimension : {1, 7, static_cast<int>(kMaxVariables)}) {
    const Config config = parse_config(json{{"dimension", dimension}});
    REQUIRE(config.dimension() == static_cast<std::size_t>(dimension));
    CHECK(config.variables == unit_variables(dimension));
    const VariableSpec& last = config.variables.back();
    CHECK(last.name == "x" + std::to_string(dimension - 1));
    CHECK(last.type == VariableType::continuous);
    CHECK(last.lower == 0.0);
    CHECK(last.upper == 1.0);
    CHECK(last.grid == kDefaultGrid);
    CHECK(last.choices.empty());
  }
}

TEST_CASE("test_config: an example with every field parses field by field") {
  const Config config = parse_config_text(R"({
    "variables": [ {"name": "x0", "type": "continuous", "lower": 0, "upper": 1, "grid": 32},
                   {"name": "k",  "type": "integer", "lower": 1, "upper": 8},
                   {"name": "c",  "type": "categorical", "choices": ["a", "b", "c"]} ],
    "goal": "minimize", "seed": 7, "initial_points": 12, "strategy": "random",
    "structure": { "mode": "fixed", "edges": [[0, 1], [1, 2]],
                   "edge_prior": 0.25, "relearn_every": 5, "gibbs_evaluations": 300,
                   "max_learning_points": 500 },
    "kernel": { "lengthscales": [0.1, 0.2, 0.3], "lengthscale_choices": [0.3, 0.6],
                "lengthscale_prior": "uniform", "lengthscale_spread": 0,
                "noise_variance": "learn", "noise_variance_choices": [1e-3] },
    "acquisition": { "beta_scale": 0.75 },
    "limits": { "max_table_cells": 1000, "threads": 3, "max_model_observations": 40,
                "max_model_work": 1e9, "max_pending": 5 } })");
  REQUIRE(config.dimension() == 3);

  const VariableSpec& x0 = config.variables[0];
  CHECK(x0.name == "x0");
  CHECK(x0.type == VariableType::continuous);
  CHECK(x0.lower == 0.0);
  CHECK(x0.upper == 1.0);
  CHECK(x0.grid == 32);

  const VariableSpec& k = config.variables[1];
  CHECK(k.name == "k");
  CHECK(k.type == VariableType::integer);
  CHECK(k.lower == 1.0);
  CHECK(k.upper == 8.0);
  CHECK(k.grid == 8);  // every integer from 1 to 8

  const VariableSpec& c = config.variables[2];
  CHECK(c.name == "c");
  CHECK(c.type == VariableType::categorical);
  CHECK(c.choices == std::vector<std::string>{"a", "b", "c"});
  CHECK(c.lower == 0.0);
  CHECK(c.upper == 2.0);
  CHECK(c.grid == 3);

  CHECK(config.goal == Goal::minimize);
  CHECK(config.seed == 7);
  CHECK(config.initial_points == 12);
  CHECK(config.strategy == Strategy::random);
  CHECK(config.structure.mode == StructureMode::fixed);
  CHECK(config.structure.edges == std::vector<std::pair<int, int>>{{0, 1}, {1, 2}});
  CHECK(config.structure.edge_prior == 0.25);
  CHECK(config.structure.relearn_every == 5);
  CHECK(config.structure.gibbs_evaluations == 300);
  CHECK(config.structure.max_learning_points == 500);
  CHECK_FALSE(config.kernel.learn_lengthscales);
  CHECK(config.kernel.lengthscales == std::vector<double>{0.1, 0.2, 0.3});
  CHECK(config.kernel.lengthscale_choices == std::vector<double>{0.3, 0.6});
  CHECK(config.kernel.lengthscale_prior == LengthscalePrior::uniform);
  CHECK(config.kernel.lengthscale_spread == 0.0);
  CHECK(config.kernel.learn_noise);
  CHECK(config.kernel.noise_variance_choices == std::vector<double>{1e-3});
  CHECK(config.beta_scale == 0.75);
  CHECK(config.max_table_cells == 1000);
  CHECK(config.threads == 3);
  CHECK(config.max_model_observations == 40);
  CHECK(config.max_model_work == 1000000000);
  CHECK(config.max_pending == 5);
}

TEST_CASE("test_config: variable types and their defaults") {
  SUBCASE("continuous: type and grid default, negative and fractional bounds") {
    const Config config = parse_config_text(R"({"variables": [{"lower": -2.5, "upper": 1e-3}]})");
    const VariableSpec& v = config.variables.at(0);
    CHECK(v.name == "x0");
    CHECK(v.type == VariableType::continuous);
    CHECK(v.lower == -2.5);
    CHECK(v.upper == 1e-3);
    CHECK(v.grid == kDefaultGrid);
  }
  SUBCASE("continuous grid limits are inclusive") {
    const Config config = parse_config_text(
        R"({"variables": [{"lower": 0, "upper": 1, "grid": 2},
                          {"lower": 0, "upper": 1, "grid": 4096}]})");
    CHECK(config.variables[0].grid == kMinGrid);
    CHECK(config.variables[1].grid == kMaxGrid);
  }
  SUBCASE("integer: whole-valued floats, negative bounds, the largest allowed range") {
    const Config config = parse_config_text(
        R"({"variables": [{"type": "integer", "lower": -3.0, "upper": 2e0},
                          {"type": "integer", "lower": -2048, "upper": 2047}]})");
    CHECK(config.variables[0].lower == -3.0);
    CHECK(config.variables[0].upper == 2.0);
    CHECK(config.variables[0].grid == 6);
    CHECK(config.variables[1].grid == kMaxIntegerValues);
  }
  SUBCASE("integer bounds up to 2^53 are exact") {
    const Config config = parse_config_text(
        R"({"variables": [{"type": "integer", "lower": 9007199254740000,
                           "upper": 9007199254740992}]})");
    CHECK(config.variables[0].upper == 9007199254740992.0);
    CHECK(config.variables[0].grid == 993);
  }
  SUBCASE("categorical: any distinct strings, including unicode and empty") {
    const Config config = parse_config_text(
        R"({"variables": [{"type": "categorical", "name": "colour",
                           "choices": ["r\u00e9d", "", "blue"]}]})");
    const VariableSpec& v = config.variables[0];
    CHECK(v.choices == std::vector<std::string>{"r\xc3\xa9"
                                                "d",
                                                "", "blue"});
    CHECK(v.grid == 3);
    CHECK(v.lower == 0.0);
    CHECK(v.upper == 2.0);
  }
  SUBCASE("unnamed variables are named by their index, among named ones") {
    const Config config = parse_config_text(
        R"({"variables": [{"name": "a", "lower": 0, "upper": 1}, {"lower": 0, "upper": 1}]})");
    CHECK(config.variables[0].name == "a");
    CHECK(config.variables[1].name == "x1");
  }
}

TEST_CASE("test_config: log-scale variables") {
  const Config config = parse_config_text(R"({"variables": [
      {"name": "lr", "lower": 1e-5, "upper": 0.1, "scale": "log"},
      {"name": "l2", "lower": 1e-9, "upper": 1e-8, "scale": "log", "grid": 9},
      {"name": "trees", "type": "integer", "lower": 10, "upper": 100000, "scale": "log"},
      {"name": "batch", "type": "integer", "lower": 16, "upper": 4096, "scale": "log", "grid": 9},
      {"name": "width", "lower": -1, "upper": 1, "scale": "linear"},
      {"name": "depth", "type": "integer", "lower": 1, "upper": 8}]})");
  const std::vector<VariableSpec>& v = config.variables;
  CHECK(v[0].scale == Scale::log);
  CHECK(v[0].grid == kDefaultGrid);
  CHECK(v[1].grid == 9);
  CHECK(v[2].scale == Scale::log);
  CHECK(v[2].grid == kDefaultGrid);  // a log-scale integer takes a grid; the range may be wide
  CHECK(v[3].grid == 9);
  CHECK(v[4].scale == Scale::linear);
  CHECK(v[5].scale == Scale::linear);  // the default
  CHECK(v[5].grid == 8);
  check_round_trip(config);

  // The canonical form writes "scale" only for log-scale variables (so states saved before
  // the key existed, and their canonical bytes, are unchanged), and a log integer's grid.
  const json canonical = config_to_json(config);
  CHECK(canonical["variables"][0] == json{{"name", "lr"},
                                          {"type", "continuous"},
                                          {"scale", "log"},
                                          {"lower", 1e-5},
                                          {"upper", 0.1},
                                          {"grid", 32}});
  CHECK(canonical["variables"][2] == json{{"name", "trees"},
                                          {"type", "integer"},
                                          {"scale", "log"},
                                          {"lower", 10},
                                          {"upper", 100000},
                                          {"grid", 32}});
  CHECK_FALSE(canonical["variables"][4].contains("scale"));
  CHECK_FALSE(canonical["variables"][5].contains("scale"));
  CHECK_FALSE(canonical["variables"][5].contains("grid"));
  CHECK(parse_config_text(R"({"variables": [{"lower": 0, "upper": 1, "scale": "linear"}]})") ==
        parse_config_text(R"({"variables": [{"lower": 0, "upper": 1}]})"));

  // Rejections: a bound at or below 0, scale on a categorical variable, an unknown scale, a
  // range too narrow for its logarithm to differ, a linear integer's grid.
  check_rejected(R"({"variables": [{"lower": 0, "upper": 1, "scale": "log"}]})",
                 "/variables/0/lower",
                 R"(must be greater than 0 for a variable with "scale": "log" (got 0))");
  check_rejected(R"({"variables": [{"lower": -1e-3, "upper": 1, "scale": "log"}]})",
                 "/variables/0/lower", "(got -0.001)");
  check_rejected(R"({"variables": [{"type": "integer", "lower": 0, "upper": 10, "scale": "log"}]})",
                 "/variables/0/lower", "must be greater than 0");
  check_rejected(R"({"variables": [{"lower": 1e-3, "upper": 1e-4, "scale": "log"}]})",
                 "/variables/0/upper", "must be greater than lower (0.001)");
  check_rejected(R"({"variables": [{"lower": 1, "upper": 2},
                                   {"type": "categorical", "choices": ["a", "b"], "scale": "log"}]})",
                 "/variables/1/scale", "is not allowed for a categorical variable");
  check_rejected(
      R"({"variables": [{"type": "categorical", "choices": ["a", "b"], "scale": "linear"}]})",
      "/variables/0/scale", "is not allowed for a categorical variable");
  check_rejected(R"({"variables": [{"lower": 1, "upper": 2, "scale": "logarithmic"}]})",
                 "/variables/0/scale", R"(must be one of "linear", "log" (got "logarithmic"))");
  check_rejected(R"({"variables": [{"lower": 1, "upper": 2, "scale": 10}]})", "/variables/0/scale",
                 R"(must be one of "linear", "log")");
  check_rejected(R"({"variables": [{"lower": 1e300, "upper": 1.0000000000000002e300,
                                   "scale": "log"}]})",
                 "/variables/0/upper", "too close to lower (1e+300) for a log scale");
  check_rejected(R"({"variables": [{"type": "integer", "lower": 1, "upper": 9, "grid": 4}]})",
                 "/variables/0/grid", "linear scale");
  check_rejected(R"({"variables": [{"type": "integer", "lower": 1, "upper": 9, "grid": 1,
                                   "scale": "log"}]})",
                 "/variables/0/grid", "from 2 to 4096");
  check_rejected(R"({"variables": [{"type": "integer", "lower": 1, "upper": 1e16,
                                   "scale": "log"}]})",
                 "/variables/0/upper", "2^53");
}

TEST_CASE("test_config: a saved state given as a configuration is named as such") {
  check_rejected(R"({"format": "addbo-state", "version": 1, "config": {"dimension": 2}})",
                 "/format", "this looks like a saved state");
  check_rejected(R"({"format": "addbo-state", "version": 1, "config": {"dimension": 2}})",
                 "/format", "use addbo_load");
  // Any other "format" is an unknown key as usual.
  check_rejected(R"({"dimension": 2, "format": "csv"})", "/format", "unknown key");
}

TEST_CASE("test_config: numbers in messages are in shortest round-trip form") {
  check_rejected(R"({"variables": [{"lower": 1e-8, "upper": 1e-9}]})", "/variables/0/upper",
                 "must be greater than lower (1e-08)");
  check_rejected(R"({"variables": [{"lower": 0.30000000000000004, "upper": 0.1}]})",
                 "/variables/0/upper", "must be greater than lower (0.30000000000000004)");
  check_rejected(R"({"dimension": 2, "kernel": {"lengthscale_choices": [2.5e-9, 2.5e-9]}})",
                 "/kernel/lengthscale_choices/1", "repeats the value 2.5e-09");
  check_rejected(R"({"dimension": 2, "acquisition": {"beta_scale": -1e-10}})",
                 "/acquisition/beta_scale", "(got -1e-10)");
}

TEST_CASE("test_config: edges are normalised, sorted, and may name variables") {
  const Config config = parse_config_text(R"({
    "variables": [{"name": "a", "lower": 0, "upper": 1}, {"name": "b", "lower": 0, "upper": 1},
                  {"lower": 0, "upper": 1}, {"name": "3", "lower": 0, "upper": 1}],
    "structure": {"edges": [[2, 0], ["b", "a"], ["x2", 1.0], ["3", "a"]]}})");
  // "3" is a name here (variable 3's), not an index.
  CHECK(config.structure.edges == std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {0, 3}, {1, 2}});

  const Config shorthand =
      parse_config_text(R"({"dimension": 3, "structure": {"edges": [["x2", "x1"]]}})");
  CHECK(shorthand.structure.edges == std::vector<std::pair<int, int>>{{1, 2}});

  const Config none = parse_config_text(R"({"dimension": 3, "structure": {"edges": []}})");
  CHECK(none.structure.edges.empty());
}

TEST_CASE("test_config: integer fields accept whole floats and the full unsigned range") {
  const Config config = parse_config_text(R"({"dimension": 2.0, "seed": 18446744073709551615,
    "initial_points": 1e6, "structure": {"relearn_every": 3.0, "gibbs_evaluations": 10000000},
    "limits": {"max_table_cells": 1099511627776, "threads": 1024,
               "max_model_observations": 2147483647, "max_model_work": 4611686018427387904,
               "max_pending": 2147483647}})");
  CHECK(config.dimension() == 2);
  CHECK(config.seed == std::numeric_limits<std::uint64_t>::max());
  CHECK(config.initial_points == 1000000);
  CHECK(config.structure.relearn_every == 3);
  CHECK(config.structure.gibbs_evaluations == 10000000);
  CHECK(config.max_table_cells == (std::int64_t{1} << 40));
  CHECK(config.threads == 1024);
  CHECK(config.max_model_observations == 2147483647);
  CHECK(config.max_model_work == (std::int64_t{1} << 62));
  CHECK(config.max_pending == 2147483647);

  // The largest double below 2^64 is a whole number in range.
  CHECK(parse_config_text(R"({"dimension": 1, "seed": 18446744073709549568.0})").seed ==
        18446744073709549568ull);
  // 2^64 written as a float (what 18446744073709551616 overflows to) is out of range.
  check_rejected(R"({"dimension": 1, "seed": 1.8446744073709552e19})", "/seed", "from 0 to");
  // The seed as a string of decimal digits (hosts without 64-bit integers), written back as an
  // integer.
  const Config digits = parse_config_text(R"({"dimension": 1, "seed": "18446744073709551615"})");
  CHECK(digits.seed == std::numeric_limits<std::uint64_t>::max());
  CHECK(config_to_json(digits)["seed"].is_number_unsigned());
  CHECK(parse_config_text(R"({"dimension": 1, "seed": "0"})").seed == 0);
  CHECK(parse_config_text(R"({"dimension": 1, "seed": "007"})").seed == 7);
  for (const char* bad : {R"("18446744073709551616")", R"("")", R"("-1")", R"("1.5")", R"("1e3")",
                          R"(" 1")", R"("123456789012345678901")"}) {
    check_rejected(std::string(R"({"dimension": 1, "seed": )") + bad + "}", "/seed",
                   "or such an integer as a string of decimal digits");
  }
}

TEST_CASE("test_config: the canonical form is explicit") {
  const Config config = parse_config_text(R"({"variables": [
      {"name": "u", "lower": 0.1, "upper": 0.3, "grid": 5},
      {"name": "k", "type": "integer", "lower": 1.0, "upper": 8},
      {"name": "c", "type": "categorical", "choices": ["a", "b"]}],
    "structure": {"edges": [["c", "u"]]}})");
  const json canonical = config_to_json(config);
  CHECK_FALSE(canonical.contains("dimension"));
  for (const char* key : {"variables", "goal", "seed", "initial_points", "strategy", "structure",
                          "kernel", "acquisition", "limits"}) {
    CHECK_MESSAGE(canonical.contains(key), key);
  }
  CHECK(canonical["variables"][0] ==
        json{{"name", "u"}, {"type", "continuous"}, {"lower", 0.1}, {"upper", 0.3}, {"grid", 5}});
  CHECK(canonical["variables"][1] ==
        json{{"name", "k"}, {"type", "integer"}, {"lower", 1}, {"upper", 8}});
  CHECK(canonical["variables"][1]["lower"].is_number_integer());
  CHECK(canonical["variables"][2] ==
        json{{"name", "c"}, {"type", "categorical"}, {"choices", {"a", "b"}}});
  CHECK(canonical["goal"] == "maximize");
  CHECK(canonical["strategy"] == "gp-ucb");
  CHECK(canonical["structure"]["mode"] == "learn");
  CHECK(canonical["structure"]["edges"] == json::parse("[[0, 2]]"));
  CHECK(canonical["structure"]["max_learning_points"] == 500);
  CHECK(canonical["kernel"]["lengthscales"] == "learn");
  CHECK(canonical["kernel"]["noise_variance"] == "auto");
  CHECK(canonical["acquisition"] == json{{"beta_scale", 0.5}, {"local_search", true}});
  CHECK(canonical["limits"] == json{{"max_table_cells", 4000000},
                                    {"threads", 0},
                                    {"max_model_observations", 2000},
                                    {"max_model_work", 100000000000},
                                    {"max_pending", 256}});
}

TEST_CASE("test_config: canonical round trip of hand-written configurations") {
  const char* texts[] = {
      R"({"dimension": 1})",
      R"({"dimension": 5, "seed": 18446744073709551615, "goal": "minimize",
          "kernel": {"lengthscales": [0.1, 0.30000000000000004, 1e-300, 1e300, 0.7],
                     "noise_variance": "learn"}})",
      R"({"variables": [{"name": "x", "lower": -1.7976931348623157e308, "upper": 0},
                        {"name": "t", "type": "integer", "lower": -9007199254740992,
                         "upper": -9007199254740000},
                        {"name": "c", "type": "categorical", "choices": ["\u0000", "\"", "/"]}],
          "structure": {"mode": "disjoint", "edges": [["c", "x"], [1, 0]], "edge_prior": 1e-9},
          "acquisition": {"beta_scale": 0}, "limits": {"max_table_cells": 2}})",
      R"({"dimension": 4, "strategy": "random", "initial_points": 1,
          "structure": {"mode": "fixed", "edges": [[3, 2], [0, 3]]},
          "kernel": {"lengthscale_choices": [5e-324], "noise_variance": 4.9e-324,
                     "noise_variance_choices": [1.7976931348623157e308]}})",
  };
  for (const char* text : texts) {
    CAPTURE(text);
    check_round_trip(parse_config_text(text));
  }
}

// Random valid documents over every field and variable type, with full-precision doubles.
json random_document(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto coin = [&] { return (rng() & 1) == 0; };
  const auto below = [&](std::uint64_t n) { return static_cast<int>(rng() % n); };
  const auto scaled = [&] { return std::ldexp(unit(rng) + 0.5, below(80) - 40); };

  const int dimension = 1 + below(6);
  json variables = json::array();
  for (int i = 0; i < dimension; ++i) {
    json variable = json::object();
    if (coin()) variable["name"] = "v" + std::to_string(i) + (coin() ? "\xc3\xa9" : "");
    switch (below(3)) {
      case 0: {
        const double lower = (unit(rng) - 0.5) * scaled();
        variable["lower"] = lower;
        // The span grows with |lower| so that upper > lower survives rounding.
        variable["upper"] = lower + std::fabs(lower) * 1e-6 + scaled();
        if (coin()) variable["grid"] = kMinGrid + below(kMaxGrid - kMinGrid + 1);
        if (coin()) variable["type"] = "continuous";
        break;
      }
      case 1: {
        const int lower = below(2000) - 1000;
        variable["type"] = "integer";
        variable["lower"] = lower;
        variable["upper"] = coin() ? json(lower + 1 + below(kMaxIntegerValues - 1))
                                   : json(static_cast<double>(lower + 1 + below(50)));
        break;
      }
      default: {
        variable["type"] = "categorical";
        json choices = json::array();
        const int count = 2 + below(5);
        for (int c = 0; c < count; ++c) choices.push_back("choice " + std::to_string(c));
        variable["choices"] = choices;
        break;
      }
    }
    variables.push_back(variable);
  }

  json document = {{"variables", variables}};
  if (coin()) document["goal"] = coin() ? "maximize" : "minimize";
  if (coin()) document["seed"] = rng();
  if (coin()) document["initial_points"] = 1 + below(1000);
  if (coin()) document["strategy"] = coin() ? "gp-ucb" : "random";

  json structure = json::object();
  const char* modes[] = {"learn", "disjoint", "fixed", "random-tree"};
  if (coin()) structure["mode"] = modes[below(4)];
  json edges = json::array();
  for (int a = 0; a < dimension; ++a) {
    for (int b = a + 1; b < dimension; ++b) {
      if (below(3) == 0) edges.push_back(coin() ? json{a, b} : json{b, a});
    }
  }
  structure["edges"] = edges;
  if (coin()) structure["edge_prior"] = unit(rng) * 0.98 + 0.01;
  if (coin())
    structure["expected_degree"] = 0.01 + unit(rng) * (dimension > 1 ? dimension - 1.01 : 0.98);
  if (coin()) structure["max_clique_cells"] = 2 + below(100000);
  if (coin()) structure["tree_edges"] = below(static_cast<std::uint64_t>(dimension));
  if (coin()) structure["relearn_every"] = 1 + below(100);
  if (coin()) structure["gibbs_evaluations"] = 1 + below(100000);
  if (coin()) structure["max_learning_points"] = below(1000);
  if (coin()) structure["relearn"] = coin() ? "auto" : "manual";
  document["structure"] = structure;

  json kernel = json::object();
  if (coin()) {
    json lengthscales = json::array();
    for (int i = 0; i < dimension; ++i) lengthscales.push_back(scaled());
    kernel["lengthscales"] = lengthscales;
  }
  if (coin()) kernel["lengthscale_choices"] = {scaled(), scaled() * 3};
  if (coin()) kernel["noise_variance"] = coin() ? json("learn") : json(scaled());
  if (coin()) kernel["noise_variance_choices"] = {scaled()};
  document["kernel"] = kernel;

  if (coin()) document["acquisition"] = {{"beta_scale", scaled()}, {"local_search", coin()}};
  if (coin()) {
    document["limits"] = {{"max_table_cells", 2 + rng() % ((std::uint64_t{1} << 40) - 1)},
                          {"threads", below(1025)},
                          {"max_model_observations", 2 + below(100000)},
                          {"max_model_work", 1000000 + rng() % (std::uint64_t{1} << 50)},
                          {"max_pending", 1 + below(1000)}};
  }
  return document;
}

TEST_CASE("test_config: canonical round trip of random configurations") {
  std::mt19937_64 rng(20240611);
  for (int trial = 0; trial < 300; ++trial) {
    const json document = random_document(rng);
    CAPTURE(document.dump());
    const Config config = parse_config(document);
    CHECK(parse_config_text(document.dump()) == config);
    check_round_trip(config);
  }
}

TEST_CASE("test_config: rejections name the exact field") {
  SUBCASE("root and the variables/dimension choice") {
    check_rejected(R"([1, 2])", "", "must be an object");
    check_rejected(R"({})", "/variables", "is required");
    check_rejected(R"({"dimension": 2, "variables": [{"lower": 0, "upper": 1}]})", "/dimension",
                   "together");
    check_rejected(R"({"dimension": 2, "extra": 1})", "/extra", "unknown key");
    check_rejected(R"({"dimension": 2, "we/ird~key": 1})", "/we~1ird~0key", "unknown key");
    // A huge unknown key is shortened in the message (its first 64 bytes, then "...").
    const std::string huge(1 << 20, 'k');
    check_rejected_json({{"dimension", 2}, {huge, 1}}, "/" + huge.substr(0, 64) + "...",
                        "unknown key");
    check_rejected(R"({"dimension": 0})", "/dimension", "from 1 to 10000");
    check_rejected(R"({"dimension": 10001})", "/dimension", "from 1 to 10000");
    check_rejected(R"({"dimension": true})", "/dimension", "must be an integer");
  }
  SUBCASE("more variables than the maximum") {
    json variables = json::array();
    for (std::size_t i = 0; i <= kMaxVariables; ++i)
      variables.push_back({{"lower", 0}, {"upper", 1}});
    check_rejected_json({{"variables", variables}}, "/variables", "at most 10000");
  }
  SUBCASE("variable fields") {
    check_rejected(R"({"variables": []})", "/variables", "at least one");
    check_rejected(R"({"variables": [{"lower": 0, "upper": 1}, 5]})", "/variables/1",
                   "must be an object");
    check_rejected(R"({"variables": [{"lower": 0, "upper": 1, "step": 1}]})", "/variables/0/step",
                   "unknown key");
    check_rejected(R"({"variables": [{"upper": 1}]})", "/variables/0/lower",
                   "is required for a continuous variable");
    check_rejected(R"({"variables": [{"lower": 2, "upper": 2}]})", "/variables/0/upper",
                   "must be greater than lower (2)");
    check_rejected(R"({"variables": [{"lower": 0.5, "upper": -1}]})", "/variables/0/upper",
                   "must be greater than lower (0.5)");
    check_rejected(R"({"variables": [{"lower": -1.7e308, "upper": 1.7e308}]})",
                   "/variables/0/upper", "overflows");
    check_rejected(R"({"variables": [{"lower": "0", "upper": 1}]})", "/variables/0/lower",
                   "must be a number");
    check_rejected(R"({"variables": [{"type": "float", "lower": 0, "upper": 1}]})",
                   "/variables/0/type", R"(must be one of "continuous", "integer", "categorical")");
    check_rejected(R"({"variables": [{"name": "", "lower": 0, "upper": 1}]})", "/variables/0/name",
                   "must not be empty");
    check_rejected(R"({"variables": [{"name": "a", "lower": 0, "upper": 1},
                                     {"name": "b", "lower": 0, "upper": 1},
                                     {"name": "a", "lower": 0, "upper": 1}]})",
                   "/variables/2/name", "already used by variable 0");
    check_rejected(R"({"variables": [{"name": "x1", "lower": 0, "upper": 1},
                                     {"lower": 0, "upper": 1}]})",
                   "/variables/1/name", "default name");
    check_rejected(R"({"variables": [{"lower": 0, "upper": 1, "grid": 1}]})", "/variables/0/grid",
                   "from 2 to 4096");
    check_rejected(R"({"variables": [{"lower": 0, "upper": 1, "grid": 4097}]})",
                   "/variables/0/grid", "from 2 to 4096");
    check_rejected(R"({"variables": [{"lower": 0, "upper": 1, "choices": ["a", "b"]}]})",
                   "/variables/0/choices", "is not allowed");
  }
  SUBCASE("integer variables") {
    check_rejected(R"({"variables": [{"type": "integer", "lower": 0.5, "upper": 4}]})",
                   "/variables/0/lower", "whole number");
    check_rejected(R"({"variables": [{"type": "integer", "lower": 0, "upper": 4096}]})",
                   "/variables/0/upper", "4097 values");
    check_rejected(R"({"variables": [{"type": "integer", "lower": 0, "upper": 4, "grid": 5}]})",
                   "/variables/0/grid", "is not allowed for an integer variable");
    check_rejected(R"({"variables": [{"type": "integer", "lower": 0, "upper": 1e17}]})",
                   "/variables/0/upper", "2^53");
    // JSON integers just past 2^53 would round to 2^53 as doubles and pass unnoticed.
    check_rejected(R"({"variables": [{"type": "integer", "lower": 0,
                                     "upper": 9007199254740993}]})",
                   "/variables/0/upper", "2^53");
    check_rejected(R"({"variables": [{"type": "integer", "lower": -9007199254740993,
                                     "upper": 0}]})",
                   "/variables/0/lower", "2^53");
    check_rejected(R"({"variables": [{"type": "integer", "lower": 0,
                                     "upper": 18446744073709551615}]})",
                   "/variables/0/upper", "2^53");
    // Ranges of a few values there were accepted as [2^53 - 3, 2^53] before.
    check_rejected(R"({"variables": [{"type": "integer", "lower": 9007199254740989,
                                     "upper": 9007199254740993}]})",
                   "/variables/0/upper", "2^53");
    check_rejected(R"({"variables": [{"type": "integer", "lower": -9007199254740993,
                                     "upper": -9007199254740989}]})",
                   "/variables/0/lower", "2^53");
  }
  SUBCASE("categorical variables") {
    check_rejected(R"({"variables": [{"type": "categorical"}]})", "/variables/0/choices",
                   "is required");
    check_rejected(R"({"variables": [{"type": "categorical", "choices": ["a"]}]})",
                   "/variables/0/choices", "at least 2");
    check_rejected(R"({"variables": [{"type": "categorical", "choices": ["a", "b", "b"]}]})",
                   "/variables/0/choices/2", "repeats");
    check_rejected(R"({"variables": [{"type": "categorical", "choices": ["a", "b"], "upper": 1}]})",
                   "/variables/0/upper", "is not allowed");
    check_rejected(R"({"variables": [{"type": "categorical", "choices": ["a", "b"], "grid": 2}]})",
                   "/variables/0/grid", "is not allowed");
    json choices = json::array();
    for (int i = 0; i <= kMaxGrid; ++i) choices.push_back(std::to_string(i));
    check_rejected_json({{"variables", {{{"type", "categorical"}, {"choices", choices}}}}},
                        "/variables/0/choices", "at most 4096");
  }
  SUBCASE("scalars at the root") {
    check_rejected(R"({"dimension": 1, "goal": "max"})", "/goal", R"("maximize", "minimize")");
    check_rejected(R"({"dimension": 1, "seed": -1})", "/seed", "from 0 to 18446744073709551615");
    check_rejected(R"({"dimension": 1, "seed": 2.5})", "/seed", "must be an integer (got 2.5)");
    check_rejected(R"({"dimension": 1, "seed": "3a"})", "/seed",
                   R"(or such an integer as a string of decimal digits (got "3a"))");
    check_rejected(R"({"dimension": 1, "seed": true})", "/seed", "must be an integer");
    check_rejected(R"({"dimension": 1, "initial_points": 0})", "/initial_points", "from 1");
    check_rejected(R"({"dimension": 1, "initial_points": 1000001})", "/initial_points",
                   "to 1000000");
    check_rejected(R"({"dimension": 1, "strategy": "ucb"})", "/strategy", "\"gp-ucb\"");
  }
  SUBCASE("structure") {
    const std::string head = R"({"dimension": 3, "structure": )";
    check_rejected(head + R"({"mode": "auto"}})", "/structure/mode", "\"disjoint\"");
    check_rejected(head + R"({"edges": [[0, 1], [0]]}})", "/structure/edges/1", "pair");
    check_rejected(head + R"({"edges": [[0, 1, 2]]}})", "/structure/edges/0", "3 elements");
    check_rejected(head + R"({"edges": [[0, 3]]}})", "/structure/edges/0/1",
                   "must be a variable index from 0 to 2 (got 3)");
    check_rejected(head + R"({"edges": [[-1, 2]]}})", "/structure/edges/0/0", "from 0 to 2");
    check_rejected(head + R"({"edges": [["x0", "y"]]}})", "/structure/edges/0/1",
                   R"(no variable is named "y")");
    check_rejected(head + R"({"edges": [[1, "x1"]]}})", "/structure/edges/0", "self-loop");
    check_rejected(head + R"({"edges": [[0, 1], [1, 2], [1, 0]]}})", "/structure/edges/2",
                   "repeats the edge between variables 0 and 1");
    check_rejected(head + R"({"edge_prior": 0}})", "/structure/edge_prior", "strictly between");
    check_rejected(head + R"({"edge_prior": 1}})", "/structure/edge_prior", "strictly between");
    check_rejected(head + R"({"relearn_every": 0}})", "/structure/relearn_every", "from 1");
    check_rejected(head + R"({"gibbs_evaluations": 10000001}})", "/structure/gibbs_evaluations",
                   "to 10000000");
    check_rejected(head + R"({"max_learning_points": -5}})", "/structure/max_learning_points",
                   "from 0");
    check_rejected(head + R"({"mode": "learn", "edge": []}})", "/structure/edge", "unknown key");
  }
  SUBCASE("kernel") {
    const std::string head = R"({"dimension": 3, "kernel": )";
    check_rejected(head + R"({"lengthscales": [0.1, 0.2]}})", "/kernel/lengthscales",
                   "exactly 3 entries");
    check_rejected(head + R"({"lengthscales": [0.1, 0, 0.3]}})", "/kernel/lengthscales/1",
                   "greater than 0");
    check_rejected(head + R"({"lengthscales": "fixed"}})", "/kernel/lengthscales", "\"learn\"");
    check_rejected(head + R"({"lengthscale_choices": []}})", "/kernel/lengthscale_choices",
                   "must not be empty");
    check_rejected(head + R"({"lengthscale_choices": [0.1, 0.2, 0.1]}})",
                   "/kernel/lengthscale_choices/2", "repeats the value 0.1");
    check_rejected(head + R"({"noise_variance": 0}})", "/kernel/noise_variance", "greater than 0");
    check_rejected(head + R"({"noise_variance": "automatic"}})", "/kernel/noise_variance",
                   "\"auto\", \"learn\"");
    check_rejected(head + R"({"noise_variance_choices": [1e-3, -1]}})",
                   "/kernel/noise_variance_choices/1", "greater than 0");
    check_rejected(head + R"({"noise": 1}})", "/kernel/noise", "unknown key");
  }
  SUBCASE("acquisition and limits") {
    check_rejected(R"({"dimension": 1, "acquisition": {"beta_scale": -0.5}})",
                   "/acquisition/beta_scale", "greater than or equal to 0");
    check_rejected(R"({"dimension": 1, "acquisition": {"beta": 1}})", "/acquisition/beta",
                   "unknown key");
    check_rejected(R"({"dimension": 1, "limits": {"max_table_cells": 1}})",
                   "/limits/max_table_cells", "from 2 to 1099511627776");
    check_rejected(R"({"dimension": 1, "limits": {"max_table_cells": 1099511627777}})",
                   "/limits/max_table_cells", "from 2 to 1099511627776");
    check_rejected(R"({"dimension": 1, "limits": {"threads": 1025}})", "/limits/threads",
                   "from 0 to 1024");
    check_rejected(R"({"dimension": 1, "limits": {"max_model_observations": 1}})",
                   "/limits/max_model_observations", "from 2 to 2147483647");
    check_rejected(R"({"dimension": 1, "limits": {"max_model_observations": "all"}})",
                   "/limits/max_model_observations", "must be an integer");
    check_rejected(R"({"dimension": 1, "limits": {"max_model_work": 999999}})",
                   "/limits/max_model_work", "from 1000000 to 4611686018427387904");
    check_rejected(R"({"dimension": 1, "limits": {"max_pending": 0}})", "/limits/max_pending",
                   "from 1 to 2147483647");
    check_rejected(R"({"dimension": 1, "limits": {"max_pending": 2147483648}})",
                   "/limits/max_pending", "from 1 to 2147483647");
  }
}

TEST_CASE("test_config: NaN and infinity are rejected wherever a number is read") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  check_rejected_json({{"variables", {{{"lower", nan}, {"upper", 1}}}}}, "/variables/0/lower",
                      "finite");
  check_rejected_json({{"variables", {{{"lower", 0}, {"upper", inf}}}}}, "/variables/0/upper",
                      "(got Infinity)");
  check_rejected_json({{"dimension", inf}}, "/dimension", "must be an integer");
  check_rejected_json({{"dimension", 2}, {"structure", {{"edge_prior", nan}}}},
                      "/structure/edge_prior", "(got NaN)");
  check_rejected_json({{"dimension", 2}, {"kernel", {{"lengthscales", {0.1, -inf}}}}},
                      "/kernel/lengthscales/1", "finite");
  check_rejected_json({{"dimension", 2}, {"acquisition", {{"beta_scale", inf}}}},
                      "/acquisition/beta_scale", "finite");
  // In text, nlohmann refuses numbers that overflow a double; the pointer still names the field.
  check_rejected(R"({"dimension": 2, "kernel": {"lengthscales": [0.5, 1e400]}})",
                 "/kernel/lengthscales/1", "1e400");
  check_rejected(R"({"variables": [{"lower": -1e400, "upper": 0}]})", "/variables/0/lower",
                 "too large");
  check_rejected(R"({"dimension": 1, "seed": 1)" + std::string(400, '0') + "}", "/seed",
                 "too large");
}

TEST_CASE("test_config: strings built in C++ must be valid UTF-8") {
  check_rejected_json({{"variables", {{{"name", "bad\xff"}, {"lower", 0}, {"upper", 1}}}}},
                      "/variables/0/name", "UTF-8");
  check_rejected_json({{"variables", {{{"type", "categorical"}, {"choices", {"ok", "\xc3"}}}}}},
                      "/variables/0/choices/1", "UTF-8");
}

TEST_CASE("test_config: text-level checks") {
  SUBCASE("empty text") {
    check_rejected("", "", "empty");
    check_rejected(" \n\t ", "", "empty");
  }
  SUBCASE("nesting depth: the limit itself passes the text check, one more does not") {
    const auto nested = [](int depth) {
      // The root object is one level; the rest are arrays inside "seed".
      return R"({"dimension": 1, "seed": )" + std::string(depth - 1, '[') +
             std::string(depth - 1, ']') + "}";
    };
    check_rejected(nested(kMaxJsonDepth), "/seed", "must be an integer");
    check_rejected(nested(kMaxJsonDepth + 1), "", "deeper than the limit of 32");
    check_rejected(nested(100000), "", "deeper than the limit");
  }
  SUBCASE("brackets inside strings do not count, escaped quotes do not end a string") {
    const std::string name = R"(\"\\[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"{{{{)";
    const Config config = parse_config_text(R"({"variables": [{"name": ")" + name +
                                            R"(", "lower": 0, "upper": 1}]})");
    CHECK(config.variables[0].name.substr(0, 4) == "\"\\[[");
  }
  SUBCASE("duplicate keys, also when spelled with escapes or nested") {
    check_rejected(R"({"dimension": 2, "dimension": 2})", "/dimension", "duplicate key");
    check_rejected(R"({"dimension": 2, "goal": "minimize", "go\u0061l": "maximize"})", "/goal",
                   "duplicate key");
    check_rejected(R"({"dimension": 2, "kernel": {"a/b": 1, "a/b": 2}})", "/kernel/a~1b",
                   "duplicate key");
    check_rejected(R"({"variables": [{"lower": 0, "upper": 1},
                                     {"lower": 0, "upper": 1, "lower": 0}]})",
                   "/variables/1/lower", "duplicate key");
    // The same key in different objects is fine.
    CHECK_NOTHROW(parse_config_text(
        R"({"variables": [{"name": "a", "lower": 0, "upper": 1},
                          {"name": "b", "lower": 0, "upper": 1}]})"));
  }
  SUBCASE("malformed JSON names the byte") {
    check_rejected(R"({"dimension": 2,})", "",
                   "malformed JSON at byte 17 (line 1, column 17): syntax error");
    check_rejected(R"({"dimension": 2} {})", "", "malformed JSON at byte");
    check_rejected("{\"variables\": [{\"name\": \"\xff\", \"lower\": 0, \"upper\": 1}]}", "",
                   "malformed JSON");
    check_rejected(R"({"dimension": 2 // comment
                     })",
                   "", "malformed JSON");
  }
}

// Each line of tests/data/bad_configs.txt: "<pointer>\t<config text>"; "#" starts a comment.
TEST_CASE("test_config: every line of bad_configs.txt is rejected at its pointer") {
  std::ifstream file(std::string(ADDBO_TEST_DATA_DIR) + "/bad_configs.txt");
  REQUIRE(file.is_open());
  std::string line;
  int cases = 0;
  int line_number = 0;
  while (std::getline(file, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    CAPTURE(line_number);
    const std::string::size_type tab = line.find('\t');
    REQUIRE_MESSAGE(tab != std::string::npos, "line without a TAB");
    ++cases;
    check_rejected(line.substr(tab + 1), line.substr(0, tab));
  }
  CHECK(cases >= 60);
}

}  // namespace
}  // namespace addbo::core

TEST_SUITE_END();
