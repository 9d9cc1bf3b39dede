// What the optimizer predicts (Optimizer::predict, predicted_best) against the dense posterior of
// the reference implementation, computed here from the configuration alone; predictions change
// nothing; and the info fields of the last ask and tell.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <regex>
#include <string>

#include "acquisition/ucb.hpp"
#include "config/config.hpp"
#include "evaluation/reference_posterior.hpp"
#include "gp/standardization.hpp"
#include "optimizer/optimizer.hpp"
#include "space/space.hpp"
#include "util/error.hpp"

using namespace addbo::core;
using nlohmann::json;

TEST_SUITE_BEGIN("optimizer");

namespace {

// Five variables of every type, a given graph with overlapping cliques {0,1,2}, {2,3}, {4}.
json given_graph_config(const char* goal, double noise_variance) {
  return json{
      {"variables",
       {{{"name", "a"}, {"type", "continuous"}, {"lower", -2.0}, {"upper", 3.0}, {"grid", 9}},
        {{"name", "b"}, {"type", "continuous"}, {"lower", 0.0}, {"upper", 1.0}, {"grid", 7}},
        {{"name", "k"}, {"type", "integer"}, {"lower", 1}, {"upper", 6}},
        {{"name", "c"}, {"type", "categorical"}, {"choices", {"red", "green", "blue"}}},
        {{"name", "e"}, {"type", "continuous"}, {"lower", 10.0}, {"upper", 20.0}, {"grid", 5}}}},
      {"goal", goal},
      {"seed", 7},
      {"initial_points", 6},
      {"structure", {{"mode", "fixed"}, {"edges", {{0, 1}, {0, 2}, {1, 2}, {2, 3}}}}},
      {"kernel",
       {{"lengthscales", {0.3, 0.5, 0.4, 0.6, 0.35}}, {"noise_variance", noise_variance}}},
  };
}

double objective(const std::vector<double>& x) {
  return 100.0 - 3.0 * std::pow(x[0] - 0.5, 2) + 4.0 * x[0] * x[1] - 0.5 * std::pow(x[2] - 4.0, 2) +
         (x[3] == 1.0 ? 2.0 : 0.0) * x[2] + 0.1 * x[4];
}

bool close(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// The posterior of paper eq. 5 computed densely from the configuration, the told observations
// and the engine's jitter (info), in the user's units, to compare with Optimizer::predict.
struct Expected {
  Expected(const Optimizer& optimizer, const std::vector<Observation>& told)
      : space(optimizer.config().variables),
        sign(optimizer.config().goal == Goal::maximize ? 1.0 : -1.0) {
    const Config& config = optimizer.config();
    const json info = optimizer.info();
    std::vector<VariableType> types;
    for (const VariableSpec& v : config.variables) types.push_back(v.type);
    kernel.emplace(types, info["cliques"].get<std::vector<VarSet>>(),
                   info["lengthscales"].get<std::vector<double>>(),
                   info["noise_variance"].get<double>());
    std::vector<double> values;
    for (const Observation& o : told) values.push_back(sign * o.y);
    units = standardize(values);
    Eigen::VectorXd y(static_cast<Eigen::Index>(told.size()));
    std::vector<std::vector<double>> points;
    for (std::size_t i = 0; i < told.size(); ++i) {
      points.push_back(space.encode_point(told[i].x));
      y(static_cast<Eigen::Index>(i)) = (values[i] - units.offset) / units.scale;
    }
    reference.emplace(*kernel, points, y, info["jitter"].get<double>());
  }

  void check(const Prediction& p, const std::vector<double>& x) const {
    const std::vector<double> u = space.encode_point(x);
    CHECK(close(p.mean, sign * (units.offset + units.scale * reference->mean(u)), 1e-8));
    CHECK(close(p.stddev, units.scale * std::sqrt(std::max(reference->variance(u), 0.0)), 1e-8));
    CHECK(close(p.offset, sign * units.offset, 1e-12));
    REQUIRE(p.clique_mean.size() == kernel->cliques().size());
    REQUIRE(p.clique_stddev.size() == kernel->cliques().size());
    double sum = p.offset;
    for (std::size_t c = 0; c < kernel->cliques().size(); ++c) {
      CHECK(p.cliques[c] == kernel->cliques()[c]);
      CHECK(close(p.clique_mean[c], sign * units.scale * reference->clique_mean(c, u), 1e-8));
      CHECK(close(p.clique_stddev[c],
                  units.scale * std::sqrt(std::max(reference->clique_variance(c, u), 0.0)), 1e-8));
      sum += p.clique_mean[c];
    }
    CHECK(close(sum, p.mean, 1e-10));
  }

  Space space;
  double sign;
  std::optional<AdditiveKernel> kernel;
  Standardization units;
  std::optional<ReferencePosterior> reference;
};

std::vector<double> random_point(const Config& config, std::mt19937_64& rng) {
  std::vector<double> x;
  for (const VariableSpec& v : config.variables) {
    if (v.type == VariableType::continuous) {
      x.push_back(std::uniform_real_distribution<double>(v.lower, v.upper)(rng));
    } else if (v.type == VariableType::integer) {
      x.push_back(static_cast<double>(std::uniform_int_distribution<int>(
          static_cast<int>(v.lower), static_cast<int>(v.upper))(rng)));
    } else {
      x.push_back(static_cast<double>(
          std::uniform_int_distribution<int>(0, static_cast<int>(v.choices.size()) - 1)(rng)));
    }
  }
  return x;
}

void check_equal(const Prediction& a, const Prediction& b) {
  CHECK(a.mean == b.mean);
  CHECK(a.stddev == b.stddev);
  CHECK(a.offset == b.offset);
  CHECK(a.noise_stddev == b.noise_stddev);
  CHECK(a.observations == b.observations);
  CHECK(a.cliques == b.cliques);
  CHECK(a.clique_mean == b.clique_mean);
  CHECK(a.clique_stddev == b.clique_stddev);
}

}  // namespace

TEST_CASE("predict equals the dense reference posterior, whole and per clique") {
  for (const char* goal : {"maximize", "minimize"}) {
    CAPTURE(goal);
    Optimizer optimizer(parse_config(given_graph_config(goal, 1e-3)));
    std::vector<Observation> told;
    std::mt19937_64 rng(11);
    for (int i = 0; i < 16; ++i) {
      const std::vector<double> x = optimizer.ask();
      const double y = objective(x) + 0.05 * std::normal_distribution<double>()(rng);
      optimizer.tell(x, y);
      told.push_back({x, y, {}});
      if (i < 4) continue;
      // A pending point is left now and then: predictions use the told observations only.
      if (i % 3 == 0) optimizer.ask();
      const Expected expected(optimizer, told);
      for (int q = 0; q < 4; ++q) {
        const std::vector<double> anywhere = random_point(optimizer.config(), rng);
        expected.check(optimizer.predict(anywhere), anywhere);
      }
      expected.check(optimizer.predict(told.front().x), told.front().x);
      // A restored optimizer has no posterior tables yet: its prediction is the same.
      const Optimizer restored = Optimizer::from_state(optimizer.save());
      check_equal(restored.predict(told.back().x), optimizer.predict(told.back().x));
    }
  }
}

TEST_CASE("predictions in the initial design use the model as configured") {
  Optimizer optimizer(parse_config(given_graph_config("maximize", 1e-4)));
  std::vector<Observation> told;
  for (int i = 0; i < 3; ++i) {  // fewer than initial_points: no posterior built by an ask yet
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, objective(x));
    told.push_back({x, objective(x), {}});
  }
  const Expected expected(optimizer, told);
  std::mt19937_64 rng(5);
  for (int q = 0; q < 5; ++q) {
    const std::vector<double> x = random_point(optimizer.config(), rng);
    expected.check(optimizer.predict(x), x);
  }
  // At a told point with tiny noise the model interpolates.
  const Prediction at_told = optimizer.predict(told[1].x);
  CHECK(close(at_told.mean, told[1].y, 1e-3));
  CHECK(at_told.stddev < 0.05 * std::fabs(told[1].y));
}

TEST_CASE("values whose spread is subnormal are predicted as constant, never NaN") {
  // y = {0, 4.9e-324}: the spread (half the smallest subnormal) rounds to zero.
  for (const double second : {4.9e-324, -4.9e-324, 1e-310}) {
    CAPTURE(second);
    Optimizer optimizer(parse_config_text(
        R"({"variables": [{"type": "continuous", "lower": 0, "upper": 1}], "initial_points": 2,
            "seed": 3, "kernel": {"lengthscales": [0.3], "noise_variance": 1e-6},
            "structure": {"mode": "fixed"}})"));
    optimizer.tell({0.25}, 0.0);
    optimizer.tell({0.75}, second);
    for (const double x : {0.25, 0.5, 0.75}) {
      const Prediction p = optimizer.predict({x});
      CHECK(std::isfinite(p.mean));
      CHECK(std::isfinite(p.stddev));
      CHECK(std::fabs(p.mean) <= 1e-300);
    }
    const PredictedBest best = optimizer.predicted_best();
    CHECK(std::isfinite(best.prediction.mean));
    // The model is sound, so the ask is the model's, not the random fallback.
    optimizer.ask();
    CHECK(optimizer.info()["last_ask"]["phase"] == "global");
  }
}

TEST_CASE("predict and predicted_best before any tell, and with bad points") {
  Optimizer optimizer(parse_config(given_graph_config("maximize", 1e-4)));
  const std::vector<double> x = {0.0, 0.5, 2.0, 1.0, 15.0};
  CHECK_THROWS_AS(optimizer.predict(x), Error);
  try {
    optimizer.predict(x);
  } catch (const Error& e) {
    CHECK(e.status() == Status::state);
    CHECK(std::string(e.what()).find("no observation") != std::string::npos);
  }
  optimizer.ask();  // a pending point is not an observation
  CHECK_THROWS_AS(optimizer.predicted_best(), Error);
  optimizer.tell(x, 1.0);
  for (std::size_t d = 0; d < x.size(); ++d) {
    std::vector<double> bad = x;
    bad[d] = NAN;
    try {
      optimizer.predict(bad);
      FAIL("a NaN value was accepted");
    } catch (const Error& e) {
      CHECK(e.status() == Status::invalid_argument);
    }
  }
  std::vector<double> outside = x;
  outside[0] = 3.5;
  CHECK_THROWS_AS(optimizer.predict(outside), Error);
  CHECK_THROWS_AS(optimizer.predict(std::vector<double>(4, 0.0)), Error);
  // One observation: the prediction there is its value (standardisation keeps scale 1).
  CHECK(close(optimizer.predict(x).mean, 1.0, 1e-3));
}

TEST_CASE("the predicted best is the told point with the best posterior mean") {
  for (const char* goal : {"maximize", "minimize"}) {
    CAPTURE(goal);
    // A noisy objective: the model smooths the told values.
    Optimizer optimizer(parse_config(given_graph_config(goal, 0.1)));
    std::mt19937_64 rng(3);
    std::vector<std::vector<double>> told;
    for (int i = 0; i < 20; ++i) {
      const std::vector<double> x = optimizer.ask();
      optimizer.tell(x, objective(x) + 2.0 * std::normal_distribution<double>()(rng));
      told.push_back(x);
    }
    const PredictedBest best = optimizer.predicted_best();
    const double sign = std::string(goal) == "maximize" ? 1.0 : -1.0;
    std::size_t expected = 0;
    for (std::size_t i = 0; i < told.size(); ++i) {
      if (sign * optimizer.predict(told[i]).mean > sign * optimizer.predict(told[expected]).mean)
        expected = i;
    }
    CHECK(close(optimizer.predict(told[expected]).mean, best.prediction.mean, 1e-9));
    // Reported exactly as predict reports it at that point.
    check_equal(best.prediction, optimizer.predict(best.x));
    const Optimizer restored = Optimizer::from_state(optimizer.save());
    const PredictedBest again = restored.predicted_best();
    CHECK(again.x == best.x);
    check_equal(again.prediction, best.prediction);
  }
}

namespace {

// What limits.max_model_observations (docs/limits.md) makes the model of `told` when it is built
// in one batch, worked out here from the rule as written: all of them up to the cap; past it,
// cap - cap / 4 of them, the best quarter of those (rounded up) by value in the goal's
// direction, the earlier on a tie, then the most recent of the others; in telling order.
std::vector<Observation> capped_model(const std::vector<Observation>& told, std::size_t cap,
                                      double sign) {
  if (told.size() <= cap) return told;
  const std::size_t keep = cap - cap / 4;
  std::vector<bool> in(told.size(), false);
  for (std::size_t taken = 0; taken < (keep + 3) / 4; ++taken) {
    std::size_t best = told.size();
    for (std::size_t i = 0; i < told.size(); ++i) {
      if (!in[i] && (best == told.size() || sign * told[i].y > sign * told[best].y)) best = i;
    }
    in[best] = true;
  }
  std::size_t count = (keep + 3) / 4;
  for (std::size_t i = told.size(); i-- > 0 && count < keep;) {
    if (!in[i]) {
      in[i] = true;
      ++count;
    }
  }
  std::vector<Observation> model;
  for (std::size_t i = 0; i < told.size(); ++i) {
    if (in[i]) model.push_back(told[i]);
  }
  return model;
}

}  // namespace

TEST_CASE("past limits.max_model_observations the model is the best quarter and the most recent") {
  for (const char* goal : {"maximize", "minimize"}) {
    CAPTURE(goal);
    const double sign = std::string(goal) == "maximize" ? 1.0 : -1.0;
    json config = given_graph_config(goal, 1e-3);
    config["limits"] = {{"max_model_observations", 8}};
    Optimizer optimizer(parse_config(config));
    std::vector<Observation> told;
    std::mt19937_64 rng(23);
    for (int i = 0; i < 22; ++i) {
      const std::vector<double> x = random_point(optimizer.config(), rng);
      // Three equal best values for two places: the earlier ones are kept.
      const double y = i == 9 || i == 12 || i == 15 ? 100.0 + sign * 40.0 : objective(x);
      optimizer.tell(x, y);
      told.push_back({x, y, {}});
      if (told.size() < 3) continue;
      CAPTURE(told.size());
      const std::vector<Observation> model = capped_model(told, 8, sign);
      CHECK(optimizer.info()["model_observations"] == model.size());
      const Expected expected(optimizer, model);
      for (int q = 0; q < 3; ++q) {
        const std::vector<double> anywhere = random_point(optimizer.config(), rng);
        const Prediction prediction = optimizer.predict(anywhere);
        expected.check(prediction, anywhere);
        // The JSON counts the observations the prediction uses, and every one told.
        const json detail = optimizer.prediction_json(prediction);
        CHECK(detail["observations"] == model.size());
        CHECK(detail["observations_told"] == told.size());
      }
      // The predicted best is one of the points the model holds.
      const PredictedBest best = optimizer.predicted_best();
      std::size_t expected_best = 0;
      for (std::size_t m = 1; m < model.size(); ++m) {
        if (sign * optimizer.predict(model[m].x).mean >
            sign * optimizer.predict(model[expected_best].x).mean) {
          expected_best = m;
        }
      }
      CHECK(best.x == model[expected_best].x);
      // Every observation is kept: the best told, the count, the saved state.
      CHECK(optimizer.observation_count() == told.size());
      CHECK(optimizer.save()["observations"].size() == told.size());
    }
  }
}

TEST_CASE("predictions change neither the saved state nor the next asks") {
  // Structure learning on: an ask that relearns must not be moved by predictions made before.
  json config = {{"dimension", 5},
                 {"seed", 4},
                 {"initial_points", 5},
                 {"structure", {{"relearn_every", 4}, {"gibbs_evaluations", 20}}}};
  Optimizer quiet(parse_config(config)), asking(parse_config(config));
  const auto f = [](const std::vector<double>& x) {
    return -std::pow(x[0] - 0.3, 2) - x[1] * x[2] + std::sin(3.0 * x[3]) + x[4];
  };
  for (int i = 0; i < 18; ++i) {
    if (i > 0) {
      const std::string before = asking.save().dump();
      asking.predict(std::vector<double>(5, 0.5));
      asking.predicted_best();
      asking.prediction_json(asking.predict(std::vector<double>(5, 0.25)));
      CHECK(asking.save().dump() == before);
    }
    const std::vector<double> a = quiet.ask(), b = asking.ask();
    REQUIRE(a == b);
    if (i % 4 == 1) {
      asking.predict(a);  // with a pending point
      REQUIRE(quiet.ask() == asking.ask());
    }
    quiet.tell(a, f(a));
    asking.tell(b, f(b));
  }
  CHECK(quiet.save() == asking.save());
}

TEST_CASE("the prediction JSON names the cliques' variables") {
  Optimizer optimizer(parse_config(given_graph_config("minimize", 1e-4)));
  for (int i = 0; i < 8; ++i) {
    const std::vector<double> x = optimizer.ask();
    optimizer.tell(x, objective(x));
  }
  const std::vector<double> x = {0.0, 0.5, 2.0, 1.0, 15.0};
  const Prediction prediction = optimizer.predict(x);
  const json document = optimizer.prediction_json(prediction);
  CHECK(document["mean"] == prediction.mean);
  CHECK(document["stddev"] == prediction.stddev);
  CHECK(document["observations"] == 8);
  CHECK(document["noise_stddev"].get<double>() > 0.0);
  REQUIRE(document["cliques"].size() == 3);
  CHECK(document["cliques"][0]["variables"] == json({0, 1, 2}));
  CHECK(document["cliques"][0]["names"] == json({"a", "b", "k"}));
  CHECK(document["cliques"][1]["names"] == json({"k", "c"}));
  CHECK(document["cliques"][2]["names"] == json({"e"}));
}

TEST_CASE("info reports the last ask and tell, the best point and variable names") {
  Optimizer optimizer(parse_config(given_graph_config("maximize", 1e-4)));
  json info = optimizer.info();
  CHECK(info["best"].is_null());
  CHECK(info["last_ask"]["phase"] == "none");
  CHECK(info["last_ask"]["time"].is_null());
  CHECK(info["last_tell"]["time"].is_null());
  CHECK(info["variables"] == json({"a", "b", "k", "c", "e"}));
  CHECK(info["edge_names"] == json::array({json::array({"a", "b"}), json::array({"a", "k"}),
                                           json::array({"b", "k"}), json::array({"k", "c"})}));
  CHECK(info["clique_names"] == json({{"a", "b", "k"}, {"k", "c"}, {"e"}}));
  CHECK(info["junction_tree"]["node_names"].size() == info["junction_tree"]["nodes"].size());

  const std::regex iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
  int model_asks = 0;
  for (int i = 0; i < 12; ++i) {
    const std::vector<double> x = optimizer.ask();
    info = optimizer.info();
    const json& last = info["last_ask"];
    CHECK(last["phase"] == info["search"]["last_ask"]);
    CHECK(last["x"] == json(x));
    CHECK(std::regex_match(last["time"].get<std::string>(), iso));
    if (i < 6) {
      CHECK(last["phase"] == "initial design");
      CHECK(last["beta"].is_null());
      CHECK(last["acquisition"].is_null());
    } else if (last["phase"] == "global" || last["phase"] == "local") {
      ++model_asks;
      // t counts every point told or pending before this one, plus one.
      CHECK(last["beta"].get<double>() == ucb_beta(0.5, static_cast<std::size_t>(i) + 1));
      CHECK(last["exploration_weight"].get<double>() >=
            std::sqrt(last["beta"].get<double>()) * (1 - 1e-15));
      // With no other point pending, the acquisition is the sum over cliques of mean + weight
      // x deviation of the told observations' posterior, in standardised units: predict's
      // components divided by the scale (which noise_stddev reveals).
      const Prediction p = optimizer.predict(x);
      const double scale = p.noise_stddev / std::sqrt(info["noise_variance"].get<double>() +
                                                      info["jitter"].get<double>());
      double acquisition = 0.0;
      for (std::size_t c = 0; c < p.clique_mean.size(); ++c) {
        acquisition +=
            (p.clique_mean[c] + last["exploration_weight"].get<double>() * p.clique_stddev[c]) /
            scale;
      }
      CHECK(close(last["acquisition"].get<double>(), acquisition, 1e-9));
    }
    optimizer.tell(x, objective(x));
    info = optimizer.info();
    CHECK(std::regex_match(info["last_tell"]["time"].get<std::string>(), iso));
    const Observation best = optimizer.best();
    CHECK(info["best"]["x"] == json(best.x));
    CHECK(info["best"]["y"] == best.y);
  }
  CHECK(model_asks > 0);
  // Not saved: a restored optimizer has no last ask or tell.
  const Optimizer restored = Optimizer::from_state(optimizer.save());
  CHECK(restored.info()["last_ask"]["time"].is_null());
  CHECK(restored.info()["last_tell"]["time"].is_null());
  CHECK(restored.info()["best"] == optimizer.info()["best"]);
}

TEST_SUITE_END();
