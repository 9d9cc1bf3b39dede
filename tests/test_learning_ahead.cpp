// "relearn": "ahead": the learning an ask begins and the next ask commits
// (optimizer/learning_ahead.hpp), run on a worker thread, against the same learning run by the
// ask itself: with one thread allowed (limits.threads 1) nothing runs beside the host, so a twin
// configured so is the reference, and every ask and saved state must agree with it, whatever
// calls come between the two asks, and through copies, saves, interrupts and the destruction of
// a handle whose job still runs. And against "auto": the same learning, one ask later.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "config/config.hpp"
#include "optimizer/optimizer.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

using addbo::core::Error;
using addbo::core::InterruptSource;
using addbo::core::Optimizer;
using addbo::core::parse_config;
using addbo::core::Status;

TEST_SUITE_BEGIN("optimizer");

namespace {

// A run that learns every third observation, with a constraint and a region that fails, so that
// a job holds the objective's, the constraint's and the failure model's learnings.
nlohmann::json ahead_config(int threads, int gibbs_evaluations = 30, int initial_points = 6) {
  return {{"dimension", 4},
          {"seed", 17},
          {"initial_points", initial_points},
          {"constraints", {{{"name", "c"}, {"upper", 0.8}}}},
          {"structure",
           {{"relearn", "ahead"}, {"relearn_every", 3}, {"gibbs_evaluations", gibbs_evaluations}}},
          {"limits", {{"threads", threads}}}};
}

double objective(const std::vector<double>& x) {
  return std::sin(4 * x[0]) * x[1] - (x[2] - 0.3) * (x[2] - 0.3) + 0.5 * std::cos(3 * x[3]);
}
double constraint(const std::vector<double>& x) { return x[0] + x[3]; }
bool fails(const std::vector<double>& x) { return x[1] > 0.75 && x[2] > 0.5; }

void tell(Optimizer& optimizer, const std::vector<double>& x) {
  if (fails(x)) {
    optimizer.tell_failure(x);
  } else {
    optimizer.tell(x, objective(x), {constraint(x)});
  }
}

// The saved state without the configuration's thread count, the one thing the twins differ in.
nlohmann::json without_threads(nlohmann::json state) {
  state["config"]["limits"].erase("threads");
  return state;
}

// `rounds` asks of every optimizer in lockstep, each told at once: all must ask the same.
void lockstep(const std::vector<Optimizer*>& optimizers, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    CAPTURE(i);
    const std::vector<double> x = optimizers.front()->ask();
    for (std::size_t k = 1; k < optimizers.size(); ++k) {
      CAPTURE(k);
      REQUIRE(optimizers[k]->ask() == x);
    }
    for (Optimizer* optimizer : optimizers) tell(*optimizer, x);
  }
}

}  // namespace

TEST_CASE("a learning run on a worker thread leaves every ask as the ask's own thread does" *
          doctest::test_suite("threads")) {
  Optimizer ahead(parse_config(ahead_config(2)));
  Optimizer reference(parse_config(ahead_config(1)));
  std::size_t learnings = 0, on_worker = 0;
  // Both asks, counting the learnings the ahead one committed, and where they ran.
  const auto ask_both = [&] {
    const std::size_t before = ahead.info()["learned_at_observations"].get<std::size_t>();
    const std::vector<double> x = ahead.ask(), y = reference.ask();
    REQUIRE(x == y);
    const nlohmann::json info = ahead.info();
    CHECK(reference.info()["learned_on_worker"] == false);
    if (info["learned_at_observations"].get<std::size_t>() != before) {
      ++learnings;
      if (info["learned_on_worker"].get<bool>()) ++on_worker;
    }
    return x;
  };
  const auto tell_both = [&](const std::vector<double>& x) {
    tell(ahead, x);
    tell(reference, x);
  };
  for (int round = 0; round < 60; ++round) {
    CAPTURE(round);
    // Between the ask that begins a job and the one that commits it: other asks, tells, a
    // cancel, and calls that read (info, predict, save: a save waits for the job).
    const int pattern = round % 4;
    const std::vector<double> x = ask_both();
    if (pattern == 1) tell_both(ask_both());  // two points in flight, told in reverse order
    if (pattern == 2) {                       // asked, then given up
      const std::vector<double> c = ask_both();
      ahead.cancel(c);
      reference.cancel(c);
    }
    if (pattern == 3) {
      CHECK(ahead.info()["learned_at_observations"] == reference.info()["learned_at_observations"]);
      CHECK(ahead.predict(x).mean == reference.predict(x).mean);
      CHECK(without_threads(ahead.save()) == without_threads(reference.save()));
    }
    tell_both(x);
  }
  CHECK(ahead.failure_count() > 0);
  CHECK(without_threads(ahead.save()) == without_threads(reference.save()));
  CHECK(learnings >= 10);
  CHECK(on_worker == learnings);
}

TEST_CASE("a learning begun ahead is the one an ask of \"auto\" mode makes, one ask later" *
          doctest::test_suite("threads")) {
  nlohmann::json config = ahead_config(2);
  Optimizer ahead(parse_config(config));
  config["structure"]["relearn"] = "auto";
  Optimizer automatic(parse_config(config));
  // Up to the first learning the runs are the same; the ask due to learn begins it (ahead,
  // recorded by a save as the next ask commits it) or makes it its model (auto).
  bool learned = false;
  for (int i = 0; i < 12 && !learned; ++i) {
    const std::vector<double> x = ahead.ask(), y = automatic.ask();
    learned = automatic.info()["learned_at_observations"].get<std::size_t>() > 0;
    if (!learned) {
      REQUIRE(x == y);
    } else {
      CHECK(ahead.info()["learned_at_observations"] == 0);  // not yet its model
      const nlohmann::json a = ahead.save(), b = automatic.save();
      CHECK(a["learning"] == b["learning"]);
      CHECK(a["model"]["edges"] == b["model"]["edges"]);
      CHECK(a["model"]["lengthscales"] == b["model"]["lengthscales"]);
      CHECK(a["model"]["constraints"] == b["model"]["constraints"]);
      // The next ask (the same point told to both) makes it the model.
      tell(ahead, x);
      tell(automatic, x);
      ahead.ask();
      CHECK(ahead.info()["learned_at_observations"] == b["learning"]["learned_at"]);
      CHECK(ahead.info()["lengthscales"] == b["model"]["lengthscales"]);
      break;
    }
    tell(ahead, x);
    tell(automatic, y);
  }
  CHECK(learned);
}

TEST_CASE(
    "a state saved or copied between the ask that begins a learning and the next continues "
    "the same" *
    doctest::test_suite("threads")) {
  Optimizer original(parse_config(ahead_config(2)));
  Optimizer reference(parse_config(ahead_config(1)));
  for (int i = 0; i < 45; ++i) {
    CAPTURE(i);
    const std::vector<double> x = original.ask();
    REQUIRE(reference.ask() == x);
    if (i >= 6 && i % 3 == 0) {
      // Each a few rounds on, in lockstep with a copy of the original (which shares its job)
      // and one of the reference.
      Optimizer restored = Optimizer::from_state(original.save());
      Optimizer copy = original, copy_of_reference = reference;
      lockstep({&copy, &restored, &copy_of_reference}, 7);
      CHECK(restored.save() == copy.save());
    }
    tell(original, x);
    tell(reference, x);
  }
  CHECK(without_threads(original.save()) == without_threads(reference.save()));
}

TEST_CASE("an ask interrupted while it waits for a learning changes nothing" *
          doctest::test_suite("threads")) {
  // Long learnings (many likelihoods of 30 points and more), so that the next ask is likely to
  // wait for one.
  Optimizer ahead(parse_config(ahead_config(2, 4000, 30)));
  Optimizer reference(parse_config(ahead_config(1, 4000, 30)));
  InterruptSource source;
  const addbo::core::InterruptCheck check = source.check();
  source.request();
  int interrupted = 0;
  for (int i = 0; i < 30; ++i) tell(ahead, ahead.ask());
  for (int i = 0; i < 30; ++i) tell(reference, reference.ask());
  for (int i = 0; i < 16; ++i) {
    CAPTURE(i);
    const Optimizer before = ahead;  // a copy, which does not wait for the job as a save does
    // Either the job had ended (the ask commits it and goes on), or the ask was waiting for it
    // and stopped, changing nothing, the job kept for the next ask.
    try {
      const std::vector<double> x = ahead.ask(check);
      REQUIRE(reference.ask() == x);
      tell(ahead, x);
      tell(reference, x);
    } catch (const Error& error) {
      REQUIRE(error.status() == Status::interrupted);
      ++interrupted;
      CHECK(ahead.save() == before.save());
      const std::vector<double> x = ahead.ask(), y = reference.ask();
      REQUIRE(x == y);
      tell(ahead, x);
      tell(reference, y);
    }
  }
  MESSAGE(interrupted << " of 16 asks were interrupted while waiting");
  CHECK(without_threads(ahead.save()) == without_threads(reference.save()));
}

// Whether `optimizer`'s last ask began a learning the next ask commits: a save records it as
// committed (and waits for it), info does not show it yet.
bool learning_held(const Optimizer& optimizer) {
  return optimizer.save()["learning"]["learned_at"] != optimizer.info()["learned_at_observations"];
}

TEST_CASE("destroying a handle whose learning still runs leaves its copies as they were" *
          doctest::test_suite("threads")) {
  Optimizer reference(parse_config(ahead_config(1, 3000)));
  std::vector<Optimizer> copies;
  int told = 0;
  {
    Optimizer original(parse_config(ahead_config(2, 3000)));
    // Its twin, asked the same, shows which ask began a learning (a save would wait for the
    // job): the first after a dozen tells (failures are not observations, so which one that is
    // depends on the run).
    Optimizer twin(parse_config(ahead_config(2, 3000)));
    bool began = false;
    while (!began && told < 40) {
      const std::vector<double> x = original.ask();
      REQUIRE(twin.ask() == x);
      began = told >= 12 && learning_held(twin);
      if (!began) {
        tell(original, x);
        tell(twin, x);
        ++told;
      }
    }
    REQUIRE(began);
    copies.push_back(original);
  }  // the original's destruction does not stop the job its copy shares
  CHECK(learning_held(copies.front()));  // the last ask had begun one
  for (int i = 0; i < told; ++i) {
    const std::vector<double> x = reference.ask();
    tell(reference, x);
  }
  reference.ask();
  lockstep({&copies.front(), &reference}, 5);
  // A handle destroyed right after the ask that began a learning (its twin, asked the same,
  // shows that it did): the worker is stopped and joined (checked under ASan and TSan).
  bool began = false;
  {
    Optimizer alone(parse_config(ahead_config(2, 3000)));
    Optimizer twin(parse_config(ahead_config(2, 3000)));
    for (int i = 0; i < 12 && !began; ++i) {
      const std::vector<double> x = alone.ask();
      REQUIRE(twin.ask() == x);
      began = learning_held(twin);
      if (!began) {
        tell(alone, x);
        tell(twin, x);
      }
    }
  }
  CHECK(began);
}

TEST_SUITE_END();
