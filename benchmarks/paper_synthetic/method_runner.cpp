#include "method_runner.hpp"

#include <addbo/addbo.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "graph_accuracy.hpp"
#include "seeded_random.hpp"

namespace paper_synthetic {

const char* method_name(Method method) {
  static const char* const names[] = {"Overlap", "No Overlap", "Oracle", "Random"};
  return names[static_cast<int>(method)];
}

namespace {

long long table_cells(const Settings& settings) {
  if (settings.max_table_cells > 0) return settings.max_table_cells;
  const long long grid = settings.grid;
  return grid * grid * grid * grid;
}

}  // namespace

std::string method_config(Method method, const TrueGraph& graph, const Settings& settings,
                          std::uint64_t seed) {
  using nlohmann::json;
  json variables = json::array();
  for (int d = 0; d < graph.dimension; ++d) {
    variables.push_back({{"name", "x" + std::to_string(d)},
                         {"type", "continuous"},
                         {"lower", 0},
                         {"upper", 1},
                         {"grid", settings.grid}});
  }
  json structure = {{"relearn_every", settings.relearn_every},
                    {"gibbs_evaluations", settings.gibbs_evaluations},
                    {"max_learning_points", settings.max_learning_points}};
  // The paper's prior: uniform over the lengthscale choices and independent between variables
  // (the library's default scales it with the group size and joins the lengthscales).
  json kernel = {
      {"lengthscales", "learn"}, {"lengthscale_prior", "uniform"}, {"lengthscale_spread", 0}};
  json config = {{"variables", variables},
                 {"seed", seed},
                 {"initial_points", settings.initial_points},
                 {"acquisition", {{"beta_scale", settings.beta_scale}}},
                 // The benchmark runs several optimizers side by side, one thread each.
                 {"limits", {{"threads", 1}, {"max_table_cells", table_cells(settings)}}}};
  switch (method) {
    case Method::overlap:
      structure["mode"] = "learn";
      structure["random_tree_share"] = 0;  // the paper's Overlap: every ask on the learned graph
      break;
    case Method::no_overlap:
      structure["mode"] = "disjoint";
      break;
    case Method::oracle:
      structure["mode"] = "fixed";
      structure["edges"] = graph.edges;
      kernel["lengthscales"] = std::vector<double>(graph.dimension, settings.lengthscale);
      break;
    case Method::random:
      config["strategy"] = "random";
      break;
  }
  config["structure"] = structure;
  config["kernel"] = kernel;
  return config.dump();
}

namespace {

// Running regrets of one run.
class RegretTracker {
 public:
  RegretTracker(double maximum, Trace& trace) : maximum_(maximum), trace_(trace) {}
  void add(double true_value) {
    double regret = maximum_ - true_value;
    // The exact maximum bounds every grid value: a negative regret is a bug in exact_maximum.
    if (regret < -1e-9 * (1.0 + std::fabs(maximum_))) {
      throw std::logic_error("a grid point exceeds the computed maximum");
    }
    regret = std::max(regret, 0.0);  // the same sum in another order: rounding only
    best_ = std::min(best_, regret);
    sum_ += regret;
    trace_.simple_regret.push_back(best_);
    trace_.average_cumulative_regret.push_back(sum_ /
                                               static_cast<double>(trace_.simple_regret.size()));
  }

 private:
  double maximum_, best_ = INFINITY, sum_ = 0.0;
  Trace& trace_;
};

}  // namespace

Trace run_method(Method method, const RunInputs& inputs, const Settings& settings,
                 std::uint64_t optimizer_seed, std::uint64_t noise_seed) {
  const auto start = std::chrono::steady_clock::now();
  const TestFunction& function = *inputs.function;
  const TrueGraph& graph = function.graph();
  const int grid = function.grid();
  Trace trace;
  RegretTracker regret(inputs.maximum, trace);
  SeededRandom noise(noise_seed);
  addbo::Optimizer optimizer(method_config(method, graph, settings, optimizer_seed));

  auto point_of = [&](const std::vector<int>& indices) {
    std::vector<double> x(indices.size());
    for (std::size_t d = 0; d < x.size(); ++d) x[d] = grid_point(indices[d], grid);
    return x;
  };
  auto record_graph = [&]() {
    if (method == Method::random) {
      trace.correct_connections.push_back(NAN);
      trace.correct_separations.push_back(NAN);
      return;
    }
    const addbo::core::GraphAccuracy accuracy =
        addbo_examples::learned_graph_accuracy(optimizer.info(), graph.dimension, graph.edges);
    trace.correct_connections.push_back(accuracy.correct_connections);
    trace.correct_separations.push_back(accuracy.correct_separations);
  };

  for (std::size_t i = 0; i < inputs.initial_points.size(); ++i) {
    optimizer.tell(point_of(inputs.initial_points[i]), inputs.initial_values[i]);
    regret.add(function.value(inputs.initial_points[i]));
    record_graph();
  }
  for (int t = static_cast<int>(inputs.initial_points.size()); t < settings.evaluations; ++t) {
    const std::vector<double> asked = optimizer.ask();
    // GP-UCB asks points of the optimizer's grid, which is the function's grid unless a learned
    // graph has a junction-tree node over max_table_cells (the optimizer then coarsens those
    // variables' grids); random search (and the optimizer's last-resort random draw) asks
    // anywhere in [0, 1]^D. The function lives on its grid: evaluate the nearest grid point and
    // tell that one instead of the asked one.
    std::vector<int> indices(asked.size());
    for (std::size_t d = 0; d < asked.size(); ++d) indices[d] = nearest_index(asked[d], grid);
    const std::vector<double> evaluated = point_of(indices);
    if (evaluated != asked) optimizer.cancel(asked);
    const double true_value = function.value(indices);
    optimizer.tell(evaluated, true_value + settings.noise_sd * noise.normal());
    regret.add(true_value);
    record_graph();
  }
  trace.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return trace;
}

}  // namespace paper_synthetic
