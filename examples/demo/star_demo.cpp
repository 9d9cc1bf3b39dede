// scripts/demo runs this: G-Add-GP-UCB on a 10-variable function that is additive over the
// paper's star graph (variable 0 interacts with each of the nine others), driven through the
// public C++ wrapper exactly as an application would. One line per evaluation, then the best
// point and how close it is to the true grid optimum (computed exactly by enumeration).
//
//   star_demo [evaluations=150] [seed=1]
#include <addbo/addbo.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "star_function.hpp"

int main(int argc, char** argv) {
  const int evaluations = argc > 1 ? std::atoi(argv[1]) : 150;
  const int seed = argc > 2 ? std::atoi(argv[2]) : 1;
  if (evaluations < 1 || seed < 0) {
    std::fprintf(stderr, "usage: star_demo [evaluations >= 1] [seed >= 0]\n");
    return 2;
  }

  std::string edges;
  for (const auto& [a, b] : addbo_examples::star_edges()) {
    edges += (edges.empty() ? "" : ", ") + std::string("[") + std::to_string(a) + ", " +
             std::to_string(b) + "]";
  }
  const std::string config = R"({
    "dimension": 10, "seed": )" + std::to_string(seed) + R"(, "initial_points": 10,
    "structure": {"mode": "fixed", "edges": [)" + edges + R"(]},
    "kernel": {"lengthscales": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
               "noise_variance": 1e-4},
    "acquisition": {"beta_scale": 0.5}})";

  const auto [lowest, highest] = addbo_examples::star_grid_extremes(32);
  std::printf("addbo %s: maximising a 10-variable function additive over the star graph\n",
              addbo_version());
  std::printf("true maximum on the 32-point grid: %.4f (minimum %.4f)\n\n", highest, lowest);
  std::printf("%5s  %9s  %9s  %8s  %s\n", "eval", "f(x)", "best", "regret", "x");

  try {
    addbo::Optimizer optimizer(config);
    for (int t = 1; t <= evaluations; ++t) {
      const std::vector<double> x = optimizer.ask();
      const double y = addbo_examples::star_function(x);
      optimizer.tell(x, y);
      const double best = optimizer.best().y;
      std::printf("%5d  %9.4f  %9.4f  %8.4f  [", t, y, best, highest - best);
      for (std::size_t d = 0; d < x.size(); ++d) std::printf("%s%.3f", d ? " " : "", x[d]);
      std::printf("]%s\n", t <= 10 ? "  (initial random design)" : "");
    }
    const addbo::Observation best = optimizer.best();
    std::printf("\nbest value %.4f after %d evaluations (true grid maximum %.4f, gap %.2f%% of the "
                "function's range)\nbest point:",
                best.y, evaluations, highest, 100.0 * (highest - best.y) / (highest - lowest));
    for (double value : best.x) std::printf(" %.4f", value);
    std::printf("\n");
  } catch (const addbo::Error& error) {
    std::fprintf(stderr, "addbo error %s: %s\n", error.status_name(), error.what());
    return 1;
  }
  return 0;
}
