// Local search: the trust-region state replayed from the told values, against the rule written
// out by hand, and the optimizer keeping its model-based asks inside the box.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "acquisition/trust_region.hpp"
#include "optimizer/optimizer.hpp"
#include "support/grid_acquisition.hpp"
#include "util/random.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("acquisition");

namespace {

// A rule short enough to walk through by hand: a box after 3 failures, doubled after 2
// successes, halved after 2 failures, converged below 0.15.
TrustRegionRule short_rule() {
  TrustRegionRule rule;
  rule.stall = 3;
  rule.failures = 2;
  rule.successes = 2;
  rule.initial_length = 0.8;
  rule.min_length = 0.15;
  rule.max_length = 1.6;
  return rule;
}

// A tracker fed by hand (an initial design of 2): values tagged in the order told, outcomes
// without a value, and runs driven to convergence.
struct ScriptedTracker {
  explicit ScriptedTracker(const TrustRegionRule& rule) : tracker(2, rule) {}
  void value(double y) { tracker.add(y, observations++); }
  void failure() { tracker.add_failure(observations); }
  // Values of 0 until the current run has converged (a run that does not within 1,000 fails
  // the test rather than hanging it).
  void converge() {
    const std::size_t restarts = tracker.state().restarts;
    for (int k = 0; k < 1000 && tracker.state().restarts == restarts; ++k) value(0.0);
    REQUIRE(tracker.state().restarts > restarts);
  }
  const TrustRegionState& state() const { return tracker.state(); }

  TrustRegionTracker tracker;
  std::size_t observations = 0;
};

// A restored optimizer continues as the original: `count` asks of each are the same point, each
// told by `tell` (an optimizer and the point), and the saved states agree at the end.
template <typename Tell>
void continue_in_lockstep(Optimizer& original, Optimizer& restored, int count, Tell tell) {
  for (int i = 0; i < count; ++i) {
    const std::vector<double> a = original.ask(), b = restored.ask();
    REQUIRE(a == b);
    tell(original, a);
    tell(restored, b);
  }
  CHECK(original.save() == restored.save());
}

}  // namespace

TEST_CASE("the trust region opens after a stall, grows on successes, shrinks and restarts") {
  const TrustRegionRule rule = short_rule();
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
  CHECK(state().run_best == 8);             // the first 6.0 (index 8); ties do not move it
  values.insert(values.end(), {0.0, 0.0});  // 0.1 < 0.15: back to the global phase
  CHECK_FALSE(state().local);
  CHECK(state().restarts == 1);
  // The next run starts afresh: its first value is its best (and a success), whatever the
  // earlier runs found.
  CHECK_FALSE(state().run_best.has_value());
  values.push_back(1.0);
  CHECK(state().run_best == values.size() - 1);
  CHECK(state().successes == 1);
  // An improvement smaller than 1e-3 of the run's best counts as a failure.
  values.insert(values.end(), {1.0001, 1.0002, 1.0003});
  CHECK(state().local);
  CHECK(state().run_best == values.size() - 1);  // the run's best moves with any improvement
}

// TuRBO's margin, 1e-3 of the run's best, is 10 for a score of 10,000: a gain of 0.5 where the
// values told spread over 20 is still a success, because the margin is at most 1% of that
// spread. Where that cap applies, a constant added to every value changes nothing, and neither
// does a positive factor (the margin scales with the values either way).
TEST_CASE("the success margin is TuRBO's, at most a hundredth of the values' spread") {
  const TrustRegionRule rule = short_rule();
  const std::vector<double> scores = {
      10000.0, 10020.0,           // the initial design: best 10,020, spread 20 (cap 0.2)
      10000.0, 10010.0, 10020.0,  // three failures: a box of side 0.8 opens
      10020.5, 10021.0,           // gains of 0.5: two successes, the side doubles
      10021.1, 10021.2,           // gains of 0.1: two failures, the side halves
      10022.0};                   // a success again
  const auto state_after = [&](const std::vector<double>& values, std::size_t count) {
    return replay_trust_region(std::vector<double>(values.begin(), values.begin() + count), 2,
                               rule);
  };
  CHECK(state_after(scores, 5).local);
  CHECK(state_after(scores, 5).length == 0.8);
  CHECK(state_after(scores, 7).length == 1.6);
  CHECK(state_after(scores, 9).length == 0.8);
  CHECK(state_after(scores, 10).successes == 1);
  CHECK(state_after(scores, 10).run_best == 9);
  // The same values moved by a constant, or scaled: the same states, told by told.
  const auto steps = [](const TrustRegionState& state) {
    return std::make_tuple(state.local, state.length, state.failures, state.successes,
                           state.restarts, state.run_best);
  };
  const auto transformed = [&](double scale, double shift) {
    std::vector<double> values;
    for (double v : scores) values.push_back(scale * (v - 10000.0) + shift);
    return values;
  };
  for (const auto& [scale, shift] : std::vector<std::pair<double, double>>{
           {1.0, 1e6}, {1.0, -1e9}, {3.0, 10000.0}, {0.25, 5e7}}) {
    CAPTURE(scale);
    CAPTURE(shift);
    const std::vector<double> values = transformed(scale, shift);
    for (std::size_t count = 1; count <= scores.size(); ++count) {
      CAPTURE(count);
      CHECK(steps(state_after(scores, count)) == steps(state_after(values, count)));
    }
  }
  // Near zero TuRBO's margin is the smaller: gains of 0.01 on a best of 1 are successes although
  // the values spread over 100 (cap 1).
  const TrustRegionState near_zero =
      replay_trust_region({-99.0, 1.0, 0.0, 0.0, 0.0, 1.01, 1.02}, 2, rule);
  REQUIRE(near_zero.local);
  CHECK(near_zero.length == 1.6);  // two successes in a row: doubled
}

TEST_CASE("a box reopens around the best when its run met bounds and a new run fell short") {
  // The rule by hand (short_rule: a box after 3 failures, halved after 2, converged after three
  // halvings): a first run that finds the best and meets an outcome without a value in its box,
  // a second run that converges below that best, and a third that reopens around it.
  const TrustRegionRule rule = short_rule();
  for (const bool met_bound : {true, false}) {
    CAPTURE(met_bound);
    TrustRegionTracker tracker(2, rule);
    std::size_t observations = 0;
    const auto value = [&](double y) { tracker.add(y, observations++); };
    value(1.0);
    value(2.0);  // the initial design: best 2 (index 1)
    for (double y : {1.5, 2.0, 1.0}) value(y);
    REQUIRE(tracker.state().local);
    value(3.0);  // a success: the run's best, index 5
    if (met_bound) {
      tracker.add_failure(++observations);  // an infeasible observation in the box
    } else {
      value(0.0);
    }
    for (int k = 0; k < 5; ++k) value(0.0);  // six failures in all: converged
    REQUIRE(tracker.state().restarts == 1);
    // The converged run held the best: the next one starts afresh either way.
    CHECK_FALSE(tracker.state().local);
    CHECK_FALSE(tracker.state().around_best);
    CHECK_FALSE(tracker.state().run_best.has_value());
    value(1.0);  // the new run's best
    for (double y : {0.5, 0.5, 0.5}) value(y);
    REQUIRE(tracker.state().local);
    for (int k = 0; k < 6; ++k) value(0.0);  // converged at 1, below the best of 3
    REQUIRE(tracker.state().restarts == 2);
    if (!met_bound) {
      // Without outcomes that bring no value every restart starts afresh.
      CHECK_FALSE(tracker.state().local);
      CHECK_FALSE(tracker.state().around_best);
      continue;
    }
    // The box reopens at the first side around the best (index 5), with no global phase.
    CHECK(tracker.state().local);
    CHECK(tracker.state().around_best);
    CHECK(tracker.state().length == rule.initial_length);
    CHECK(tracker.state().run_best == 5);
    CHECK(tracker.state().box_since == observations);
    // Its values are judged against that best: 2.5 is a failure, 3.5 a success that moves it.
    value(2.5);
    CHECK(tracker.state().failures == 1);
    value(3.5);
    CHECK(tracker.state().successes == 1);
    CHECK(tracker.state().run_best == observations - 1);
    // Once converged, the run after it starts afresh, although it met no bound itself.
    for (int k = 0; k < 6; ++k) value(0.0);
    CHECK(tracker.state().restarts == 3);
    CHECK_FALSE(tracker.state().local);
    CHECK_FALSE(tracker.state().around_best);
  }
}

TEST_CASE("after a restart the global search exploits until its box opens") {
  // The rule by hand (short_rule with exploiting): the global phase of every run after a
  // restart exploits, whatever its values, until it stalls into a box; a failure ends it, and
  // no restart after exploits again.
  TrustRegionRule rule = short_rule();
  rule.exploit_after_restart = true;
  ScriptedTracker tracker(rule);
  tracker.value(1.0);
  tracker.value(2.0);
  for (double y : {1.5, 2.0, 1.0}) tracker.value(y);
  REQUIRE(tracker.state().local);
  CHECK_FALSE(tracker.state().exploiting);  // the first run's global phase explores
  tracker.value(3.0);
  tracker.converge();
  REQUIRE(tracker.state().restarts == 1);
  CHECK(tracker.state().exploiting);
  CHECK_FALSE(tracker.state().local);
  for (double y : {1.0, 4.0, 0.5, 0.5}) {  // better or worse than the best: still exploiting
    tracker.value(y);
    CHECK(tracker.state().exploiting);
  }
  tracker.value(0.5);  // the third failure in a row: the box opens, around 4
  CHECK(tracker.state().local);
  CHECK_FALSE(tracker.state().exploiting);
  CHECK(tracker.state().run_best == tracker.observations - 4);
  tracker.converge();
  REQUIRE(tracker.state().restarts == 2);
  CHECK(tracker.state().exploiting);
  // A failure ends it, and no restart after exploits again.
  tracker.failure();
  CHECK_FALSE(tracker.state().exploiting);
  CHECK_FALSE(tracker.state().local);
  tracker.converge();
  CHECK(tracker.state().restarts == 3);
  CHECK_FALSE(tracker.state().exploiting);
  // Without the rule no restart exploits.
  std::vector<double> values = {1.0, 2.0, 1.5, 2.0, 1.0};
  while (replay_trust_region(values, 2, short_rule()).restarts == 0) values.push_back(0.0);
  CHECK_FALSE(replay_trust_region(values, 2, short_rule()).exploiting);
}

TEST_CASE("a run that falls short of the best is followed by one that refines it") {
  // The rule by hand (short_rule with exploiting and refinement below 0.05): a first run finds
  // the best, a second converges below it, and a third refines it in a box of twice the
  // smallest side that converges only below 0.05; the run after that explores again.
  TrustRegionRule rule = short_rule();
  rule.exploit_after_restart = true;
  rule.refine_length = 0.05;
  ScriptedTracker tracker(rule);
  const auto run_short = [](ScriptedTracker& t) {  // its best (1) is below the best of all
    t.value(1.0);
    for (double y : {0.5, 0.5, 0.5}) t.value(y);
    REQUIRE(t.state().local);
    t.converge();
  };
  tracker.value(1.0);
  tracker.value(2.0);
  for (double y : {1.5, 2.0, 1.0}) tracker.value(y);
  REQUIRE(tracker.state().local);
  tracker.value(3.0);  // the best of all runs, index 5
  tracker.converge();
  REQUIRE(tracker.state().restarts == 1);
  CHECK_FALSE(tracker.state().local);  // it held the best: the next run explores
  run_short(tracker);
  REQUIRE(tracker.state().restarts == 2);
  CHECK(tracker.state().local);
  CHECK(tracker.state().around_best);
  CHECK(tracker.state().length == 2.0 * rule.min_length);
  CHECK(tracker.state().run_best == 5);
  CHECK(tracker.state().box_since == tracker.observations);
  // It halves as any box does, 0.3 -> 0.15 -> 0.075, past the smallest side of other runs...
  for (int k = 0; k < 4; ++k) tracker.value(0.0);
  CHECK(tracker.state().local);
  CHECK(tracker.state().length == doctest::Approx(0.075));
  CHECK(tracker.state().restarts == 2);
  // ...and converges below 0.05; the run after it explores from the global phase.
  tracker.value(0.0);
  tracker.value(0.0);
  CHECK(tracker.state().restarts == 3);
  CHECK_FALSE(tracker.state().local);
  CHECK_FALSE(tracker.state().around_best);
  CHECK(tracker.state().exploiting);
  run_short(tracker);  // short again: refined again
  CHECK(tracker.state().restarts == 4);
  CHECK(tracker.state().around_best);
  CHECK(tracker.state().length == 2.0 * rule.min_length);
  tracker.converge();
  // Once an outcome without a value is told, a short run is followed by a fresh one (the
  // box reopened at the first side is that case's rule, for a best whose run met one).
  tracker.failure();
  run_short(tracker);
  CHECK_FALSE(tracker.state().local);
  CHECK_FALSE(tracker.state().around_best);
  // Without refinement (refine_length 0) a short run is followed by a fresh one.
  rule.refine_length = 0.0;
  ScriptedTracker plain(rule);
  for (double y : {1.0, 2.0, 1.5, 2.0, 1.0, 3.0}) plain.value(y);
  plain.converge();
  run_short(plain);
  CHECK(plain.state().restarts == 2);
  CHECK_FALSE(plain.state().around_best);
}

TEST_CASE("box_since counts the observations told when the box last moved or resized") {
  // Outcomes of a run with values, infeasible observations and failed evaluations mixed, and a
  // brute force that tracks the box's (phase, side, centre) outcome by outcome.
  TrustRegionTracker tracker(2, short_rule());
  Random random(17);
  std::size_t observations = 0, expected = 0, expected_run_start = 0;
  TrustRegionState previous = tracker.state();
  int moves = 0, new_runs = 0, reopened = 0;
  for (int k = 0; k < 400; ++k) {
    const double draw = random.uniform();
    if (draw < 0.15) {
      tracker.add_failure(observations);  // a failed evaluation: no observation
    } else if (draw < 0.3) {
      tracker.add_failure(++observations);  // an infeasible observation
    } else {
      // 64 levels: ties occur, and new runs sometimes fall short of the best (reopening).
      tracker.add(std::floor(64.0 * random.uniform()) / 8.0, observations++);
    }
    const TrustRegionState& state = tracker.state();
    if (state.local != previous.local || state.length != previous.length ||
        state.run_best != previous.run_best || state.around_best != previous.around_best) {
      expected = observations;
      ++moves;
    }
    // A run begins at a restart: afresh, with the observations told by then, or reopened
    // around the best of all runs, which every observation before serves.
    if (state.restarts != previous.restarts) {
      expected_run_start = state.around_best ? 0 : observations;
      ++(state.around_best ? reopened : new_runs);
    }
    CAPTURE(k);
    CHECK(state.box_since == expected);
    CHECK(state.run_start == expected_run_start);
    previous = state;
  }
  CHECK(moves > 20);
  CHECK(new_runs > 3);
  CHECK(reopened > 0);
}

TEST_CASE("the default rule scales with D") {
  CHECK(trust_region_rule(2).failures == 4);
  CHECK(trust_region_rule(10).failures == 10);
  CHECK(trust_region_rule(100).failures == 16);
  CHECK(trust_region_rule(10).min_length == doctest::Approx(std::pow(0.5, 7)));
  CHECK(trust_region_rule(10).refine_length == doctest::Approx(std::pow(0.5, 12)));
}

TEST_CASE("the box's sides follow the lengthscales, with the geometric mean as the side") {
  std::vector<VariableSpec> variables(3);
  variables[2].type = VariableType::categorical;
  variables[2].choices = {"a", "b"};
  variables[2].grid = 2;
  const Space space(variables);
  const std::vector<double> sides = trust_region_sides(space, 0.4, {0.1, 0.4, 5.0});
  // Geometric mean of 0.1 and 0.4 is 0.2: sides 0.4 x 0.5 and 0.4 x 2; none along a choice.
  CHECK(sides[0] == doctest::Approx(0.2));
  CHECK(sides[1] == doctest::Approx(0.8));
  CHECK(sides[2] == 0.0);
}

// Once the optimizer reports the local phase, the next ask lies in the box around the run's
// best point (or the box was used up and info says the search went global for it).
TEST_CASE("asks in the local phase stay within the box around the best point") {
  Optimizer optimizer(parse_config(nlohmann::json{{"dimension", 8}, {"seed", 3}}));
  const auto objective = [](const std::vector<double>& x) {
    double sum = 0.0;
    for (std::size_t d = 0; d < x.size(); ++d)
      sum -= (x[d] - 0.3) * (x[d] - 0.3) * (1.0 + static_cast<double>(d));
    return sum;
  };
  int local_asks = 0;
  int local_asks_that_learned = 0;
  for (int i = 0; i < 150; ++i) {
    const nlohmann::json before = optimizer.info();
    const nlohmann::json search = before["search"];
    const std::vector<double> x = optimizer.ask();
    const nlohmann::json asked = optimizer.info();
    if (asked["search"]["last_ask"] == "local") {
      CHECK(search["phase"] == "local");
      ++local_asks;
      if (asked["learned_at_observations"] != before["learned_at_observations"]) {
        ++local_asks_that_learned;
      }
      // Each coordinate within the box around the run's best point, its sides shaped by the
      // lengthscales (their geometric mean gets box_length): those of the model the ask used,
      // which an ask that learns has just changed.
      const std::vector<double> centre = search["box_centre"].get<std::vector<double>>();
      const std::vector<double> lengthscales = asked["lengthscales"].get<std::vector<double>>();
      double log_mean = 0.0;
      for (double l : lengthscales) log_mean += std::log(l) / static_cast<double>(x.size());
      for (std::size_t d = 0; d < x.size(); ++d) {
        const double half =
            0.5 * search["box_length"].get<double>() * lengthscales[d] / std::exp(log_mean);
        CHECK(std::fabs(x[d] - centre[d]) <= half + 1e-12);
      }
    } else {
      CHECK(search["box_centre"].is_null() == (search["phase"] == "global"));
    }
    optimizer.tell(x, objective(x));
  }
  CHECK(local_asks > 20);
  // The case the lengthscales after the ask are for: a local ask that learned first.
  CHECK(local_asks_that_learned > 0);
  // The local-search state is replayed from the told values: a restored optimizer continues
  // exactly, in the middle of a box.
  optimizer.ask();
  Optimizer restored = Optimizer::from_state(optimizer.save());
  CHECK(restored.info()["search"]["phase"] == optimizer.info()["search"]["phase"]);
  continue_in_lockstep(optimizer, restored, 20, [&](Optimizer& o, const std::vector<double>& x) {
    o.tell(x, objective(x));
  });
  // Turned off, the phase is always global.
  Optimizer global(parse_config(
      nlohmann::json{{"dimension", 8}, {"seed", 3}, {"acquisition", {{"local_search", false}}}}));
  for (int i = 0; i < 60; ++i) {
    const std::vector<double> x = global.ask();
    global.tell(x, objective(x));
    CHECK(global.info()["search"]["phase"] == "global");
  }
}

// Once a run has converged, the global search exploits the model at a hundredth of beta_t until
// its box opens, but only on an objective without constraints or failures: on an integer domain (no
// refinement), each global ask's beta against the rule, and the point against every cell's UCB at
// the weight it was asked with, computed from the predictions. A restored optimizer continues the
// same from within an exploiting stretch.
TEST_CASE("after a restart the global search exploits the model, without constraints or failures") {
  const nlohmann::json base = {
      {"variables",
       {{{"type", "integer"}, {"lower", 0}, {"upper", 7}},
        {{"type", "integer"}, {"lower", 0}, {"upper", 7}},
        {{"type", "integer"}, {"lower", 0}, {"upper", 3}}}},
      {"initial_points", 4},
      {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}}}}},
      {"kernel", {{"lengthscales", {0.3, 0.3, 0.5}}, {"noise_variance", 1e-4}}}};
  const auto objective = [](const std::vector<double>& x) {
    return std::sin(x[0]) * std::cos(0.7 * x[1]) - 0.1 * std::pow(x[2] - 2.0, 2);
  };
  enum class Twin { plain, constrained, failed };
  for (const Twin twin : {Twin::plain, Twin::constrained, Twin::failed}) {
    nlohmann::json config = base;
    if (twin == Twin::constrained) config["constraints"] = {{{"name", "c"}, {"upper", 1.0}}};
    const auto tell = [&](Optimizer& o, const std::vector<double>& x) {
      if (twin == Twin::constrained) {
        o.tell(x, objective(x), {0.0});
      } else {
        o.tell(x, objective(x));
      }
    };
    int restarted = 0, exploiting = 0;
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      config["seed"] = seed;
      Optimizer optimizer(parse_config(config));
      std::set<std::vector<double>> known;  // observed or failed
      bool restored = false;
      for (int i = 0; i < 150; ++i) {
        const nlohmann::json search = optimizer.info()["search"];
        // Exploiting: the global phase of every run after the first, without constraints or
        // failures.
        const bool expected_exploiting =
            twin == Twin::plain && search["phase"] == "global" && search["restarts"].get<int>() > 0;
        CHECK(search["exploiting"].get<bool>() == expected_exploiting);
        if (search["exploiting"].get<bool>()) {
          ++exploiting;
          if (!restored && seed == 0) {
            // From here a restored optimizer asks and is told the same.
            Optimizer copy = Optimizer::from_state(optimizer.save());
            continue_in_lockstep(optimizer, copy, 10, tell);
            restored = true;
            break;
          }
        }
        const std::vector<double> x = optimizer.ask();
        const nlohmann::json info = optimizer.info();
        if (info["last_ask"]["phase"] == "global" && search["phase"] == "global") {
          restarted += search["restarts"].get<int>() > 0;
          // t counts the points told before (observed or failed; none pending), plus one.
          const double beta_t = 0.5 * std::log(2.0 * static_cast<double>(i + 1));
          const double expected = search["exploiting"].get<bool>() ? 0.01 * beta_t : beta_t;
          CHECK(info["last_ask"]["beta"].get<double>() == doctest::Approx(expected).epsilon(1e-12));
          // The point: the best new cell at that weight (with constraints or failures the ask
          // is steered to cells their models admit, a different maximiser).
          if (twin == Twin::plain) {
            const double weight = info["last_ask"]["exploration_weight"].get<double>();
            const testing::GridAcquisition grid = testing::grid_acquisition(optimizer, {7, 7, 3});
            const std::size_t asked = grid.index_of(x);
            REQUIRE(asked < grid.points.size());
            CHECK(grid.shortfall(asked, weight, &known) <= grid.tolerance(asked, weight));
          }
        }
        known.insert(x);
        if (twin == Twin::failed && i == 0) {
          optimizer.tell_failure(x);
        } else {
          tell(optimizer, x);
        }
      }
    }
    CHECK(restarted > 0);
    CHECK((exploiting > 0) == (twin == Twin::plain));
  }
}

// A linear objective whose optimum lies on a constraint's bound: runs converge there on asks
// that break it, so boxes reopen around the best. While one is reopened, info's box centre is
// the best feasible point, and a restored optimizer continues the same.
TEST_CASE("a box reopened around the best is centred on the best feasible point") {
  Optimizer optimizer(parse_config(nlohmann::json{
      {"variables", {{{"lower", -1.5}, {"upper", 1.5}}, {{"lower", -1.5}, {"upper", 1.5}}}},
      {"goal", "maximize"},
      {"seed", 3},
      {"constraints", {{{"name", "radius2"}, {"upper", 1.0}}}}}));
  const auto tell = [](Optimizer& o, const std::vector<double>& x) {
    o.tell(x, x[0] + 0.5 * x[1], {x[0] * x[0] + x[1] * x[1]});
  };
  int reopened = 0;
  std::size_t restarts = 0;
  for (int i = 0; i < 260; ++i) {
    const std::vector<double> x = optimizer.ask();
    tell(optimizer, x);
    const nlohmann::json search = optimizer.info()["search"];
    const std::size_t now = search["restarts"].get<std::size_t>();
    if (search["around_best"].get<bool>()) {
      CHECK(search["phase"] == "local");
      CHECK(search["box_centre"].get<std::vector<double>>() == optimizer.best().x);
      // A reopened run starts at a restart, and only after another run.
      if (reopened == 0) CHECK(now >= 2);
      ++reopened;
    }
    CHECK(now >= restarts);
    restarts = now;
  }
  CHECK(reopened > 0);
  Optimizer restored = Optimizer::from_state(optimizer.save());
  nlohmann::json kept = optimizer.info()["search"], replayed = restored.info()["search"];
  kept.erase("last_ask");  // this handle's own last ask ("none" in a restored one)
  replayed.erase("last_ask");
  CHECK(replayed == kept);
  continue_in_lockstep(optimizer, restored, 20, tell);
}

// An objective of many basins (a tilted egg crate): later runs converge in other basins, below
// the best, and the runs after them refine the best in a small box that shrinks past the
// smallest side of other runs. While one refines, info's box centre is the best point, and a
// restored optimizer continues the same.
TEST_CASE("a run that refines the best is centred on it and shrinks past the smallest side") {
  Optimizer optimizer(parse_config(nlohmann::json{
      {"variables", {{{"lower", -3.0}, {"upper", 3.0}}, {{"lower", -3.0}, {"upper", 3.0}}}},
      {"goal", "maximize"},
      {"seed", 5}}));
  const auto tell = [](Optimizer& o, const std::vector<double>& x) {
    o.tell(x, std::cos(3.0 * x[0]) + std::cos(3.0 * x[1]) + 0.05 * (x[0] + x[1]));
  };
  const double min_length = std::pow(0.5, 7);
  int refining = 0;
  double smallest = 1.0;
  bool was_around_best = false;
  for (int i = 0; i < 400; ++i) {
    const std::vector<double> x = optimizer.ask();
    tell(optimizer, x);
    const nlohmann::json search = optimizer.info()["search"];
    const bool around_best = search["around_best"].get<bool>();
    if (around_best) {
      CHECK(search["phase"] == "local");
      CHECK(search["box_centre"].get<std::vector<double>>() == optimizer.best().x);
      const double length = search["box_length"].get<double>();
      // A refining run opens at twice the smallest side, after at least two runs converged.
      if (!was_around_best) {
        CHECK(length == doctest::Approx(2.0 * min_length));
        CHECK(search["restarts"].get<int>() >= 2);
        ++refining;
      }
      smallest = std::min(smallest, length);
    }
    was_around_best = around_best;
  }
  CHECK(refining >= 2);
  CHECK(smallest < min_length);
  Optimizer restored = Optimizer::from_state(optimizer.save());
  continue_in_lockstep(optimizer, restored, 20, tell);
}

// On a noisy objective the box is centred on the run's told point of best posterior mean,
// found here by predicting every point told since the run began (info's run_start), and not on
// its best value: a 3-variable bowl with noise as large as its spread over the box, so that the
// two differ.
TEST_CASE("on a noisy objective the box is centred on the run's best posterior mean") {
  Optimizer optimizer(parse_config(nlohmann::json{{"dimension", 3}, {"seed", 5}}));
  std::mt19937_64 engine(11);
  std::normal_distribution<double> noise(0.0, 0.3);
  std::vector<std::vector<double>> told;
  std::vector<double> values;
  int local = 0, not_best_value = 0;
  for (int i = 0; i < 150; ++i) {
    const std::vector<double> x = optimizer.ask();
    double value = noise(engine);
    for (double v : x) value -= (v - 0.3) * (v - 0.3);
    optimizer.tell(x, value);
    told.push_back(x);
    values.push_back(value);
    const nlohmann::json search = optimizer.info()["search"];
    if (search["phase"] != "local") continue;
    const std::size_t run_start = search["run_start"].get<std::size_t>();
    REQUIRE(run_start < told.size());
    std::size_t by_mean = run_start, by_value = run_start;
    double best_mean = -INFINITY;
    for (std::size_t k = run_start; k < told.size(); ++k) {
      const double mean = optimizer.predict(told[k]).mean;
      if (mean > best_mean) best_mean = mean, by_mean = k;
      if (values[k] > values[by_value]) by_value = k;
    }
    CHECK(search["box_centre"].get<std::vector<double>>() == told[by_mean]);
    ++local;
    not_best_value += by_mean != by_value;
  }
  CHECK(local > 30);
  CHECK(not_best_value > 0);
  Optimizer restored = Optimizer::from_state(optimizer.save());
  CHECK(restored.info()["search"]["box_centre"] == optimizer.info()["search"]["box_centre"]);
}

TEST_SUITE_END();
