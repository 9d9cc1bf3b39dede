// box2d_walker: addbo tunes the 16 gait parameters of a four-legged walker simulated by Box2D
// (walker.hpp), through the public C++ wrapper only, with several evaluations pending at once:
// it asks k points, simulates the k walkers on k threads, then tells the k distances, and
// again. See kUsage; docs/examples.md shows the result.
#include <addbo/addbo.hpp>
#include <algorithm>
#include <cstdio>
#include <future>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "output_files.hpp"
#include "walker.hpp"
#include "walker_plot.hpp"

namespace {

const char* const kUsage = R"(usage: box2d_walker [options]

Tunes the gait of a four-legged Box2D walker (16 parameters: frequency, controller gain, leg
lengths, and per joint an amplitude, offset and phase) to walk as far as it can in the
simulated time, asking addbo for k points at a time, simulating them on k threads and telling
the k distances.

  --evaluations N   walkers simulated in all (default 200)
  --in-flight K     points asked before any is told (default 4)
  --seconds S       simulated time per walker (default 8)
  --seed N          addbo's seed (default 1)
  --plot FILE.png   draw the values and the best gait with gnuplot (FILE.png.gp: the script)
  --help            this text
Exit status: 0 done; 1 a failure (said on stderr); 2 bad arguments; 3 --plot without gnuplot.
)";

struct Options {
  int evaluations = 200;
  int in_flight = 4;
  double seconds = 8.0;
  int seed = 1;
  std::string plot;
  bool help = false;
};

Options parse_options(int argc, char** argv) {
  using addbo_examples::integer_at_least;
  Options options;
  addbo_examples::read_options(
      argc, argv, {"--help", "-h"}, [&](const std::string&) { options.help = true; },
      [&](const std::string& flag, const std::string& value) {
        if (flag == "--evaluations") {
          options.evaluations = integer_at_least(flag, value, 1);
        } else if (flag == "--in-flight") {
          options.in_flight = integer_at_least(flag, value, 1);
        } else if (flag == "--seconds") {
          options.seconds = addbo_examples::positive_number(flag, value);
        } else if (flag == "--seed") {
          options.seed = integer_at_least(flag, value, 0);
        } else if (flag == "--plot") {
          options.plot = value;
        } else {
          throw std::invalid_argument("unknown option " + flag);
        }
      });
  return options;
}

// The walker's parameters as addbo variables, by name.
std::string configuration(int seed) {
  nlohmann::json variables = nlohmann::json::array();
  for (const auto& range : box2d_walker::parameter_ranges()) {
    variables.push_back({{"name", range.name}, {"lower", range.lower}, {"upper", range.upper}});
  }
  return nlohmann::json{{"variables", variables}, {"goal", "maximize"}, {"seed", seed}}.dump();
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "box2d_walker: %s\n%s", error.what(), kUsage);
    return 2;
  }
  if (options.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  try {
    addbo::Optimizer optimizer(configuration(options.seed));
    std::vector<double> values;
    std::vector<double> best_x;
    double best = -1e300;
    std::size_t most_pending = 0;
    while (static_cast<int>(values.size()) < options.evaluations) {
      // Ask a batch: each point is pending until told, so the next asks avoid it.
      const int batch =
          std::min(options.in_flight, options.evaluations - static_cast<int>(values.size()));
      std::vector<std::vector<double>> points;
      for (int i = 0; i < batch; ++i) points.push_back(optimizer.ask());
      most_pending = std::max(most_pending, optimizer.pending());
      // Simulate the batch, one world per thread.
      std::vector<std::future<box2d_walker::Walk>> walks;
      for (const auto& x : points) {
        walks.push_back(std::async(std::launch::async, [&x, &options] {
          return box2d_walker::simulate(x, options.seconds);
        }));
      }
      for (std::size_t i = 0; i < points.size(); ++i) {
        const double distance = walks[i].get().distance;
        optimizer.tell(points[i], distance);
        values.push_back(distance);
        if (distance > best) best = distance, best_x = points[i];
      }
      std::printf("evaluations %3zu  batch best %7.3f m  best %7.3f m\n", values.size(),
                  *std::max_element(values.end() - batch, values.end()), best);
    }
    const box2d_walker::Walk walk = box2d_walker::simulate(best_x, options.seconds, 30);
    std::printf(
        "best distance %.3f m after %zu evaluations, %d in flight (told %zu, at most %zu "
        "pending, %zu now)%s\n",
        walk.distance, values.size(), options.in_flight, optimizer.count(), most_pending,
        optimizer.pending(), walk.flipped ? "; it flips over" : "");
    std::printf("best gait:");
    for (std::size_t d = 0; d < best_x.size(); ++d) {
      std::printf(" %s=%.3f", box2d_walker::parameter_ranges()[d].name, best_x[d]);
    }
    std::printf("\n");
    if (walk.distance != best) {
      std::fprintf(stderr, "box2d_walker: the best walker walks %.17g m again, not %.17g\n",
                   walk.distance, best);
      return 1;
    }
    if (!options.plot.empty()) {
      const int status = box2d_walker::plot_run(options.plot, values, options.in_flight, walk);
      if (status != 0) return status;
      std::printf("plot: %s\n", options.plot.c_str());
    }
    return 0;
  } catch (const addbo::Error& error) {
    std::fprintf(stderr, "box2d_walker: %s: %s\n", error.status_name(), error.what());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "box2d_walker: %s\n", error.what());
  }
  return 1;
}
