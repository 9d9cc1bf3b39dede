// The peers of hd_suite --peers, each run only where installed:
//   dlib-lipo     dlib's global_function_search (LIPO + trust region), seeded with set_seed
//                 (find_max_global would adapt to wall-clock time and not repeat);
//                 compiled when CMake finds dlib (HD_SUITE_HAVE_DLIB);
//   pagmo-cmaes   pagmo2's CMA-ES with its default population 4 + 3 ln D, bounds enforced,
//                 initial step 0.3 of the box's width (pagmo's default is 0.5), restarted from
//                 a fresh population if it converges before the budget;
//                 compiled when CMake finds pagmo (HD_SUITE_HAVE_PAGMO);
//   optuna-tpe, optuna-cmaes
//                 Optuna's TPE and CMA-ES samplers through optuna_driver.py, run by
//                 /usr/bin/python3 (Debian's python3-optuna is only visible to it); the driver
//                 evaluates the function by talking to `hd_suite --serve`, so every definition
//                 exists once, in functions.cpp;
//   turbo1        TuRBO-1 (Eriksson et al. 2019), a port of the authors' code in plain torch
//                 (turbo1.py), through turbo_driver.py in the same way; runs where
//                 /usr/bin/python3 imports torch and numpy (python3-torch).
// A peer's seconds are the whole run's (its own bookkeeping and the evaluations).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "functions.hpp"
#include "methods.hpp"
#include "run_result.hpp"

namespace hd_suite {

struct PeerEnvironment {
  std::string python = "/usr/bin/python3";
  std::string optuna_driver;    // path of optuna_driver.py
  std::string turbo_driver;     // path of turbo_driver.py
  std::string self_executable;  // this program, for --serve
  std::string log_directory;    // the drivers' stderr goes to files here
  int threads = 1;              // TuRBO-1's torch threads (0: torch's default)
};

// Empty if `peer` can run here, else why not (not compiled in, Python module missing, ...).
std::string peer_unavailable_reason(Method peer, const PeerEnvironment& environment);

// One run of `peer` for `evaluations` evaluations; failures end up in the result's status.
RunResult run_peer(Method peer, const FunctionInstance& function, int evaluations,
                   std::uint64_t seed, const PeerEnvironment& environment);

// hd_suite --serve: prints a JSON header line {"function", "dimension", "lower", "upper",
// "direction"}, then answers each line of `dimension` numbers on `input` with the function's
// value on `output` (17 significant digits, flushed). Returns at the end of input; throws on a
// malformed line.
void serve_function(const FunctionInstance& function, std::FILE* input, std::FILE* output);

}  // namespace hd_suite
