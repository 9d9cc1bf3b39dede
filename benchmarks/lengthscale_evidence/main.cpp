// What the data say about the lengthscale: for one hd_suite function, the evidence for every
// variable sharing one lengthscale l, on two point sets of equal size:
//   - "search": the points a run asks (the true graph given, "fixed", lengthscales learned),
//   - "uniform": uniformly random points of the box.
// For each l and kernel amplitude a it prints and writes to CSV
//   - the log marginal likelihood of the true graph's additive model, computed by the
//     library's own LikelihoodEvaluator (the value learning samples from); amplitude a scales
//     the kernel and the noise variance by a^2, under which the log likelihood of standardised
//     y is that of y / a minus n ln a;
//   - the leave-one-out prediction error (root mean square, in standard deviations of y) and
//     the leave-one-out log predictive density, from one factorisation of the same kernel
//     matrix (leave_one_out.hpp), with y / a likewise.
// docs/benchmarks.md ("Where Styblinski-Tang's remaining regret comes from") quotes it.
//
//   lengthscale_evidence [--function styblinski50] [--points 200] [--seed 0]
//                        [--lengthscales 0.05,0.1,0.2,0.3,0.4,0.6,0.8] [--amplitudes 1,8]
//                        [--noise 1e-4] [--csv lengthscale_evidence.csv]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "functions.hpp"
#include "gp/additive_kernel.hpp"
#include "gp/standardization.hpp"
#include "graph/graph.hpp"
#include "learn/likelihood.hpp"
#include "leave_one_out.hpp"
#include "optimizer/optimizer.hpp"
#include "output_files.hpp"

namespace {

using addbo::core::AdditiveKernel;
using addbo::core::VariableType;
using addbo::core::VarSet;

struct Settings {
  std::string function = "styblinski50";
  int points = 200;
  std::uint64_t seed = 0;
  std::vector<double> lengthscales = {0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8};
  std::vector<double> amplitudes = {1.0, 8.0};
  double noise = 1e-4;  // the library's default noise variance, in standardised units
  std::string csv = "lengthscale_evidence.csv";
};

// A comma-separated list of numbers > 0, or std::invalid_argument naming `flag`.
std::vector<double> positive_list(const std::string& flag, const std::string& text) {
  std::vector<double> values;
  for (const std::string& part : addbo_examples::split(text)) {
    values.push_back(addbo_examples::positive_number(flag, part));
  }
  if (values.empty()) throw std::invalid_argument(flag + " needs at least one number");
  return values;
}

Settings parse(int argc, char** argv) {
  Settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value (see the file's header)");
    const std::string value = argv[++i];
    if (flag == "--function") {
      s.function = value;
    } else if (flag == "--points") {
      s.points = addbo_examples::integer_at_least(flag, value, 2);
    } else if (flag == "--seed") {
      s.seed = static_cast<std::uint64_t>(addbo_examples::integer_at_least(flag, value, 0));
    } else if (flag == "--lengthscales") {
      s.lengthscales = positive_list(flag, value);
    } else if (flag == "--amplitudes") {
      s.amplitudes = positive_list(flag, value);
    } else if (flag == "--noise") {
      s.noise = addbo_examples::positive_number(flag, value);
    } else if (flag == "--csv") {
      s.csv = value;
    } else {
      throw std::invalid_argument("unknown option " + flag);
    }
  }
  if (!hd_suite::is_function_name(s.function)) {
    throw std::invalid_argument("--function: no hd_suite function " + s.function);
  }
  return s;
}

// A point set in the model's units: x encoded to [0, 1], y standardised with larger better.
struct PointSet {
  Eigen::MatrixXd encoded;  // points x variables
  Eigen::VectorXd y;
};

PointSet model_units(const hd_suite::FunctionInstance& f,
                     const std::vector<std::vector<double>>& xs, std::vector<double> values) {
  const bool minimise = f.direction == hd_suite::Direction::minimize;
  for (double& v : values) v = minimise ? -v : v;
  const addbo::core::Standardization units = addbo::core::standardize(values);
  PointSet set{Eigen::MatrixXd(static_cast<Eigen::Index>(xs.size()), f.dimension),
               Eigen::VectorXd(static_cast<Eigen::Index>(xs.size()))};
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    for (int d = 0; d < f.dimension; ++d) {
      set.encoded(row, d) = (xs[i][static_cast<std::size_t>(d)] - f.lower) / (f.upper - f.lower);
    }
    set.y(row) = (values[i] - units.offset) / units.scale;
  }
  return set;
}

// The points of one run with the true graph given and the lengthscales learned (the library's
// defaults otherwise), as the search spreads them.
PointSet search_points(const hd_suite::FunctionInstance& f, const Settings& s) {
  nlohmann::json edges = nlohmann::json::array();
  for (const hd_suite::Edge& e : f.graph) edges.push_back({e.first, e.second});
  nlohmann::json config = {
      {"variables", nlohmann::json::array()},
      {"goal", f.direction == hd_suite::Direction::minimize ? "minimize" : "maximize"},
      {"seed", s.seed},
      {"structure", {{"mode", "fixed"}, {"edges", edges}}},
      {"limits", {{"threads", 1}}}};
  for (int d = 0; d < f.dimension; ++d) {
    config["variables"].push_back({{"lower", f.lower}, {"upper", f.upper}});
  }
  addbo::core::Optimizer optimizer = addbo::core::Optimizer::from_config_text(config.dump());
  std::vector<std::vector<double>> xs;
  std::vector<double> values;
  for (int t = 0; t < s.points; ++t) {
    xs.push_back(optimizer.ask());
    values.push_back(f.evaluate(xs.back()));
    optimizer.tell(xs.back(), values.back());
  }
  return model_units(f, xs, values);
}

PointSet uniform_points(const hd_suite::FunctionInstance& f, const Settings& s) {
  std::mt19937_64 random(s.seed);
  std::uniform_real_distribution<double> uniform(f.lower, f.upper);
  std::vector<std::vector<double>> xs(static_cast<std::size_t>(s.points),
                                      std::vector<double>(static_cast<std::size_t>(f.dimension)));
  std::vector<double> values;
  for (std::vector<double>& x : xs) {
    for (double& v : x) v = uniform(random);
    values.push_back(f.evaluate(x));
  }
  return model_units(f, xs, values);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Settings s = parse(argc, argv);
    const hd_suite::FunctionInstance f = hd_suite::make_function(s.function, s.seed);
    std::vector<addbo::core::Edge> edges(f.graph.begin(), f.graph.end());
    const std::vector<VarSet> cliques =
        addbo::core::maximal_cliques(addbo::core::Graph(f.dimension, edges));
    const std::vector<VariableType> types(static_cast<std::size_t>(f.dimension),
                                          VariableType::continuous);
    std::ofstream csv = addbo_examples::open_output(s.csv);
    csv << "function,points,amplitude,lengthscale,log_likelihood,loo_rmse,loo_log_density\n";
    std::printf("%s: %s; %d points, noise variance %g\n", f.name.c_str(), f.description.c_str(),
                s.points, s.noise);
    std::printf("%-8s %9s %11s %16s %9s %15s\n", "points", "amplitude", "lengthscale",
                "log likelihood", "LOO rmse", "LOO log dens.");
    const std::pair<const char*, PointSet> sets[] = {{"search", search_points(f, s)},
                                                     {"uniform", uniform_points(f, s)}};
    for (const auto& [name, set] : sets) {
      for (double amplitude : s.amplitudes) {
        addbo::core::LikelihoodEvaluator evaluator(types, set.encoded, set.y / amplitude);
        for (double l : s.lengthscales) {
          const std::vector<double> lengthscales(static_cast<std::size_t>(f.dimension), l);
          const double log_likelihood = evaluator.log_likelihood(cliques, lengthscales, s.noise) -
                                        static_cast<double>(s.points) * std::log(amplitude);
          // y / a under the unscaled kernel, back in the units of y (as the likelihood above).
          const lengthscale_evidence::LeaveOneOut scaled = lengthscale_evidence::leave_one_out(
              AdditiveKernel(types, cliques, lengthscales, s.noise), set.encoded,
              set.y / amplitude);
          const double loo_rmse = amplitude * scaled.rmse;
          const double loo_log_density =
              scaled.log_density - static_cast<double>(s.points) * std::log(amplitude);
          std::printf("%-8s %9g %11g %16.1f %9.3f %15.1f\n", name, amplitude, l, log_likelihood,
                      loo_rmse, loo_log_density);
          csv << f.name << ',' << name << ',' << amplitude << ',' << l << ',' << log_likelihood
              << ',' << loo_rmse << ',' << loo_log_density << '\n';
        }
      }
    }
    std::printf("wrote %s\n", s.csv.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lengthscale_evidence: %s\n", e.what());
    return 1;
  }
}
