// Tests of the JSON layer (src/json/): the one text parser, the field readers, and that both
// documents read from text, the configuration (Optimizer::from_config_text) and the saved state
// (Optimizer::from_state_text), apply each rule the same way: the same field pointer and words,
// with their own status (ADDBO_ERR_CONFIG, ADDBO_ERR_STATE).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "json/json_error.hpp"
#include "json/json_fields.hpp"
#include "json/json_text.hpp"
#include "optimizer/optimizer.hpp"
#include "optimizer/saved_state.hpp"
#include "util/error.hpp"

namespace addbo::core {
namespace {

using json = nlohmann::json;

constexpr JsonTextRules kRules{"test", 4};

bool contains(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

// What a call threw: the pointer and message of a JsonError, or of a DocumentError with its
// status.
struct Thrown {
  bool threw = false;
  Status status = Status::ok;
  std::string pointer, message, what;
};

template <class Call>
Thrown thrown_by(Call call) {
  Thrown result;
  try {
    call();
  } catch (const JsonError& error) {
    result = Thrown{true, Status::ok, error.pointer(), error.message(), error.what()};
  } catch (const DocumentError& error) {
    result = Thrown{true, error.status(), error.pointer(), error.message(), error.what()};
  }
  // No message of the layer carries the JSON library's tags.
  CHECK_MESSAGE(!contains(result.what, "[json.exception"), result.what);
  return result;
}

void check_parse_rejects(const std::string& text, const std::string& pointer,
                         const std::string& fragment) {
  CAPTURE(text);
  const Thrown thrown = thrown_by([&] { (void)parse_json_text(text, kRules); });
  REQUIRE(thrown.threw);
  CHECK(thrown.pointer == pointer);
  CHECK_MESSAGE(contains(thrown.message, fragment), thrown.message);
}

// ---------------------------------------------------------------------------------------------
// The parser.

TEST_CASE("test_json: the parser accepts one JSON value and keeps it exactly") {
  const json document = parse_json_text(
      R"({"a": [1, -2, 18446744073709551615, 0.1, 1e-300], "b": {"c": null, "d": "\u00e9"}})",
      kRules);
  CHECK(document["a"][0].is_number_unsigned());
  CHECK(document["a"][1].get<std::int64_t>() == -2);
  CHECK(document["a"][2].get<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max());
  CHECK(document["a"][3].get<double>() == 0.1);
  CHECK(document["a"][4].get<double>() == 1e-300);
  CHECK(document["b"]["c"].is_null());
  CHECK(document["b"]["d"] == "\xc3\xa9");
  // The writer gives back the compact text with the keys sorted.
  CHECK(json_to_text(parse_json_text(R"({"z": 1, "a": [true, "x"]})", kRules)) ==
        R"({"a":[true,"x"],"z":1})");
}

TEST_CASE("test_json: the parser's rules, each at its pointer") {
  SUBCASE("empty text names the document") {
    check_parse_rejects("", "", "the test text is empty");
    check_parse_rejects(" \r\n\t", "", "the test text is empty");
  }
  SUBCASE("the depth limit: the limit itself parses, one more level names where it opens") {
    CHECK_NOTHROW(parse_json_text("[[[{}]]]", kRules));
    check_parse_rejects("[[[[[]]]]]", "",
                        "JSON nesting is deeper than the limit of 4 levels (level 5 opens at "
                        "byte 5)");
    check_parse_rejects(std::string(100000, '[') + std::string(100000, ']'), "",
                        "deeper than the limit of 4 levels");
    // Brackets in strings do not count; an escaped quote does not end the string.
    CHECK_NOTHROW(parse_json_text(R"(["\"[[[[[[[[", {"[[[[[": "{{{{{{"}])", kRules));
  }
  SUBCASE("a key twice in one object, also spelled with escapes, at the key's pointer") {
    check_parse_rejects(R"({"a": 1, "a": 2})", "/a", "duplicate key \"a\"");
    check_parse_rejects(R"({"a": 1, "\u0061": 2})", "/a", "duplicate key");
    check_parse_rejects(R"({"x": [0, {"b": 1, "c/~": 2, "c/~": 3}]})", "/x/1/c~1~0",
                        "duplicate key");
    CHECK_NOTHROW(parse_json_text(R"([{"a": 1}, {"a": 2}, {"b": {"a": 3}}])", kRules));
  }
  SUBCASE("a number beyond a double, at the number's pointer") {
    check_parse_rejects(R"({"a": 1e400})", "/a",
                        "the number 1e400 is too large in magnitude for a double");
    check_parse_rejects(R"({"a": [1, -1e400]})", "/a/1", "the number -1e400 is too large");
    check_parse_rejects("1e999", "", "too large in magnitude");
    // Underflow is not an error: it reads as 0 or a subnormal, as strtod does.
    CHECK(parse_json_text("[1e-400]", kRules)[0].get<double>() == 0.0);
  }
  SUBCASE("malformed JSON names the byte, line and column") {
    check_parse_rejects(R"({"a": 2,})", "", "malformed JSON at byte 9 (line 1, column 9)");
    check_parse_rejects("{\"a\": 2,\n}", "", "malformed JSON at byte 10 (line 2, column 1)");
    check_parse_rejects(R"({"a": 2} {})", "", "malformed JSON at byte 10");
    check_parse_rejects(R"({"a": 2)", "", "malformed JSON at byte 8 (line 1, column 8)");
    check_parse_rejects("[\"\xff\"]", "", "malformed JSON");
    check_parse_rejects("[1] // comment", "", "malformed JSON");
    check_parse_rejects("[NaN]", "", "malformed JSON");
  }
  SUBCASE("NUL bytes are read as bytes: never the end of the text") {
    check_parse_rejects(std::string("[1]\0[", 5), "",
                        "malformed JSON at byte 4 (line 1, column 4): a NUL byte");
    check_parse_rejects(std::string("[\"a\0b\"]", 7), "", "malformed JSON at byte 4");
    check_parse_rejects(std::string("[1,\n\0", 5), "",
                        "malformed JSON at byte 5 (line 2, column 1): a NUL byte");
    check_parse_rejects(std::string("\0", 1), "", "malformed JSON at byte 1");
    // Also after a complete value, where nlohmann's lexer would stop reading.
    check_parse_rejects(std::string("{}\0{\"a\": 1}", 11), "", "malformed JSON at byte 3");
  }
}

// ---------------------------------------------------------------------------------------------
// The field readers.

template <class Call>
void check_field_rejects(Call call, const std::string& pointer, const std::string& fragment) {
  const Thrown thrown = thrown_by(call);
  REQUIRE(thrown.threw);
  CHECK(thrown.pointer == pointer);
  CHECK_MESSAGE(contains(thrown.message, fragment), thrown.message);
}

TEST_CASE("test_json: pointers escape ~ and / (RFC 6901)") {
  CHECK(pointer_child("", "a") == "/a");
  CHECK(pointer_child("/a", "b/c~d") == "/a/b~1c~0d");
  CHECK(pointer_child("/a", std::size_t{12}) == "/a/12");
  CHECK(pointer_child("", "") == "/");
}

TEST_CASE("test_json: objects: unknown keys, required, optional and forbidden members") {
  const json value = json::parse(R"({"a": 1, "b": "x"})");
  const JsonObject object(value, "/o", {"a", "b", "c"});
  CHECK(object.find("c") == nullptr);
  CHECK(*object.find("a") == 1);
  CHECK(object.require("b") == "x");
  CHECK(object.at("c") == "/o/c");
  check_field_rejects([&] { (void)object.require("c"); }, "/o/c", "is required");
  check_field_rejects([&] { (void)object.require("c", "for a test"); }, "/o/c",
                      "is required for a test");
  check_field_rejects([&] { object.forbid("a", "here"); }, "/o/a", "is not allowed here");
  check_field_rejects([&] { JsonObject(value, "/o", {"a"}); }, "/o/b",
                      "unknown key (allowed here: a)");
  check_field_rejects([&] { JsonObject(json::array(), "/o", {"a"}); }, "/o",
                      "must be an object (got an empty array)");
  // A long unknown key is cut short in the pointer (the message does not echo megabytes).
  const json long_key = {{std::string(1000, 'k'), 1}};
  const Thrown thrown = thrown_by([&] { JsonObject(long_key, "", {"a"}); });
  CHECK(thrown.pointer == "/" + std::string(64, 'k') + "...");
}

TEST_CASE("test_json: integers, in range, spelled as integers or also as whole floats") {
  const std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  CHECK(require_integer(json(0), "/n", 0, most) == 0);
  CHECK(require_integer(json(most), "/n", 0, most) == most);
  CHECK(require_integer(json(7), "/n", 7, 7) == 7);
  CHECK(require_integer(json(7.0), "/n", 0, 9, IntegerSpelling::whole_number) == 7);
  CHECK(require_integer(json(1e3), "/n", 0, 1000, IntegerSpelling::whole_number) == 1000);
  check_field_rejects([] { (void)require_integer(json(7.0), "/n", 0, 9); }, "/n",
                      "must be an integer written without a fraction or exponent (got 7)");
  check_field_rejects(
      [] { (void)require_integer(json(7.5), "/n", 0, 9, IntegerSpelling::whole_number); }, "/n",
      "must be an integer (got 7.5)");
  check_field_rejects([] { (void)require_integer(json(-1), "/n", 0, 9); }, "/n",
                      "must be an integer from 0 to 9 (got -1)");
  check_field_rejects([] { (void)require_integer(json(10), "/n", 0, 9); }, "/n",
                      "must be an integer from 0 to 9 (got 10)");
  check_field_rejects(
      [] {
        (void)require_integer(json(1.8446744073709552e19), "/n", 0, ~std::uint64_t{0},
                              IntegerSpelling::whole_number);
      },
      "/n", "must be an integer from 0 to 18446744073709551615");
  check_field_rejects([] { (void)require_integer(json(true), "/n", 0, 9); }, "/n",
                      "must be an integer (got true)");
  check_field_rejects([] { (void)require_integer(json("3"), "/n", 0, 9); }, "/n",
                      "must be an integer (got \"3\")");
  check_field_rejects(
      [] {
        (void)require_integer(json(12), "/n", 0, 9, IntegerSpelling::integer_only,
                              "a variable index");
      },
      "/n", "must be a variable index from 0 to 9 (got 12)");
}

TEST_CASE("test_json: numbers, booleans, strings, names and arrays") {
  CHECK(require_finite(json(-2.5), "/x") == -2.5);
  CHECK(require_finite(json(3), "/x") == 3.0);
  check_field_rejects([] { (void)require_finite(json("1"), "/x"); }, "/x",
                      "must be a number (got \"1\")");
  check_field_rejects(
      [] { (void)require_finite(json(std::numeric_limits<double>::infinity()), "/x"); }, "/x",
      "must be a finite number (got Infinity)");
  check_field_rejects([] { (void)require_positive(json(0), "/x"); }, "/x",
                      "must be greater than 0 (got 0)");
  CHECK(require_boolean(json(false), "/b") == false);
  check_field_rejects([] { (void)require_boolean(json(1), "/b"); }, "/b",
                      "must be true or false (got 1)");
  CHECK(require_string(json("s"), "/s") == "s");
  check_field_rejects([] { (void)require_string(json(1), "/s"); }, "/s", "must be a string");
  check_field_rejects([] { (void)require_string(json("bad\xff"), "/s"); }, "/s",
                      "must be valid UTF-8");
  enum class Colour { red, green };
  const NameTable<Colour> colours = {{"red", Colour::red}, {"green", Colour::green}};
  CHECK(require_name(json("green"), "/c", colours) == Colour::green);
  CHECK(std::string(name_of(colours, Colour::red)) == "red");
  check_field_rejects([&] { (void)require_name(json("blue"), "/c", colours); }, "/c",
                      "must be one of \"red\", \"green\" (got \"blue\")");
  require_array(json::array(), "/a", "an array of points");
  check_field_rejects([] { require_array(json::object(), "/a", "an array of points"); }, "/a",
                      "must be an array of points (got an object)");
  require_length(json({1, 2}), "/a", 2, "numbers");
  check_field_rejects([] { require_length(json({1}), "/a", 2, "numbers, one per variable"); }, "/a",
                      "must have exactly 2 numbers, one per variable (got an array of 1 "
                      "element)");
}

// ---------------------------------------------------------------------------------------------
// The same rules on both readers.

// A small saved state: a few observations, a pending point, a learned model.
std::string small_state_text() {
  Optimizer optimizer = Optimizer::from_config_text(
      R"({"dimension": 2, "seed": 4, "initial_points": 3,
          "structure": {"relearn_every": 2, "gibbs_evaluations": 5}})");
  for (int i = 0; i < 5; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, -(x[0] - 0.3) * (x[0] - 0.3) - x[1]);
  }
  optimizer.ask();
  return optimizer.save_text();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::string::size_type at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

// `document` as text with the string "@@" (one occurrence) replaced by raw text.
std::string with_raw(const json& document, const std::string& raw) {
  return replaced(document.dump(), "\"@@\"", raw);
}

void check_config_rejects(const std::string& text, const std::string& pointer,
                          const std::string& fragment) {
  CAPTURE(text);
  const Thrown thrown = thrown_by([&] { (void)Optimizer::from_config_text(text); });
  REQUIRE_MESSAGE(thrown.threw, "accepted");
  CHECK(thrown.status == Status::config);
  CHECK(thrown.pointer == pointer);
  CHECK_MESSAGE(contains(thrown.message, fragment), thrown.message);
  CHECK(thrown.what.rfind((pointer.empty() ? std::string("/") : pointer) + ": ", 0) == 0);
}

void check_state_rejects(const std::string& text, const std::string& pointer,
                         const std::string& fragment) {
  CAPTURE(text.substr(0, 400));
  const Thrown thrown = thrown_by([&] { (void)Optimizer::from_state_text(text); });
  REQUIRE_MESSAGE(thrown.threw, "accepted");
  CHECK(thrown.status == Status::state);
  CHECK(thrown.pointer == pointer);
  CHECK_MESSAGE(contains(thrown.message, fragment), thrown.message);
  CHECK(thrown.what.rfind("saved state " + (pointer.empty() ? std::string("/") : pointer) + ": ",
                          0) == 0);
}

TEST_CASE("test_json: both readers apply every rule, each with its own status") {
  const std::string state_text = small_state_text();
  const json state = json::parse(state_text);
  REQUIRE(Optimizer::from_state_text(state_text).save_text() == state_text);
  const json config = {{"dimension", 2}, {"kernel", {{"noise_variance", 0.1}}}};
  REQUIRE_NOTHROW(Optimizer::from_config_text(config.dump()));

  SUBCASE("a key repeated in one object (the saved state accepted it before: the last won)") {
    check_config_rejects(
        replaced(config.dump(), "\"kernel\":{", "\"kernel\":{\"noise_variance\":1,"),
        "/kernel/noise_variance", "duplicate key \"noise_variance\"");
    check_state_rejects(replaced(state_text, "\"model\":{", "\"model\":{\"jitter\":0.0,"),
                        "/model/jitter", "duplicate key \"jitter\"");
    check_state_rejects(
        replaced(state_text, "\"acquisition\":{", "\"acquisition\":{\"local_search\":true,"),
        "/config/acquisition/local_search", "duplicate key");
    check_state_rejects(replaced(state_text, "{\"x\":", "{\"y\":0,\"x\":"), "/observations/0/y",
                        "duplicate key \"y\"");
  }
  SUBCASE("a number beyond a double, at its field") {
    json bad_config = config;
    bad_config["kernel"]["noise_variance"] = "@@";
    check_config_rejects(with_raw(bad_config, "1e400"), "/kernel/noise_variance",
                         "the number 1e400 is too large in magnitude for a double");
    json bad_state = state;
    bad_state["model"]["noise_variance"] = "@@";
    check_state_rejects(with_raw(bad_state, "1e400"), "/model/noise_variance",
                        "the number 1e400 is too large in magnitude for a double");
    bad_state = state;
    bad_state["observations"][0]["x"][1] = "@@";
    check_state_rejects(with_raw(bad_state, "-1e999"), "/observations/0/x/1",
                        "the number -1e999 is too large");
  }
  SUBCASE("nesting deeper than the document's limit (configuration 32, saved state 64)") {
    const auto nested = [](int levels) {
      return std::string(static_cast<std::size_t>(levels), '[') +
             std::string(static_cast<std::size_t>(levels), ']');
    };
    json bad_config = config;
    bad_config["seed"] = "@@";
    check_config_rejects(with_raw(bad_config, nested(kMaxJsonDepth - 1)), "/seed",
                         "must be an integer");
    check_config_rejects(with_raw(bad_config, nested(kMaxJsonDepth)), "",
                         "JSON nesting is deeper than the limit of 32 levels (level 33 opens");
    json bad_state = state;
    bad_state["random"] = "@@";
    check_state_rejects(with_raw(bad_state, nested(kMaxStateDepth - 1)), "/random",
                        "must be a string");
    check_state_rejects(with_raw(bad_state, nested(kMaxStateDepth)), "",
                        "JSON nesting is deeper than the limit of 64 levels (level 65 opens");
    // A configuration inside a saved state is held to the configuration's rules: deep nesting
    // there is refused at the field, as addbo_create refuses it.
    bad_state = state;
    bad_state["config"]["seed"] = "@@";
    check_state_rejects(with_raw(bad_state, nested(40)), "/config/seed", "must be an integer");
  }
  SUBCASE("malformed, truncated, empty, NUL: at the root, with the byte") {
    check_config_rejects(config.dump() + "{}", "", "malformed JSON at byte");
    check_state_rejects(state_text + "{}", "",
                        "malformed JSON at byte " + std::to_string(state_text.size() + 1));
    check_config_rejects(config.dump().substr(0, 10), "", "malformed JSON at byte 11");
    check_state_rejects(state_text.substr(0, 10), "", "malformed JSON at byte 11");
    check_config_rejects("", "", "the configuration text is empty");
    check_state_rejects(" ", "", "the saved state text is empty");
    check_config_rejects(config.dump() + std::string(1, '\0'), "",
                         "malformed JSON at byte " + std::to_string(config.dump().size() + 1));
    check_state_rejects(state_text + std::string(1, '\0'), "",
                        "malformed JSON at byte " + std::to_string(state_text.size() + 1));
  }
  SUBCASE("unknown keys, missing members") {
    json bad_config = config;
    bad_config["kernel"]["noise"] = 1;
    check_config_rejects(bad_config.dump(), "/kernel/noise", "unknown key (allowed here: ");
    json bad_state = state;
    bad_state["model"]["noise"] = 1;
    check_state_rejects(bad_state.dump(), "/model/noise", "unknown key (allowed here: edges, ");
    bad_state = state;
    bad_state["config"]["kernel"]["noise"] = 1;
    check_state_rejects(bad_state.dump(), "/config/kernel/noise", "unknown key");

    check_config_rejects(R"({"variables": [{"lower": 0}]})", "/variables/0/upper", "is required");
    bad_state = state;
    bad_state["model"].erase("jitter");
    check_state_rejects(bad_state.dump(), "/model/jitter", "is required");
  }
  SUBCASE("numbers, integers and fixed-length arrays") {
    json bad_config = config;
    bad_config["kernel"]["noise_variance"] = "x";
    check_config_rejects(bad_config.dump(), "/kernel/noise_variance",
                         "must be \"auto\", \"learn\" or");
    bad_config = config;
    bad_config["acquisition"] = {{"beta_scale", "x"}};
    check_config_rejects(bad_config.dump(), "/acquisition/beta_scale",
                         "must be a number (got \"x\")");
    json bad_state = state;
    bad_state["observations"][0]["y"] = "x";
    check_state_rejects(bad_state.dump(), "/observations/0/y", "must be a number (got \"x\")");

    bad_config = config;
    bad_config["seed"] = -1;
    check_config_rejects(bad_config.dump(), "/seed",
                         "must be an integer from 0 to 18446744073709551615 (got -1)");
    bad_state = state;
    bad_state["learning"]["evaluations"] = -1;
    check_state_rejects(bad_state.dump(), "/learning/evaluations",
                        "must be an integer from 0 to 18446744073709551615 (got -1)");
    bad_config["seed"] = true;
    check_config_rejects(bad_config.dump(), "/seed", "must be an integer (got true)");
    bad_state["learning"]["evaluations"] = true;
    check_state_rejects(bad_state.dump(), "/learning/evaluations", "must be an integer (got true)");
    // The one difference: a configuration may write an integer as a whole float (7.0), a saved
    // state, which only addbo_save writes, may not (as before).
    bad_config["seed"] = 7.0;
    CHECK(Optimizer::from_config_text(bad_config.dump()).config().seed == 7);
    bad_state["learning"]["evaluations"] = 7.0;
    check_state_rejects(bad_state.dump(), "/learning/evaluations",
                        "must be an integer written without a fraction or exponent");

    bad_config = config;
    bad_config["kernel"]["lengthscales"] = {0.5};
    check_config_rejects(
        bad_config.dump(), "/kernel/lengthscales",
        "must have exactly 2 entries, one per variable (got an array of 1 element)");
    bad_state = state;
    bad_state["model"]["lengthscales"] = {0.5};
    check_state_rejects(bad_state.dump(), "/model/lengthscales",
                        "must have exactly 2 lengthscales, one per variable (got an array of 1 "
                        "element)");
    bad_state = state;
    bad_state["config"]["goal"] = "up";
    check_state_rejects(bad_state.dump(), "/config/goal",
                        "must be one of \"maximize\", \"minimize\"");
  }
}

}  // namespace
}  // namespace addbo::core
