// plot_run: turns a state saved by addbo_save (docs/saved-state.md) into a PNG drawn by gnuplot:
// on the left every value told against its evaluation number with the best value so far, on the
// right the dependency graph in use (variables on a circle, edges between them).
//
// It goes through the public API only: the state is loaded with addbo::Optimizer::load, which
// validates it exactly as an application restoring it would, and info() gives the cliques; the
// observations, the goal, the variables' names and the graph are read from the state's
// documented fields.
//
// Each edge is coloured by how many evaluations it has been kept: the observations told since it
// last entered the graph (info's edge_since; a state saved before addbo kept it counts from its
// last learning).
#include <addbo/addbo.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* const kUsage = R"(usage: plot_run STATE.json OUT.png

Reads a state saved by addbo_save (addbo::Optimizer::save, save() in the bindings) and writes a
PNG with gnuplot:
  left   every value told, in telling order, and the best value so far (maximum or minimum,
         as the state's goal says);
  right  the dependency graph in use: one node per variable on a circle, one line per edge,
         coloured by how many evaluations the edge has been kept (since it last entered the
         graph; a colour box gives the scale).

Needs gnuplot on PATH (Debian: apt-get install gnuplot-nox).
Exit status: 0 written; 1 the state cannot be read or loaded, or gnuplot failed; 2 usage;
3 gnuplot is not installed.
  --help   this text
)";

constexpr int kExitFailure = 1, kExitUsage = 2, kExitNoGnuplot = 3;

// More labels than this around the circle overlap: beyond it every n-th variable is labelled.
constexpr int kMaxLabels = 40;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A gnuplot single-quoted string: no escapes inside except '' for one quote.
std::string gnuplot_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'')
      quoted += "''";
    else if (c == '\n' || c == '\r')
      quoted += ' ';
    else
      quoted += c;
  }
  return quoted + "'";
}

// A gnuplot double-quoted string, for titles that span lines: \n is a line break there.
std::string gnuplot_text(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      quoted += std::string("\\") + c;
    else if (c == '\n')
      quoted += "\\n";
    else if (c != '\r')
      quoted += c;
  }
  return quoted + "\"";
}

// A variable name as one double-quoted column of a datablock, which has no escapes: a double
// quote in the name would end the column, so it becomes a single quote.
std::string datablock_label(const std::string& name) {
  std::string label = "\"";
  for (char c : name) label += (c == '"') ? '\'' : (c == '\n' || c == '\r') ? ' ' : c;
  return label + "\"";
}

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

struct Run {
  bool minimize = false;
  std::vector<double> values;    // y as told, in telling order
  std::vector<char> feasible;    // per value: it meets every constraint (all without constraints)
  std::vector<long> evaluation;  // per value: its evaluation number, failures counted
  std::vector<long> failures;    // the evaluation number of every failed evaluation
  std::size_t pending = 0;
  std::string mode;     // structure.mode
  long learned_at = 0;  // learning.learned_at
  std::vector<std::string> names;
  std::vector<std::pair<int, int>> edges;
  std::vector<long> edge_age;  // per edge, observations told since it entered the graph
  std::size_t cliques = 0;
};

Run read_run(const std::string& state_text) {
  // Loading first: a state addbo refuses is reported with addbo's own message (the JSON pointer
  // of the bad field), and everything read below is known to be well formed.
  const addbo::Optimizer optimizer = addbo::Optimizer::load(state_text);
  const nlohmann::json info = nlohmann::json::parse(optimizer.info());
  const nlohmann::json state = nlohmann::json::parse(state_text);

  Run run;
  run.minimize = state.at("config").at("goal").get<std::string>() == "minimize";
  // A value is feasible when every constraint's value is within its bounds (addbo's rule).
  const nlohmann::json& constraints =
      state.at("config").value("constraints", nlohmann::json::array());
  for (const auto& observation : state.at("observations")) {
    run.values.push_back(observation.at("y").get<double>());
    bool feasible = true;
    for (std::size_t k = 0; k < constraints.size(); ++k) {
      const double c = observation.at("constraints").at(k).get<double>();
      if (constraints[k].contains("upper") && c > constraints[k]["upper"].get<double>())
        feasible = false;
      if (constraints[k].contains("lower") && c < constraints[k]["lower"].get<double>())
        feasible = false;
    }
    run.feasible.push_back(feasible);
  }
  // Evaluation numbers in telling order: failure j came after `after` observations.
  const nlohmann::json& failures = state.value("failures", nlohmann::json::array());
  std::size_t next = 0;
  for (std::size_t i = 0; i < run.values.size(); ++i) {
    for (; next < failures.size() && failures[next].at("after").get<std::size_t>() <= i; ++next) {
      run.failures.push_back(static_cast<long>(i + next + 1));
    }
    run.evaluation.push_back(static_cast<long>(i + next + 1));
  }
  for (; next < failures.size(); ++next) {
    run.failures.push_back(static_cast<long>(run.values.size() + next + 1));
  }
  run.pending = state.at("pending").size();
  run.mode = state.at("config").at("structure").at("mode").get<std::string>();
  run.learned_at = state.at("learning").at("learned_at").get<long>();
  for (const auto& variable : state.at("config").at("variables")) {
    run.names.push_back(variable.at("name").get<std::string>());
  }
  for (const auto& edge : state.at("model").at("edges")) {
    run.edges.emplace_back(edge.at(0).get<int>(), edge.at(1).get<int>());
  }
  const long told = static_cast<long>(run.values.size());
  for (const auto& since : info.at("edge_since")) run.edge_age.push_back(told - since.get<long>());
  run.cliques = info.at("cliques").size();
  return run;
}

// Where variable i sits: on the unit circle, variable 0 at the top, counter-clockwise.
std::pair<double, double> node_position(std::size_t i, std::size_t count, double radius) {
  constexpr double kPi = 3.14159265358979323846;
  const double angle = kPi / 2 + 2 * kPi * static_cast<double>(i) / static_cast<double>(count);
  return {radius * std::cos(angle), radius * std::sin(angle)};
}

std::string graph_title(const Run& run) {
  std::string title;
  if (run.mode == "fixed") {
    title = "dependency graph (given)";
  } else if (run.learned_at > 0) {
    title = "dependency graph (" + run.mode + ", learned at " + std::to_string(run.learned_at) +
            " observations)";
  } else {
    title = "dependency graph (" + run.mode + ", not learned yet)";
  }
  title += "\n" + std::to_string(run.names.size()) + " variables, " +
           std::to_string(run.edges.size()) + " edges, " + std::to_string(run.cliques) +
           " cliques\nedge colour: evaluations the edge has been kept";
  return title;
}

// The whole gnuplot script, data included (datablocks), so that nothing but the PNG is written.
std::string gnuplot_script(const Run& run, const std::string& output) {
  std::ostringstream script;
  script << "set terminal pngcairo size 1400,640 font 'Sans,11'\n"
         << "set output " << gnuplot_quote(output) << "\n";

  // Columns: evaluation, value, best feasible so far (NaN before the first), feasible (1/0).
  script << "$values << EOD\n";
  double best = NAN;
  for (std::size_t i = 0; i < run.values.size(); ++i) {
    const double y = run.values[i];
    if (run.feasible[i] && (std::isnan(best) || (run.minimize ? y < best : y > best))) best = y;
    script << run.evaluation[i] << ' ' << number(y) << ' ' << number(best) << ' '
           << (run.feasible[i] ? 1 : 0) << '\n';
  }
  script << "EOD\n";
  script << "$failures << EOD\n";
  for (long evaluation : run.failures) script << evaluation << '\n';
  script << "EOD\n";

  const std::size_t count = run.names.size();
  script << "$nodes << EOD\n";
  const std::size_t label_step = count <= kMaxLabels ? 1 : (count + kMaxLabels - 1) / kMaxLabels;
  for (std::size_t i = 0; i < count; ++i) {
    const auto [x, y] = node_position(i, count, 1.0);
    const auto [lx, ly] = node_position(i, count, 1.13);
    script << number(x) << ' ' << number(y) << ' ' << number(lx) << ' ' << number(ly) << ' '
           << datablock_label(i % label_step == 0 ? run.names[i] : "") << '\n';
  }
  script << "EOD\n";
  // One segment per edge: two points, then a blank line so that `with lines` lifts the pen.
  script << "$edges << EOD\n";
  long oldest = 1;
  for (std::size_t e = 0; e < run.edges.size(); ++e) {
    const auto [a, b] = run.edges[e];
    const auto [ax, ay] = node_position(static_cast<std::size_t>(a), count, 1.0);
    const auto [bx, by] = node_position(static_cast<std::size_t>(b), count, 1.0);
    const long age = e < run.edge_age.size() ? run.edge_age[e] : 0;
    oldest = std::max(oldest, age);
    script << number(ax) << ' ' << number(ay) << ' ' << age << '\n'
           << number(bx) << ' ' << number(by) << ' ' << age << "\n\n";
  }
  script << "EOD\n";

  script << "set multiplot layout 1,2\n";
  // Left: values and best so far.
  const std::string goal = run.minimize ? "minimise" : "maximise";
  std::string counts = std::to_string(run.values.size()) + " observations, ";
  if (!run.failures.empty()) counts += std::to_string(run.failures.size()) + " failed, ";
  script << "set title "
         << gnuplot_quote("values told (" + goal + "): " + counts + std::to_string(run.pending) +
                          " pending")
         << " noenhanced\n"
         << "set xlabel 'evaluation'\nset ylabel 'value told'\nset grid\n"
         << "set key " << (run.minimize ? "top right" : "bottom right") << " opaque\n";
  if (run.values.empty()) {
    script << "set label 1 'no observations told yet' at graph 0.5, 0.5 center\n"
           << "plot [0:1] [0:1] NaN notitle\nunset label 1\n";
  } else {
    // Infeasible values hollow; failures as crosses along the bottom (they have no value).
    const bool constrained =
        std::find(run.feasible.begin(), run.feasible.end(), 0) != run.feasible.end();
    script << "set y2range [0:1]\nunset y2tics\n"
           << "plot $values using 1:($4 > 0 ? $2 : NaN) with points pt 7 ps 0.6 lc rgb '#7f7f7f' "
              "title '"
           << (constrained ? "feasible value" : "value told") << "', \\\n";
    if (constrained) {
      script << "     $values using 1:($4 > 0 ? NaN : $2) with points pt 6 ps 0.6 "
                "lc rgb '#9467bd' title 'infeasible value', \\\n";
    }
    if (!run.failures.empty()) {
      script << "     $failures using 1:(0.03) axes x1y2 with points pt 2 ps 0.9 "
                "lc rgb '#ff7f0e' title 'failed', \\\n";
    }
    script << "     $values using 1:3 with steps lw 2.5 lc rgb '#d62728' title '"
           << (constrained ? "best feasible so far" : "best so far") << "'\n";
  }

  // Right: the graph, drawn to scale (a circle stays round).
  script << "unset grid\nunset key\nunset xlabel\nunset ylabel\nunset border\nunset tics\n"
         << "set size ratio -1\nset xrange [-1.35:1.35]\nset yrange [-1.35:1.35]\n"
         << "set title " << gnuplot_text(graph_title(run)) << " noenhanced\n";
  // Edge colours: young edges light, long-kept ones dark (a sequential palette prints in grey).
  script << "set palette defined (0 '#c6dbef', 1 '#6baed6', 2 '#2171b5', 3 '#08306b')\n"
         << "set cbrange [0:" << oldest << "]\nset cbtics\nset cblabel 'evaluations kept'\n"
         << "set colorbox vertical user origin 0.93, 0.25 size 0.012, 0.5\n";
  // gnuplot refuses to plot an empty datablock, so a graph without edges skips that layer.
  if (run.edges.empty()) script << "unset colorbox\n";
  script << "plot ";
  if (!run.edges.empty()) script << "$edges using 1:2:3 with lines lw 2.5 lc palette, \\\n     ";
  script << "$nodes using 1:2 with points pt 7 ps 1.4 lc rgb '#333333', \\\n"
         << "     $nodes using 3:4:5 with labels noenhanced font 'Sans,9'\n"
         << "unset multiplot\nset output\n";
  return script.str();
}

bool gnuplot_installed() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--help" || argument == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    arguments.push_back(argument);
  }
  if (arguments.size() != 2 || arguments[0].empty() || arguments[1].empty()) {
    std::fprintf(stderr, "plot_run: expected STATE.json and OUT.png\n%s", kUsage);
    return kExitUsage;
  }
  const std::string& state_path = arguments[0];
  const std::string& output = arguments[1];

  Run run;
  try {
    run = read_run(read_file(state_path));
  } catch (const addbo::Error& error) {
    std::fprintf(stderr, "plot_run: %s is not a state addbo can load: %s: %s\n", state_path.c_str(),
                 error.status_name(), error.what());
    return kExitFailure;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "plot_run: %s\n", error.what());
    return kExitFailure;
  }

  if (!gnuplot_installed()) {
    std::fprintf(stderr,
                 "plot_run: gnuplot is not installed (not found on PATH); install it, e.g. "
                 "apt-get install gnuplot-nox. No PNG written.\n");
    return kExitNoGnuplot;
  }
  // gnuplot dying early must surface as its exit status below, not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::remove(output.c_str());  // so that a stale PNG is never taken for this run's
  FILE* gnuplot = popen("gnuplot", "w");
  if (gnuplot == nullptr) {
    std::fprintf(stderr, "plot_run: cannot start gnuplot: %s\n", std::strerror(errno));
    return kExitFailure;
  }
  const std::string script = gnuplot_script(run, output);
  const bool sent = std::fwrite(script.data(), 1, script.size(), gnuplot) == script.size();
  const int status = pclose(gnuplot);
  std::ifstream written(output, std::ios::binary | std::ios::ate);
  if (!sent || status != 0 || !written || written.tellg() <= 0) {
    std::fprintf(stderr, "plot_run: gnuplot failed (its messages are above); %s not written\n",
                 output.c_str());
    return kExitFailure;
  }
  std::printf("plot_run: wrote %s (%zu observations, %zu variables, %zu edges)\n", output.c_str(),
              run.values.size(), run.names.size(), run.edges.size());
  return 0;
}
