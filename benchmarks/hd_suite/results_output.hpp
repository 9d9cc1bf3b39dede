// hd_suite's outputs: the CSV of every run's full trace, the CSV of every run's outcome, a
// table per function (regret mean ± standard deviation over the seeds at the budgets, the
// longest stall, CC/CS of the final learned graph, seconds per run), the same summaries as CSVs,
// and a PNG per function drawn by gnuplot (mean regret against evaluations, log y, one line per
// method).
#pragma once

#include <string>
#include <vector>

#include "methods.hpp"
#include "run_result.hpp"

namespace hd_suite {

struct JobResult {
  std::string function;
  Method method;
  int seed = 0;  // the seed's index, 0..seeds-1
  RunResult run;
};

// Sets every successful run's longest_stall and stall_fraction (stall.hpp) against the mean
// regret of the successful `random` runs on the same function; left NaN where random search did
// not run there.
void compute_stalls(std::vector<JobResult>& results);

// function,method,seed,evaluation,value,regret,seconds,phase,run: one row per evaluation of every
// finished run (seconds: spent by the end of that evaluation, RunResult::elapsed; phase and run:
// addbo's ask phase and local-search run, RunResult::phases and runs, empty for random search
// and the peers).
void write_trace_csv(const std::string& path, const std::vector<JobResult>& results);
// function,method,seed,status,seconds,evaluations,final_regret,cc,cs,longest_stall,
// stall_fraction,message: one row per run, including those that failed or could not run.
void write_runs_csv(const std::string& path, const std::vector<JobResult>& results);

// One method on one function, over its seeds.
struct MethodSummary {
  std::string function;
  Method method;
  int runs = 0, succeeded = 0;
  // Why no run succeeded ("unavailable: ...", "failed: ...", "n/a: ..."); empty otherwise.
  std::string status_note;
  // Per evaluation over the successful runs: regret mean, standard deviation (0 for one run),
  // standard error, and the mean seconds spent by then.
  std::vector<double> mean, standard_deviation, standard_error, elapsed;
  double correct_connections = 0.0, correct_separations = 0.0;  // means; NaN if not measured
  double seconds = 0.0, seconds_standard_deviation = 0.0;
  // Stall fraction over the successful runs (NaN where not computed).
  double stall_mean = NAN, stall_max = NAN;
};
// One summary per (function, method) in the order they first appear in `results`.
std::vector<MethodSummary> summarise(const std::vector<JobResult>& results);

// The evaluation counts the tables report by default: 50, 100, 200, 300, 500, 1000, 2000, 3000,
// 5000, 10000 up to `evaluations`, and `evaluations` itself.
std::vector<int> default_budgets(int evaluations);

// A Markdown table of `function`'s summaries at `budgets`, headed by `title`, followed by the
// messages of the runs that failed.
std::string function_table(const std::string& function, const std::string& title,
                           const std::vector<MethodSummary>& summaries,
                           const std::vector<JobResult>& results, const std::vector<int>& budgets);

// function,method,budget,runs,mean_regret,sd_regret,standard_error,mean_seconds: one row per
// (function, method) with successful runs and budget within them.
void write_budgets_csv(const std::string& path, const std::vector<MethodSummary>& summaries,
                       const std::vector<int>& budgets);
// function,method,seed,phase,evaluations,improvements: one row per phase of every finished run of
// a model-based addbo method (phase_spending.hpp), and a row "futile runs" with the evaluations
// after the initial design in its local-search runs that never improved the best.
void write_phases_csv(const std::string& path, const std::vector<JobResult>& results);
// A Markdown table of where `function`'s addbo runs spent their evaluations, per method (mean
// per run): local-search runs, futile evaluations, and each phase's evaluations and those that
// improved the best. Empty when no run recorded phases.
std::string phase_table(const std::string& function, const std::vector<JobResult>& results);

// function,method,runs,succeeded,mean_seconds,sd_seconds,stall_fraction_mean,stall_fraction_max,
// cc,cs,status: one row per (function, method).
void write_methods_csv(const std::string& path, const std::vector<MethodSummary>& summaries);

// Writes <function>_regret.dat and plots.gp into `directory` and runs gnuplot there, giving
// <function>.png for each function; each method has the same colour in every plot, peers are
// dashed. Returns false (after saying why on stderr) when gnuplot is
// missing or fails.
bool write_plots(const std::string& directory, const std::vector<std::string>& functions,
                 const std::vector<std::string>& titles,
                 const std::vector<MethodSummary>& summaries);

}  // namespace hd_suite
