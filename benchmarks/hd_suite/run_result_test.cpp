// The regret trace of run_result.hpp on hand-made values: the running regret in each direction,
// and the values it refuses (a value past the optimum, or past a reference that stands in for
// an unknown one, and a non-finite value).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "run_result.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

using namespace hd_suite;

namespace {

FunctionInstance function_with_optimum(Direction direction, double optimum, bool reference) {
  FunctionInstance f;
  f.name = "made";
  f.direction = direction;
  f.optimum = optimum;
  f.optimum_is_reference = reference;
  return f;
}

// The message of the logic_error that adding `value` to a fresh trace of `f` throws ("" if none).
std::string refusal(const FunctionInstance& f, double value) {
  RunResult result;
  RegretTrace trace(f, result);
  try {
    trace.add(value, 0.0);
  } catch (const std::logic_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the regret is the best so far's distance to the optimum, in its direction") {
  const FunctionInstance maximize = function_with_optimum(Direction::maximize, 10.0, false);
  RunResult up;
  RegretTrace trace_up(maximize, up);
  for (const double value : {2.0, 7.0, 5.0, 9.5}) trace_up.add(value, 0.0);
  CHECK(up.regret == std::vector<double>{8.0, 3.0, 3.0, 0.5});

  const FunctionInstance minimize = function_with_optimum(Direction::minimize, -1.0, false);
  RunResult down;
  RegretTrace trace_down(minimize, down);
  for (const double value : {4.0, 6.0, 0.0}) trace_down.add(value, 0.0);
  CHECK(down.regret == std::vector<double>{5.0, 5.0, 1.0});
}

TEST_CASE("a value past the optimum is refused, naming what kind of optimum it passed") {
  const FunctionInstance exact = function_with_optimum(Direction::maximize, 10.0, false);
  const FunctionInstance reference = function_with_optimum(Direction::maximize, 10.0, true);
  CHECK(refusal(exact, 10.5) == "made: a value beats the exact optimum");
  CHECK(refusal(reference, 10.5) == "made: a value beats the reference optimum");
  // Rounding past the optimum is not refused, and its regret is 0.
  CHECK(refusal(exact, 10.0 + 1e-12).empty());
  const FunctionInstance minimize = function_with_optimum(Direction::minimize, 0.0, false);
  CHECK(refusal(minimize, -1e-6) == "made: a value beats the exact optimum");
  RunResult result;
  RegretTrace trace(exact, result);
  CHECK_THROWS_AS(trace.add(std::numeric_limits<double>::quiet_NaN(), 0.0), std::runtime_error);
  CHECK(result.values.empty());
}
