// Tests of the search space (space/space.hpp): log-scale grids against their closed forms, the
// encoding, points drawn from the unit cube, and the messages of check_point. Also the shared
// number formatter of messages (util/text.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <locale>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "space/space.hpp"
#include "util/error.hpp"
#include "util/random.hpp"
#include "util/text.hpp"

TEST_SUITE_BEGIN("space");

namespace addbo::core {
namespace {

bool contains(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

// The message of check_point's invalid_argument for x (empty if it accepts x).
std::string check_message(const Space& space, const std::vector<double>& x) {
  try {
    space.check_point(x, "x");
  } catch (const Error& error) {
    CHECK(error.status() == Status::invalid_argument);
    return error.what();
  }
  return "";
}

// Reads text back as a double in the classic locale, whatever the global one is.
double read_back(const std::string& text) {
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0.0;
  in >> value;
  CHECK_MESSAGE(!in.fail(), text);
  return value;
}

Space space_of(const std::string& variables) {
  return Space(parse_config_text(R"({"variables": )" + variables + "}").variables);
}

TEST_CASE("test_space: a continuous log-scale grid is geometric") {
  const double lower = 1e-5, upper = 1e-1;
  const int points = 17;
  const Space space = space_of(R"([{"lower": 1e-5, "upper": 0.1, "grid": 17, "scale": "log"}])");
  REQUIRE(space.grid_size(0) == points);
  CHECK(space.grid_value(0, 0) == lower);
  CHECK(space.grid_value(0, points - 1) == upper);
  // x_i = lower (upper / lower)^(i / (points - 1)): every ratio is the same, here 10^(1/4).
  const double ratio = std::pow(upper / lower, 1.0 / (points - 1));
  for (int i = 0; i < points; ++i) {
    const double x = space.grid_value(0, i);
    CHECK(
        x ==
        doctest::Approx(lower * std::pow(upper / lower, double(i) / (points - 1))).epsilon(1e-13));
    CHECK(space.encode(0, x) == doctest::Approx(double(i) / (points - 1)).epsilon(1e-13));
    CHECK(space.encoded_grid_value(0, i) == double(i) / (points - 1));
    if (i > 0) CHECK(x / space.grid_value(0, i - 1) == doctest::Approx(ratio).epsilon(1e-13));
  }
  // The bounds encode exactly to 0 and 1.
  CHECK(space.encode(0, lower) == 0.0);
  CHECK(space.encode(0, upper) == 1.0);
  // The nearest grid point is nearest in the logarithm: the geometric mean of two neighbours
  // is halfway, so a point just above it goes to the upper one.
  const double a = space.grid_value(0, 3), b = space.grid_value(0, 4);
  const double middle = std::sqrt(a * b);
  CHECK(space.grid_distance(0, middle * 1.001, 4) < space.grid_distance(0, middle * 1.001, 3));
  CHECK(space.grid_distance(0, middle * 0.999, 3) < space.grid_distance(0, middle * 0.999, 4));
  CHECK(space.interpolate(0, a, b, 0.5) == doctest::Approx(middle).epsilon(1e-14));
}

TEST_CASE("test_space: a linear grid is unchanged by the scale key") {
  const Space implicit = space_of(R"([{"lower": -2, "upper": 3, "grid": 11}])");
  const Space linear = space_of(R"([{"lower": -2, "upper": 3, "grid": 11, "scale": "linear"}])");
  for (int i = 0; i < 11; ++i) {
    CHECK(implicit.grid_value(0, i) == linear.grid_value(0, i));
    CHECK(linear.grid_value(0, i) == -2 + double(i) / 10 * 5);
  }
}

// The documented rule, written independently: geometric points rounded to the nearest integer,
// repeats removed.
std::vector<double> expected_integer_grid(double lower, double upper, int points) {
  std::vector<double> values;
  for (int i = 0; i < points; ++i) {
    double value = std::round(lower * std::pow(upper / lower, double(i) / (points - 1)));
    value = std::min(std::max(value, lower), upper);
    if (values.empty() || value != values.back()) values.push_back(value);
  }
  return values;
}

TEST_CASE("test_space: a log-scale integer grid holds distinct integers within the bounds") {
  struct Case {
    double lower, upper;
    int points;
  };
  const Case cases[] = {{1, 1000, 32}, {1, 8, 32},      {16, 4096, 9},
                        {2, 3, 2},     {1, 100000, 64}, {3, 9007199254740992.0, 4096},
                        {10, 11, 32},  {1, 4096, 4096}, {7, 1000000, 2}};
  for (const Case& c : cases) {
    CAPTURE(c.lower);
    CAPTURE(c.upper);
    CAPTURE(c.points);
    const std::vector<double> grid = log_integer_grid(c.lower, c.upper, c.points);
    REQUIRE(grid.size() >= 2);
    CHECK(grid.size() <= static_cast<std::size_t>(c.points));
    CHECK(grid.front() == c.lower);
    CHECK(grid.back() == c.upper);
    for (std::size_t i = 0; i < grid.size(); ++i) {
      CHECK(grid[i] == std::floor(grid[i]));
      CHECK(grid[i] >= c.lower);
      CHECK(grid[i] <= c.upper);
      if (i > 0) CHECK(grid[i] > grid[i - 1]);  // strictly increasing: no duplicates
    }
    if (c.upper < 1e15) CHECK(grid == expected_integer_grid(c.lower, c.upper, c.points));
  }
  // Exact closed forms: powers of two, and every value of a small range.
  CHECK(log_integer_grid(16, 4096, 9) ==
        std::vector<double>{16, 32, 64, 128, 256, 512, 1024, 2048, 4096});
  CHECK(log_integer_grid(1, 8, 32) == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(log_integer_grid(1, 1000, 4) == std::vector<double>{1, 10, 100, 1000});

  // The Space uses it: size, values, encoding by the logarithm of each value.
  const Space space =
      space_of(R"([{"type": "integer", "scale": "log", "lower": 1, "upper": 1000, "grid": 32}])");
  const std::vector<double> grid = log_integer_grid(1, 1000, 32);
  REQUIRE(space.grid_size(0) == static_cast<int>(grid.size()));
  CHECK(!space.evenly_encoded(0));
  for (int i = 0; i < space.grid_size(0); ++i) {
    CHECK(space.grid_value(0, i) == grid[static_cast<std::size_t>(i)]);
    CHECK(space.encoded_grid_value(0, i) ==
          doctest::Approx(std::log(grid[static_cast<std::size_t>(i)]) / std::log(1000.0)));
  }
  CHECK(space.encode(0, 1) == 0.0);
  CHECK(space.encode(0, 1000) == 1.0);
  CHECK(space.encode(0, 10) == doctest::Approx(1.0 / 3));
  // Integers between grid values are valid points (a host may tell any integer in range).
  CHECK(check_message(space, {999}).empty());
}

TEST_CASE("test_space: points from the unit cube and random points stay in bounds") {
  const Space space = space_of(R"([
      {"lower": 1e-9, "upper": 1e-8, "scale": "log"},
      {"lower": 1e-6, "upper": 1e6, "scale": "log", "grid": 5},
      {"type": "integer", "scale": "log", "lower": 1, "upper": 1000},
      {"type": "integer", "scale": "log", "lower": 5, "upper": 9007199254740992, "grid": 100}])");
  Random random(7);
  for (int d = 0; d < 4; ++d) {
    const VariableSpec& v = space.variable(static_cast<std::size_t>(d));
    for (double u : {0.0, 1e-300, 0.25, 0.5, 0x1.fffffffffffffp-1, 1.0}) {
      const double x = space.from_unit(static_cast<std::size_t>(d), u);
      CHECK(x >= v.lower);
      CHECK(x <= v.upper);
    }
    CHECK(space.from_unit(static_cast<std::size_t>(d), 0.0) == v.lower);
    CHECK(space.from_unit(static_cast<std::size_t>(d), 1.0) == v.upper);
  }
  // Log-uniform draws: about half fall below the geometric mean of the bounds (1e-8.5 and 1
  // here), where a uniform draw would put about 24% and 0.0001%.
  int below[2] = {0, 0};
  const int draws = 4000;
  for (int i = 0; i < draws; ++i) {
    const std::vector<double> x = space.random_point(random);
    CHECK(check_message(space, x).empty());
    below[0] += x[0] < std::sqrt(1e-9 * 1e-8);
    below[1] += x[1] < 1.0;
    // Integers on a log scale are drawn on their grid.
    const std::vector<double> grid = log_integer_grid(1, 1000, 32);
    CHECK(std::find(grid.begin(), grid.end(), x[2]) != grid.end());
  }
  CHECK(below[0] == doctest::Approx(draws / 2).epsilon(0.1));
  CHECK(below[1] == doctest::Approx(draws / 2).epsilon(0.1));
}

TEST_CASE("test_space: a Space refuses a hand-built log variable with lower <= 0") {
  VariableSpec variable;
  variable.name = "lr";
  variable.scale = Scale::log;
  variable.lower = 0;
  variable.upper = 1;
  CHECK_THROWS_AS(Space({variable}), Error);
}

TEST_CASE("test_space: check_point prints numbers in shortest round-trip form") {
  const Space space = space_of(R"([
      {"name": "tiny", "lower": 1e-9, "upper": 1e-8},
      {"name": "k", "type": "integer", "lower": -3, "upper": 4000},
      {"name": "material", "type": "categorical", "choices": ["steel", "oak", "pine"]}])");
  std::string message = check_message(space, {1e-10, 0, 0});
  CHECK_MESSAGE(contains(message, "x[0] (variable 'tiny') = 1e-10 is outside [1e-09, 1e-08]"),
                message);
  message = check_message(space, {std::nextafter(1e-8, 1.0), 0, 0});
  CHECK_MESSAGE(contains(message, "= 1.0000000000000002e-08 is outside [1e-09, 1e-08]"), message);
  message = check_message(space, {5e-9, 0.5, 0});
  CHECK_MESSAGE(contains(message, "x[1] (variable 'k') = 0.5 is not an integer"), message);
  message = check_message(space, {5e-9, 4001, 0});
  CHECK_MESSAGE(contains(message, "= 4001 is outside [-3, 4000]"), message);
  // A categorical value that is no choice's index names the choices.
  for (double bad : {3.0, -1.0, 1.5}) {
    message = check_message(space, {5e-9, 0, bad});
    CHECK_MESSAGE(contains(message, "x[2] (variable 'material') = " + format_number(bad) +
                                        " is not the index of a choice; the choices are "
                                        "0 \"steel\", 1 \"oak\", 2 \"pine\""),
                  message);
  }
  // Many choices: the first few and how many there are.
  std::string choices;
  for (int i = 0; i < 40; ++i) choices += (i ? ", " : "") + ("\"c" + std::to_string(i) + "\"");
  const Space many = space_of(R"([{"type": "categorical", "choices": [)" + choices + "]}]");
  message = check_message(many, {40});
  CHECK_MESSAGE(contains(message, "0 \"c0\", 1 \"c1\""), message);
  CHECK_MESSAGE(contains(message, "(40 choices, 0 to 39)"), message);
  CHECK_MESSAGE(!contains(message, "c20"), message);
}

TEST_CASE("test_space: format_number is the shortest text that reads back exactly") {
  CHECK(format_number(0.0) == "0");
  CHECK(format_number(-0.0) == "0");
  CHECK(format_number(2.0) == "2");
  CHECK(format_number(-4096.0) == "-4096");
  CHECK(format_number(1000000.0) == "1000000");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(0.5) == "0.5");
  CHECK(format_number(1e-9) == "1e-09");
  CHECK(format_number(2.5e-9) == "2.5e-09");
  CHECK(format_number(1e20) == "1e+20");
  CHECK(format_number(1e17) == "1e+17");
  CHECK(format_number(1.5e16) == "15000000000000000");
  CHECK(format_number(-1234567.5) == "-1234567.5");
  CHECK(format_number(0.0001) == "0.0001");
  CHECK(format_number(0.00012) == "0.00012");
  CHECK(format_number(1e-5) == "1e-05");
  CHECK(format_number(-2.5e-300) == "-2.5e-300");
  CHECK(format_number(0.1 + 0.2) == "0.30000000000000004");
  CHECK(format_number(std::nan("")) == "NaN");
  CHECK(format_number(INFINITY) == "Infinity");
  CHECK(format_number(-INFINITY) == "-Infinity");

  // Round trip, and nothing shorter would do (the shortest is at most 17 significant digits).
  std::mt19937_64 random_bits(3);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = random_bits();
    double value = 0.0;
    static_assert(sizeof value == sizeof bits, "IEEE double");
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value)) continue;
    const std::string text = format_number(value);
    CAPTURE(text);
    CHECK(read_back(text) == value);
    CHECK(text.size() <= 24);
  }
  for (double value :
       {1e-9, 1e-8, 123.456, 1.0 / 3, 6.02214076e23, 5e-324, 1.7976931348623157e308}) {
    CHECK(read_back(format_number(value)) == value);
  }
}

// A decimal comma and digit grouping, as some hosts set globally.
struct CommaPunct : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

TEST_CASE("test_space: format_number ignores the C and C++ global locales") {
  const std::locale previous_global =
      std::locale::global(std::locale(std::locale::classic(), new CommaPunct));
  // A C locale whose decimal separator is a comma, when the system has one.
  const std::string previous_c = std::setlocale(LC_ALL, nullptr);
  bool comma_c_locale = false;
  for (const char* name : {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "fr_FR", "ru_RU.UTF-8"}) {
    if (std::setlocale(LC_ALL, name) != nullptr) {
      comma_c_locale = true;
      break;
    }
  }
  if (!comma_c_locale) MESSAGE("no C locale with a decimal comma is installed");
  CHECK(format_number(0.25) == "0.25");
  CHECK(format_number(2.5e-9) == "2.5e-09");
  CHECK(format_number(1234567.5) == "1234567.5");
  CHECK(format_number(1e20) == "1e+20");
  std::setlocale(LC_ALL, previous_c.c_str());
  std::locale::global(previous_global);
}

}  // namespace
}  // namespace addbo::core

TEST_SUITE_END();
