// Speed benchmark: library time per ask+tell as the number of observations n grows, for the
// paper's star graph (D = 10) and chains (D = 50, 100), grid 32, fixed graph and lengthscales.
//
//   speed [--cases star10,chain50,chain100] [--sizes 100,250,500,1000,2000] [--window 21]
//         [--threads 0] [--csv speed.csv] [--plot speed.png]
//         [--learning-cases 10x250,10x1000,30x500,60x300] [--learning-csv learning.csv]
//         [--learning-plot learning.png]
//
// For each case and n, the optimizer is first fed n random observations (plain tells), then
// `window` ask+tell rounds are timed one by one; the table shows their median and 95th
// percentile in milliseconds and the process's peak resident memory so far. The objective
// costs nothing here: only the library is timed. --threads is limits.threads (0: all cores).
// With gnuplot on the PATH, --plot draws the medians against n on log-log axes ("" skips it).
//
// The second table times the first ask after n tells with the library's default settings (only
// the dimension is given: structure learning with the default prior, budget and data), for
// each D x n of --learning-cases: the learning alone as info().seconds reports it, and the
// whole ask that learned (learning, the rebuild of the posterior tables for the new graph and
// lengthscales, and the maximisation). The objective is additive over a chain of pairs.
// --learning-plot draws the ask's seconds against n, one line per D.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "optimizer/optimizer.hpp"
#include "space/space.hpp"
#include "util/random.hpp"

namespace {

struct Case {
  std::string name;
  int dimension;
  std::vector<std::pair<int, int>> edges;
};

Case make_case(const std::string& name) {
  Case c{name, 0, {}};
  if (name.rfind("star", 0) == 0) {
    c.dimension = std::stoi(name.substr(4));
    for (int j = 1; j < c.dimension; ++j) c.edges.emplace_back(0, j);
  } else if (name.rfind("chain", 0) == 0) {
    c.dimension = std::stoi(name.substr(5));
    for (int j = 1; j < c.dimension; ++j) c.edges.emplace_back(j - 1, j);
  } else {
    throw std::runtime_error("unknown case '" + name + "' (use starD or chainD)");
  }
  return c;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  return parts;
}

// A cheap additive objective over the case's edges (its value does not affect the timing).
double objective(const Case& c, const std::vector<double>& x) {
  double sum = 0.0;
  for (const auto& [a, b] : c.edges)
    sum += std::sin(3.0 * x[a] + 2.0 * x[b]) - (x[a] - x[b]) * (x[a] - x[b]);
  return sum;
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const std::size_t low = static_cast<std::size_t>(std::floor(position));
  const std::size_t high = std::min(values.size() - 1, low + 1);
  return values[low] + (position - static_cast<double>(low)) * (values[high] - values[low]);
}

// A log-log plot against n, up to the `plot` command.
void write_plot_header(std::ofstream& script, const std::string& png_path, const char* ylabel,
                       const char* title) {
  script << "set terminal pngcairo size 900,600 noenhanced\n"
         << "set output '" << png_path << "'\n"
         << "set datafile separator ','\n"
         << "set logscale xy\n"
         << "set grid\n"
         << "set key top left\n"
         << "set xlabel 'observations n'\n"
         << "set ylabel '" << ylabel << "'\n"
         << "set title '" << title << "'\n"
         << "plot ";
}

void run_gnuplot(const std::string& script_path, const std::string& png_path) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
    std::printf("gnuplot not found: wrote %s only\n", script_path.c_str());
    return;
  }
  const std::string command = "gnuplot '" + script_path + "'";
  if (std::system(command.c_str()) == 0) {
    std::printf("wrote %s\n", png_path.c_str());
  } else {
    std::printf("gnuplot failed on %s\n", script_path.c_str());
  }
}

// Writes a gnuplot script next to the CSV and runs it: one line of median latency per case.
void plot_latency(const std::string& csv_path, const std::string& png_path,
                  const std::vector<std::string>& cases) {
  const std::string script_path = png_path + ".gp";
  std::ofstream script(script_path);
  write_plot_header(script, png_path, "ask+tell median [ms]",
                    "addbo: library time per ask+tell (fixed graph, grid 32)");
  for (std::size_t k = 0; k < cases.size(); ++k) {
    script << (k ? ", " : "") << "'" << csv_path << "' using 3:(strcol(1) eq '" << cases[k]
           << "' ? $4 : NaN) with linespoints lw 2 title '" << cases[k] << "'";
  }
  script << "\n";
  script.close();
  run_gnuplot(script_path, png_path);
}

// The first learning ask's seconds against n, one line per dimension.
void plot_learning(const std::string& csv_path, const std::string& png_path,
                   const std::vector<std::string>& dimensions) {
  const std::string script_path = png_path + ".gp";
  std::ofstream script(script_path);
  write_plot_header(script, png_path, "first learning ask [s]",
                    "addbo: the ask that learns, default settings");
  for (std::size_t k = 0; k < dimensions.size(); ++k) {
    script << (k ? ", " : "") << "'" << csv_path << "' using 2:($1 == " << dimensions[k]
           << " ? $5 : NaN) with linespoints lw 2 title 'D = " << dimensions[k] << "'";
  }
  script << "\n";
  script.close();
  run_gnuplot(script_path, png_path);
}

double peak_resident_megabytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return NAN;
}

}  // namespace

int main(int argc, char** argv) {
  std::string cases_flag = "star10,chain50,chain100", sizes_flag = "100,250,500,1000,2000";
  std::string csv_path = "speed.csv", plot_path = "speed.png";
  std::string learning_cases_flag = "10x250,10x500,10x1000,30x250,30x500,60x300";
  std::string learning_csv_path = "learning.csv", learning_plot_path = "learning.png";
  int window = 21, threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::printf(
          "usage: speed [--cases star10,chain50,chain100] [--sizes 100,250,500,1000,2000]\n"
          "             [--window 21] [--threads 0] [--csv speed.csv] [--plot speed.png]\n"
          "             [--learning-cases 10x250,10x500,10x1000,30x250,30x500,60x300]\n"
          "             [--learning-csv learning.csv] [--learning-plot learning.png]\n"
          "Times ask+tell between relearns (fixed graph) and the first ask that learns with\n"
          "the default settings; prints tables, writes CSV and gnuplot PNGs.\n");
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "missing value after %s\n", flag.c_str());
      return 2;
    }
    const std::string value = argv[++i];
    if (flag == "--cases")
      cases_flag = value;
    else if (flag == "--sizes")
      sizes_flag = value;
    else if (flag == "--window")
      window = std::max(1, std::stoi(value));
    else if (flag == "--csv")
      csv_path = value;
    else if (flag == "--plot")
      plot_path = value;
    else if (flag == "--threads")
      threads = std::max(0, std::stoi(value));
    else if (flag == "--learning-cases")
      learning_cases_flag = value;
    else if (flag == "--learning-plot")
      learning_plot_path = value;
    else if (flag == "--learning-csv")
      learning_csv_path = value;
    else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 2;
    }
  }

  std::ofstream csv(csv_path);
  csv << "case,dimension,n,median_ms,p95_ms,peak_rss_mb\n";
  std::printf("%-10s %5s %6s %12s %12s %12s\n", "case", "D", "n", "median [ms]", "p95 [ms]",
              "peak RSS MB");
  for (const std::string& name : split(cases_flag)) {
    const Case c = make_case(name);
    nlohmann::json edges = nlohmann::json::array();
    for (const auto& [a, b] : c.edges) edges.push_back({a, b});
    const nlohmann::json config = {
        {"dimension", c.dimension},
        {"seed", 1},
        {"structure", {{"mode", "fixed"}, {"edges", edges}}},
        {"kernel", {{"lengthscales", std::vector<double>(c.dimension, 0.2)}}},
        // Every observation in the model, past the default cap of 2000 too: this table measures
        // how the cost grows with the model's size.
        {"limits", {{"threads", threads}, {"max_model_observations", 1000000}}}};
    addbo::core::Optimizer optimizer(addbo::core::parse_config(config));
    addbo::core::Space space(optimizer.config().variables);
    addbo::core::Random random(99);
    for (const std::string& size : split(sizes_flag)) {
      const std::size_t n = std::stoul(size);
      while (optimizer.observation_count() < n) {
        const std::vector<double> x = space.random_point(random);
        optimizer.tell(x, objective(c, x));
      }
      std::vector<double> milliseconds;
      for (int round = 0; round < window; ++round) {
        const auto start = std::chrono::steady_clock::now();
        const std::vector<double> x = optimizer.ask();
        optimizer.tell(x, objective(c, x));
        const auto stop = std::chrono::steady_clock::now();
        milliseconds.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
      }
      const double median = percentile(milliseconds, 0.5), p95 = percentile(milliseconds, 0.95);
      const double rss = peak_resident_megabytes();
      std::printf("%-10s %5d %6zu %12.3f %12.3f %12.1f\n", c.name.c_str(), c.dimension, n, median,
                  p95, rss);
      std::fflush(stdout);
      csv << c.name << ',' << c.dimension << ',' << n << ',' << median << ',' << p95 << ',' << rss
          << '\n';
    }
  }
  csv.close();
  std::printf("wrote %s\n", csv_path.c_str());
  if (!plot_path.empty()) plot_latency(csv_path, plot_path, split(cases_flag));
  std::printf("\n");

  std::ofstream learning_csv(learning_csv_path);
  learning_csv << "dimension,n,seconds,likelihood_evaluations,ask_seconds,edges\n";
  std::printf("%-10s %5s %6s %12s %12s %12s %6s\n", "learning", "D", "n", "seconds", "likelihoods",
              "ask seconds", "edges");
  std::vector<int> learning_dimensions;
  for (const std::string& item : split(learning_cases_flag)) {
    const std::size_t cross = item.find('x');
    if (cross == std::string::npos) {
      std::fprintf(stderr, "--learning-cases takes DxN items, got '%s'\n", item.c_str());
      return 2;
    }
    const int dimension = std::stoi(item.substr(0, cross));
    const std::size_t n = std::stoul(item.substr(cross + 1));
    if (std::find(learning_dimensions.begin(), learning_dimensions.end(), dimension) ==
        learning_dimensions.end()) {
      learning_dimensions.push_back(dimension);
    }
    const Case chain = make_case("chain" + std::to_string(dimension));
    const nlohmann::json config = {
        {"dimension", dimension}, {"seed", 1}, {"limits", {{"threads", threads}}}};
    addbo::core::Optimizer optimizer(addbo::core::parse_config(config));
    addbo::core::Space space(optimizer.config().variables);
    addbo::core::Random random(7);
    for (std::size_t i = 0; i < n; ++i) {
      const std::vector<double> x = space.random_point(random);
      optimizer.tell(x, objective(chain, x));
    }
    // The initial design is complete and nothing was learned yet: this ask learns first.
    const auto start = std::chrono::steady_clock::now();
    optimizer.ask();
    const double ask_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const nlohmann::json info = optimizer.info();
    const double seconds = info["seconds"].get<double>();
    const int evaluations = info["likelihood_evaluations"].get<int>();
    const std::size_t edges = info["edges"].size();
    std::printf("%-10s %5d %6zu %12.3f %12d %12.3f %6zu\n", "default", dimension, n, seconds,
                evaluations, ask_seconds, edges);
    std::fflush(stdout);
    learning_csv << dimension << ',' << n << ',' << seconds << ',' << evaluations << ','
                 << ask_seconds << ',' << edges << '\n';
  }
  learning_csv.close();
  if (!learning_plot_path.empty()) {
    std::vector<std::string> series;
    for (int dimension : learning_dimensions) series.push_back(std::to_string(dimension));
    plot_learning(learning_csv_path, learning_plot_path, series);
  }
  std::printf("wrote %s\n", learning_csv_path.c_str());
  return 0;
}
