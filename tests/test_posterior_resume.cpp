// Saving and loading around the batch rebuilds of the posterior (docs/saved-state.md,
// model.built_at): a restored optimizer builds its tables where the saved one did, so it
// continues bit-identically through relearns and random trees; version 1 states, whose tables
// replayed every observation, still load and continue.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "optimizer/optimizer.hpp"
#include "util/error.hpp"

using namespace addbo::core;
using nlohmann::json;

TEST_SUITE_BEGIN("optimizer");

namespace {

// Every variable type, a log scale included.
json mixed_config(const char* mode) {
  return {{"variables",
           {{{"name", "a"}, {"lower", -1.0}, {"upper", 1.0}, {"grid", 12}},
            {{"name", "b"}, {"lower", 0.0}, {"upper", 2.0}, {"grid", 10}},
            {{"name", "k"}, {"type", "integer"}, {"lower", 1}, {"upper", 6}},
            {{"name", "c"}, {"type", "categorical"}, {"choices", {"x", "y", "z"}}},
            {{"name", "lr"}, {"lower", 1e-4}, {"upper", 1.0}, {"scale", "log"}, {"grid", 10}}}},
          {"initial_points", 6},
          {"seed", 21},
          {"limits", {{"threads", 2}}},
          {"structure", {{"mode", mode}, {"relearn_every", 4}, {"gibbs_evaluations", 30}}}};
}

double objective(const std::vector<double>& x) {
  return std::sin(3.0 * x[0]) * x[1] + 0.3 * (x[2] - 3.0) - 0.5 * (x[3] == 1.0) -
         std::pow(std::log10(x[4]) + 2.0, 2);
}

// `steps` rounds from `optimizer`: two asks, the second told first and the first a round
// later (so points are pending across tells), returning every point asked.
std::vector<std::vector<double>> run(Optimizer& optimizer, int steps,
                                     std::vector<double>& carried) {
  std::vector<std::vector<double>> asked;
  for (int i = 0; i < steps; ++i) {
    const std::vector<double> first = optimizer.ask();
    const std::vector<double> second = optimizer.ask();
    asked.push_back(first);
    asked.push_back(second);
    optimizer.tell(second, objective(second));
    if (!carried.empty()) optimizer.tell(carried, objective(carried));
    carried = first;
  }
  return asked;
}

// `steps` asks, each told at once (the objective's first two variables only).
std::vector<std::vector<double>> run_plain(Optimizer& optimizer, int steps) {
  std::vector<std::vector<double>> asked;
  for (int i = 0; i < steps; ++i) {
    const std::vector<double> x = optimizer.ask();
    asked.push_back(x);
    optimizer.tell(x, std::sin(5.0 * x[0]) + 0.1 * x[1]);
  }
  return asked;
}

// With local search on, a local ask builds only the box's model (the model of record's tables
// may be unbuilt when saved); off, every ask builds the model of record's tables.
void resumes_identically(const char* mode, bool local_search) {
  CAPTURE(mode);
  CAPTURE(local_search);
  json config = mixed_config(mode);
  config["acquisition"]["local_search"] = local_search;
  Optimizer original(parse_config(config));
  std::vector<double> carried;
  run(original, 9, carried);
  // Saved mid-run, with a point pending, through text as a host would keep it.
  const std::string saved = original.save().dump();
  const json state = json::parse(saved);
  CHECK(state["version"] == 4);
  if (!local_search) {
    REQUIRE(state["model"]["built_at"].is_number_unsigned());
    const std::size_t built_at = state["model"]["built_at"].get<std::size_t>();
    // The tables were built before the last tells: the restore must add those one at a time.
    CHECK(built_at < state["observations"].size());
  }

  Optimizer restored = Optimizer::from_state(json::parse(saved));
  CHECK(restored.save().dump() == saved);
  std::vector<double> carried_restored = carried;
  const std::vector<std::vector<double>> expected = run(original, 12, carried);
  const std::vector<std::vector<double>> got = run(restored, 12, carried_restored);
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == expected[i]);
  }
  CHECK(restored.save().dump() == original.save().dump());
  // The continuation relearned (learn) or drew new trees (random-tree): rebuilt in batch.
  CHECK(original.info()["learned_at_observations"].get<std::size_t>() >
        state["learning"]["learned_at"].get<std::size_t>());
}

json read_json(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return json::parse(text.str());
}

}  // namespace

TEST_CASE("a run saved and loaded between relearns continues bit-identically (learn)") {
  resumes_identically("learn", true);
  resumes_identically("learn", false);
}

TEST_CASE("a run saved and loaded between random trees continues bit-identically") {
  resumes_identically("random-tree", true);
  resumes_identically("random-tree", false);
}

// Saved by addbo 0.1.0 (version 1, no model.built_at) with a point pending, followed by what
// that release told next (tests/data/state-version1-continuation.json). Its asks were local
// asks of that release's local search, which later releases replaced (the box's own model,
// docs/configuration.md "Local search"): the continuation tells the same values at the points
// asked now, and the state loaded from version 1 (every table replayed) and its version 4
// resave (built from no observation at once) ask the same points, bit for bit.
TEST_CASE("a version 1 state loads and continues as its version 4 resave does") {
  const json fixture =
      read_json(std::string(ADDBO_TEST_DATA_DIR) + "/state-version1-continuation.json");
  REQUIRE(fixture["state"]["version"] == 1);
  Optimizer restored = Optimizer::from_state(fixture["state"]);
  const json resaved = restored.save();
  CHECK(resaved["version"] == 4);
  CHECK(resaved["model"]["built_at"] == 0);
  Optimizer resaved_restored = Optimizer::from_state(resaved);
  int asks = 0;
  for (const json& step : fixture["steps"]) {
    if (step.contains("ask")) {
      const std::vector<double> x = restored.ask();
      CHECK(resaved_restored.ask() == x);
      restored.tell(x, step["y"].get<double>());
      resaved_restored.tell(x, step["y"].get<double>());
      ++asks;
    } else {
      const std::vector<double> x = step["tell"].get<std::vector<double>>();
      restored.tell(x, step["y"].get<double>());
      resaved_restored.tell(x, step["y"].get<double>());
    }
  }
  CHECK(asks > 0);
  CHECK(restored.save() == resaved_restored.save());
}

TEST_CASE("model.built_at is checked on load") {
  Optimizer optimizer(parse_config(mixed_config("learn")));
  std::vector<double> carried;
  run(optimizer, 5, carried);
  const json state = optimizer.save();
  const auto refused = [&](json edited, const std::string& where) {
    try {
      Optimizer::from_state(edited);
      FAIL("loaded");
    } catch (const Error& error) {
      CHECK(std::string(error.what()).find(where) != std::string::npos);
    }
  };
  json edited = state;
  edited["model"]["built_at"] = state["observations"].size() + 1;
  refused(edited, "/model/built_at");
  edited["model"]["built_at"] = -1;
  refused(edited, "/model/built_at");
  edited["model"]["built_at"] = "3";
  refused(edited, "/model/built_at");
  edited["model"].erase("built_at");
  refused(edited, "/model/built_at");
  // A version 1 state has no such field (nor the fields of later versions).
  edited = state;
  edited["version"] = 1;
  edited.erase("failures");
  edited["model"].erase("edge_since");
  edited["model"].erase("constraints");
  edited["model"].erase("failure_model");
  refused(edited, "/model/built_at");
  edited["version"] = 5;
  refused(edited, "/version");
  // null: no tables, built from every observation at once when next needed.
  edited = state;
  edited["model"]["built_at"] = nullptr;
  Optimizer loaded = Optimizer::from_state(edited);
  CHECK(loaded.save()["model"]["built_at"].is_null());
  loaded.ask();
  CHECK(loaded.save()["model"]["built_at"] == state["observations"].size());
}

// Duplicate points with almost no noise: the batch build escalates the jitter as the replay
// did, the jitter reached is saved, and a restore continues bit-identically from it.
TEST_CASE("duplicates escalate the jitter in the batch build and resume bit-identically") {
  const json config = {{"variables",
                        {{{"name", "a"}, {"lower", 0.0}, {"upper", 1.0}},
                         {{"name", "k"}, {"type", "integer"}, {"lower", 1}, {"upper", 4}},
                         {{"name", "c"}, {"type", "categorical"}, {"choices", {"x", "y"}}}}},
                       {"initial_points", 3},
                       {"seed", 4},
                       {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}}}}},
                       {"kernel", {{"lengthscales", {0.3, 0.5, 0.5}}, {"noise_variance", 1e-14}}}};
  Optimizer original(parse_config(config));
  for (int i = 0; i < 3; ++i) {  // the same point, three values
    original.tell({0.25, 2.0, 1.0}, 1.0 + i);
  }
  original.tell({0.75, 3.0, 0.0}, 0.5);
  original.ask();
  const json state = original.save();
  CHECK(state["model"]["jitter"].get<double>() > 0.0);
  CHECK(state["model"]["built_at"] == 4);
  Optimizer restored = Optimizer::from_state(json::parse(state.dump()));
  const std::vector<std::vector<double>> expected = run_plain(original, 6);
  const std::vector<std::vector<double>> got = run_plain(restored, 6);
  CHECK(got == expected);
  CHECK(restored.save().dump() == original.save().dump());
}

TEST_SUITE_END();
