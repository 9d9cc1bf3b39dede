// Local search: the trust-region state replayed from the told values, against the rule written
// out by hand, and the optimizer keeping its model-based asks inside the box.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "acquisition/trust_region.hpp"
#include "optimizer/optimizer.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("acquisition");

TEST_CASE("the trust region opens after a stall, grows on successes, shrinks and restarts") {
  TrustRegionRule rule;
  rule.stall = 3;
  rule.failures = 2;
  rule.successes = 2;
  rule.initial_length = 0.8;
  rule.min_length = 0.15;
  rule.max_length = 1.6;
  std::vector<double> values = {1.0, 2.0};  // the initial design: best 2
  const auto state = [&] { return replay_trust_region(values, 2, rule); };
  CHECK_FALSE(state().local);
  values.insert(values.end(), {1.5, 2.0, 1.0});  // three failures: a box opens
  CHECK(state().local);
  CHECK(state().length == 0.8);
  values.insert(values.end(), {3.0, 4.0});  // two successes: the side doubles
  CHECK(state().length == 1.6);
  values.insert(values.end(), {5.0, 6.0});  // and stays at the largest side
  CHECK(state().length == 1.6);
  values.insert(values.end(), {6.0, 6.0});  // a tie is a failure: halved
  CHECK(state().length == 0.8);
  values.insert(values.end(), {0.0, 0.0, 0.0, 0.0});  // 0.4, then 0.2
  CHECK(state().length == doctest::Approx(0.2));
  values.insert(values.end(), {0.0, 0.0});  // 0.1 < 0.15: back to the global phase
  CHECK_FALSE(state().local);
  CHECK(state().restarts == 1);
  // An improvement smaller than 1e-3 of the best counts as a failure.
  values.insert(values.end(), {6.001, 6.002, 6.003});
  CHECK(state().local);
}

TEST_CASE("the default rule scales with D and the grid") {
  CHECK(trust_region_rule(2, 32).failures == 4);
  CHECK(trust_region_rule(10, 32).failures == 10);
  CHECK(trust_region_rule(100, 32).failures == 16);
  CHECK(trust_region_rule(10, 32).min_length == doctest::Approx(2.0 / 31.0));
}

// Once the optimizer reports the local phase, the next ask lies in the box around the best
// point (or the box was used up and info says the search went global for it).
TEST_CASE("asks in the local phase stay within the box around the best point") {
  Optimizer optimizer(parse_config(nlohmann::json{{"dimension", 8}, {"seed", 3}}));
  const auto objective = [](const std::vector<double>& x) {
    double sum = 0.0;
    for (std::size_t d = 0; d < x.size(); ++d)
      sum -= (x[d] - 0.3) * (x[d] - 0.3) * (1.0 + static_cast<double>(d));
    return sum;
  };
  int local_asks = 0;
  for (int i = 0; i < 150; ++i) {
    const nlohmann::json search = optimizer.info()["search"];
    const Observation best = optimizer.observation_count() > 0 ? optimizer.best() : Observation{};
    const std::vector<double> x = optimizer.ask();
    if (optimizer.info()["search"]["last_ask"] == "local") {
      CHECK(search["phase"] == "local");
      ++local_asks;
      const double half = 0.5 * search["box_length"].get<double>();
      // Each coordinate within the box, up to the refinement's half grid step (1/31 / 2).
      for (std::size_t d = 0; d < x.size(); ++d)
        CHECK(std::fabs(x[d] - best.x[d]) <= half + 0.5 / 31.0 + 1e-12);
    }
    optimizer.tell(x, objective(x));
  }
  CHECK(local_asks > 20);
  // The local-search state is replayed from the told values: a restored optimizer continues
  // exactly, in the middle of a box.
  optimizer.ask();
  Optimizer restored = Optimizer::from_state(optimizer.save());
  CHECK(restored.info()["search"]["phase"] == optimizer.info()["search"]["phase"]);
  for (int i = 0; i < 20; ++i) {
    const std::vector<double> a = optimizer.ask(), b = restored.ask();
    REQUIRE(a == b);
    optimizer.tell(a, objective(a));
    restored.tell(b, objective(b));
  }
  CHECK(optimizer.save() == restored.save());
  // Turned off, the phase is always global.
  Optimizer global(parse_config(
      nlohmann::json{{"dimension", 8}, {"seed", 3}, {"acquisition", {{"local_search", false}}}}));
  for (int i = 0; i < 60; ++i) {
    const std::vector<double> x = global.ask();
    global.tell(x, objective(x));
    CHECK(global.info()["search"]["phase"] == "global");
  }
}

TEST_SUITE_END();
