#include "results_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "output_files.hpp"
#include "phase_spending.hpp"
#include "stall.hpp"

namespace hd_suite {

namespace {

using addbo_examples::open_output;
using addbo_examples::shell_quote;

std::string number(double value) { return addbo_examples::format_number(value, 10); }

const char* status_name(RunStatus status) {
  switch (status) {
    case RunStatus::ok:
      return "ok";
    case RunStatus::failed:
      return "failed";
    case RunStatus::unavailable:
      return "unavailable";
    case RunStatus::not_applicable:
      return "n/a";
  }
  return "";
}

// A message on one CSV field or table cell: quotes doubled, line breaks and pipes replaced.
std::string csv_field(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"')
      quoted += "\"\"";
    else if (c == '\n' || c == '\r')
      quoted += ' ';
    else
      quoted += c;
  }
  return quoted + "\"";
}

std::string one_line(const std::string& text, std::size_t limit) {
  std::string line;
  for (char c : text) line += (c == '\n' || c == '|') ? ' ' : c;
  if (line.size() > limit) line = line.substr(0, limit - 3) + "...";
  return line;
}

std::string mean_with_spread(double mean, double spread) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g ± %.2g", mean, spread);
  return text;
}

struct Moments {
  double mean = NAN, standard_deviation = NAN, standard_error = NAN;
};

// Mean, sample standard deviation (0 for one value) and standard error of the mean.
Moments moments(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  double sum = 0.0, squares = 0.0;
  for (double v : values) sum += v;
  const double mean = sum / n;
  for (double v : values) squares += (v - mean) * (v - mean);
  const double deviation = n > 1 ? std::sqrt(squares / (n - 1)) : 0.0;
  return {mean, deviation, deviation / std::sqrt(n)};
}

// The colour of each method's line, the same in every plot (by its place in all_methods()).
const char* method_colour(Method method) {
  static const char* const kColours[] = {"#1f77b4", "#17becf", "#bcbd22", "#9467bd",
                                         "#8c564b", "#7f7f7f", "#e377c2", "#d62728",
                                         "#ff7f0e", "#2ca02c", "#000000"};
  const std::size_t index = static_cast<std::size_t>(method);
  return kColours[index % (sizeof kColours / sizeof kColours[0])];
}

}  // namespace

void compute_stalls(std::vector<JobResult>& results) {
  for (JobResult& result : results) {
    RunResult& run = result.run;
    if (run.status != RunStatus::ok) continue;
    // Random search's mean regret on this function, over its successful runs.
    std::vector<const RunResult*> random_runs;
    for (const JobResult& other : results) {
      if (other.function == result.function && other.method == Method::random &&
          other.run.status == RunStatus::ok) {
        random_runs.push_back(&other.run);
      }
    }
    if (random_runs.empty()) continue;
    std::size_t length = random_runs.front()->regret.size();
    for (const RunResult* random_run : random_runs) {
      length = std::min(length, random_run->regret.size());
    }
    std::vector<double> random_regret(length, 0.0);
    for (const RunResult* random_run : random_runs) {
      for (std::size_t t = 0; t < length; ++t) random_regret[t] += random_run->regret[t];
    }
    for (double& r : random_regret) r /= static_cast<double>(random_runs.size());
    run.longest_stall = longest_stall(run.regret, random_regret);
    run.stall_fraction = run.longest_stall / static_cast<double>(run.regret.size());
  }
}

void write_trace_csv(const std::string& path, const std::vector<JobResult>& results) {
  std::ofstream out = open_output(path);
  out << "function,method,seed,evaluation,value,regret,seconds,phase,run\n";
  for (const JobResult& result : results) {
    if (result.run.status != RunStatus::ok) continue;
    const RunResult& run = result.run;
    for (std::size_t i = 0; i < run.values.size(); ++i) {
      out << result.function << ',' << method_name(result.method) << ',' << result.seed << ','
          << i + 1 << ',' << number(run.values[i]) << ',' << number(run.regret[i]) << ','
          << number(run.elapsed[i]) << ',' << (i < run.phases.size() ? run.phases[i] : "") << ','
          << (i < run.runs.size() ? std::to_string(run.runs[i]) : "") << '\n';
    }
  }
}

void write_runs_csv(const std::string& path, const std::vector<JobResult>& results) {
  std::ofstream out = open_output(path);
  out << "function,method,seed,status,seconds,evaluations,final_regret,cc,cs,longest_stall,"
         "stall_fraction,slowest_call_seconds,calls_over_50ms,message\n";
  for (const JobResult& result : results) {
    const RunResult& run = result.run;
    out << result.function << ',' << method_name(result.method) << ',' << result.seed << ','
        << status_name(run.status) << ',' << number(run.seconds) << ',' << run.values.size() << ','
        << (run.regret.empty() ? "" : number(run.regret.back())) << ','
        << number(run.correct_connections) << ',' << number(run.correct_separations) << ','
        << number(run.longest_stall) << ',' << number(run.stall_fraction) << ','
        << number(run.slowest_call) << ',' << run.slow_calls << ',' << csv_field(run.message)
        << '\n';
  }
}

std::vector<MethodSummary> summarise(const std::vector<JobResult>& results) {
  std::vector<MethodSummary> summaries;
  std::vector<std::vector<const JobResult*>> groups;
  for (const JobResult& result : results) {
    std::size_t k = 0;
    while (k < summaries.size() &&
           !(summaries[k].function == result.function && summaries[k].method == result.method)) {
      ++k;
    }
    if (k == summaries.size()) {
      summaries.emplace_back();
      summaries[k].function = result.function;
      summaries[k].method = result.method;
      groups.emplace_back();
    }
    groups[k].push_back(&result);
  }
  for (std::size_t k = 0; k < summaries.size(); ++k) {
    MethodSummary& summary = summaries[k];
    std::vector<const RunResult*> ok;
    for (const JobResult* result : groups[k]) {
      ++summary.runs;
      if (result->run.status == RunStatus::ok)
        ok.push_back(&result->run);
      else if (summary.status_note.empty()) {
        summary.status_note =
            std::string(status_name(result->run.status)) + ": " + result->run.message;
      }
    }
    summary.succeeded = static_cast<int>(ok.size());
    if (ok.empty()) continue;
    summary.status_note.clear();
    std::size_t length = ok.front()->regret.size();
    for (const RunResult* run : ok) length = std::min(length, run->regret.size());
    for (std::size_t t = 0; t < length; ++t) {
      std::vector<double> column, elapsed;
      for (const RunResult* run : ok) {
        column.push_back(run->regret[t]);
        elapsed.push_back(run->elapsed[t]);
      }
      const Moments m = moments(column);
      summary.mean.push_back(m.mean);
      summary.standard_deviation.push_back(m.standard_deviation);
      summary.standard_error.push_back(m.standard_error);
      summary.elapsed.push_back(moments(elapsed).mean);
    }
    std::vector<double> cc, cs, seconds, stalls;
    for (const RunResult* run : ok) {
      cc.push_back(run->correct_connections);
      cs.push_back(run->correct_separations);
      seconds.push_back(run->seconds);
      if (std::isfinite(run->stall_fraction)) stalls.push_back(run->stall_fraction);
    }
    summary.correct_connections = moments(cc).mean;  // NaN when not measured
    summary.correct_separations = moments(cs).mean;
    const Moments time = moments(seconds);
    summary.seconds = time.mean;
    summary.seconds_standard_deviation = time.standard_deviation;
    if (!stalls.empty()) {
      summary.stall_mean = moments(stalls).mean;
      summary.stall_max = *std::max_element(stalls.begin(), stalls.end());
    }
  }
  return summaries;
}

std::vector<int> default_budgets(int evaluations) {
  std::vector<int> budgets;
  for (int t : {50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 10000}) {
    if (t <= evaluations) budgets.push_back(t);
  }
  if (budgets.empty() || budgets.back() != evaluations) budgets.push_back(evaluations);
  return budgets;
}

std::string function_table(const std::string& function, const std::string& title,
                           const std::vector<MethodSummary>& summaries,
                           const std::vector<JobResult>& results, const std::vector<int>& budgets) {
  std::ostringstream table;
  table << "### " << function << ": " << title << "\n\n| method | runs |";
  for (int t : budgets) table << " regret @" << t << " |";
  table << " longest stall | CC | CS | s/run |\n|---|---|";
  for (std::size_t i = 0; i < budgets.size() + 4; ++i) table << "---|";
  table << '\n';
  for (const MethodSummary& s : summaries) {
    if (s.function != function) continue;
    table << "| " << method_name(s.method) << " | " << s.succeeded << '/' << s.runs << " |";
    if (s.succeeded == 0) {
      table << ' ' << one_line(s.status_note, 90) << " |";
      for (std::size_t i = 1; i < budgets.size() + 4; ++i) table << " |";
      table << '\n';
      continue;
    }
    for (int t : budgets) {
      if (static_cast<std::size_t>(t) <= s.mean.size()) {
        table << ' ' << mean_with_spread(s.mean[t - 1], s.standard_deviation[t - 1]) << " |";
      } else {
        table << " – |";
      }
    }
    if (std::isfinite(s.stall_mean)) {
      char text[32];
      std::snprintf(text, sizeof text, " %.2f / %.2f |", s.stall_mean, s.stall_max);
      table << text;
    } else {
      table << " – |";
    }
    for (double measure : {s.correct_connections, s.correct_separations}) {
      if (std::isfinite(measure)) {
        char text[16];
        std::snprintf(text, sizeof text, " %.2f |", measure);
        table << text;
      } else {
        table << " – |";
      }
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, " %.2f |\n", s.seconds);
    table << seconds;
  }
  bool heading = false;
  for (const JobResult& result : results) {
    if (result.function != function || result.run.status != RunStatus::failed) continue;
    if (!heading) table << "\nFailed runs:\n";
    heading = true;
    table << "- " << method_name(result.method) << ", seed " << result.seed << ": "
          << one_line(result.run.message, 300) << '\n';
  }
  return table.str();
}

void write_budgets_csv(const std::string& path, const std::vector<MethodSummary>& summaries,
                       const std::vector<int>& budgets) {
  std::ofstream out = open_output(path);
  out << "function,method,budget,runs,mean_regret,sd_regret,standard_error,mean_seconds\n";
  for (const MethodSummary& s : summaries) {
    for (int t : budgets) {
      if (s.succeeded == 0 || static_cast<std::size_t>(t) > s.mean.size()) continue;
      const std::size_t k = static_cast<std::size_t>(t - 1);
      out << s.function << ',' << method_name(s.method) << ',' << t << ',' << s.succeeded << ','
          << number(s.mean[k]) << ',' << number(s.standard_deviation[k]) << ','
          << number(s.standard_error[k]) << ',' << number(s.elapsed[k]) << '\n';
    }
  }
}

void write_methods_csv(const std::string& path, const std::vector<MethodSummary>& summaries) {
  std::ofstream out = open_output(path);
  out << "function,method,runs,succeeded,mean_seconds,sd_seconds,stall_fraction_mean,"
         "stall_fraction_max,cc,cs,status\n";
  for (const MethodSummary& s : summaries) {
    const bool ok = s.succeeded > 0;
    out << s.function << ',' << method_name(s.method) << ',' << s.runs << ',' << s.succeeded << ','
        << (ok ? number(s.seconds) : "") << ',' << (ok ? number(s.seconds_standard_deviation) : "")
        << ',' << number(s.stall_mean) << ',' << number(s.stall_max) << ','
        << (ok ? number(s.correct_connections) : "") << ','
        << (ok ? number(s.correct_separations) : "") << ',' << csv_field(s.status_note) << '\n';
  }
}

bool write_plots(const std::string& directory, const std::vector<std::string>& functions,
                 const std::vector<std::string>& titles,
                 const std::vector<MethodSummary>& summaries) {
  std::ofstream script = open_output(directory + "/plots.gp");
  script << "# Generated by hd_suite: mean regret over the seeds against evaluations.\n"
            "set terminal pngcairo size 1000,600 font 'Sans,11'\n"
            "set xlabel 'evaluations'\nset ylabel 'regret of the best value (mean over seeds)'\n"
            "set logscale y\nset format y '%g'\nset grid\nset key outside right top\n";
  for (std::size_t f = 0; f < functions.size(); ++f) {
    const std::string& function = functions[f];
    const std::string data = function + "_regret.dat";
    std::ofstream out = open_output(directory + "/" + data);
    std::vector<const MethodSummary*> drawn;
    for (const MethodSummary& s : summaries) {
      if (s.function != function || s.succeeded == 0) continue;
      out << "# " << method_name(s.method) << ": evaluation mean_regret standard_error\n";
      for (std::size_t t = 0; t < s.mean.size(); ++t) {
        out << t + 1 << ' ' << number(s.mean[t]) << ' ' << number(s.standard_error[t]) << '\n';
      }
      out << "\n\n";
      drawn.push_back(&s);
    }
    if (drawn.empty()) continue;
    script << "\nset output '" << function << ".png'\nset title \"" << function << ": " << titles[f]
           << "\" noenhanced\nplot ";
    for (std::size_t block = 0; block < drawn.size(); ++block) {
      // Peers dashed, so that addbo's methods stand out.
      script << (block ? ", \\\n     " : "") << "'" << data << "' index " << block
             << " using 1:2 with lines lw 2 dt " << (is_peer(drawn[block]->method) ? 2 : 1)
             << " lc rgb '" << method_colour(drawn[block]->method) << "' title '"
             << method_name(drawn[block]->method) << "'";
    }
    script << '\n';
  }
  script.close();
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) {
    std::fprintf(stderr, "gnuplot not found: no plots (the CSV and %s/plots.gp are written)\n",
                 directory.c_str());
    return false;
  }
  // A regret of exactly 0 has no place on a log axis; gnuplot skips it (and says so on stderr).
  const std::string command =
      "cd " + shell_quote(directory) + " && gnuplot plots.gp 2> gnuplot.log";
  if (std::system(command.c_str()) != 0) {
    std::fprintf(stderr, "gnuplot failed on %s/plots.gp (see gnuplot.log): no plots\n",
                 directory.c_str());
    return false;
  }
  return true;
}

void write_phases_csv(const std::string& path, const std::vector<JobResult>& results) {
  std::ofstream out = open_output(path);
  out << "function,method,seed,phase,evaluations,improvements\n";
  for (const JobResult& result : results) {
    if (result.run.status != RunStatus::ok || result.run.phases.empty()) continue;
    const RunSpending spending =
        phase_spending(result.run.regret, result.run.phases, result.run.runs);
    for (const PhaseCount& phase : spending.phases) {
      out << result.function << ',' << method_name(result.method) << ',' << result.seed << ','
          << phase.phase << ',' << phase.evaluations << ',' << phase.improvements << '\n';
    }
    if (spending.evaluations_after_design > 0) {
      out << result.function << ',' << method_name(result.method) << ',' << result.seed
          << ",futile runs," << spending.futile_evaluations << ",0\n";
    }
  }
}

std::string phase_table(const std::string& function, const std::vector<JobResult>& results) {
  // Per method, the phases' sums over its successful runs, in order of first appearance.
  struct MethodSpending {
    Method method;
    int runs = 0, local_runs = 0, after_design = 0, futile = 0;
    std::vector<PhaseCount> phases;
  };
  std::vector<MethodSpending> methods;
  for (const JobResult& result : results) {
    if (result.function != function || result.run.status != RunStatus::ok ||
        result.run.phases.empty()) {
      continue;
    }
    auto entry = std::find_if(methods.begin(), methods.end(),
                              [&](const MethodSpending& m) { return m.method == result.method; });
    if (entry == methods.end()) {
      methods.push_back({result.method, 0, 0, 0, 0, {}});
      entry = methods.end() - 1;
    }
    const RunSpending spending =
        phase_spending(result.run.regret, result.run.phases, result.run.runs);
    ++entry->runs;
    entry->local_runs += spending.runs;
    entry->after_design += spending.evaluations_after_design;
    entry->futile += spending.futile_evaluations;
    for (const PhaseCount& phase : spending.phases) add_phase_count(entry->phases, phase);
  }
  if (methods.empty()) return "";
  std::ostringstream table;
  table << "Where " << function
        << "'s evaluations went (mean per run; improved: evaluations that improved the best so "
           "far; futile: evaluations after the initial design in local-search runs that never "
           "improved it):\n\n| method | local-search runs | futile |";
  // A column for every phase any method met, in the order they first appear.
  std::vector<PhaseCount> columns;
  for (const MethodSpending& m : methods) {
    for (const PhaseCount& phase : m.phases) add_phase_count(columns, phase);
  }
  for (const PhaseCount& column : columns) {
    table << ' ' << column.phase << ": evaluations / improved |";
  }
  table << "\n|---|---|---|";
  for (std::size_t i = 0; i < columns.size(); ++i) table << "---|";
  table << '\n';
  for (const MethodSpending& m : methods) {
    const double runs = m.runs;
    char text[96];
    std::snprintf(text, sizeof text, "| %s | %.1f | %.0f (%.0f%%) |", method_name(m.method),
                  m.local_runs / runs, m.futile / runs,
                  m.after_design > 0 ? 100.0 * m.futile / m.after_design : 0.0);
    table << text;
    for (const PhaseCount& column : columns) {
      const std::size_t index = phase_index(m.phases, column.phase);
      if (index == m.phases.size()) {
        table << " – |";
        continue;
      }
      std::snprintf(text, sizeof text, " %.1f / %.1f |", m.phases[index].evaluations / runs,
                    m.phases[index].improvements / runs);
      table << text;
    }
    table << '\n';
  }
  return table.str();
}

}  // namespace hd_suite
