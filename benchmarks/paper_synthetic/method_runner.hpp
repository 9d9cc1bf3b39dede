// One optimisation run of one method on one test function, driven through the public C++
// wrapper (addbo::Optimizer over the C API) exactly as an application would drive it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_function.hpp"

namespace paper_synthetic {

enum class Method { overlap, no_overlap, oracle, random };  // in this order: indices of tables
constexpr Method kMethods[] = {Method::overlap, Method::no_overlap, Method::oracle, Method::random};

// "Overlap", "No Overlap", "Oracle", "Random" (the paper's names).
const char* method_name(Method method);

// The paper's settings (Table 1 and section 5.1) unless changed by the command line.
struct Settings {
  int grid = 30;  // grid points per variable: the function's and the optimizer's
  int runs = 10;
  int evaluations = 1000;  // per run, the initial points included (paper: max_eval 1000)
  int initial_points = 10;
  double noise_sd = 0.01;       // observation noise, standard deviation
  double lengthscale = 0.2;     // of the test functions (and of the Oracle's kernel)
  int relearn_every = 30;       // N_cyc
  int gibbs_evaluations = 200;  // N_Gibbs
  double beta_scale = 0.5;      // beta_t = 0.5 log(2t)
  int max_learning_points = 0;  // 0: learn from every observation
  // limits.max_table_cells of every GP method; 0 means grid^4, the largest junction-tree node
  // the true graphs need (the 3x3 grid triangulates into 4-variable nodes) at full resolution.
  long long max_table_cells = 0;
  std::uint64_t seed = 1;
};

// What one run shares between all methods: the function, its exact maximum and the initial
// design with its (noisy) observations.
struct RunInputs {
  const TestFunction* function = nullptr;
  double maximum = 0.0;
  std::vector<std::vector<int>> initial_points;  // grid indices per variable
  std::vector<double> initial_values;            // noisy observations of those points
};

// Per evaluation t = 1..evaluations (index t-1): regrets against the noiseless function, and
// the CC/CS of the graph the optimizer holds after the t-th tell (NaN for Random, which has no
// model).
struct Trace {
  std::vector<double> simple_regret, average_cumulative_regret, correct_connections,
      correct_separations;
  double seconds = 0.0;
};

// The JSON configuration of `method` for this graph and these settings.
std::string method_config(Method method, const TrueGraph& graph, const Settings& settings,
                          std::uint64_t seed);

// Tells the initial design first, then asks and tells until settings.evaluations; the
// observation noise comes from the stream `noise_seed`, the optimizer's own randomness from
// `optimizer_seed`.
Trace run_method(Method method, const RunInputs& inputs, const Settings& settings,
                 std::uint64_t optimizer_seed, std::uint64_t noise_seed);

}  // namespace paper_synthetic
