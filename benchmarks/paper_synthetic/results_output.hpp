// The benchmark's outputs: the long-format CSV of every run, the mean and standard error over
// runs, the table printed at chosen iterations, and the PNG plots drawn by gnuplot from a
// generated script (the paper's Figures 3-6).
#pragma once

#include <string>
#include <vector>

#include "method_runner.hpp"

namespace paper_synthetic {

struct JobResult {
  std::string graph;
  Method method;
  int run;
  Trace trace;
};

// graph,method,run,t,simple_regret,avg_cum_regret,cc,cs (cc and cs empty for Random).
void write_csv(const std::string& path, const std::vector<JobResult>& results);

// Mean and standard error over runs, per evaluation t, of one quantity of one method on one graph.
struct Band {
  std::vector<double> mean, standard_error;
};
struct MethodSummary {
  std::string graph;
  Method method;
  int runs = 0;
  Band simple_regret, average_cumulative_regret, correct_connections, correct_separations;
};
// One summary per (graph, method) present in `results`, in the order they first appear.
std::vector<MethodSummary> summarise(const std::vector<JobResult>& results);

// Markdown table of S_t and R_t/t (mean ± standard error) at t = 100, 250 and the last t, and
// the final CC/CS of the learning methods; printed and written to `path`.
std::string regret_table(const std::vector<MethodSummary>& summaries);

// Writes <graph>_summary.dat and plots.gp into `directory` and runs gnuplot there, producing
// regret_<graph>.png and graph_learning_<graph>.png. Returns false (after saying why on stderr)
// when gnuplot is missing or fails.
bool write_plots(const std::string& directory, const std::vector<MethodSummary>& summaries);

}  // namespace paper_synthetic
