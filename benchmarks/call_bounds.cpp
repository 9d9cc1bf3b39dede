// What one call costs at the limits that docs/limits.md gives (ms per call, one line each):
//  - crowded: one variable on a 2-point grid, N observations told (all in two grid cells), then
//    asks (each cancelled): the known-point rule's work for a crowded cell (the model holds at
//    most limits.max_model_observations, 2,000, of them);
//  - pending: D variables, N observations told, P points asked and pending, then a tell of one
//    of them and a tell of a fresh point (each tell re-adds the other pending points);
//  - told: two variables, N random observations told (far past the model's cap), then 600
//    rounds of ask and tell (one rebuilds the model): what an ask costs, mean and slowest,
//    however many observations were ever told.
//   call_bounds [--crowded N,N,...] [--pending-observations N] [--pending P] [--dimension D]
//               [--told N,N,...]
// Uses the public C API only; times are wall clock on this machine, for reading, not checking.
#include <addbo/addbo.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

void require(int status, const char* what) {
  if (status != ADDBO_OK) {
    std::fprintf(stderr, "call_bounds: %s: %s\n", what, addbo_last_error());
    std::exit(1);
  }
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void crowded(std::size_t observations) {
  addbo_optimizer* opt = nullptr;
  require(addbo_create(&opt,
                       "{\"variables\": [{\"lower\": 0, \"upper\": 1, \"grid\": 2}], \"seed\": 1,"
                       " \"initial_points\": 2, \"structure\": {\"mode\": \"fixed\"},"
                       " \"kernel\": {\"lengthscales\": [0.5], \"noise_variance\": \"learn\"}}"),
          "create");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::size_t i = 0; i < observations; ++i) {
    const double x = unit(rng);
    require(addbo_tell(opt, &x, 1, x * (1.0 - x) + 0.01 * unit(rng)), "tell");
  }
  double x = 0.0;
  require(addbo_ask(opt, &x, 1), "ask");  // builds the model and learns once
  require(addbo_cancel(opt, &x, 1), "cancel");
  const int asks = 3;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < asks; ++i) {
    require(addbo_ask(opt, &x, 1), "ask");
    require(addbo_cancel(opt, &x, 1), "cancel");
  }
  std::printf("crowded  observations %7zu  ask %9.1f ms\n", observations,
              milliseconds_since(start) / asks);
  addbo_destroy(opt);
}

void pending(std::size_t dimension, std::size_t observations, std::size_t points) {
  addbo_optimizer* opt = nullptr;
  const std::string config =
      "{\"dimension\": " + std::to_string(dimension) +
      ", \"seed\": 1, \"limits\": {\"max_pending\": " + std::to_string(points + 1) + "}}";
  require(addbo_create(&opt, config.c_str()), "create");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> x(dimension);
  const auto objective = [&](const std::vector<double>& p) {
    double sum = 0.0;
    for (std::size_t d = 0; d + 1 < p.size(); ++d) sum -= (p[d] - 0.3) * (p[d + 1] - 0.6);
    return sum;
  };
  for (std::size_t i = 0; i < observations; ++i) {
    for (double& v : x) v = unit(rng);
    require(addbo_tell(opt, x.data(), dimension, objective(x)), "tell");
  }
  std::vector<std::vector<double>> asked;
  const auto asking = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < points; ++k) {
    require(addbo_ask(opt, x.data(), dimension), "ask");
    asked.push_back(x);
  }
  const double ask_ms = milliseconds_since(asking) / static_cast<double>(points);
  auto start = std::chrono::steady_clock::now();
  require(addbo_tell(opt, asked.front().data(), dimension, objective(asked.front())), "tell");
  const double pending_tell = milliseconds_since(start);
  for (double& v : x) v = unit(rng);
  start = std::chrono::steady_clock::now();
  require(addbo_tell(opt, x.data(), dimension, objective(x)), "tell");
  const double fresh_tell = milliseconds_since(start);
  char* info = nullptr;
  require(addbo_info(opt, &info), "info");
  const char* held = std::strstr(info, "\"model_observations\":");
  std::printf(
      "pending  D %zu  observations %zu (model %ld)  pending %zu  ask %.1f ms  tell of a pending "
      "point %.1f ms  tell of a new point %.1f ms\n",
      dimension, observations, held ? std::strtol(held + 21, nullptr, 10) : -1L, points, ask_ms,
      pending_tell, fresh_tell);
  addbo_free_string(info);
  addbo_destroy(opt);
}

void told(std::size_t observations) {
  addbo_optimizer* opt = nullptr;
  require(addbo_create(&opt, "{\"dimension\": 2, \"seed\": 1}"), "create");
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto objective = [](const double* p) { return std::sin(5.0 * p[0]) + p[1]; };
  double x[2];
  for (std::size_t i = 0; i < observations; ++i) {
    x[0] = unit(rng);
    x[1] = unit(rng);
    require(addbo_tell(opt, x, 2, objective(x)), "tell");
  }
  require(addbo_ask(opt, x, 2), "ask");  // learns and builds the model once
  require(addbo_tell(opt, x, 2, objective(x)), "tell");
  // More rounds than a quarter of the model's cap: one of them rebuilds the model from a new
  // choice of the observations (docs/limits.md), the slowest round.
  const int rounds = 600;
  double total = 0.0, slowest = 0.0;
  for (int i = 0; i < rounds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    require(addbo_ask(opt, x, 2), "ask");
    require(addbo_tell(opt, x, 2, objective(x)), "tell");
    const double ms = milliseconds_since(start);
    total += ms;
    if (ms > slowest) slowest = ms;
  }
  std::printf("told     observations %7zu  ask+tell %6.1f ms (slowest of %d: %.1f ms)\n",
              observations, total / rounds, rounds, slowest);
  addbo_destroy(opt);
}

std::vector<std::size_t> list(const char* text) {
  std::vector<std::size_t> values;
  for (const char* p = text; *p != '\0';) {
    char* end = nullptr;
    values.push_back(std::strtoull(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
    if (end == p && *p != '\0') break;
  }
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> crowd = {2000, 8000, 16000};
  std::vector<std::size_t> many;
  std::size_t dimension = 4, observations = 2000, points = 255;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--crowded") == 0) {
      crowd = list(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--pending-observations") == 0) {
      observations = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (std::strcmp(argv[i], "--pending") == 0) {
      points = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (std::strcmp(argv[i], "--told") == 0) {
      many = list(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--dimension") == 0) {
      dimension = std::strtoull(argv[i + 1], nullptr, 10);
    } else {
      std::fprintf(stderr, "call_bounds: unknown option %s\n", argv[i]);
      return 1;
    }
  }
  for (std::size_t n : crowd) crowded(n);
  if (points > 0) pending(dimension, observations, points);
  for (std::size_t n : many) told(n);
  return 0;
}
