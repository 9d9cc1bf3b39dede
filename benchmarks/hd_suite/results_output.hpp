// hd_suite's outputs: the CSV of every run's full trace, the CSV of every run's outcome, a
// table per function (regret mean ± standard error over the seeds at the checkpoints, CC/CS of
// the final learned graph, seconds per run) and a PNG per function drawn by gnuplot (mean regret
// against evaluations, log y, one line per method).
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

// function,method,seed,evaluation,value,regret: one row per evaluation of every finished run.
void write_trace_csv(const std::string& path, const std::vector<JobResult>& results);
// function,method,seed,status,seconds,evaluations,final_regret,cc,cs,message: one row per run,
// including those that failed or could not run.
void write_runs_csv(const std::string& path, const std::vector<JobResult>& results);

// One method on one function, over its seeds.
struct MethodSummary {
  std::string function;
  Method method;
  int runs = 0, succeeded = 0;
  // Why no run succeeded ("unavailable: ...", "failed: ...", "n/a: ..."); empty otherwise.
  std::string status_note;
  std::vector<double> mean, standard_error;  // regret per evaluation over the successful runs
  double correct_connections = 0.0, correct_separations = 0.0;  // means; NaN if not measured
  double seconds = 0.0, seconds_standard_error = 0.0;
};
// One summary per (function, method) in the order they first appear in `results`.
std::vector<MethodSummary> summarise(const std::vector<JobResult>& results);

// The evaluation counts the tables report: 50, 100, 200, 300 up to `evaluations`, and
// `evaluations` itself.
std::vector<int> checkpoints(int evaluations);

// A Markdown table of `function`'s summaries, headed by `title`, followed by the messages of
// the runs that failed.
std::string function_table(const std::string& function, const std::string& title,
                           const std::vector<MethodSummary>& summaries,
                           const std::vector<JobResult>& results, int evaluations);

// Writes <function>_regret.dat and plots.gp into `directory` and runs gnuplot there, giving
// <function>.png for each function. Returns false (after saying why on stderr) when gnuplot is
// missing or fails.
bool write_plots(const std::string& directory, const std::vector<std::string>& functions,
                 const std::vector<std::string>& titles,
                 const std::vector<MethodSummary>& summaries);

}  // namespace hd_suite
