// constrained_suite (issue 25): addbo's defaults on real objectives (outcome constraints,
// evaluations that fail, noise) through the public C++ wrapper only, against random search
// (which skips failures) and, with --peers, Optuna's TPE with constraints_func. Prints a table
// per problem, writes OUT/constrained_suite_trace.csv (the reported best after every
// evaluation), OUT/constrained_suite_runs.csv, OUT/tables.md and OUT/PROBLEM.png. See kUsage.
//
// What is scored is what each method reports as its best: the best feasible value told (the
// luckiest draw on a noisy problem) for random search and TPE; addbo's addbo_best, which on a
// noisy objective is the told point with the best posterior mean. Its true value (without noise)
// is the score.
#include <sys/wait.h>

#include <addbo/addbo.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "config_patch.hpp"
#include "output_files.hpp"
#include "problems.hpp"

#ifndef CONSTRAINED_SUITE_OPTUNA_DRIVER
#define CONSTRAINED_SUITE_OPTUNA_DRIVER "optuna_driver.py"
#endif

namespace cs = constrained_suite;
using addbo_examples::format_number;
using addbo_examples::integer_at_least;
using addbo_examples::open_output;
using addbo_examples::shell_quote;
using addbo_examples::split;

namespace {

const char* const kUsage = R"(usage: constrained_suite [options]
       constrained_suite --serve PROBLEM --noise-seed K    (for optuna_driver.py)

Runs addbo's defaults and random search (and with --peers Optuna's TPE with constraints_func)
on constrained engineering designs and additive problems with constraints, failures or noise;
prints a table per problem (the regret of the reported best feasible point, mean ± standard
error over the seeds, at 50/100/200 evaluations; the share of asks after addbo's initial design
that failed; asks in the grid cell of an earlier failure), and writes
OUT/constrained_suite_trace.csv, OUT/constrained_suite_runs.csv, OUT/tables.md, OUT/PROBLEM.png.

  --problems a,b      pressure_vessel, welded_beam, spring, speed_reducer,
                      additive30_constrained, additive20, additive20_failures,
                      additive20_noise0.1, additive20_noise0.5, additive20_noise1 (default:
                      these); failure geometries in 10 variables only when named: bowl10
                      (no failures), bowl10_edge, bowl10_slab, bowl10_holes
  --methods a,b       default, random, optuna-tpe (default: default, random)
  --peers             add optuna-tpe (needs /usr/bin/python3 with python3-optuna)
  --seeds N           seeds per method (default 10)
  --first-seed N      the seeds are N, N + 1, ... (default 1): a stream of seeds no figure was
                      measured on, to check a change against runs it was not chosen on
  --evaluations N     evaluations per run (default 200)
  --jobs N            runs in parallel (default 2); results do not depend on it
  --out DIR           output directory (default constrained_suite_out)
  --no-plots          skip gnuplot
  --help              this text

CONSTRAINED_SUITE_CONFIG_PATCH in the environment, for experiments with settings beyond the
defaults: a JSON merge patch (RFC 7386) applied to every addbo configuration, for example
'{"structure": {"mode": "fixed", "edges": [[0, 1], [0, 2], [1, 2]]}}'.
)";

struct Options {
  std::vector<std::string> problems = cs::problem_names();
  std::vector<std::string> methods = {"default", "random"};
  int seeds = 10;
  int first_seed = 1;
  int evaluations = 200;
  int jobs = 2;
  std::string out = "constrained_suite_out";
  bool plots = true;
  // CONSTRAINED_SUITE_CONFIG_PATCH (config_patch.hpp): merged into every addbo configuration.
  nlohmann::json config_patch = nlohmann::json::object();
};

// addbo's initial design: the asks that are not judged for failing.
constexpr int kInitialPoints = 10;

// One run's record: after every evaluation, the true value of the reported best feasible point
// (NaN while none is feasible); the failures after the initial design; asks in a failed cell.
struct Run {
  std::string problem, method;
  int seed = 0;
  std::vector<double> reported;
  int failures = 0, failures_after_design = 0, repeated_failed_cells = 0;
  double seconds = 0.0;
  std::string error;
};

// The grid cell of x as addbo's default grids see it: 32 points per continuous variable, every
// value of an integer one.
std::vector<long> grid_cell(const cs::Problem& problem, const std::vector<double>& x) {
  std::vector<long> cell;
  for (std::size_t d = 0; d < x.size(); ++d) {
    const cs::Variable& v = problem.variables[d];
    cell.push_back(v.integer ? std::lround(x[d])
                             : std::lround((x[d] - v.lower) / (v.upper - v.lower) * 31.0));
  }
  return cell;
}

// What a method reports as its best, and the bookkeeping every method shares.
class Record {
 public:
  Record(const cs::Problem& problem, Run& run) : problem_(problem), run_(run) {}

  // An evaluation of x with `outcome`; `reported` is the point the method reports as its best
  // afterwards (none: the best feasible value told).
  void add(const std::vector<double>& x, const cs::Outcome& outcome,
           const std::vector<double>* reported = nullptr) {
    const int t = static_cast<int>(run_.reported.size());
    const std::vector<long> cell = grid_cell(problem_, x);
    if (failed_cells_.count(cell) != 0) ++run_.repeated_failed_cells;
    if (outcome.failed) {
      ++run_.failures;
      if (t >= kInitialPoints) ++run_.failures_after_design;
      failed_cells_.insert(cell);
    } else if (problem_.feasible(outcome.constraints)) {
      const double told = problem_.minimize ? -outcome.value : outcome.value;
      if (!has_best_ || told > best_told_) {
        has_best_ = true;
        best_told_ = told;
        best_true_ = outcome.true_value;
      }
    }
    double score = has_best_ ? best_true_ : NAN;
    if (reported != nullptr) score = problem_.evaluate(*reported).value;  // without noise
    run_.reported.push_back(score);
  }

 private:
  const cs::Problem& problem_;
  Run& run_;
  std::set<std::vector<long>> failed_cells_;
  bool has_best_ = false;
  double best_told_ = 0.0, best_true_ = 0.0;
};

std::string addbo_config(const cs::Problem& problem, int seed, const nlohmann::json& patch) {
  using nlohmann::json;
  json variables = json::array();
  for (const cs::Variable& v : problem.variables) {
    json variable = {{"name", v.name}, {"lower", v.lower}, {"upper", v.upper}};
    if (v.integer) variable["type"] = "integer";
    variables.push_back(variable);
  }
  json constraints = json::array();
  for (const cs::Bound& b : problem.constraints) {
    json constraint = {{"name", b.name}};
    if (b.lower) constraint["lower"] = *b.lower;
    if (b.upper) constraint["upper"] = *b.upper;
    constraints.push_back(constraint);
  }
  // Only the problem and the seed (and the experiment's patch, empty by default); limits.threads
  // keeps parallel jobs off each other's cores.
  json config = {{"variables", variables},
                 {"goal", problem.minimize ? "minimize" : "maximize"},
                 {"seed", seed},
                 {"constraints", constraints},
                 {"limits", {{"threads", 1}}}};
  config.merge_patch(patch);
  return config.dump();
}

void run_addbo(const cs::Problem& problem, int evaluations, int seed,
               const nlohmann::json& config_patch, Run& run) {
  std::mt19937_64 noise(static_cast<std::uint64_t>(seed) * 7919u + 17u);
  Record record(problem, run);
  addbo::Optimizer optimizer(addbo_config(problem, seed, config_patch));
  const bool constrained = !problem.constraints.empty();
  using clock = std::chrono::steady_clock;
  clock::duration library{};
  for (int t = 0; t < evaluations; ++t) {
    auto start = clock::now();
    const std::vector<double> x = optimizer.ask();
    library += clock::now() - start;
    const cs::Outcome outcome = problem.outcome(x, noise);
    start = clock::now();
    if (outcome.failed) {
      optimizer.tell_failure(x);
    } else if (constrained) {
      optimizer.tell(x, outcome.value, outcome.constraints);
    } else {
      optimizer.tell(x, outcome.value);
    }
    // The best addbo reports now (none while nothing is feasible).
    std::vector<double> best;
    try {
      best = optimizer.best().x;
    } catch (const addbo::Error&) {
    }
    library += clock::now() - start;
    record.add(x, outcome, best.empty() ? nullptr : &best);
  }
  run.seconds = std::chrono::duration<double>(library).count();
}

void run_random(const cs::Problem& problem, int evaluations, int seed, Run& run) {
  std::mt19937_64 noise(static_cast<std::uint64_t>(seed) * 7919u + 17u);
  std::mt19937_64 draw(static_cast<std::uint64_t>(seed) * 104729u + 3u);
  Record record(problem, run);
  for (int t = 0; t < evaluations; ++t) {
    std::vector<double> x;
    for (const cs::Variable& v : problem.variables) {
      if (v.integer) {
        x.push_back(static_cast<double>(std::uniform_int_distribution<long>(
            static_cast<long>(v.lower), static_cast<long>(v.upper))(draw)));
      } else {
        x.push_back(std::uniform_real_distribution<double>(v.lower, v.upper)(draw));
      }
    }
    record.add(x, problem.outcome(x, noise));  // a failure is skipped: it only counts
  }
}

// Optuna's TPE through optuna_driver.py, which evaluates through `--serve` and prints every
// trial as "ok VALUE C1 ... | X1 ... XD" or "fail | X1 ... XD".
void run_optuna(const cs::Problem& problem, int evaluations, int seed, const std::string& self,
                const std::string& out, Run& run) {
  Record record(problem, run);
  const std::string log =
      out + "/logs/optuna-tpe_" + problem.name + "_" + std::to_string(seed) + ".log";
  std::ostringstream command;
  command << "/usr/bin/python3 " << shell_quote(CONSTRAINED_SUITE_OPTUNA_DRIVER)
          << " --evaluations " << evaluations << " --seed " << seed << " -- " << shell_quote(self)
          << " --serve " << shell_quote(problem.name) << " --noise-seed "
          << (static_cast<std::uint64_t>(seed) * 7919u + 17u) << " 2> " << shell_quote(log);
  const auto start = std::chrono::steady_clock::now();
  std::FILE* pipe = popen(command.str().c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start /usr/bin/python3");
  std::string line;
  for (int c; (c = std::fgetc(pipe)) != EOF;) {
    if (c != '\n') {
      line += static_cast<char>(c);
      continue;
    }
    const std::size_t bar = line.find('|');
    if (bar != std::string::npos && static_cast<int>(run.reported.size()) < evaluations) {
      std::istringstream reply(line.substr(0, bar)), point(line.substr(bar + 1));
      std::vector<double> x;
      for (double v; point >> v;) x.push_back(v);
      std::string status;
      reply >> status;
      cs::Outcome outcome = problem.evaluate(x);
      outcome.true_value = outcome.value;
      if (status == "ok") reply >> outcome.value;  // the noisy value the peer was told
      record.add(x, outcome);
    }
    line.clear();
  }
  const int status = pclose(pipe);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status != 0 || static_cast<int>(run.reported.size()) < evaluations) {
    throw std::runtime_error("the Optuna driver failed after " +
                             std::to_string(run.reported.size()) + " trials (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                             "); see " + log);
  }
}

// --serve: the problem's header as JSON, then for each line of numbers its outcome.
int serve(const std::string& name, std::uint64_t noise_seed) {
  const cs::Problem problem = cs::make_problem(name);
  std::mt19937_64 noise(noise_seed);
  nlohmann::json header = {{"minimize", problem.minimize},
                           {"constraints", problem.constraints.size()}};
  for (const cs::Variable& v : problem.variables) {
    header["variables"].push_back(
        {{"name", v.name}, {"lower", v.lower}, {"upper", v.upper}, {"integer", v.integer}});
  }
  std::printf("%s\n", header.dump().c_str());
  std::fflush(stdout);
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, stdin) != nullptr) {
    std::istringstream numbers(buffer);
    std::vector<double> x;
    for (double v; numbers >> v;) x.push_back(v);
    if (x.size() != problem.variables.size()) {
      std::fprintf(stderr, "--serve: a line has %zu numbers, not %zu\n", x.size(),
                   problem.variables.size());
      return 1;
    }
    const cs::Outcome outcome = problem.outcome(x, noise);
    if (outcome.failed) {
      std::printf("fail\n");
    } else {
      std::printf("ok %.17g", outcome.value);
      for (double c : outcome.constraints) std::printf(" %.17g", c);
      std::printf("\n");
    }
    std::fflush(stdout);
  }
  return 0;
}

struct Summary {
  double mean = NAN, error = NAN;
  int count = 0;
};

// Mean and standard error of the regrets at evaluation t, over the runs that have a feasible
// point by then (`count` of them).
Summary summarise(const cs::Problem& problem, const std::vector<const Run*>& runs, int t) {
  std::vector<double> regrets;
  for (const Run* run : runs) {
    if (static_cast<int>(run->reported.size()) >= t && std::isfinite(run->reported[t - 1])) {
      regrets.push_back(problem.regret(run->reported[t - 1]));
    }
  }
  Summary s;
  s.count = static_cast<int>(regrets.size());
  if (regrets.empty()) return s;
  double sum = 0.0;
  for (double r : regrets) sum += r;
  s.mean = sum / s.count;
  double squares = 0.0;
  for (double r : regrets) squares += (r - s.mean) * (r - s.mean);
  s.error = s.count > 1 ? std::sqrt(squares / (s.count - 1) / s.count) : 0.0;
  return s;
}

std::string cell(const Summary& s, int runs) {
  if (s.count == 0) return "none feasible";
  std::string text = format_number(s.mean, 4) + " ± " + format_number(s.error, 2);
  if (s.count < runs) text += " (" + std::to_string(s.count) + " feasible)";
  return text;
}

void plot(const cs::Problem& problem, const std::vector<std::string>& methods,
          const std::string& out) {
  const std::string csv = out + "/constrained_suite_trace.csv";
  const std::string script = out + "/" + problem.name + ".gp";
  std::ofstream gp = open_output(script);
  gp << "set terminal pngcairo size 800,500\nset output '" << out << "/" << problem.name
     << ".png'\nset title '" << problem.name << ": regret of the reported best (mean over seeds)'\n"
     << "set xlabel 'evaluations'\nset ylabel 'regret'\nset logscale y\nset datafile separator "
        "','\n"
     << "plot ";
  for (std::size_t m = 0; m < methods.size(); ++m) {
    gp << (m ? ", " : "") << "'< awk -F, \"\\$1==\\\"" << problem.name << "\\\" && \\$2==\\\""
       << methods[m] << "\\\"\" " << csv << "' using 4:7 smooth unique with lines lw 2 title '"
       << methods[m] << "'";
  }
  gp << "\n";
  gp.close();
  if (std::system(("gnuplot " + shell_quote(script) + " 2> /dev/null").c_str()) != 0) {
    std::fprintf(stderr, "gnuplot failed for %s (is gnuplot-nox installed?)\n",
                 problem.name.c_str());
  }
}

int run_suite(const Options& options, const std::string& self) {
  std::filesystem::create_directories(options.out + "/logs");
  struct Job {
    std::string problem, method;
    int seed;
  };
  std::vector<Job> jobs;
  for (const std::string& problem : options.problems) {
    for (const std::string& method : options.methods) {
      for (int k = 0; k < options.seeds; ++k) {
        jobs.push_back({problem, method, options.first_seed + k});
      }
    }
  }
  std::vector<Run> runs(jobs.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  const auto started = std::chrono::steady_clock::now();
  const auto worker = [&] {
    for (std::size_t k; (k = next++) < jobs.size();) {
      const Job& job = jobs[k];
      Run& run = runs[k];
      run.problem = job.problem;
      run.method = job.method;
      run.seed = job.seed;
      const cs::Problem problem = cs::make_problem(job.problem);
      try {
        if (job.method == "default") {
          run_addbo(problem, options.evaluations, job.seed, options.config_patch, run);
        } else if (job.method == "random") {
          run_random(problem, options.evaluations, job.seed, run);
        } else {
          run_optuna(problem, options.evaluations, job.seed, self, options.out, run);
        }
      } catch (const std::exception& error) {
        run.error = error.what();
      }
      const std::lock_guard<std::mutex> lock(print);
      const double final_value = run.reported.empty() ? NAN : run.reported.back();
      std::printf("[%3zu/%zu] %-24s %-10s seed %2d: regret %s, %d failed (%.1f s)%s%s\n", k + 1,
                  jobs.size(), job.problem.c_str(), job.method.c_str(), job.seed,
                  format_number(problem.regret(final_value), 4).c_str(), run.failures, run.seconds,
                  run.error.empty() ? "" : ": ", run.error.c_str());
      std::fflush(stdout);
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < options.jobs; ++i) threads.emplace_back(worker);
  for (std::thread& thread : threads) thread.join();

  std::ofstream trace = open_output(options.out + "/constrained_suite_trace.csv");
  trace << "problem,method,seed,evaluation,reported_true_value,feasible,regret\n";
  std::ofstream summary = open_output(options.out + "/constrained_suite_runs.csv");
  summary << "problem,method,seed,status,seconds,failures,failures_after_design,"
             "repeated_failed_cells,final_regret,message\n";
  for (const Run& run : runs) {
    const cs::Problem problem = cs::make_problem(run.problem);
    for (std::size_t t = 0; t < run.reported.size(); ++t) {
      const double value = run.reported[t];
      trace << run.problem << ',' << run.method << ',' << run.seed << ',' << t + 1 << ','
            << format_number(value, 10) << ',' << (std::isfinite(value) ? 1 : 0) << ','
            << format_number(problem.regret(value), 10) << '\n';
    }
    const double final_value = run.reported.empty() ? NAN : run.reported.back();
    summary << run.problem << ',' << run.method << ',' << run.seed << ','
            << (run.error.empty() ? "ok" : "failed") << ',' << format_number(run.seconds, 4) << ','
            << run.failures << ',' << run.failures_after_design << ',' << run.repeated_failed_cells
            << ',' << format_number(problem.regret(final_value), 10) << ",\"" << run.error
            << "\"\n";
  }
  trace.close();
  summary.close();

  std::ofstream tables = open_output(options.out + "/tables.md");
  for (const std::string& name : options.problems) {
    const cs::Problem problem = cs::make_problem(name);
    std::ostringstream table;
    table << "### " << name << ": " << problem.description << ", " << options.seeds << " seeds";
    if (options.first_seed != 1) table << " (from " << options.first_seed << ")";
    table << "\n\n| method | regret @50 | regret @100 | regret @" << options.evaluations
          << " | failed after design | asks in a failed cell | s/run "
             "|\n|---|---|---|---|---|---|---|\n";
    for (const std::string& method : options.methods) {
      std::vector<const Run*> chosen;
      int failures = 0, repeats = 0;
      double seconds = 0.0;
      for (const Run& run : runs) {
        if (run.problem != name || run.method != method || !run.error.empty()) continue;
        chosen.push_back(&run);
        failures += run.failures_after_design;
        repeats += run.repeated_failed_cells;
        seconds += run.seconds;
      }
      if (chosen.empty()) continue;
      const int judged = static_cast<int>(chosen.size()) * (options.evaluations - kInitialPoints);
      table << "| " << method;
      for (int t : {50, 100, options.evaluations}) {
        table << " | "
              << cell(summarise(problem, chosen, std::min(t, options.evaluations)),
                      static_cast<int>(chosen.size()));
      }
      table << " | " << format_number(100.0 * failures / std::max(1, judged), 3) << "% | "
            << repeats << " | " << format_number(seconds / static_cast<double>(chosen.size()), 3)
            << " |\n";
    }
    table << "\n";
    std::printf("\n%s", table.str().c_str());
    tables << table.str();
    if (options.plots) plot(problem, options.methods, options.out);
  }
  std::printf(
      "wrote %s/constrained_suite_trace.csv, constrained_suite_runs.csv and tables.md "
      "(%.0f s)\n",
      options.out.c_str(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options options;
    std::string serve_problem;
    std::uint64_t noise_seed = 0;
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      const auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
        return argv[++i];
      };
      if (flag == "--help") {
        std::printf("%s", kUsage);
        return 0;
      } else if (flag == "--serve") {
        serve_problem = value();
      } else if (flag == "--noise-seed") {
        noise_seed = std::stoull(value());
      } else if (flag == "--problems") {
        options.problems = split(value());
        for (const std::string& name : options.problems) cs::make_problem(name);
      } else if (flag == "--methods") {
        options.methods = split(value());
        for (const std::string& method : options.methods) {
          if (method != "default" && method != "random" && method != "optuna-tpe") {
            throw std::invalid_argument("--methods: unknown method " + method);
          }
        }
      } else if (flag == "--peers") {
        if (std::find(options.methods.begin(), options.methods.end(), "optuna-tpe") ==
            options.methods.end()) {
          options.methods.push_back("optuna-tpe");
        }
      } else if (flag == "--seeds") {
        options.seeds = integer_at_least(flag, value(), 1);
      } else if (flag == "--first-seed") {
        options.first_seed = integer_at_least(flag, value(), 1);
      } else if (flag == "--evaluations") {
        options.evaluations = integer_at_least(flag, value(), 1);
      } else if (flag == "--jobs") {
        options.jobs = integer_at_least(flag, value(), 1);
      } else if (flag == "--out") {
        options.out = value();
      } else if (flag == "--no-plots") {
        options.plots = false;
      } else {
        throw std::invalid_argument("unknown option " + flag + " (see --help)");
      }
    }
    addbo_examples::check_seed_range(options.first_seed, options.seeds);
    if (!serve_problem.empty()) return serve(serve_problem, noise_seed);
    options.config_patch =
        addbo_examples::config_patch_from_environment("CONSTRAINED_SUITE_CONFIG_PATCH");
    return run_suite(options, std::filesystem::canonical("/proc/self/exe").string());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "constrained_suite: %s\n", error.what());
    return 1;
  }
}
