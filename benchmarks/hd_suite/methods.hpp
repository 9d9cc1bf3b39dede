// The methods hd_suite compares: addbo configurations, driven only through the public C++
// wrapper (addbo::Optimizer), and the peers of peers.hpp.
//
//   default      nothing but the variables, goal and seed (and limits.threads)
//   learn        "structure": {"mode": "learn"}
//   disjoint     "structure": {"mode": "disjoint"}
//   random-tree  "structure": {"mode": "random-tree"} (reported unavailable where the library
//                does not know the mode yet)
//   fixed        "structure": {"mode": "fixed", "edges": the true graph}, lengthscales learned;
//                not applicable to Ackley, which has no graph to fix
//   random       "strategy": "random"
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "functions.hpp"
#include "run_result.hpp"

namespace hd_suite {

enum class Method {
  addbo_default,
  learn,
  disjoint,
  random_tree,
  fixed,
  random,
  dlib_lipo,
  pagmo_cmaes,
  optuna_tpe,
  optuna_cmaes,
  turbo1,
};

// Every method, addbo's first, in table order.
const std::vector<Method>& all_methods();
const char* method_name(Method method);
// Sets `method` and returns true if `name` is a method's name.
bool parse_method(const std::string& name, Method& method);
bool is_peer(Method method);

// The JSON configuration of an addbo method on this function; `threads` is limits.threads, and
// `patch` (HD_SUITE_CONFIG_PATCH, config_patch.hpp) is merged into it last.
std::string addbo_config(Method method, const FunctionInstance& function, std::uint64_t seed,
                         int threads, const nlohmann::json& patch);

// Asks and tells `evaluations` times (addbo draws its own initial points), each evaluation
// taking at least `evaluation_seconds` (the host's own time, which addbo's learning can use on
// another thread: not counted as library time). Failures of the library end up in the result's
// status, never as an exception.
RunResult run_addbo(Method method, const FunctionInstance& function, int evaluations,
                    std::uint64_t seed, int threads, const nlohmann::json& config_patch,
                    double evaluation_seconds = 0.0);

}  // namespace hd_suite
