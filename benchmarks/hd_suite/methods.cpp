#include "methods.hpp"

#include <addbo/addbo.hpp>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "graph_accuracy.hpp"

namespace hd_suite {

namespace {

struct MethodEntry {
  Method method;
  const char* name;
  bool peer;
};

const MethodEntry kMethodTable[] = {
    {Method::addbo_default, "default", false}, {Method::learn, "learn", false},
    {Method::disjoint, "disjoint", false},     {Method::random_tree, "random-tree", false},
    {Method::fixed, "fixed", false},           {Method::random, "random", false},
    {Method::dlib_lipo, "dlib-lipo", true},    {Method::pagmo_cmaes, "pagmo-cmaes", true},
    {Method::optuna_tpe, "optuna-tpe", true},  {Method::optuna_cmaes, "optuna-cmaes", true},
    {Method::turbo1, "turbo1", true},
};

const MethodEntry& entry(Method method) {
  for (const MethodEntry& e : kMethodTable) {
    if (e.method == method) return e;
  }
  throw std::logic_error("unknown method");
}

}  // namespace

const std::vector<Method>& all_methods() {
  static const std::vector<Method> methods = [] {
    std::vector<Method> list;
    for (const MethodEntry& e : kMethodTable) list.push_back(e.method);
    return list;
  }();
  return methods;
}

const char* method_name(Method method) { return entry(method).name; }

bool is_peer(Method method) { return entry(method).peer; }

bool parse_method(const std::string& name, Method& method) {
  for (const MethodEntry& e : kMethodTable) {
    if (name == e.name) {
      method = e.method;
      return true;
    }
  }
  return false;
}

std::string addbo_config(Method method, const FunctionInstance& function, std::uint64_t seed,
                         int threads, const nlohmann::json& patch) {
  using nlohmann::json;
  json variables = json::array();
  for (int d = 0; d < function.dimension; ++d) {
    variables.push_back({{"lower", function.lower}, {"upper", function.upper}});
  }
  json config = {{"variables", variables},
                 {"goal", function.direction == Direction::minimize ? "minimize" : "maximize"},
                 {"seed", seed},
                 // Not a method setting: it keeps parallel jobs from competing for the cores.
                 {"limits", {{"threads", threads}}}};
  switch (method) {
    case Method::addbo_default:
      break;
    case Method::learn:
      // The paper's method: every ask on the learned graph (the default hedges with random trees).
      config["structure"] = {{"mode", "learn"}, {"random_tree_share", 0}};
      break;
    case Method::disjoint:
      config["structure"] = {{"mode", "disjoint"}};
      break;
    case Method::random_tree:
      config["structure"] = {{"mode", "random-tree"}};
      break;
    case Method::fixed: {
      json edges = json::array();
      for (const Edge& e : function.graph) edges.push_back({e.first, e.second});
      config["structure"] = {{"mode", "fixed"}, {"edges", edges}};
      break;
    }
    case Method::random:
      config["strategy"] = "random";
      break;
    default:
      throw std::logic_error(std::string(method_name(method)) + " is not an addbo method");
  }
  // For experiments with settings beyond the methods above (empty by default).
  config.merge_patch(patch);
  return config.dump();
}

namespace {

// The phase and the local-search run of the ask just made (RunResult::phases, runs).
void record_phase(const std::string& info_text, RunResult& result) {
  const nlohmann::json info = nlohmann::json::parse(info_text);
  const nlohmann::json& search = info.at("search");
  std::string phase = info.at("last_ask").at("phase").get<std::string>();
  if (phase == "global" && search.at("exploiting").get<bool>()) phase = "exploiting";
  result.phases.push_back(std::move(phase));
  result.runs.push_back(search.at("restarts").get<int>());
}

}  // namespace

RunResult run_addbo(Method method, const FunctionInstance& function, int evaluations,
                    std::uint64_t seed, int threads, const nlohmann::json& config_patch,
                    double evaluation_seconds) {
  RunResult result;
  if (method == Method::fixed && !function.known_graph) {
    result.status = RunStatus::not_applicable;
    result.message = "no known graph to fix";
    return result;
  }
  using clock = std::chrono::steady_clock;
  clock::duration library_time{};
  try {
    const std::string config = addbo_config(method, function, seed, threads, config_patch);
    std::unique_ptr<addbo::Optimizer> optimizer;
    try {
      optimizer = std::make_unique<addbo::Optimizer>(config);
    } catch (const addbo::Error& error) {
      // A library that does not know this structure mode yet rejects it at /structure/mode;
      // any other configuration error is a real failure.
      if (method == Method::random_tree && error.status() == ADDBO_ERR_CONFIG &&
          std::string(error.what()).find("/structure/mode") != std::string::npos) {
        result.status = RunStatus::unavailable;
        result.message = error.what();
        return result;
      }
      throw;
    }
    RegretTrace trace(function, result);
    result.slowest_call = 0.0;
    for (int t = 0; t < evaluations; ++t) {
      const auto before_ask = clock::now();
      const std::vector<double> x = optimizer->ask();
      const clock::duration ask_time = clock::now() - before_ask;
      // Outside the library time; random search's asks have no phase worth reading.
      if (method != Method::random) record_phase(optimizer->info(), result);
      const double y = function.evaluate(x);
      if (evaluation_seconds > 0.0) {
        std::this_thread::sleep_for(std::chrono::duration<double>(evaluation_seconds));
      }
      const auto before_tell = clock::now();
      optimizer->tell(x, y);
      const clock::duration call_time = ask_time + (clock::now() - before_tell);
      library_time += call_time;
      const double call_seconds = std::chrono::duration<double>(call_time).count();
      result.slowest_call = std::max(result.slowest_call, call_seconds);
      if (call_seconds > kSlowCallSeconds) ++result.slow_calls;
      trace.add(y, std::chrono::duration<double>(library_time).count());
    }
    if (function.known_graph && method != Method::random) {
      const addbo::core::GraphAccuracy accuracy = addbo_examples::learned_graph_accuracy(
          optimizer->info(), function.dimension, function.graph);
      result.correct_connections = accuracy.correct_connections;
      result.correct_separations = accuracy.correct_separations;
    }
  } catch (const addbo::Error& error) {
    result.status = RunStatus::failed;
    result.message = std::string(error.status_name()) + ": " + error.what();
  } catch (const std::exception& error) {
    result.status = RunStatus::failed;
    result.message = error.what();
  }
  result.seconds = std::chrono::duration<double>(library_time).count();
  return result;
}

}  // namespace hd_suite
