// The paper's synthetic experiments (Rolland et al. 2018, §5.1; docs/benchmarks.md): GP-sampled
// functions additive over the star graph (D = 10) and the 3x3 grid graph (D = 9), optimised by
// Overlap (learned overlapping graph), No Overlap (learned disjoint groups), Oracle (true graph
// and lengthscales) and Random, all through the public C++ wrapper. Writes a long-format CSV,
// the table of regrets and PNG plots of the mean with a standard-error band (Figures 3-6).
//
//   paper_synthetic [--quick] [--runs 10] [--iterations 1000] [--grid 30] [--noise 0.01]
//                   [--graphs star,grid] [--methods overlap,no_overlap,oracle,random]
//                   [--initial 10] [--relearn-every 30] [--gibbs 200] [--beta-scale 0.5]
//                   [--max-learning-points 0] [--max-table-cells grid^4] [--seed 1] [--threads 2]
//                   [--out paper_synthetic_out]
//                   [--no-plots]
//
// --iterations counts evaluations per run, the initial points included (the paper's max_eval).
// --quick is --runs 3 --iterations 150 (about a minute on 2 idle cores, a few when shared).
// Each (graph, run, method) job has its own random streams: results do not depend on --threads.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "exact_maximum.hpp"
#include "method_runner.hpp"
#include "results_output.hpp"
#include "seeded_random.hpp"
#include "test_function.hpp"

namespace ps = paper_synthetic;

namespace {

struct Options {
  ps::Settings settings;
  std::vector<std::string> graphs = {"star", "grid"};
  std::vector<ps::Method> methods = {std::begin(ps::kMethods), std::end(ps::kMethods)};
  int threads = 2;
  std::string out = "paper_synthetic_out";
  bool plots = true;
};

// Stream purposes in derive_seed paths.
enum Stream : std::uint64_t { kFunction = 1, kDesign, kDesignNoise, kOptimizer, kNoise };

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

ps::Method parse_method(const std::string& name) {
  static const std::map<std::string, ps::Method> names = {{"overlap", ps::Method::overlap},
                                                          {"no_overlap", ps::Method::no_overlap},
                                                          {"oracle", ps::Method::oracle},
                                                          {"random", ps::Method::random}};
  const auto found = names.find(name);
  if (found == names.end()) {
    throw std::invalid_argument("unknown method '" + name +
                                "' (overlap, no_overlap, oracle, random)");
  }
  return found->second;
}

int positive(const std::string& flag, const std::string& value, int minimum = 1) {
  const int parsed = std::stoi(value);
  if (parsed < minimum) {
    throw std::invalid_argument(flag + " must be at least " + std::to_string(minimum));
  }
  return parsed;
}

Options parse_options(int argc, char** argv) {
  Options options;
  ps::Settings& s = options.settings;
  // --quick first, so that explicit flags override its sizes wherever they stand.
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") {
      s.runs = 3;
      s.evaluations = 150;
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--quick") continue;
    if (flag == "--no-plots") {
      options.plots = false;
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + flag);
    const std::string value = argv[++i];
    if (flag == "--runs")
      s.runs = positive(flag, value);
    else if (flag == "--iterations")
      s.evaluations = positive(flag, value);
    else if (flag == "--grid")
      s.grid = positive(flag, value, 2);
    else if (flag == "--noise")
      s.noise_sd = std::stod(value);
    else if (flag == "--initial")
      s.initial_points = positive(flag, value);
    else if (flag == "--relearn-every")
      s.relearn_every = positive(flag, value);
    else if (flag == "--gibbs")
      s.gibbs_evaluations = positive(flag, value);
    else if (flag == "--beta-scale")
      s.beta_scale = std::stod(value);
    else if (flag == "--max-learning-points")
      s.max_learning_points = positive(flag, value, 0);
    else if (flag == "--max-table-cells")
      s.max_table_cells = std::stoll(value);
    else if (flag == "--seed")
      s.seed = std::stoull(value);
    else if (flag == "--threads")
      options.threads = positive(flag, value);
    else if (flag == "--out")
      options.out = value;
    else if (flag == "--graphs")
      options.graphs = split(value);
    else if (flag == "--methods") {
      options.methods.clear();
      for (const std::string& name : split(value)) options.methods.push_back(parse_method(name));
    } else {
      throw std::invalid_argument("unknown flag " + flag);
    }
  }
  for (const std::string& graph : options.graphs) {
    if (graph != "star" && graph != "grid") {
      throw std::invalid_argument("unknown graph '" + graph + "' (star, grid)");
    }
  }
  if (s.noise_sd < 0) throw std::invalid_argument("--noise must be >= 0");
  if (s.initial_points > s.evaluations) {
    throw std::invalid_argument("--initial must not exceed --iterations");
  }
  return options;
}

// Everything one (graph, run) pair shares between the methods.
struct RunProblem {
  std::string graph;
  int run;
  std::unique_ptr<ps::TestFunction> function;
  ps::RunInputs inputs;
};

RunProblem make_problem(const std::string& name, int graph_index, int run,
                        const ps::GridGpSampler& sampler, const ps::Settings& settings) {
  RunProblem problem{name, run, nullptr, {}};
  const std::uint64_t base = settings.seed, g = graph_index, r = run;
  const ps::TrueGraph graph = name == "star" ? ps::star_graph() : ps::grid_graph();
  problem.function =
      std::make_unique<ps::TestFunction>(graph, sampler, ps::derive_seed({base, g, r, kFunction}));
  problem.inputs.function = problem.function.get();
  problem.inputs.maximum = ps::exact_maximum(*problem.function);
  ps::SeededRandom design(ps::derive_seed({base, g, r, kDesign}));
  ps::SeededRandom noise(ps::derive_seed({base, g, r, kDesignNoise}));
  for (int i = 0; i < settings.initial_points; ++i) {
    std::vector<int> indices(graph.dimension);
    for (int& index : indices) index = design.below(settings.grid);
    problem.inputs.initial_values.push_back(problem.function->value(indices) +
                                            settings.noise_sd * noise.normal());
    problem.inputs.initial_points.push_back(std::move(indices));
  }
  return problem;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::printf(
          "usage: paper_synthetic [--quick] [--runs 10] [--iterations 1000] [--grid 30]\n"
          "         [--noise 0.01] [--graphs star,grid] [--methods "
          "overlap,no_overlap,oracle,random]\n"
          "         [--initial 10] [--relearn-every 30] [--gibbs 200] [--beta-scale 0.5]\n"
          "         [--max-learning-points 0] [--max-table-cells grid^4] [--seed 1] [--threads 2]\n"
          "         [--out paper_synthetic_out] [--no-plots]\n"
          "The paper's section 5.1 experiments: regrets table, CSV and PNG plots in --out.\n"
          "--quick is --runs 3 --iterations 150.\n");
      return 0;
    }
  }
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "paper_synthetic: %s\n", error.what());
    return 2;
  }
  const ps::Settings& settings = options.settings;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  try {
    std::filesystem::create_directories(options.out);
    std::printf(
        "paper_synthetic: %d runs x %d evaluations, grid %d, noise sd %g, beta_scale %g, "
        "relearn every %d, %d Gibbs likelihoods, %d threads\n",
        settings.runs, settings.evaluations, settings.grid, settings.noise_sd, settings.beta_scale,
        settings.relearn_every, settings.gibbs_evaluations, options.threads);
    const ps::GridGpSampler sampler(settings.grid, settings.lengthscale);
    std::vector<RunProblem> problems;
    for (std::size_t g = 0; g < options.graphs.size(); ++g) {
      const int graph_index = options.graphs[g] == "star" ? 0 : 1;
      for (int run = 0; run < settings.runs; ++run) {
        problems.push_back(make_problem(options.graphs[g], graph_index, run, sampler, settings));
      }
    }
    std::printf("%zu test functions drawn (GP Cholesky jitter %g), exact maxima found (%.1f s)\n",
                problems.size(), sampler.jitter(), elapsed());

    // Jobs in output order (graph, method, run); the learning methods, the slowest, start first.
    struct Job {
      const RunProblem* problem;
      ps::Method method;
      int graph_index;
    };
    std::vector<Job> jobs;
    for (std::size_t g = 0; g < options.graphs.size(); ++g) {
      for (ps::Method method : options.methods) {
        for (int run = 0; run < settings.runs; ++run) {
          jobs.push_back(
              {&problems[g * settings.runs + run], method, options.graphs[g] == "star" ? 0 : 1});
        }
      }
    }
    std::vector<std::size_t> order(jobs.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      auto cost = [&](std::size_t k) {
        return jobs[k].method == ps::Method::random   ? 0
               : jobs[k].method == ps::Method::oracle ? 1
                                                      : 2;
      };
      return cost(a) > cost(b);
    });

    std::vector<ps::JobResult> results(jobs.size());
    std::atomic<std::size_t> next{0};
    std::atomic<int> done{0};
    std::mutex print_mutex;
    std::exception_ptr failure;
    auto worker = [&]() {
      for (std::size_t slot; (slot = next.fetch_add(1)) < order.size();) {
        const std::size_t k = order[slot];
        const Job& job = jobs[k];
        try {
          const std::uint64_t base = settings.seed, g = job.graph_index, r = job.problem->run,
                              m = static_cast<std::uint64_t>(job.method);
          // Seeds below 2^53 stay exact in any JSON reader.
          const std::uint64_t optimizer_seed = ps::derive_seed({base, g, r, m, kOptimizer}) >> 11;
          ps::Trace trace =
              ps::run_method(job.method, job.problem->inputs, settings, optimizer_seed,
                             ps::derive_seed({base, g, r, m, kNoise}));
          const std::lock_guard<std::mutex> lock(print_mutex);
          std::printf("[%3d/%zu] %-5s %-10s run %2d: S_T %.4f  R_T/T %.4f  (%.1f s, at %.0f s)\n",
                      ++done, jobs.size(), job.problem->graph.c_str(), ps::method_name(job.method),
                      job.problem->run, trace.simple_regret.back(),
                      trace.average_cumulative_regret.back(), trace.seconds, elapsed());
          std::fflush(stdout);
          results[k] = {job.problem->graph, job.method, job.problem->run, std::move(trace)};
        } catch (...) {
          const std::lock_guard<std::mutex> lock(print_mutex);
          if (!failure) failure = std::current_exception();
          next = order.size();  // stop handing out jobs
        }
      }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < options.threads; ++i) threads.emplace_back(worker);
    for (std::thread& thread : threads) thread.join();
    if (failure) std::rethrow_exception(failure);

    const std::string csv = options.out + "/paper_synthetic.csv";
    ps::write_csv(csv, results);
    const std::vector<ps::MethodSummary> summaries = ps::summarise(results);
    const std::string table = ps::regret_table(summaries);
    std::ofstream(options.out + "/table.md") << table;
    std::printf(
        "\nmean ± standard error over %d runs (S_t simple regret, R_t/t average cumulative "
        "regret, CC/CS of the last learned graph):\n\n%s\nwrote %s and %s/table.md\n",
        settings.runs, table.c_str(), csv.c_str(), options.out.c_str());
    if (options.plots && ps::write_plots(options.out, summaries)) {
      std::printf("wrote the plots regret_<graph>.png and graph_learning_<graph>.png in %s\n",
                  options.out.c_str());
    }
    std::printf("total %.1f s\n", elapsed());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "paper_synthetic: %s\n", error.what());
    return 1;
  }
  return 0;
}
