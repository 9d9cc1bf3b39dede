#include "peers.hpp"

#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "output_files.hpp"

#ifdef HD_SUITE_HAVE_DLIB
#include <dlib/global_optimization.h>
#endif
#ifdef HD_SUITE_HAVE_PAGMO
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#endif

namespace hd_suite {

namespace {

using addbo_examples::shell_quote;

bool python_imports(const PeerEnvironment& environment, const std::string& modules) {
  const std::string command = shell_quote(environment.python) + " -c " +
                              shell_quote("import " + modules) + " > /dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

#ifdef HD_SUITE_HAVE_DLIB
void run_dlib(const FunctionInstance& function, int evaluations, std::uint64_t seed,
              RegretTrace& trace) {
  dlib::matrix<double, 0, 1> lower(function.dimension), upper(function.dimension);
  for (int d = 0; d < function.dimension; ++d) {
    lower(d) = function.lower;
    upper(d) = function.upper;
  }
  dlib::global_function_search search(dlib::function_spec(lower, upper));
  search.set_seed(static_cast<time_t>(seed >> 1));
  const bool minimize = function.direction == Direction::minimize;
  std::vector<double> x(function.dimension);
  for (int t = 0; t < evaluations; ++t) {
    dlib::function_evaluation_request request = search.get_next_x();
    for (int d = 0; d < function.dimension; ++d) x[d] = request.x()(d);
    const double y = function.evaluate(x);
    request.set(minimize ? -y : y);  // dlib maximises
    trace.add(y);
  }
}
#endif

#ifdef HD_SUITE_HAVE_PAGMO
// pagmo copies the problem, so the evaluations are counted in a shared record; evaluations past
// the budget (the rest of the last generation) are not recorded.
struct EvaluationRecord {
  const FunctionInstance* function;
  int budget;
  const RegretTrace* clock;     // for the time of each evaluation
  std::vector<double> values;   // the first `budget` values
  std::vector<double> seconds;  // the time each of them was known
};

struct PagmoProblem {
  std::shared_ptr<EvaluationRecord> record;
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    const double y = record->function->evaluate(x);
    if (static_cast<int>(record->values.size()) < record->budget) {
      record->values.push_back(y);
      record->seconds.push_back(record->clock->seconds_since_start());
    }
    return {record->function->direction == Direction::minimize ? y : -y};  // pagmo minimises
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    const auto& f = *record->function;
    return {pagmo::vector_double(f.dimension, f.lower), pagmo::vector_double(f.dimension, f.upper)};
  }
};

void run_pagmo(const FunctionInstance& function, int evaluations, std::uint64_t seed,
               RegretTrace& trace) {
  auto record =
      std::make_shared<EvaluationRecord>(EvaluationRecord{&function, evaluations, &trace, {}, {}});
  const pagmo::problem problem{PagmoProblem{record}};
  // CMA-ES's default population size (Hansen's 4 + floor(3 ln D)); pagmo takes it from the
  // population it is given.
  const unsigned population_size =
      4 + static_cast<unsigned>(std::floor(3.0 * std::log(function.dimension)));
  for (unsigned restart = 0; static_cast<int>(record->values.size()) < evaluations; ++restart) {
    const int remaining = evaluations - static_cast<int>(record->values.size());
    const unsigned generations =
        static_cast<unsigned>(std::max(1, (remaining + static_cast<int>(population_size) - 1) /
                                              static_cast<int>(population_size)));
    const unsigned restart_seed = static_cast<unsigned>((seed >> 11) + 7919u * restart);
    pagmo::population population(problem, population_size, restart_seed);
    // pagmo's sigma0 is a fraction of the box's width. Its default 0.5 throws most samples of
    // the first generations outside the box, where force_bounds clamps them onto its faces; 0.3
    // is Hansen's suggestion for a box-constrained start.
    constexpr double kInitialStepFraction = 0.3;
    pagmo::algorithm algorithm{pagmo::cmaes(generations, -1, -1, -1, -1, kInitialStepFraction, 1e-6,
                                            1e-6, false, /*force_bounds=*/true, restart_seed)};
    algorithm.evolve(population);
  }
  for (std::size_t k = 0; k < record->values.size(); ++k) {
    trace.add(record->values[k], record->seconds[k]);
  }
}
#endif

// Runs a Python driver (optuna_driver.py, turbo_driver.py) on `function`: `script` with
// `arguments`, then "-- hd_suite --serve ...". The driver prints the value of every evaluation on
// a line of its own; its stderr goes to LOG_DIRECTORY/<label>_<function>_<seed>.log.
void run_python_driver(const std::string& label, const std::string& script,
                       const std::string& arguments, const FunctionInstance& function,
                       int evaluations, std::uint64_t seed, const PeerEnvironment& environment,
                       RegretTrace& trace) {
  const std::string log = environment.log_directory + "/" + label + "_" + function.name + "_" +
                          std::to_string(seed) + ".log";
  std::ostringstream command;
  // numpy's generators take 32-bit seeds.
  command << shell_quote(environment.python) << ' ' << shell_quote(script) << ' ' << arguments
          << " --evaluations " << evaluations << " --seed " << (seed & 0xffffffffu) << " -- "
          << shell_quote(environment.self_executable) << " --serve " << function.name
          << " --instance-seed " << function.instance_seed << " 2> " << shell_quote(log);
  std::FILE* pipe = popen(command.str().c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start " + environment.python);
  char line[128];
  int received = 0;
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    char* end = nullptr;
    const double y = std::strtod(line, &end);
    if (end == line) continue;  // not a value (a stray print of a library): ignore
    if (received < evaluations) trace.add(y);
    ++received;
  }
  const int status = pclose(pipe);
  if (status != 0 || received < evaluations) {
    throw std::runtime_error("the " + label + " driver failed after " + std::to_string(received) +
                             " values (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                             "); see " + log);
  }
}

}  // namespace

std::string peer_unavailable_reason(Method peer, const PeerEnvironment& environment) {
  switch (peer) {
    case Method::dlib_lipo:
#ifdef HD_SUITE_HAVE_DLIB
      return "";
#else
      return "not built: CMake did not find dlib (libdlib-dev)";
#endif
    case Method::pagmo_cmaes:
#ifdef HD_SUITE_HAVE_PAGMO
      return "";
#else
      return "not built: CMake did not find pagmo (libpagmo-dev)";
#endif
    case Method::optuna_tpe:
    case Method::optuna_cmaes: {
      if (!std::filesystem::exists(environment.optuna_driver)) {
        return "no driver script at " + environment.optuna_driver;
      }
      const bool cmaes = peer == Method::optuna_cmaes;
      if (!python_imports(environment, cmaes ? "optuna, cmaes" : "optuna")) {
        return environment.python + " cannot import " +
               (cmaes ? "optuna and cmaes (python3-optuna, python3-cmaes)"
                      : "optuna (python3-optuna)");
      }
      return "";
    }
    case Method::turbo1:
      if (!std::filesystem::exists(environment.turbo_driver)) {
        return "no driver script at " + environment.turbo_driver;
      }
      if (!python_imports(environment, "numpy, torch")) {
        return environment.python + " cannot import torch and numpy (python3-torch)";
      }
      return "";
    default:
      throw std::logic_error(std::string(method_name(peer)) + " is not a peer");
  }
}

RunResult run_peer(Method peer, const FunctionInstance& function, int evaluations,
                   std::uint64_t seed, const PeerEnvironment& environment) {
  RunResult result;
  const auto start = std::chrono::steady_clock::now();
  try {
    RegretTrace trace(function, result);
    switch (peer) {
#ifdef HD_SUITE_HAVE_DLIB
      case Method::dlib_lipo:
        run_dlib(function, evaluations, seed, trace);
        break;
#endif
#ifdef HD_SUITE_HAVE_PAGMO
      case Method::pagmo_cmaes:
        run_pagmo(function, evaluations, seed, trace);
        break;
#endif
      case Method::optuna_tpe:
        run_python_driver("optuna-tpe", environment.optuna_driver, "--sampler tpe", function,
                          evaluations, seed, environment, trace);
        break;
      case Method::optuna_cmaes:
        run_python_driver("optuna-cmaes", environment.optuna_driver, "--sampler cmaes", function,
                          evaluations, seed, environment, trace);
        break;
      case Method::turbo1:
        run_python_driver("turbo1", environment.turbo_driver,
                          "--threads " + std::to_string(environment.threads), function, evaluations,
                          seed, environment, trace);
        break;
      default:
        result.status = RunStatus::unavailable;
        result.message = peer_unavailable_reason(peer, environment);
        return result;
    }
  } catch (const std::exception& error) {
    result.status = RunStatus::failed;
    result.message = error.what();
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

void serve_function(const FunctionInstance& function, std::FILE* input, std::FILE* output) {
  const nlohmann::json header = {
      {"function", function.name},
      {"dimension", function.dimension},
      {"lower", function.lower},
      {"upper", function.upper},
      {"direction", function.direction == Direction::minimize ? "minimize" : "maximize"}};
  std::fprintf(output, "%s\n", header.dump().c_str());
  std::fflush(output);
  std::vector<double> x(function.dimension);
  std::string line;
  for (int c; (c = std::fgetc(input)) != EOF;) {
    if (c != '\n') {
      line += static_cast<char>(c);
      continue;
    }
    std::istringstream numbers(line);
    for (double& value : x) {
      if (!(numbers >> value)) throw std::runtime_error("--serve: a line has too few numbers");
    }
    std::fprintf(output, "%.17g\n", function.evaluate(x));
    std::fflush(output);
    line.clear();
  }
}

}  // namespace hd_suite
