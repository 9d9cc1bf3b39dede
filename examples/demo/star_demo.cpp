// scripts/demo runs this: G-Add-GP-UCB on a 10-variable function that is additive over the
// paper's star graph (variable 0 interacts with each of the nine others), driven through the
// public C++ wrapper exactly as an application would. One line per evaluation, then the best
// point, how close it is to the true optimum (enumerated on a fine grid) and, when
// the graph was learned, how the learned graph compares with the true one.
//
//   star_demo [evaluations=150] [seed=1] [--known-graph] [--save STATE.json]
//
// By default addbo learns the dependency graph and the lengthscales from the data (the usual
// case: the user does not know the structure); --known-graph gives it the star graph and the
// true lengthscale instead (the paper's "Oracle"). --save writes the final state (addbo's save())
// to a file, which examples/plot_run turns into a picture (scripts/demo does).
#include <addbo/addbo.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "evaluation/star_function.hpp"

namespace {

// The edges [[i, j], ...] of info()'s "edges".
std::set<std::pair<int, int>> learned_edges(const std::string& info) {
  std::set<std::pair<int, int>> edges;
  const nlohmann::json document = nlohmann::json::parse(info);  // outlives the loop
  for (const auto& edge : document.at("edges")) {
    edges.emplace(edge.at(0).get<int>(), edge.at(1).get<int>());
  }
  return edges;
}

}  // namespace

int main(int argc, char** argv) {
  int evaluations = 150, seed = 1, positional = 0;
  bool known_graph = false, usage_error = false;
  std::string save_path;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--known-graph") {
      known_graph = true;
    } else if (argument == "--save") {
      if (i + 1 < argc) {
        save_path = argv[++i];
      } else {
        usage_error = true;
      }
    } else if (positional == 0) {
      evaluations = std::atoi(argv[i]);
      ++positional;
    } else {
      seed = std::atoi(argv[i]);
      ++positional;
    }
  }
  if (usage_error || evaluations < 1 || seed < 0) {
    std::fprintf(stderr,
                 "usage: star_demo [evaluations >= 1] [seed >= 0] [--known-graph] "
                 "[--save STATE.json]\n");
    return 2;
  }

  std::string edges;
  for (const auto& [a, b] : addbo_examples::star_edges()) {
    edges += (edges.empty() ? "" : ", ") + std::string("[") + std::to_string(a) + ", " +
             std::to_string(b) + "]";
  }
  const std::string model = known_graph
                                ? R"("structure": {"mode": "fixed", "edges": [)" + edges + R"(]},
    "kernel": {"lengthscales": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
               "noise_variance": 1e-4},)"
                                : R"("structure": {"mode": "learn", "relearn_every": 20},
    "kernel": {"lengthscales": "learn", "noise_variance": 1e-4},)";
  const std::string config = R"({
    "dimension": 10, "seed": )" +
                             std::to_string(seed) + R"(, "initial_points": 10,
    )" + model + R"(
    "acquisition": {"beta_scale": 0.5}})";

  // addbo searches between its grid points too, so the reference is the maximum on a grid far
  // finer than its 32 points (enumerated exactly; within ~1e-6 of the continuous one).
  const auto [lowest, highest] = addbo_examples::star_grid_extremes(1001);
  std::printf("addbo %s: maximising a 10-variable function additive over the star graph\n",
              addbo_version());
  std::printf("%s\n", known_graph ? "the star graph and the lengthscales are given (Oracle)"
                                  : "the graph and the lengthscales are learned from the data "
                                    "(Gibbs sampling, relearned every 20 evaluations)");
  std::printf("true maximum: %.4f (minimum %.4f)\n\n", highest, lowest);
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
      std::printf("]%s\n", t <= 10 ? "  (initial design)" : "");
    }
    const addbo::Observation best = optimizer.best();
    std::printf(
        "\nbest value %.4f after %d evaluations (true maximum %.4f, gap %.2f%% of the "
        "function's range)\nbest point:",
        best.y, evaluations, highest, 100.0 * (highest - best.y) / (highest - lowest));
    for (double value : best.x) std::printf(" %.4f", value);
    std::printf("\n");
    if (!known_graph) {
      // Correct connections and separations (paper section 5.1) of the last learned graph.
      const std::set<std::pair<int, int>> learned = learned_edges(optimizer.info());
      const std::vector<std::pair<int, int>> truth = addbo_examples::star_edges();
      int connected = 0;
      for (const auto& edge : truth) connected += learned.count(edge) ? 1 : 0;
      const int pairs = 45, true_non_edges = pairs - static_cast<int>(truth.size());
      const int false_edges = static_cast<int>(learned.size()) - connected;
      std::printf(
          "learned graph: %zu edges, %d of the %zu true edges found, %d of the %d "
          "true separations kept\n",
          learned.size(), connected, truth.size(), true_non_edges - false_edges, true_non_edges);
    }
    if (!save_path.empty()) {
      std::ofstream out(save_path);
      out << optimizer.save();
      if (!out.flush()) {
        std::fprintf(stderr, "star_demo: cannot write %s\n", save_path.c_str());
        return 1;
      }
      std::printf("state saved to %s\n", save_path.c_str());
    }
  } catch (const addbo::Error& error) {
    std::fprintf(stderr, "addbo error %s: %s\n", error.status_name(), error.what());
    return 1;
  }
  return 0;
}
