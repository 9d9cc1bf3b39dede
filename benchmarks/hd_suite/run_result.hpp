// What one run of one method on one function instance produced, and the bookkeeping that turns
// the evaluated values into the regret trace.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "functions.hpp"

namespace hd_suite {

enum class RunStatus {
  ok,
  failed,          // the method threw: `message` says why; the benchmark goes on
  unavailable,     // not installed / not supported by this build of addbo: `message` says which
  not_applicable,  // e.g. the fixed method on a function without a known graph
};

// One ask + tell slower than this is counted as slow (RunResult::slow_calls).
constexpr double kSlowCallSeconds = 0.050;

struct RunResult {
  RunStatus status = RunStatus::ok;
  std::string message;
  std::vector<double> values;  // f at each evaluation, in order
  std::vector<double> regret;  // regret of the best value so far, after each evaluation
  // Seconds spent by the end of each evaluation: addbo's time inside ask + tell, a peer's time
  // since its run began (its start-up, its bookkeeping and the evaluations).
  std::vector<double> elapsed;
  double seconds = 0.0;  // addbo: time inside ask + tell; peers: the whole run
  // addbo: the slowest ask + tell of one evaluation, and how many took over kSlowCallSeconds
  // (issue 26's bound on one ask + tell); NaN and 0 for peers.
  double slowest_call = NAN;
  int slow_calls = 0;
  // addbo: each evaluation's ask phase as info() reports it ("initial design", "global",
  // "exploiting" for a global ask between two local-search runs that exploits the model,
  // "local", "fallback") and its local-search run (search.restarts when it was asked); empty for
  // random search and the peers (phase_spending.hpp).
  std::vector<std::string> phases;
  std::vector<int> runs;
  // Of the last graph an addbo model held, against the function's true graph (NaN otherwise).
  double correct_connections = NAN, correct_separations = NAN;
  // The longest stretch of evaluations that left the best unchanged while the regret was above
  // 1% of random search's (results_output.hpp: compute_stalls), in evaluations and as a
  // fraction of the run; NaN until computed, or where random search did not run.
  double longest_stall = NAN, stall_fraction = NAN;
};

// Appends each evaluated value, the running regret |best - optimum| in the function's direction
// and the time spent so far.
class RegretTrace {
 public:
  RegretTrace(const FunctionInstance& function, RunResult& result)
      : function_(function), result_(result), start_(std::chrono::steady_clock::now()) {}

  // Seconds since this trace was made.
  double seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // `seconds`: the time spent by the end of this evaluation (the wall-clock time since the trace
  // was made when not given).
  void add(double value) { add(value, seconds_since_start()); }
  void add(double value, double seconds) {
    if (!std::isfinite(value)) throw std::runtime_error("the function returned a non-finite value");
    const bool minimize = function_.direction == Direction::minimize;
    if (result_.values.empty() || (minimize ? value < best_ : value > best_)) best_ = value;
    result_.values.push_back(value);
    double regret = minimize ? best_ - function_.optimum : function_.optimum - best_;
    // Only rounding may push a value past the exact optimum (e.g. Ackley's terms at 0); more
    // than that is a wrong optimum (or a reference set too low) and must not be hidden.
    if (regret < -1e-9 * (1.0 + std::fabs(function_.optimum))) {
      throw std::logic_error(function_.name + (function_.optimum_is_reference
                                                   ? ": a value beats the reference optimum"
                                                   : ": a value beats the exact optimum"));
    }
    result_.regret.push_back(std::max(regret, 0.0));
    result_.elapsed.push_back(seconds);
  }

 private:
  const FunctionInstance& function_;
  RunResult& result_;
  std::chrono::steady_clock::time_point start_;
  double best_ = 0.0;
};

}  // namespace hd_suite
