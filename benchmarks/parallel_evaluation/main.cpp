// parallel_evaluation (issue 12): what keeping k evaluations in flight with ask/tell costs in
// regret and gains in wall-clock time, through the public C++ wrapper only. See kUsage.
//
// Regret is measured on a simulated clock, so that it is reproducible: every evaluation takes a
// random duration (uniform on [0.5, 1.5] mean durations, drawn from its own seeded stream, the
// same for every k; --durations equal makes them all 1), the k points in flight finish in the order
// of their end times, and each is told when it finishes and replaced by a new ask at once. k = 1 is
// the sequential loop. Regret after n evaluations is that of the best of the first n values told,
// so every k is compared at equal evaluation counts.
//
// The speed-up is measured on the real clock: a pool of k threads, each sleeping a fixed time per
// evaluation (the stand-in for an expensive objective), fed by this thread, which makes every
// ask and tell. The library's time stays on the critical path (one thread asks and tells), so
// the speed-up is below k when an evaluation is short against an ask; --sleep 1 measures the
// issue's 1-second objective itself.
//
// The function instances and optimizer seeds are hd_suite's (same base seed, same streams), so
// k = 1 is hd_suite's "default" method.
#include <addbo/addbo.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "hd_suite/functions.hpp"
#include "hd_suite/run_result.hpp"
#include "output_files.hpp"
#include "seeded_random.hpp"

namespace hs = hd_suite;
namespace ps = paper_synthetic;
using addbo_examples::format_number;
using addbo_examples::integer_at_least;
using addbo_examples::open_output;
using addbo_examples::shell_quote;
using addbo_examples::split;

namespace {

const char* const kUsage = R"(usage: parallel_evaluation [options]

Runs addbo (default settings) with k evaluations in flight through ask/tell and reports
  regret   the regret of the best value after 50/100/200 evaluations (mean ± standard error over
           the seeds) for each k, and its ratio to k = 1: the price of not waiting for every
           value before the next ask. Simulated clock (reproducible): evaluation times uniform
           on [0.5, 1.5] (--durations), each value told as soon as its evaluation ends, then
           the next ask; and the wall-clock time of each ask made with k - 1 others pending
           (median and maximum over the runs);
  speed    the wall-clock time of a run whose objective sleeps --sleep seconds per evaluation,
           on a pool of k threads, and the speed-up over k = 1.
Writes OUT/parallel_evaluation_trace.csv (every evaluation), OUT/parallel_evaluation_speed.csv,
OUT/tables.md and OUT/parallel_evaluation.png (gnuplot: mean regret against evaluations).

  --functions a,b       hd_suite functions (default rosenbrock20,tree30): rosenbrock20,
                        rosenbrock40, tree30, lattice30, styblinski50, hartmann30, ackley20
  --in-flight a,b       evaluations in flight (default 1,4,8); 1 is always added
  --seeds N             seeds (function instances and optimizer seeds) (default 5)
  --evaluations N       evaluations per run (default 200)
  --jobs N              regret runs in parallel (default 2); results do not depend on it
  --threads N           addbo's limits.threads (default 1; 0 = all cores)
  --seed N              base seed, as hd_suite's (default 1)
  --durations D         random (default): evaluation times uniform on [0.5, 1.5]; equal:
                        all 1, so that evaluations finish in the order they were asked
  --sleep S             seconds each evaluation sleeps in the speed measurement (default 0.05)
  --speed-evaluations N evaluations per speed run (default 200)
  --speed-function F    function of the speed runs (default: the first of --functions)
  --no-speed            skip the speed measurement
  --no-regret           skip the regret runs
  --out DIR             output directory (default parallel_evaluation_out)
  --no-plots            skip gnuplot
  --help                this text
)";

struct Options {
  std::vector<std::string> functions = {"rosenbrock20", "tree30"};
  std::vector<int> in_flight = {1, 4, 8};
  int seeds = 5;
  int evaluations = 200;
  int jobs = 2;
  int threads = 1;
  std::uint64_t seed = 1;
  bool equal_durations = false;
  double sleep = 0.05;
  int speed_evaluations = 200;
  std::string speed_function;
  bool speed = true, regret = true, plots = true, help = false;
  std::string out = "parallel_evaluation_out";
};

Options parse_options(int argc, char** argv) {
  Options options;
  static const char* const kValueFlags[] = {
      "--functions", "--in-flight",         "--seeds",          "--evaluations",
      "--jobs",      "--threads",           "--seed",           "--sleep",
      "--out",       "--speed-evaluations", "--speed-function", "--durations"};
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      options.help = true;
    } else if (flag == "--no-speed") {
      options.speed = false;
    } else if (flag == "--no-regret") {
      options.regret = false;
    } else if (flag == "--no-plots") {
      options.plots = false;
    } else if (std::find_if(std::begin(kValueFlags), std::end(kValueFlags),
                            [&](const char* f) { return flag == f; }) != std::end(kValueFlags)) {
      if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
      const std::string value = argv[++i];
      if (flag == "--functions") {
        options.functions = split(value);
        for (const std::string& name : options.functions) {
          if (!hs::is_function_name(name)) throw std::invalid_argument("unknown function " + name);
        }
        if (options.functions.empty()) throw std::invalid_argument("--functions is empty");
      } else if (flag == "--in-flight") {
        options.in_flight.clear();
        for (const std::string& part : split(value)) {
          options.in_flight.push_back(integer_at_least(flag, part, 1));
        }
      } else if (flag == "--seeds") {
        options.seeds = integer_at_least(flag, value, 1);
      } else if (flag == "--evaluations") {
        options.evaluations = integer_at_least(flag, value, 1);
      } else if (flag == "--jobs") {
        options.jobs = integer_at_least(flag, value, 1);
      } else if (flag == "--threads") {
        options.threads = integer_at_least(flag, value, 0);
      } else if (flag == "--seed") {
        options.seed = std::stoull(value);
      } else if (flag == "--sleep") {
        std::size_t used = 0;
        options.sleep = std::stod(value, &used);
        if (used != value.size() || !(options.sleep > 0.0)) {
          throw std::invalid_argument("--sleep needs a positive number of seconds");
        }
      } else if (flag == "--speed-evaluations") {
        options.speed_evaluations = integer_at_least(flag, value, 1);
      } else if (flag == "--speed-function") {
        if (!hs::is_function_name(value)) throw std::invalid_argument("unknown function " + value);
        options.speed_function = value;
      } else if (flag == "--durations") {
        if (value != "random" && value != "equal") {
          throw std::invalid_argument("--durations is random or equal (got '" + value + "')");
        }
        options.equal_durations = value == "equal";
      } else if (flag == "--out") {
        options.out = value;
      }
    } else {
      throw std::invalid_argument("unknown option " + flag);
    }
  }
  // k = 1 is the reference every ratio and speed-up is taken against.
  options.in_flight.push_back(1);
  std::sort(options.in_flight.begin(), options.in_flight.end());
  options.in_flight.erase(std::unique(options.in_flight.begin(), options.in_flight.end()),
                          options.in_flight.end());
  if (options.speed_function.empty()) options.speed_function = options.functions.front();
  return options;
}

// hd_suite's streams (its main.cpp), so that the instances and the optimizer seeds are its own;
// kDuration is this benchmark's evaluation times.
enum Stream : std::uint64_t { kInstance = 1, kOptimizer = 2, kDuration = 3 };

std::uint64_t stream_seed(const Options& options, const std::string& function, int seed,
                          Stream stream) {
  return ps::derive_seed({options.seed, static_cast<std::uint64_t>(hs::function_index(function)),
                          static_cast<std::uint64_t>(seed), stream});
}

// hd_suite's default method: only the variables, the goal and the seed (below 2^53, exact in any
// JSON reader), plus limits.threads so that parallel jobs do not compete for the cores.
std::string default_config(const hs::FunctionInstance& function, std::uint64_t seed, int threads) {
  nlohmann::json variables = nlohmann::json::array();
  for (int d = 0; d < function.dimension; ++d) {
    variables.push_back({{"lower", function.lower}, {"upper", function.upper}});
  }
  return nlohmann::json{
      {"variables", variables},
      {"goal", function.direction == hs::Direction::minimize ? "minimize" : "maximize"},
      {"seed", seed >> 11},
      {"limits", {{"threads", threads}}}}
      .dump();
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---------------------------------------------------------------------------------------------
// Regret at equal evaluation counts (simulated clock).

struct RegretRun {
  std::string function;
  int in_flight = 1;
  int seed = 0;
  hs::RunResult result;
  double makespan = 0.0;  // simulated time to the last value, in mean evaluation durations
  // Wall-clock seconds of each ask made once the run is full: with k - 1 other points pending,
  // the cost a host pays for every new point while k stay in flight.
  std::vector<double> full_ask_seconds;
};

void run_simulated(const hs::FunctionInstance& function, const Options& options, RegretRun& run) {
  // The evaluations in flight, earliest end first; ties (none in practice) by asking order.
  using InFlight = std::tuple<double, int, std::vector<double>>;
  auto later = [](const InFlight& a, const InFlight& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) > std::tie(std::get<0>(b), std::get<1>(b));
  };
  std::priority_queue<InFlight, std::vector<InFlight>, decltype(later)> running(later);
  ps::SeededRandom durations(stream_seed(options, run.function, run.seed, kDuration));
  Clock::duration library{};
  try {
    addbo::Optimizer optimizer(default_config(
        function, stream_seed(options, run.function, run.seed, kOptimizer), options.threads));
    hs::RegretTrace trace(function, run.result);
    double now = 0.0;
    int asked = 0;
    auto ask = [&]() {
      const auto before = Clock::now();
      std::vector<double> x = optimizer.ask();
      const auto took = Clock::now() - before;
      library += took;
      if (asked >= run.in_flight) {
        run.full_ask_seconds.push_back(std::chrono::duration<double>(took).count());
      }
      const double duration = options.equal_durations ? 1.0 : 0.5 + durations.uniform();
      running.emplace(now + duration, asked++, std::move(x));
    };
    while (asked < run.in_flight && asked < options.evaluations) ask();
    for (int told = 0; told < options.evaluations; ++told) {
      InFlight next = running.top();
      running.pop();
      now = std::get<0>(next);
      const std::vector<double>& x = std::get<2>(next);
      const double y = function.evaluate(x);
      const auto before = Clock::now();
      optimizer.tell(x, y);
      library += Clock::now() - before;
      trace.add(y);
      if (asked < options.evaluations) ask();
    }
    run.makespan = now;
  } catch (const addbo::Error& error) {
    run.result.status = hs::RunStatus::failed;
    run.result.message = std::string(error.status_name()) + ": " + error.what();
  } catch (const std::exception& error) {
    run.result.status = hs::RunStatus::failed;
    run.result.message = error.what();
  }
  run.result.seconds = std::chrono::duration<double>(library).count();
}

struct Summary {
  std::string function;
  int in_flight = 1;
  int runs = 0, succeeded = 0;
  std::vector<double> mean, standard_error;  // regret after each evaluation
  double makespan = 0.0, seconds = 0.0;      // means
  double ask_median = 0.0, ask_max = 0.0;    // seconds of the asks with k - 1 others pending
};

std::pair<double, double> mean_and_error(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  double sum = 0.0, squares = 0.0;
  for (double v : values) sum += v;
  const double mean = sum / n;
  for (double v : values) squares += (v - mean) * (v - mean);
  return {mean, n > 1 ? std::sqrt(squares / (n - 1) / n) : 0.0};
}

Summary summarise(const std::vector<RegretRun>& runs, const std::string& function, int in_flight) {
  Summary summary;
  summary.function = function;
  summary.in_flight = in_flight;
  std::vector<const RegretRun*> ok;
  for (const RegretRun& run : runs) {
    if (run.function != function || run.in_flight != in_flight) continue;
    ++summary.runs;
    if (run.result.status == hs::RunStatus::ok) ok.push_back(&run);
  }
  summary.succeeded = static_cast<int>(ok.size());
  if (ok.empty()) return summary;
  std::size_t length = ok.front()->result.regret.size();
  for (const RegretRun* run : ok) length = std::min(length, run->result.regret.size());
  for (std::size_t t = 0; t < length; ++t) {
    std::vector<double> column;
    for (const RegretRun* run : ok) column.push_back(run->result.regret[t]);
    const auto [mean, error] = mean_and_error(column);
    summary.mean.push_back(mean);
    summary.standard_error.push_back(error);
  }
  std::vector<double> makespans, seconds;
  for (const RegretRun* run : ok) {
    makespans.push_back(run->makespan);
    seconds.push_back(run->result.seconds);
  }
  summary.makespan = mean_and_error(makespans).first;
  summary.seconds = mean_and_error(seconds).first;
  std::vector<double> asks;
  for (const RegretRun* run : ok) {
    asks.insert(asks.end(), run->full_ask_seconds.begin(), run->full_ask_seconds.end());
  }
  if (!asks.empty()) {
    std::sort(asks.begin(), asks.end());
    summary.ask_median = asks[asks.size() / 2];
    summary.ask_max = asks.back();
  }
  return summary;
}

std::vector<int> checkpoints(int evaluations) {
  std::vector<int> points;
  for (int t : {50, 100, 200}) {
    if (t < evaluations) points.push_back(t);
  }
  points.push_back(evaluations);
  return points;
}

std::string mean_with_error(double mean, double standard_error) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g ± %.2g", mean, standard_error);
  return text;
}

std::string fixed(double value, int decimals) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string regret_table(const hs::FunctionInstance& function,
                         const std::vector<Summary>& summaries, const Options& options) {
  const std::vector<int> points = checkpoints(options.evaluations);
  std::ostringstream table;
  table << "### " << function.name << ": " << function.description << "\n\n| in flight | runs |";
  for (int t : points) table << " regret @" << t << " |";
  table << " ratio to k = 1 @" << options.evaluations
        << " | simulated time | library s/run | ask ms, k − 1 pending (median / max) |\n|---|---|";
  for (std::size_t i = 0; i < points.size() + 4; ++i) table << "---|";
  table << '\n';
  const Summary* sequential = nullptr;
  for (const Summary& s : summaries) {
    if (s.function == function.name && s.in_flight == 1 && s.succeeded > 0) sequential = &s;
  }
  for (const Summary& s : summaries) {
    if (s.function != function.name) continue;
    table << "| " << s.in_flight << " | " << s.succeeded << '/' << s.runs << " |";
    for (int t : points) {
      table << ' '
            << (static_cast<std::size_t>(t) <= s.mean.size()
                    ? mean_with_error(s.mean[t - 1], s.standard_error[t - 1])
                    : std::string("–"))
            << " |";
    }
    const std::size_t last = static_cast<std::size_t>(options.evaluations);
    if (sequential && s.mean.size() >= last && sequential->mean.size() >= last &&
        sequential->mean[last - 1] > 0.0) {
      table << ' ' << fixed(s.mean[last - 1] / sequential->mean[last - 1], 2) << " |";
    } else {
      table << " – |";
    }
    table << ' ' << fixed(s.makespan, 1) << " | " << fixed(s.seconds, 2) << " | "
          << fixed(s.ask_median * 1e3, 1) << " / " << fixed(s.ask_max * 1e3, 1) << " |\n";
  }
  return table.str();
}

std::vector<RegretRun> run_regret(const Options& options,
                                  const std::vector<hs::FunctionInstance>& instances) {
  std::vector<RegretRun> runs;
  for (std::size_t f = 0; f < options.functions.size(); ++f) {
    for (int k : options.in_flight) {
      for (int seed = 0; seed < options.seeds; ++seed) {
        RegretRun run;
        run.function = options.functions[f];
        run.in_flight = k;
        run.seed = seed;
        runs.push_back(run);
      }
    }
  }
  // Every run is independent and reproducible on its own, so the jobs may go in any order.
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex print;
  const auto start = Clock::now();
  auto worker = [&]() {
    for (std::size_t i = next++; i < runs.size(); i = next++) {
      RegretRun& run = runs[i];
      const std::size_t f = static_cast<std::size_t>(
          std::find(options.functions.begin(), options.functions.end(), run.function) -
          options.functions.begin());
      run_simulated(instances[f * options.seeds + run.seed], options, run);
      std::lock_guard<std::mutex> lock(print);
      std::printf("[%3zu/%zu %6.1f s] %s k=%d seed %d: %s\n", ++done, runs.size(),
                  seconds_since(start), run.function.c_str(), run.in_flight, run.seed,
                  run.result.status == hs::RunStatus::ok
                      ? ("regret " + format_number(run.result.regret.back(), 4)).c_str()
                      : run.result.message.c_str());
      std::fflush(stdout);
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < options.jobs; ++j) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();
  return runs;
}

// ---------------------------------------------------------------------------------------------
// Wall-clock speed-up (real threads).

// Points handed to the pool, and values handed back; closed when the run ends.
template <typename T>
class Channel {
 public:
  void push(T item) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      items_.push_back(std::move(item));
    }
    ready_.notify_one();
  }
  // False once closed and empty.
  bool pop(T& item) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return closed_ || !items_.empty(); });
    if (items_.empty()) return false;
    item = std::move(items_.front());
    items_.pop_front();
    return true;
  }
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<T> items_;
  bool closed_ = false;
};

struct SpeedRun {
  int in_flight = 1;
  double wall = 0.0, library = 0.0;  // seconds
  std::string error;
};

SpeedRun run_speed(const hs::FunctionInstance& function, const Options& options, int in_flight) {
  SpeedRun run;
  run.in_flight = in_flight;
  struct Evaluated {
    std::vector<double> x;
    double y = 0.0;
  };
  Channel<std::vector<double>> points;
  Channel<Evaluated> values;
  const auto sleep = std::chrono::duration<double>(options.sleep);
  auto worker = [&]() {
    std::vector<double> x;
    while (points.pop(x)) {
      std::this_thread::sleep_for(sleep);  // the expensive objective
      values.push({x, function.evaluate(x)});
    }
  };
  std::vector<std::thread> pool;
  for (int i = 0; i < in_flight; ++i) pool.emplace_back(worker);
  Clock::duration library{};
  const auto start = Clock::now();
  try {
    addbo::Optimizer optimizer(default_config(
        function, stream_seed(options, function.name, 0, kOptimizer), options.threads));
    int asked = 0;
    auto ask = [&]() {
      const auto before = Clock::now();
      points.push(optimizer.ask());
      library += Clock::now() - before;
      ++asked;
    };
    while (asked < in_flight && asked < options.speed_evaluations) ask();
    for (int told = 0; told < options.speed_evaluations; ++told) {
      Evaluated done;
      values.pop(done);
      const auto before = Clock::now();
      optimizer.tell(done.x, done.y);
      library += Clock::now() - before;
      if (asked < options.speed_evaluations) ask();
    }
  } catch (const std::exception& error) {
    run.error = error.what();
  }
  run.wall = seconds_since(start);
  run.library = std::chrono::duration<double>(library).count();
  points.close();
  for (std::thread& thread : pool) thread.join();
  return run;
}

std::string speed_table(const std::vector<SpeedRun>& runs, const Options& options) {
  std::ostringstream table;
  table << "### Wall-clock speed-up: " << options.speed_function << ", "
        << options.speed_evaluations << " evaluations of " << format_number(options.sleep, 4)
        << " s each (sleep)\n\n"
        << "| in flight | wall s | speed-up | ideal | library s |\n|---|---|---|---|---|\n";
  const double sequential = runs.front().wall;
  for (const SpeedRun& run : runs) {
    table << "| " << run.in_flight << " | ";
    if (!run.error.empty()) {
      table << "failed: " << run.error << " | | | |\n";
      continue;
    }
    table << fixed(run.wall, 2) << " | " << fixed(sequential / run.wall, 2) << " | "
          << run.in_flight << " | " << fixed(run.library, 2) << " |\n";
  }
  return table.str();
}

// ---------------------------------------------------------------------------------------------
// Outputs.

void write_trace_csv(const std::string& path, const std::vector<RegretRun>& runs) {
  std::ofstream out = open_output(path);
  out << "function,in_flight,seed,evaluation,value,regret\n";
  for (const RegretRun& run : runs) {
    if (run.result.status != hs::RunStatus::ok) continue;
    for (std::size_t i = 0; i < run.result.values.size(); ++i) {
      out << run.function << ',' << run.in_flight << ',' << run.seed << ',' << i + 1 << ','
          << format_number(run.result.values[i], 10) << ','
          << format_number(run.result.regret[i], 10) << '\n';
    }
  }
}

void write_speed_csv(const std::string& path, const std::vector<SpeedRun>& runs,
                     const Options& options) {
  std::ofstream out = open_output(path);
  out << "function,in_flight,sleep,evaluations,wall_seconds,library_seconds,speedup\n";
  for (const SpeedRun& run : runs) {
    if (!run.error.empty()) continue;
    out << options.speed_function << ',' << run.in_flight << ',' << format_number(options.sleep, 10)
        << ',' << options.speed_evaluations << ',' << format_number(run.wall, 6) << ','
        << format_number(run.library, 6) << ',' << format_number(runs.front().wall / run.wall, 4)
        << '\n';
  }
}

// parallel_evaluation.png: one panel per function, mean regret against evaluations (log y), one
// line per k. Returns false (after saying why on stderr) when gnuplot is missing or fails.
bool write_plot(const std::string& directory, const std::vector<hs::FunctionInstance>& functions,
                const std::vector<Summary>& summaries) {
  std::ofstream script = open_output(directory + "/parallel_evaluation.gp");
  script << "# Generated by parallel_evaluation: mean regret over the seeds against evaluations.\n"
         << "set terminal pngcairo size " << 600 * functions.size() << ",480 font 'Sans,11'\n"
         << "set output 'parallel_evaluation.png'\n"
         << "set xlabel 'evaluations told'\nset ylabel 'regret of the best value (mean)'\n"
         << "set logscale y\nset grid\nset key top right\n"
         << "set multiplot layout 1," << functions.size() << "\n";
  for (const hs::FunctionInstance& function : functions) {
    const std::string data = function.name + "_parallel.dat";
    std::ofstream out = open_output(directory + "/" + data);
    std::vector<int> drawn;
    for (const Summary& s : summaries) {
      if (s.function != function.name || s.succeeded == 0) continue;
      out << "# k = " << s.in_flight << ": evaluation mean_regret standard_error\n";
      for (std::size_t t = 0; t < s.mean.size(); ++t) {
        out << t + 1 << ' ' << format_number(s.mean[t], 10) << ' '
            << format_number(s.standard_error[t], 10) << '\n';
      }
      out << "\n\n";
      drawn.push_back(s.in_flight);
    }
    if (drawn.empty()) continue;
    script << "set title \"" << function.name << "\" noenhanced\nplot ";
    for (std::size_t block = 0; block < drawn.size(); ++block) {
      script << (block ? ", \\\n     " : "") << "'" << data << "' index " << block
             << " using 1:2 with lines lw 2 title 'k = " << drawn[block] << "'";
    }
    script << '\n';
  }
  script << "unset multiplot\n";
  script.close();
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) {
    std::fprintf(stderr,
                 "gnuplot not found: no plot (the CSV and %s/parallel_evaluation.gp are "
                 "written)\n",
                 directory.c_str());
    return false;
  }
  // A regret of exactly 0 has no place on a log axis; gnuplot skips it (and says so on stderr).
  const std::string command =
      "cd " + shell_quote(directory) + " && gnuplot parallel_evaluation.gp 2> gnuplot.log";
  if (std::system(command.c_str()) != 0) {
    std::fprintf(stderr, "gnuplot failed on %s/parallel_evaluation.gp (see gnuplot.log)\n",
                 directory.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "parallel_evaluation: %s\n%s", error.what(), kUsage);
    return 2;
  }
  if (options.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  try {
    std::filesystem::create_directories(options.out);
    std::string tables;
    bool failed = false;

    if (options.regret) {
      std::vector<hs::FunctionInstance> instances;
      for (const std::string& name : options.functions) {
        for (int seed = 0; seed < options.seeds; ++seed) {
          instances.push_back(hs::make_function(name, stream_seed(options, name, seed, kInstance)));
        }
      }
      std::printf("regret: %zu functions x %zu values of k x %d seeds, %d evaluations, %d jobs\n",
                  options.functions.size(), options.in_flight.size(), options.seeds,
                  options.evaluations, options.jobs);
      const std::vector<RegretRun> runs = run_regret(options, instances);
      std::vector<Summary> summaries;
      for (const std::string& name : options.functions) {
        for (int k : options.in_flight) summaries.push_back(summarise(runs, name, k));
      }
      tables += "## Regret at equal evaluation counts (mean ± standard error over " +
                std::to_string(options.seeds) + " seeds; " +
                (options.equal_durations ? "equal evaluation times"
                                         : "evaluation times uniform on [0.5, 1.5]") +
                "; simulated time in mean evaluation durations)\n\n";
      std::vector<hs::FunctionInstance> shown;
      for (std::size_t f = 0; f < options.functions.size(); ++f) {
        shown.push_back(instances[f * options.seeds]);
        tables += regret_table(instances[f * options.seeds], summaries, options) + "\n";
      }
      for (const RegretRun& run : runs) {
        if (run.result.status != hs::RunStatus::ok) {
          failed = true;
          tables += "Failed: " + run.function + " k=" + std::to_string(run.in_flight) + " seed " +
                    std::to_string(run.seed) + ": " + run.result.message + "\n";
        }
      }
      write_trace_csv(options.out + "/parallel_evaluation_trace.csv", runs);
      if (options.plots && write_plot(options.out, shown, summaries)) {
        std::printf("plot: %s/parallel_evaluation.png\n", options.out.c_str());
      }
    }

    if (options.speed) {
      const hs::FunctionInstance function = hs::make_function(
          options.speed_function, stream_seed(options, options.speed_function, 0, kInstance));
      std::vector<SpeedRun> runs;
      for (int k : options.in_flight) {
        std::printf("speed: %s, k=%d, %d evaluations of %s s\n", function.name.c_str(), k,
                    options.speed_evaluations, format_number(options.sleep, 4).c_str());
        std::fflush(stdout);
        runs.push_back(run_speed(function, options, k));
        failed = failed || !runs.back().error.empty();
      }
      tables += speed_table(runs, options);
      write_speed_csv(options.out + "/parallel_evaluation_speed.csv", runs, options);
    }

    std::printf("\n%s", tables.c_str());
    std::ofstream(options.out + "/tables.md") << tables;
    std::printf("\nwritten to %s/\n", options.out.c_str());
    return failed ? 1 : 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "parallel_evaluation: %s\n", error.what());
    return 1;
  }
}
