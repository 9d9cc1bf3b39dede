// The C++ wrapper: RAII ownership, move-only semantics, close(), and statuses turned into
// addbo::Error with the library's message.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "addbo/addbo.hpp"
#include "test_support.h"

namespace {

std::string config(unsigned seed) {
  char buffer[TEST_CONFIG_SIZE];
  test_config(buffer, seed);
  return buffer;
}

// Runs `call`, which must throw addbo::Error with `status` and a message containing `fragment`.
template <typename Call>
void check_throws(Call call, int status, const std::string& fragment) {
  try {
    call();
    FAIL("no addbo::Error thrown");
  } catch (const addbo::Error& e) {
    CHECK(e.status() == status);
    CHECK(std::string(e.status_name()) == addbo_status_name(status));
    CHECK(std::string(e.what()).find(fragment) != std::string::npos);
  }
}

void run(addbo::Optimizer& opt, int steps) {
  for (int i = 0; i < steps; ++i) {
    const std::vector<double> x = opt.ask();
    opt.tell(x, test_objective(x.data()));
  }
}

}  // namespace

static_assert(!std::is_copy_constructible_v<addbo::Optimizer>);
static_assert(!std::is_copy_assignable_v<addbo::Optimizer>);
static_assert(std::is_nothrow_move_constructible_v<addbo::Optimizer>);
static_assert(std::is_nothrow_move_assignable_v<addbo::Optimizer>);

TEST_CASE("ask, tell, best, count and info") {
  addbo::Optimizer opt(config(1));
  CHECK(opt.dimension() == TEST_DIM);
  check_throws([&] { opt.best(); }, ADDBO_ERR_STATE, "addbo_best");
  run(opt, TEST_INITIAL_POINTS + 2);
  const std::vector<double> pending = opt.ask();
  CHECK(pending.size() == TEST_DIM);
  CHECK(opt.count() == TEST_INITIAL_POINTS + 2);
  CHECK(opt.pending() == 1);
  opt.cancel(pending);
  CHECK(opt.pending() == 0);
  const addbo::Observation best = opt.best();
  CHECK(best.x.size() == TEST_DIM);
  CHECK(best.y == test_objective(best.x.data()));
  CHECK(opt.info().find("\"edges\"") != std::string::npos);
}

TEST_CASE("predict, predict_json and predicted_best") {
  addbo::Optimizer opt(config(4));
  const std::vector<double> x = {0.5, 1.0, 2.0, 1.0, 0.25};
  check_throws([&] { opt.predict(x); }, ADDBO_ERR_STATE, "addbo_predict");
  check_throws([&] { opt.predicted_best(); }, ADDBO_ERR_STATE, "addbo_predicted_best");
  run(opt, TEST_INITIAL_POINTS + 3);
  check_throws([&] { opt.predict({}); }, ADDBO_ERR_INVALID_ARGUMENT,
               "dim is 0 but the optimizer has 5 variables");
  const std::string before = opt.save();
  const addbo::Prediction prediction = opt.predict(x);
  CHECK(prediction.x == x);
  CHECK(prediction.stddev >= 0.0);
  CHECK(opt.predict_json(x).find("\"cliques\"") != std::string::npos);
  const addbo::Prediction best = opt.predicted_best();
  const addbo::Prediction again = opt.predict(best.x);
  CHECK(best.mean == again.mean);
  CHECK(best.stddev == again.stddev);
  CHECK(opt.save() == before);
}

TEST_CASE("errors carry the status and the message") {
  check_throws([] { addbo::Optimizer opt("{\"dimension\": 0"); }, ADDBO_ERR_CONFIG, "addbo_create");
  check_throws([] { addbo::Optimizer::load("{"); }, ADDBO_ERR_STATE, "addbo_load");
  addbo::Optimizer opt(config(2));
  check_throws([&] { opt.tell({}, 1.0); }, ADDBO_ERR_INVALID_ARGUMENT,
               "dim is 0 but the optimizer has 5 variables");
  check_throws([&] { opt.tell(std::vector<double>(TEST_DIM, 0.0), 1.0); },
               ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell");  // integer variable 2 starts at 1
  check_throws([&] { opt.cancel(std::vector<double>(TEST_DIM, 1.0)); }, ADDBO_ERR_INVALID_ARGUMENT,
               "addbo_cancel");
  CHECK(opt.count() == 0);
}

TEST_CASE("save and load continue identically") {
  addbo::Optimizer original(config(3));
  run(original, TEST_INITIAL_POINTS + 3);
  const std::string state = original.save();
  addbo::Optimizer restored = addbo::Optimizer::load(state);
  CHECK(restored.save() == state);
  for (int i = 0; i < 5; ++i) {
    const std::vector<double> x = original.ask();
    REQUIRE(restored.ask() == x);
    original.tell(x, test_objective(x.data()));
    restored.tell(x, test_objective(x.data()));
  }
  CHECK(restored.save() == original.save());
}

TEST_CASE("move-only ownership and idempotent close") {
  addbo::Optimizer first(config(4));
  run(first, 2);
  addbo::Optimizer second(std::move(first));
  CHECK(first.closed());
  CHECK(second.count() == 2);
  check_throws([&] { first.ask(); }, ADDBO_ERR_STATE, "close()");

  addbo::Optimizer third(config(5));
  third = std::move(second);  // releases third's own handle, takes second's
  CHECK(second.closed());
  CHECK(third.count() == 2);

  third.close();
  third.close();
  CHECK(third.closed());
  check_throws([&] { third.save(); }, ADDBO_ERR_STATE, "close()");
  check_throws([&] { third.count(); }, ADDBO_ERR_STATE, "close()");
}

TEST_CASE("learn: the host decides when learning runs") {
  // The test configuration learns nothing (fixed graph, lengthscales and noise given).
  addbo::Optimizer fixed(config(6));
  run(fixed, TEST_INITIAL_POINTS + 1);
  CHECK_FALSE(fixed.learn());

  addbo::Optimizer manual(
      R"({"dimension": 4, "seed": 3, "initial_points": 4,
          "structure": {"relearn": "manual", "relearn_every": 2, "gibbs_evaluations": 50}})");
  const auto learned_at = [&] {
    const std::string info = manual.info();
    const std::string key = "\"learned_at_observations\":";
    return std::stoul(info.substr(info.find(key) + key.size()));
  };
  CHECK_FALSE(manual.learn());  // no observation yet
  for (int i = 0; i < 8; ++i) {
    const std::vector<double> x = manual.ask();
    manual.tell(x, x[0] * x[1] - x[2]);
    CHECK(learned_at() == 0);  // asks never learn in manual mode
  }
  CHECK(manual.learn());
  CHECK(learned_at() == 8);

  manual.close();
  check_throws([&] { manual.learn(); }, ADDBO_ERR_STATE, "close()");
}
