#include "results_output.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "output_files.hpp"

namespace paper_synthetic {
namespace {

using addbo_examples::open_output;

std::string number(double value) { return addbo_examples::format_number(value, 6); }

// Mean and standard error over the runs' traces (NaN entries make that t's result NaN).
Band band(const std::vector<const std::vector<double>*>& traces) {
  Band result;
  const std::size_t length = traces.front()->size();
  const double n = static_cast<double>(traces.size());
  for (std::size_t t = 0; t < length; ++t) {
    double sum = 0.0, sum_squares = 0.0;
    for (const auto* trace : traces) sum += (*trace)[t];
    const double mean = sum / n;
    for (const auto* trace : traces) sum_squares += ((*trace)[t] - mean) * ((*trace)[t] - mean);
    result.mean.push_back(mean);
    result.standard_error.push_back(n > 1 ? std::sqrt(sum_squares / (n - 1) / n) : 0.0);
  }
  return result;
}

std::string with_error(const Band& band, std::size_t t) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f ± %.3f", band.mean[t - 1], band.standard_error[t - 1]);
  return text;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

const char* method_colour(Method method) {
  static const char* const colours[] = {"#1f5fbf", "#e07b00", "#2a9d3a", "#7f7f7f"};
  return colours[static_cast<int>(method)];
}

// One panel: the mean curve with its ±1 standard error band of every listed method; the data
// file has one block per method (gnuplot `index`), columns t then mean/se pairs.
void plot_panel(std::ostream& script, const std::string& data, const std::string& ylabel,
                const std::vector<std::pair<int, Method>>& blocks, int mean_column) {
  script << "set ylabel '" << ylabel << "'\nplot ";
  const char* separator = "";
  for (const auto& [block, method] : blocks) {
    const int se = mean_column + 1;
    script << separator << "'" << data << "' index " << block << " using 1:($" << mean_column
           << "-$" << se << "):($" << mean_column << "+$" << se << ") with filledcurves lc rgb '"
           << method_colour(method) << "' fs transparent solid 0.2 noborder notitle, \\\n     '"
           << data << "' index " << block << " using 1:" << mean_column
           << " with lines lw 2 lc rgb '" << method_colour(method) << "' title '"
           << method_name(method) << "'";
    separator = ", \\\n     ";
  }
  script << "\n";
}

}  // namespace

void write_csv(const std::string& path, const std::vector<JobResult>& results) {
  std::ofstream out = open_output(path);
  out << "graph,method,run,t,simple_regret,avg_cum_regret,cc,cs\n";
  for (const JobResult& result : results) {
    const Trace& trace = result.trace;
    for (std::size_t i = 0; i < trace.simple_regret.size(); ++i) {
      out << result.graph << ',' << method_name(result.method) << ',' << result.run << ',' << i + 1
          << ',' << number(trace.simple_regret[i]) << ','
          << number(trace.average_cumulative_regret[i]) << ',';
      if (result.method != Method::random) {
        out << number(trace.correct_connections[i]) << ',' << number(trace.correct_separations[i]);
      } else {
        out << ',';
      }
      out << '\n';
    }
  }
}

std::vector<MethodSummary> summarise(const std::vector<JobResult>& results) {
  std::vector<MethodSummary> summaries;
  std::vector<std::vector<const Trace*>> traces;
  for (const JobResult& result : results) {
    std::size_t k = 0;
    while (k < summaries.size() &&
           !(summaries[k].graph == result.graph && summaries[k].method == result.method)) {
      ++k;
    }
    if (k == summaries.size()) {
      summaries.push_back({result.graph, result.method, 0, {}, {}, {}, {}});
      traces.emplace_back();
    }
    traces[k].push_back(&result.trace);
  }
  for (std::size_t k = 0; k < summaries.size(); ++k) {
    auto column = [&](std::vector<double> Trace::*member) {
      std::vector<const std::vector<double>*> columns;
      for (const Trace* trace : traces[k]) columns.push_back(&(trace->*member));
      return band(columns);
    };
    summaries[k].runs = static_cast<int>(traces[k].size());
    summaries[k].simple_regret = column(&Trace::simple_regret);
    summaries[k].average_cumulative_regret = column(&Trace::average_cumulative_regret);
    summaries[k].correct_connections = column(&Trace::correct_connections);
    summaries[k].correct_separations = column(&Trace::correct_separations);
  }
  return summaries;
}

std::string regret_table(const std::vector<MethodSummary>& summaries) {
  if (summaries.empty()) return "";
  const std::size_t last = summaries.front().simple_regret.mean.size();
  std::vector<std::size_t> times;
  for (std::size_t t : {std::size_t(100), std::size_t(250), last}) {
    if (t <= last && (times.empty() || times.back() < t)) times.push_back(t);
  }
  std::ostringstream table;
  table << "| graph | method |";
  for (std::size_t t : times) table << " S_t, t=" << t << " | R_t/t, t=" << t << " |";
  table << " CC, t=" << last << " | CS, t=" << last << " |\n|---|---|";
  for (std::size_t i = 0; i < 2 * times.size() + 2; ++i) table << "---|";
  table << '\n';
  for (const MethodSummary& summary : summaries) {
    table << "| " << summary.graph << " | " << method_name(summary.method) << " |";
    for (std::size_t t : times) {
      table << ' ' << with_error(summary.simple_regret, t) << " | "
            << with_error(summary.average_cumulative_regret, t) << " |";
    }
    if (summary.method == Method::random) {
      table << " – | – |\n";
    } else {
      table << ' ' << with_error(summary.correct_connections, last) << " | "
            << with_error(summary.correct_separations, last) << " |\n";
    }
  }
  return table.str();
}

bool write_plots(const std::string& directory, const std::vector<MethodSummary>& summaries) {
  std::vector<std::string> graphs;
  for (const MethodSummary& summary : summaries) {
    if (graphs.empty() || graphs.back() != summary.graph) graphs.push_back(summary.graph);
  }
  std::ofstream script = open_output(directory + "/plots.gp");
  script << "# Generated by paper_synthetic: mean and ±1 standard error over the runs.\n"
            "set terminal pngcairo size 1200,450 font 'Sans,11'\n"
            "set xlabel 't (evaluations)'\nset grid\nset key top right\n";
  for (const std::string& graph : graphs) {
    const std::string data = graph + "_summary.dat";
    std::ofstream out = open_output(directory + "/" + data);
    std::vector<std::pair<int, Method>> all, learning;
    int runs = 0;
    for (const MethodSummary& s : summaries) {
      if (s.graph != graph) continue;
      const int block = static_cast<int>(all.size());
      all.emplace_back(block, s.method);
      if (s.method == Method::overlap || s.method == Method::no_overlap) {
        learning.emplace_back(block, s.method);
      }
      runs = s.runs;
      out << "# " << method_name(s.method)
          << ": t S_mean S_se R/t_mean R/t_se CC_mean CC_se CS_mean CS_se\n";
      for (std::size_t i = 0; i < s.simple_regret.mean.size(); ++i) {
        out << i + 1;
        for (const Band* b : {&s.simple_regret, &s.average_cumulative_regret,
                              &s.correct_connections, &s.correct_separations}) {
          out << ' ' << number(b->mean[i]) << ' ' << number(b->standard_error[i]);
        }
        out << '\n';
      }
      out << "\n\n";
    }
    const std::string title = graph == "star" ? "Star graph (D = 10)" : "3x3 grid graph (D = 9)";
    const std::string runs_text =
        " — mean ± standard error over " + std::to_string(runs) + (runs == 1 ? " run" : " runs");
    script << "\nset output 'regret_" << graph << ".png'\nset multiplot layout 1,2 title '" << title
           << runs_text << "'\nset yrange [0:*]\n";
    plot_panel(script, data, "simple regret S_t", all, 2);
    plot_panel(script, data, "average cumulative regret R_t / t", all, 4);
    script << "unset multiplot\n";
    if (!learning.empty()) {
      script << "\nset output 'graph_learning_" << graph
             << ".png'\nset multiplot layout 1,2 title '" << title << ": learned graph" << runs_text
             << "'\nset yrange [0:1.05]\n";
      plot_panel(script, data, "correct connections CC", learning, 6);
      plot_panel(script, data, "correct separations CS", learning, 8);
      script << "unset multiplot\nset yrange [*:*]\n";
    }
  }
  script.close();
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) {
    std::fprintf(stderr, "gnuplot not found: no plots (the CSV and %s/plots.gp are written)\n",
                 directory.c_str());
    return false;
  }
  const std::string command = "cd " + shell_quote(directory) + " && gnuplot plots.gp";
  if (std::system(command.c_str()) != 0) {
    std::fprintf(stderr, "gnuplot failed on %s/plots.gp: no plots\n", directory.c_str());
    return false;
  }
  return true;
}

}  // namespace paper_synthetic
