// hd_suite (issue 10): addbo on high-dimensional test functions with and without additive
// structure, through the public C++ wrapper only, against random search and (with --peers)
// dlib, pagmo2's CMA-ES, Optuna and TuRBO-1. Prints a table per function, writes four CSVs and a
// PNG per function. See kUsage below, functions.hpp for the functions, methods.hpp and peers.hpp
// for what runs.
//
// Every (function, seed) instance, addbo seed and peer seed comes from its own random stream,
// named by the base seed, the function's place in the catalogue and the seed's index: results do
// not depend on --jobs, on the order of the jobs, nor on which functions or methods are chosen.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "config_patch.hpp"
#include "functions.hpp"
#include "methods.hpp"
#include "output_files.hpp"
#include "peers.hpp"
#include "results_output.hpp"
#include "seeded_random.hpp"

#ifndef HD_SUITE_OPTUNA_DRIVER
#define HD_SUITE_OPTUNA_DRIVER "optuna_driver.py"
#endif
#ifndef HD_SUITE_TURBO_DRIVER
#define HD_SUITE_TURBO_DRIVER "turbo_driver.py"
#endif

namespace hs = hd_suite;
using addbo_examples::integer_at_least;
using addbo_examples::split;

namespace {

const char* const kUsage = R"(usage: hd_suite [options]
       hd_suite --serve FUNCTION --instance-seed K    (for optuna_driver.py, turbo_driver.py)

Runs addbo's methods (and with --peers the installed peers) on high-dimensional test functions;
prints a table per function (regret of the best value: mean ± standard deviation over the seeds
at the budgets; the longest stall, as a fraction of the run, mean / max over the seeds; CC/CS of
the final graph where the function has one; seconds per run: time inside ask+tell for addbo, the
whole run for peers) and where addbo's evaluations went (per ask phase, evaluations and those
that improved the best; local-search runs that never improved it), writes
OUT/hd_suite_trace.csv (every evaluation, with addbo's ask phase), OUT/hd_suite_runs.csv (every
run), OUT/hd_suite_budgets.csv (regret at the budgets), OUT/hd_suite_methods.csv (time and
stall per method), OUT/hd_suite_phases.csv (evaluations per phase per run), OUT/tables.md and
OUT/FUNCTION.png (gnuplot).

  --functions a,b     rosenbrock20, rosenbrock40, tree30, lattice30, styblinski50,
                      hartmann30, ackley20, star10 (default: all of these); styblinski60,
                      rover60 (D = 60) and walker16 (Box2D) only when named
  --methods a,b       default, learn, disjoint, random-tree, fixed, random (default: all of
                      these); peers may be named too: dlib-lipo, pagmo-cmaes, optuna-tpe,
                      optuna-cmaes, turbo1
  --peers             add every peer (each runs only where installed: see install_peers.sh)
  --seeds N           seeds (function instances and optimizer seeds) per method (default 5)
  --first-seed K      the seeds are K, K + 1, ... (default 0): a run's instance and optimizer
                      seed depend on its seed only, so runs split over several invocations
                      are the runs of one
  --evaluations N     evaluations per run (default 300)
  --budgets a,b       evaluation counts the tables report, each at most --evaluations
                      (default: 50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 10000 up to
                      --evaluations, and --evaluations)
  --quick             2 seeds, 100 evaluations (explicit --seeds/--evaluations win)
  --jobs N            runs in parallel (default 2); results do not depend on it
  --threads N         addbo's limits.threads and TuRBO-1's torch threads per run (default 1;
                      0 = all cores)
  --evaluation-seconds S
                      each of addbo's evaluations also waits S seconds, as a host's objective
                      that takes that long (default: none): learnings run ahead meanwhile when
                      --threads allows two; library time and each run's slowest ask+tell
                      (printed, and in the runs CSV) leave the wait out
  --seed N            base seed of every random stream (default 1)
  --out DIR           output directory (default hd_suite_out)
  --no-plots          skip gnuplot
  --optuna-driver P   path of optuna_driver.py (default: the one in the source tree)
  --turbo-driver P    path of turbo_driver.py (default: the one in the source tree)
  --help              this text

The longest stall of a run: the most consecutive evaluations that left its best unchanged
while its regret was above 1% of random search's mean regret at that evaluation (needs random
among the methods), divided by the run's evaluations.
)";

struct Options {
  std::vector<std::string> functions = hs::function_names();
  std::vector<hs::Method> methods;
  bool peers = false;
  int seeds = 5;
  int first_seed = 0;
  int evaluations = 300;
  std::vector<int> budgets;  // empty until parsed: default_budgets(evaluations)
  int jobs = 2;
  int threads = 1;
  double evaluation_seconds = 0.0;
  std::uint64_t seed = 1;
  std::string out = "hd_suite_out";
  bool plots = true;
  std::string optuna_driver = HD_SUITE_OPTUNA_DRIVER;
  std::string turbo_driver = HD_SUITE_TURBO_DRIVER;
  bool help = false;
  // HD_SUITE_CONFIG_PATCH (config_patch.hpp): merged into every addbo configuration.
  nlohmann::json config_patch = nlohmann::json::object();
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (hs::Method method : hs::all_methods()) {
    if (!hs::is_peer(method)) options.methods.push_back(method);
  }
  // --quick first, so that explicit sizes override it wherever they stand.
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") {
      options.seeds = 2;
      options.evaluations = 100;
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--quick") continue;
    if (flag == "--help" || flag == "-h") {
      options.help = true;
      continue;
    }
    if (flag == "--peers") {
      options.peers = true;
      continue;
    }
    if (flag == "--no-plots") {
      options.plots = false;
      continue;
    }
    static const char* const kValueFlags[] = {
        "--functions", "--methods",       "--seeds",        "--evaluations",
        "--budgets",   "--jobs",          "--threads",      "--seed",
        "--out",       "--optuna-driver", "--turbo-driver", "--evaluation-seconds",
        "--first-seed"};
    if (std::find(std::begin(kValueFlags), std::end(kValueFlags), flag) == std::end(kValueFlags)) {
      throw std::invalid_argument("unknown option " + flag + " (see --help)");
    }
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + flag);
    const std::string value = argv[++i];
    if (flag == "--functions") {
      options.functions = split(value);
      for (const std::string& name : options.functions) {
        if (!hs::is_function_name(name))
          throw std::invalid_argument("--functions: unknown function '" + name + "'");
      }
    } else if (flag == "--methods") {
      options.methods.clear();
      for (const std::string& name : split(value)) {
        hs::Method method;
        if (!hs::parse_method(name, method))
          throw std::invalid_argument("--methods: unknown method '" + name + "'");
        options.methods.push_back(method);
      }
    } else if (flag == "--seeds")
      options.seeds = integer_at_least(flag, value, 1);
    else if (flag == "--first-seed")
      options.first_seed = integer_at_least(flag, value, 0);
    else if (flag == "--evaluations")
      options.evaluations = integer_at_least(flag, value, 1);
    else if (flag == "--budgets") {
      options.budgets.clear();
      for (const std::string& budget : split(value)) {
        options.budgets.push_back(integer_at_least(flag, budget, 1));
      }
      if (options.budgets.empty()) throw std::invalid_argument("--budgets is empty");
    } else if (flag == "--jobs")
      options.jobs = integer_at_least(flag, value, 1);
    else if (flag == "--threads")
      options.threads = integer_at_least(flag, value, 0);
    else if (flag == "--evaluation-seconds")
      options.evaluation_seconds = addbo_examples::positive_number(flag, value);
    else if (flag == "--seed")
      options.seed = std::stoull(value);
    else if (flag == "--out")
      options.out = value;
    else if (flag == "--optuna-driver")
      options.optuna_driver = value;
    else if (flag == "--turbo-driver")
      options.turbo_driver = value;
    else
      throw std::invalid_argument("unknown option " + flag + " (see --help)");
  }
  if (options.peers) {
    for (hs::Method method : hs::all_methods()) {
      if (hs::is_peer(method) && std::find(options.methods.begin(), options.methods.end(),
                                           method) == options.methods.end()) {
        options.methods.push_back(method);
      }
    }
  }
  if (options.functions.empty()) throw std::invalid_argument("--functions is empty");
  if (options.methods.empty()) throw std::invalid_argument("--methods is empty");
  addbo_examples::check_seed_range(options.first_seed, options.seeds);
  if (options.budgets.empty()) {
    options.budgets = hs::default_budgets(options.evaluations);
  } else {
    std::sort(options.budgets.begin(), options.budgets.end());
    options.budgets.erase(std::unique(options.budgets.begin(), options.budgets.end()),
                          options.budgets.end());
    if (options.budgets.back() > options.evaluations) {
      throw std::invalid_argument("--budgets: " + std::to_string(options.budgets.back()) +
                                  " is beyond --evaluations " +
                                  std::to_string(options.evaluations));
    }
  }
  options.config_patch = addbo_examples::config_patch_from_environment("HD_SUITE_CONFIG_PATCH");
  return options;
}

// Stream purposes in derive_seed paths.
enum Stream : std::uint64_t { kInstance = 1, kOptimizer = 2 };

std::uint64_t instance_seed(const Options& options, const std::string& function, int seed) {
  return paper_synthetic::derive_seed({options.seed,
                                       static_cast<std::uint64_t>(hs::function_index(function)),
                                       static_cast<std::uint64_t>(seed), kInstance});
}

// Every method on one instance gets the same optimizer seed (common random numbers); below 2^53
// so that it stays exact in any JSON reader.
std::uint64_t optimizer_seed(const Options& options, const std::string& function, int seed) {
  return paper_synthetic::derive_seed({options.seed,
                                       static_cast<std::uint64_t>(hs::function_index(function)),
                                       static_cast<std::uint64_t>(seed), kOptimizer}) >>
         11;
}

// Rough relative cost, to start the slowest runs first and keep both workers busy to the end.
int expected_cost(hs::Method method) {
  switch (method) {
    case hs::Method::turbo1:
      return 4;
    case hs::Method::addbo_default:
    case hs::Method::learn:
    case hs::Method::random_tree:
    case hs::Method::fixed:
      return 3;
    case hs::Method::disjoint:
    case hs::Method::optuna_tpe:
    case hs::Method::optuna_cmaes:
      return 2;
    default:
      return 1;
  }
}

int serve(int argc, char** argv) {
  std::string name;
  std::uint64_t seed = 0;
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--serve")
      name = argv[++i];
    else if (flag == "--instance-seed")
      seed = std::stoull(argv[++i]);
  }
  const hs::FunctionInstance function = hs::make_function(name, seed);
  hs::serve_function(function, stdin, stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--serve") {
      try {
        return serve(argc, argv);
      } catch (const std::exception& error) {
        std::fprintf(stderr, "hd_suite --serve: %s\n", error.what());
        return 1;
      }
    }
  }
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hd_suite: %s\n%s", error.what(), kUsage);
    return 2;
  }
  if (options.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  try {
    std::filesystem::create_directories(options.out + "/logs");
    hs::PeerEnvironment environment;
    environment.optuna_driver = options.optuna_driver;
    environment.turbo_driver = options.turbo_driver;
    environment.threads = options.threads;
    environment.self_executable = std::filesystem::read_symlink("/proc/self/exe").string();
    environment.log_directory = options.out + "/logs";

    std::printf(
        "hd_suite: %zu functions x %zu methods x %d seeds, %d evaluations, %d jobs, "
        "addbo limits.threads %d\n",
        options.functions.size(), options.methods.size(), options.seeds, options.evaluations,
        options.jobs, options.threads);
    std::vector<std::string> unavailable_peer(hs::all_methods().size());
    for (hs::Method method : options.methods) {
      if (!hs::is_peer(method)) continue;
      std::string& reason = unavailable_peer[static_cast<std::size_t>(method)];
      reason = hs::peer_unavailable_reason(method, environment);
      if (!reason.empty()) std::printf("  %s: %s\n", hs::method_name(method), reason.c_str());
    }

    // The instances, with their exact optima (the lattice's takes a fraction of a second).
    std::vector<hs::FunctionInstance> instances;
    for (const std::string& name : options.functions) {
      for (int k = 0; k < options.seeds; ++k) {
        const int seed = options.first_seed + k;
        instances.push_back(hs::make_function(name, instance_seed(options, name, seed)));
      }
    }
    std::printf("%zu function instances with exact optima ready (%.1f s)\n", instances.size(),
                elapsed());

    // Jobs in output order (function, method, seed), run slowest first.
    struct Job {
      const hs::FunctionInstance* function;
      hs::Method method;
      int seed;
    };
    std::vector<Job> jobs;
    for (std::size_t f = 0; f < options.functions.size(); ++f) {
      for (hs::Method method : options.methods) {
        for (int k = 0; k < options.seeds; ++k) {
          jobs.push_back({&instances[f * options.seeds + k], method, options.first_seed + k});
        }
      }
    }
    std::vector<std::size_t> order(jobs.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return expected_cost(jobs[a].method) > expected_cost(jobs[b].method);
    });

    std::vector<hs::JobResult> results(jobs.size());
    std::atomic<std::size_t> next{0};
    int done = 0;
    std::mutex print_mutex;
    auto worker = [&]() {
      for (std::size_t slot; (slot = next.fetch_add(1)) < order.size();) {
        const std::size_t k = order[slot];
        const Job& job = jobs[k];
        const hs::FunctionInstance& function = *job.function;
        const std::uint64_t seed = optimizer_seed(options, function.name, job.seed);
        hs::RunResult run;
        if (!hs::is_peer(job.method)) {
          run = hs::run_addbo(job.method, function, options.evaluations, seed, options.threads,
                              options.config_patch, options.evaluation_seconds);
        } else if (const std::string& reason =
                       unavailable_peer[static_cast<std::size_t>(job.method)];
                   !reason.empty()) {
          run.status = hs::RunStatus::unavailable;
          run.message = reason;
        } else {
          run = hs::run_peer(job.method, function, options.evaluations, seed, environment);
        }
        const std::lock_guard<std::mutex> lock(print_mutex);
        ++done;
        if (run.status == hs::RunStatus::ok) {
          std::printf("[%3d/%zu] %-12s %-12s seed %d: regret %.4g (%.1f s, at %.0f s)", done,
                      jobs.size(), function.name.c_str(), hs::method_name(job.method), job.seed,
                      run.regret.back(), run.seconds, elapsed());
          if (!std::isnan(run.slowest_call)) {
            std::printf("; slowest ask+tell %.3f s, %d over %.0f ms", run.slowest_call,
                        run.slow_calls, 1000 * hs::kSlowCallSeconds);
          }
          std::printf("\n");
        } else {
          std::printf("[%3d/%zu] %-12s %-12s seed %d: %s\n", done, jobs.size(),
                      function.name.c_str(), hs::method_name(job.method), job.seed,
                      run.status == hs::RunStatus::failed        ? "FAILED"
                      : run.status == hs::RunStatus::unavailable ? "unavailable"
                                                                 : "n/a");
        }
        std::fflush(stdout);
        results[k] = {function.name, job.method, job.seed, std::move(run)};
      }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < options.jobs; ++i) threads.emplace_back(worker);
    for (std::thread& thread : threads) thread.join();

    hs::compute_stalls(results);
    hs::write_trace_csv(options.out + "/hd_suite_trace.csv", results);
    hs::write_runs_csv(options.out + "/hd_suite_runs.csv", results);
    const std::vector<hs::MethodSummary> summaries = hs::summarise(results);
    hs::write_budgets_csv(options.out + "/hd_suite_budgets.csv", summaries, options.budgets);
    hs::write_methods_csv(options.out + "/hd_suite_methods.csv", summaries);
    hs::write_phases_csv(options.out + "/hd_suite_phases.csv", results);
    std::vector<std::string> titles;
    std::string tables;
    for (std::size_t f = 0; f < options.functions.size(); ++f) {
      const hs::FunctionInstance& first = instances[f * options.seeds];
      std::string title = first.description;
      // The GP samples' optimum differs per instance; the closed forms' is worth printing.
      if (first.name != "tree30" && first.name != "lattice30" && first.name != "star10") {
        char optimum[64];
        std::snprintf(optimum, sizeof optimum,
                      first.optimum_is_reference ? " (regret from %.10g, optimum unknown)"
                                                 : " (optimum %.10g)",
                      first.optimum);
        title += optimum;
      }
      titles.push_back(title);
      tables += hs::function_table(first.name,
                                   title + ", " + std::to_string(options.seeds) +
                                       (options.seeds == 1 ? " seed" : " seeds"),
                                   summaries, results, options.budgets) +
                "\n";
      if (const std::string phases = hs::phase_table(first.name, results); !phases.empty()) {
        tables += phases + "\n";
      }
    }
    std::ofstream(options.out + "/tables.md") << tables;
    std::printf(
        "\nregret = |best value so far - exact optimum|: mean ± standard deviation over the "
        "seeds; longest stall: the most consecutive evaluations without a new best while the "
        "regret was above 1%% of random search's, as a fraction of the run (mean / max over the "
        "seeds; needs random); CC/CS of the final graph (mean); s/run: addbo time inside "
        "ask+tell, peers the whole run\n\n%s",
        tables.c_str());
    const char* out = options.out.c_str();
    std::printf(
        "wrote %s/hd_suite_trace.csv, %s/hd_suite_runs.csv, %s/hd_suite_budgets.csv, "
        "%s/hd_suite_methods.csv, %s/hd_suite_phases.csv and %s/tables.md\n",
        out, out, out, out, out, out);
    if (options.plots && hs::write_plots(options.out, options.functions, titles, summaries)) {
      std::printf("wrote the plots FUNCTION.png in %s\n", options.out.c_str());
    }
    std::printf("total %.1f s\n", elapsed());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hd_suite: %s\n", error.what());
    return 1;
  }
  return 0;
}
