// Fuzz target: a sequence of C API calls read from the fuzz bytes.
//
// The first byte chooses one of a few small configurations, or (from 0xC0 on: the structure-
// aware mode) a configuration generated from the next bytes: 1 to 5 variables of every type and
// scale, every structure mode, the noise given, learned or automatic, small learning budgets,
// and small limits (model cap, pending points, table cells), so that inputs reach the model's
// code at its limits rather than the parsers. The next byte is the seed; then every byte starts
// a call: ask, tell (of a pending point, a fresh point, a told point again, or a
// pending point moved by a rounding-size step; values include NaN, infinities, huge and
// subnormal numbers), cancel, best, count, dimension, info, learn, a save/load round trip that
// replaces the optimizer, and calls with a wrong dim or a NULL pointer.
//
// Contract checked after every call (fuzz_support.hpp, step): the status is a known code and
// never ADDBO_ERR_INTERNAL; a failing call leaves its outputs untouched and the saved state
// byte-identical to before, and a read (best, count, dimension, info) never changes it. For
// the calls whose byte has its high bit set, and at the end of every input: the saved state
// loads and saves back to the same bytes, and the optimizer restored from it, given the same
// call (ask, tell, cancel, learn), returns the same status and outputs and then saves the same
// bytes (so its next ask equals the original's next ask). Checking that on every call made an
// input cost a model built from scratch per call: a few inputs a second instead of hundreds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace {

using namespace addbo_fuzz;

struct Variable {
  double lower;
  double upper;
  bool whole;  // integer or categorical: whole values only
};

struct Setup {
  std::string json;  // without its closing brace: ", "seed": N}" is appended
  std::vector<Variable> variables;
};

const Variable kUnit{0.0, 1.0, false};

// Small configurations, so that every call is quick: few variables, small learning budgets.
const std::vector<Setup>& setups() {
  static const std::vector<Setup> all = {
      {R"({"dimension": 2, "initial_points": 2, "structure": {"gibbs_evaluations": 8, "relearn_every": 2},
           "limits": {"threads": 1})",
       {kUnit, kUnit}},
      {R"({"dimension": 3, "initial_points": 3, "structure": {"mode": "fixed", "edges": [[0, 1]]},
           "kernel": {"lengthscales": [0.2, 0.3, 0.4], "noise_variance": 0.001}, "limits": {"threads": 1})",
       {kUnit, kUnit, kUnit}},
      {R"({"dimension": 4, "initial_points": 2, "structure": {"gibbs_evaluations": 8, "relearn_every": 1},
           "kernel": {"noise_variance": "learn"}, "limits": {"threads": 1})",
       {kUnit, kUnit, kUnit, kUnit}},
      {R"({"dimension": 3, "initial_points": 2, "structure": {"mode": "disjoint", "gibbs_evaluations": 8,
           "relearn_every": 2}, "limits": {"threads": 1})",
       {kUnit, kUnit, kUnit}},
      {R"({"dimension": 4, "initial_points": 2, "structure": {"mode": "random-tree", "tree_edges": 2,
           "gibbs_evaluations": 10, "relearn_every": 3}, "limits": {"threads": 1})",
       {kUnit, kUnit, kUnit, kUnit}},
      {R"({"variables": [{"name": "x", "lower": -1, "upper": 1, "grid": 8},
           {"name": "k", "type": "integer", "lower": 1, "upper": 6},
           {"name": "c", "type": "categorical", "choices": ["a", "b", "c"]}],
           "goal": "minimize", "initial_points": 3,
           "structure": {"gibbs_evaluations": 8, "relearn_every": 2}, "limits": {"threads": 1})",
       {{-1.0, 1.0, false}, {1.0, 6.0, true}, {0.0, 2.0, true}}},
      {R"({"dimension": 3, "initial_points": 2, "structure": {"relearn": "manual", "gibbs_evaluations": 8},
           "kernel": {"noise_variance": "learn"}, "limits": {"threads": 1})",
       {kUnit, kUnit, kUnit}},
      {R"({"dimension": 2, "strategy": "random", "initial_points": 1, "limits": {"threads": 1})",
       {kUnit, kUnit}},
      {R"({"variables": [{"name": "lr", "scale": "log", "lower": 1e-5, "upper": 0.1, "grid": 9},
           {"name": "n", "type": "integer", "scale": "log", "lower": 1, "upper": 1000, "grid": 12}],
           "initial_points": 2, "structure": {"gibbs_evaluations": 8, "relearn_every": 2},
           "limits": {"threads": 1})",
       {{1e-5, 0.1, false}, {1.0, 1000.0, true}}},
      {R"({"dimension": 2, "initial_points": 1, "acquisition": {"local_search": false, "beta_scale": 3},
           "structure": {"gibbs_evaluations": 10, "relearn_every": 1, "max_learning_points": 4},
           "kernel": {"lengthscale_choices": [1e-200, 0.5]}, "limits": {"threads": 1})",
       {kUnit, kUnit}},
      {R"({"dimension": 5, "initial_points": 2, "structure": {"gibbs_evaluations": 10, "relearn_every": 4,
           "expected_degree": 3}, "limits": {"threads": 2, "max_table_cells": 4096,
           "max_model_observations": 6, "max_pending": 3})",
       {kUnit, kUnit, kUnit, kUnit, kUnit}},
      {R"({"variables": [{"type": "categorical", "choices": ["p", "q"]}, {"type": "integer", "lower": 0, "upper": 2}],
           "initial_points": 1, "structure": {"gibbs_evaluations": 10, "relearn_every": 1}, "limits": {"threads": 1})",
       {{0.0, 1.0, true}, {0.0, 2.0, true}}},
  };
  return all;
}

// The structure-aware mode: a valid configuration made from the bytes.
Setup generated_setup(Reader& bytes) {
  static const char* const modes[] = {"learn", "disjoint", "fixed", "random-tree"};
  static const char* const noises[] = {"\"auto\"", "\"learn\"", "0.001", "1e-06"};
  Setup setup;
  const int dimension = 1 + static_cast<int>(bytes.below(5));
  std::string variables;
  for (int d = 0; d < dimension; ++d) {
    const std::uint8_t kind = bytes.byte();
    std::string variable = "{\"name\": \"v" + std::to_string(d) + "\"";
    switch (kind % 6) {
      case 0:  // an integer, linear
        variable += ", \"type\": \"integer\", \"lower\": -2, \"upper\": " +
                    std::to_string(1 + kind / 6 % 8);
        setup.variables.push_back({-2.0, 1.0 + kind / 6 % 8, true});
        break;
      case 1:  // an integer on a log scale
        variable +=
            ", \"type\": \"integer\", \"scale\": \"log\", \"lower\": 1, \"upper\": 500, "
            "\"grid\": " +
            std::to_string(2 + kind / 6 % 10);
        setup.variables.push_back({1.0, 500.0, true});
        break;
      case 2:  // categorical
        variable += ", \"type\": \"categorical\", \"choices\": [\"a\", \"b\"";
        if (kind & 0x40) variable += ", \"c\", \"d\"";
        variable += "]";
        setup.variables.push_back({0.0, kind & 0x40 ? 3.0 : 1.0, true});
        break;
      case 3:  // continuous on a log scale
        variable += ", \"scale\": \"log\", \"lower\": 1e-4, \"upper\": 10, \"grid\": " +
                    std::to_string(2 + kind / 6 % 16);
        setup.variables.push_back({1e-4, 10.0, false});
        break;
      default:  // continuous, a 2-point grid sometimes (crowded cells)
        variable += ", \"lower\": -1, \"upper\": 3, \"grid\": " +
                    std::to_string(kind & 0x80 ? 2 : 2 + kind / 6 % 20);
        setup.variables.push_back({-1.0, 3.0, false});
        break;
    }
    variables += (d == 0 ? "" : ", ") + variable + "}";
  }
  const std::uint8_t shape = bytes.byte(), limits = bytes.byte();
  // A random tree needs two variables.
  const unsigned mode = dimension == 1 ? shape % 3 : shape % 4;
  std::string structure = std::string("{\"mode\": \"") + modes[mode] +
                          "\", \"gibbs_evaluations\": " + std::to_string(1 + shape / 4 % 10) +
                          ", \"relearn_every\": " + std::to_string(1 + shape / 40 % 4);
  if (mode == 2 && dimension > 1) structure += ", \"edges\": [[0, 1]]";
  if (mode == 3) structure += ", \"tree_edges\": 1";
  if (shape & 0x80) structure += ", \"relearn\": \"manual\"";
  structure += "}";
  setup.json = "{\"variables\": [" + variables + "], \"structure\": " + structure +
               ", \"kernel\": {\"noise_variance\": " + noises[limits % 4] + "}" + ", \"goal\": \"" +
               (limits & 0x04 ? "minimize" : "maximize") + "\"" +
               ", \"initial_points\": " + std::to_string(1 + limits / 8 % 4) +
               ", \"acquisition\": {\"local_search\": " + (limits & 0x20 ? "false" : "true") +
               "}, \"limits\": {\"threads\": " + (limits & 0x40 ? "2" : "1") +
               ", \"max_model_observations\": " + std::to_string(2 + limits / 16 % 8) +
               ", \"max_pending\": " + std::to_string(1 + limits % 3) +
               ", \"max_table_cells\": " + (limits & 0x80 ? "64" : "4096") + "}";
  return setup;
}

// A coordinate for variable v: mostly inside its range, sometimes on or outside its bounds, or
// an awkward double.
double coordinate(Reader& bytes, const Variable& v) {
  const std::uint8_t choice = bytes.byte();
  switch (choice % 10) {
    case 0:
      return bytes.value();
    case 1:
      return v.lower;
    case 2:
      return v.upper;
    case 3:
      return choice & 0x80 ? v.upper + 1.0 : v.lower - 0.5;
    default: {
      const double value = v.lower + bytes.fraction() * (v.upper - v.lower);
      return v.whole ? static_cast<double>(static_cast<long long>(value + 0.5)) : value;
    }
  }
}

std::vector<double> fresh_point(Reader& bytes, const Setup& setup) {
  std::vector<double> x;
  for (const Variable& v : setup.variables) x.push_back(coordinate(bytes, v));
  return x;
}

// Picks one of `points` (or a fresh point when there is none).
std::vector<double> pick(Reader& bytes, const std::vector<std::vector<double>>& points,
                         const Setup& setup) {
  if (points.empty()) return fresh_point(bytes, setup);
  return points[bytes.below(static_cast<std::uint32_t>(points.size()))];
}

void forget(std::vector<std::vector<double>>& points, const std::vector<double>& x) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (same_bits(points[i], x)) {
      points.erase(points.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

constexpr int kMaxCalls = 32;
constexpr int kMaxAsks = 16;
// Selector bytes from here on generate the configuration (the structure-aware mode).
constexpr std::uint8_t kGenerated = 0xC0;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader bytes(data, size);
  const std::uint8_t selector = bytes.byte();
  const Setup setup = selector >= kGenerated
                          ? generated_setup(bytes)
                          : setups()[selector % static_cast<std::uint32_t>(setups().size())];
  const std::string config = setup.json + ", \"seed\": " + std::to_string(bytes.byte()) + "}";
  Handle opt;
  if (check_status(addbo_create(opt.out(), config.c_str()), "addbo_create") != ADDBO_OK) {
    fail("a configuration of fuzz_calls is refused: " + config);
  }
  const std::size_t dim = setup.variables.size();
  check(dimension_of(opt.get()) == dim, "dimension of " + config);

  std::string state = save(opt.get(), "after create");  // opt's saved state, kept up to date
  std::vector<std::vector<double>> pending, told;       // what the driver asked and told
  int asks = 0;
  for (int calls = 0; calls < kMaxCalls && !bytes.empty(); ++calls) {
    Call call;
    call.dim = dim;
    const std::uint8_t op = bytes.byte();
    const bool with_twin = (op & 0x80) != 0;
    switch (op % 14) {
      case 0:
      case 1:
        if (++asks > kMaxAsks) continue;
        call.kind = Call::ask;
        break;
      case 2:
        call.kind = Call::tell;
        call.x = pick(bytes, pending, setup);
        call.y = bytes.value();
        break;
      case 3:
        call.kind = Call::tell;
        call.x = fresh_point(bytes, setup);
        call.y = bytes.value();
        break;
      case 4:
        call.kind = Call::tell;
        call.x = pick(bytes, told, setup);
        call.y = bytes.value();
        break;
      case 5:
        call.kind = Call::cancel;
        call.x = pick(bytes, pending, setup);
        break;
      case 6:
        call.kind = Call::best;
        break;
      case 7:
        call.kind = Call::count;
        break;
      case 8:
        call.kind = Call::info;
        break;
      case 9:
        call.kind = Call::learn;
        break;
      case 10:  // save, load, and go on with the restored optimizer
        if (std::getenv("ADDBO_FUZZ_TRACE") != nullptr)
          std::fprintf(stderr, "save/load round trip\n");
        opt = restore(state, "round trip");
        continue;
      case 11: {  // a wrong dim or a NULL pointer
        static const Call::Kind kinds[] = {Call::ask,   Call::tell, Call::cancel, Call::best,
                                           Call::count, Call::info, Call::learn,  Call::dimension};
        const std::uint8_t how = bytes.byte();
        call.kind = kinds[how % 8];
        call.x = fresh_point(bytes, setup);
        call.y = 0.5;
        if (how & 0x08 && (call.kind == Call::ask || call.kind == Call::tell ||
                           call.kind == Call::cancel || call.kind == Call::best)) {
          call.dim = (how >> 4) % 4 == 0 ? 0 : dim + (how >> 4) % 4;
          call.x.resize(call.dim, 0.5);
        } else {
          call.null_pointer = true;
        }
        const Outcome outcome = step(opt, state, call);
        check(outcome.status == ADDBO_ERR_INVALID_ARGUMENT || call.kind == Call::learn,
              call.text() + " returned " + addbo_status_name(outcome.status));
        continue;
      }
      case 12:
        call.kind = Call::dimension;
        break;
      case 13: {  // a pending point moved by less than the matching tolerance (or more)
        call.kind = Call::tell;
        call.x = pick(bytes, pending, setup);
        const std::uint8_t how = bytes.byte();
        const double step = how & 1 ? 1e-9 : 1e-5;
        for (std::size_t i = 0; i < dim; ++i) {
          if (!setup.variables[i].whole && how & (2u << (i % 7))) call.x[i] += step;
        }
        call.y = bytes.value();
        break;
      }
    }
    const Outcome outcome = step(opt, state, call, with_twin);
    if (outcome.status != ADDBO_OK) continue;
    switch (call.kind) {
      case Call::ask:
        check(outcome.x.size() == dim, "ask wrote a point of the wrong size");
        pending.push_back(outcome.x);
        break;
      case Call::tell:
        forget(pending, call.x);
        told.push_back(call.x);
        break;
      case Call::cancel:
        forget(pending, call.x);
        break;
      case Call::dimension:
        check(outcome.first == dim, "addbo_dimension changed");
        break;
      default:
        break;
    }
  }
  // The end of every input: the state reached loads, and the restored optimizer's next ask is
  // the original's.
  Call last;
  last.kind = Call::ask;
  last.dim = dim;
  step(opt, state, last, true);
  return 0;
}
