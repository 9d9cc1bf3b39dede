// A simulation that crashes on part of the box and whose result must respect a limit
// (docs/real-objectives.md), with the C++ wrapper: minimise a beam's mass subject to its stress
// staying at most 12, telling the evaluations that diverge as failures.
#include <addbo/addbo.hpp>

#include <cstdio>
#include <optional>
#include <vector>

struct Outcome {
  double mass, stress;
};

// The "simulation": nothing when it diverges (a thin, narrow beam buckles).
std::optional<Outcome> simulate(const std::vector<double>& x) {
  const double section = x[0] * x[1];
  if (section < 15.0) return std::nullopt;
  return Outcome{section + 0.5 * x[2] * x[3], 1000.0 / (section + 0.2 * x[2] * x[3] + 1.0)};
}

int main() {
  try {
    addbo::Optimizer optimizer(R"({
      "variables": [
        {"name": "thickness", "lower": 1, "upper": 10},
        {"name": "width", "lower": 1, "upper": 10},
        {"name": "rib_height", "lower": 0, "upper": 5},
        {"name": "ribs", "lower": 0, "upper": 5}],
      "goal": "minimize", "seed": 3,
      "constraints": [{"name": "stress", "upper": 12}]})");
    for (int i = 0; i < 60; ++i) {
      const std::vector<double> x = optimizer.ask();
      if (const std::optional<Outcome> outcome = simulate(x)) {
        optimizer.tell(x, outcome->mass, {outcome->stress});
      } else {
        optimizer.tell_failure(x);  // diverged: no value
      }
    }
    const addbo::Observation best = optimizer.best();  // the best feasible design
    const double stress = simulate(best.x)->stress;
    std::printf("best feasible mass %.3f (stress %.2f <= 12), %zu of 60 evaluations failed\n",
                best.y, stress, optimizer.failures());
    return stress <= 12.0 ? 0 : 1;
  } catch (const addbo::Error& e) {
    std::fprintf(stderr, "%s: %s\n", e.status_name(), e.what());
    return 1;
  }
}
