#include "optimizer/zoomed_problem.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <utility>

#include "gp/standardization.hpp"
#include "learn/lengthscale_factor.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// Slack for rounding when counting grid steps that fit in a span.
constexpr double kStepSlack = 1e-9;

// One variable of the box: its specification in the box, and the width of its range in the
// global encoded units.
struct ZoomedAxis {
  VariableSpec spec;
  double width = 1.0;
};

// The value of a continuous or integer variable at the encoded position u (clamped to [0, 1]),
// without rounding to the variable's values: the inverse of Space::encode.
double decode_real(const Space& space, std::size_t d, double u) {
  const VariableSpec& v = space.variable(d);
  const double t = std::min(std::max(u, 0.0), 1.0);
  return std::min(std::max(space.interpolate(d, v.lower, v.upper, t), v.lower), v.upper);
}

// A continuous variable: grid points every `step` from the centre's value, as many as the side
// allows on each side within the bounds; the step is a sixteenth of the side, or the global
// grid's step while that is finer.
std::optional<ZoomedAxis> zoom_continuous(const Space& space, std::size_t d, double centre,
                                          double side) {
  const VariableSpec& v = space.variable(d);
  const double half = 0.5 * std::min(side, 2.0);
  const double global_step = 1.0 / static_cast<double>(std::max(v.grid - 1, 1));
  const double step = std::min(half / kZoomedHalfGrid, global_step);
  const double room = std::floor(half / step + kStepSlack);
  const double below = std::min(room, std::floor(centre / step + kStepSlack));
  const double above = std::min(room, std::floor((1.0 - centre) / step + kStepSlack));
  if (below + above < 1.0) return std::nullopt;
  // The whole range on the global grid's steps (counted in steps: centre - below * step rounds
  // to a few ulps off 0 from a grid point): the variable is kept as it is.
  if (step == global_step && below + above + kStepSlack >= static_cast<double>(v.grid - 1)) {
    return std::nullopt;
  }
  const double lower = std::max(centre - below * step, 0.0);
  const double upper = std::min(centre + above * step, 1.0);
  ZoomedAxis axis{v, 1.0};
  axis.spec.lower = decode_real(space, d, lower);
  axis.spec.upper = decode_real(space, d, upper);
  axis.spec.grid = static_cast<int>(below + above) + 1;
  if (!(axis.spec.upper > axis.spec.lower)) return std::nullopt;
  if (v.scale == Scale::log && !(std::log(axis.spec.upper) > std::log(axis.spec.lower))) {
    return std::nullopt;
  }
  axis.width = space.encode(d, axis.spec.upper) - space.encode(d, axis.spec.lower);
  return axis;
}

// Whether the grid of integer variable d holds every integer from lower to upper.
bool grid_holds_every_integer(const Space& space, std::size_t d, double lower, double upper) {
  std::size_t held = 0;
  for (int k = 0; k < space.grid_size(d); ++k) {
    const double value = space.grid_value(d, k);
    if (value >= lower && value <= upper) ++held;
  }
  return static_cast<double>(held) == upper - lower + 1.0;
}

// An integer variable: the integers within the box, at least two, the centre's among them
// (a log-scale one only where its grid holds all of them).
std::optional<ZoomedAxis> zoom_integer(const Space& space, std::size_t d, double centre_value,
                                       double side) {
  const VariableSpec& v = space.variable(d);
  const double centre = space.encode(d, centre_value);
  const double half = 0.5 * std::min(side, 2.0);
  double lower = std::ceil(decode_real(space, d, centre - half) - kStepSlack);
  double upper = std::floor(decode_real(space, d, centre + half) + kStepSlack);
  lower = std::max(std::min(lower, centre_value), v.lower);
  upper = std::min(std::max(upper, centre_value), v.upper);
  if (lower == upper) {
    lower = std::max(v.lower, centre_value - 1.0);
    upper = std::min(v.upper, centre_value + 1.0);
  }
  if (lower == v.lower && upper == v.upper) return std::nullopt;  // the whole range
  // Asks return values of the variable's grid: a log-scale integer whose grid skips an integer
  // of the box (its grid is sparse where values are large) keeps its whole grid, since the
  // box's own rounded geometric points need not be values of the global one.
  if (v.scale == Scale::log && !grid_holds_every_integer(space, d, lower, upper)) {
    return std::nullopt;
  }
  ZoomedAxis axis{v, 1.0};
  axis.spec.lower = lower;
  axis.spec.upper = upper;
  // A linear integer's grid is every value; a log-scale one keeps its number of geometric
  // points (Space rounds them to distinct integers).
  if (v.scale == Scale::linear) axis.spec.grid = static_cast<int>(upper - lower) + 1;
  axis.width = space.encode(d, upper) - space.encode(d, lower);
  return axis;
}

// How far x is from the centre, in units of the box's sides (the box is distance <= 1/2): the
// largest over the boxed variables.
double box_distance(const Space& space, const std::vector<double>& centre_u,
                    const std::vector<double>& sides, const std::vector<double>& x) {
  double distance = 0.0;
  for (std::size_t d = 0; d < space.dimension(); ++d) {
    if (!(sides[d] > 0.0)) continue;
    distance = std::max(distance, std::fabs(space.encode(d, x[d]) - centre_u[d]) / sides[d]);
  }
  return distance;
}

// Points within this box_distance of the centre (twice the box) join its model when told after
// the box took its place, and its pending points: farther ones barely change its model.
constexpr double kReach = 1.0;

// box_distance from the problem's centre, in its sides (x in the user units of `space`, the
// problem's global space).
auto distance_from(const Space& space, const ZoomedProblem& problem) {
  return [&space, &problem](const std::vector<double>& x) {
    return box_distance(space, problem.centre_u, problem.sides, x);
  };
}

// The `count` items of `candidates` (indices into `items`, ascending) nearest the centre by
// `distance` of their point (ties by order), in the order given.
template <typename Item, typename Distance>
std::vector<Item> nearest(const std::vector<Item>& items,
                          const std::vector<std::size_t>& candidates, const Distance& distance,
                          std::size_t count) {
  std::vector<std::pair<double, std::size_t>> ranked;  // (distance, index)
  ranked.reserve(candidates.size());
  for (std::size_t i : candidates) ranked.emplace_back(distance(items[i].x), i);
  count = std::min(count, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(count),
                    ranked.end());
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < count; ++k) order.push_back(ranked[k].second);
  std::sort(order.begin(), order.end());
  std::vector<Item> chosen;
  chosen.reserve(count);
  for (std::size_t i : order) chosen.push_back(items[i]);
  return chosen;
}

// The factor of kBoxLengthscaleFactors on `parameters.lengthscales` (box units) and the noise
// variance of `noise_choices` (empty: parameters.noise_variance) with the highest marginal
// likelihood of the box's observations (standardised), the model's graph otherwise, on up to
// `threads` threads, with the kernels of `kept` (may be null).
BoxFit highest_evidence_fit(const ZoomedProblem& problem, const ModelParameters& parameters,
                            const std::vector<VarSet>& cliques,
                            const std::vector<double>& noise_choices, int threads,
                            LengthscaleFactorKernels* kept) {
  const std::size_t n = problem.observations.size();
  if (n < 2) return BoxFit{1.0, parameters.noise_variance};
  const std::vector<double> noises =
      noise_choices.empty() ? std::vector<double>{parameters.noise_variance} : noise_choices;
  LengthscaleFactorData fit;
  fit.types = problem.space.types();
  fit.cliques = cliques;
  fit.lengthscales = parameters.lengthscales;
  fit.noise_variances = noises;
  fit.points.resize(static_cast<Eigen::Index>(n),
                    static_cast<Eigen::Index>(problem.space.dimension()));
  std::vector<double> values;
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<double> u = problem.space.encode_point(problem.observations[i].x);
    for (std::size_t d = 0; d < u.size(); ++d) {
      fit.points(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(d)) = u[d];
    }
    values.push_back(problem.observations[i].y);
  }
  const Standardization units = standardize(values);
  fit.y.resize(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i) {
    fit.y(static_cast<Eigen::Index>(i)) = (values[i] - units.offset) / units.scale;
  }
  constexpr std::size_t count = std::size(kBoxLengthscaleFactors);
  const std::vector<double> likelihoods =
      lengthscale_factor_likelihoods(fit, kBoxLengthscaleFactors[0], count, threads, kept);
  std::size_t best = 0;  // the first of equals: the larger factor, then the smaller noise
  for (std::size_t k = 1; k < likelihoods.size(); ++k) {
    if (likelihoods[k] > likelihoods[best]) best = k;
  }
  return BoxFit{kBoxLengthscaleFactors[best / noises.size()], noises[best % noises.size()]};
}

}  // namespace

bool ZoomedProblem::contains(const std::vector<double>& x) const {
  for (std::size_t d = 0; d < space.dimension(); ++d) {
    if (space.type(d) == VariableType::categorical) continue;
    const VariableSpec& v = space.variable(d);
    if (x[d] < v.lower || x[d] > v.upper) return false;
  }
  return true;
}

std::optional<ZoomedProblem> zoom_problem(const ModelData& data,
                                          const std::vector<std::size_t>& candidates,
                                          const std::vector<double>& centre,
                                          const std::vector<double>& sides, std::size_t since) {
  const Space& space = data.space;
  const std::vector<double> centre_u = space.encode_point(centre);
  std::vector<VariableSpec> specs;
  std::vector<double> width(space.dimension(), 1.0);
  bool any = false;
  for (std::size_t d = 0; d < space.dimension(); ++d) {
    std::optional<ZoomedAxis> axis;
    if (space.type(d) == VariableType::continuous) {
      axis = zoom_continuous(space, d, centre_u[d], sides[d]);
    } else if (space.type(d) == VariableType::integer) {
      axis = zoom_integer(space, d, centre[d], sides[d]);
    }
    specs.push_back(axis ? axis->spec : space.variable(d));
    if (axis) {
      width[d] = axis->width;
      any = true;
    }
  }
  if (!any) return std::nullopt;

  ZoomedProblem problem{Space(specs), std::move(width), {}, 0, 0, {}, {}, centre_u, sides};
  std::vector<std::size_t> before;
  for (std::size_t i : candidates) {
    if (i < since) before.push_back(i);
  }
  problem.observations =
      nearest(data.observations, before, distance_from(space, problem), kZoomedModelPoints);
  problem.nearest_count = problem.observations.size();
  problem.told = std::min(since, data.observations.size());
  catch_up(problem, data);
  return problem;
}

void catch_up(ZoomedProblem& problem, const ModelData& data) {
  const auto distance = distance_from(data.space, problem);
  for (; problem.told < data.observations.size(); ++problem.told) {
    const Observation& observation = data.observations[problem.told];
    if (distance(observation.x) <= kReach) problem.observations.push_back(observation);
  }
  // The most recent failures, as many as the model may hold observations (the failure model
  // takes the most recent ones too).
  const std::size_t failures = data.failures.size();
  std::vector<std::size_t> recent(
      std::min(failures, static_cast<std::size_t>(data.config.max_model_observations)));
  std::iota(recent.begin(), recent.end(), failures - recent.size());
  problem.failures = nearest(data.failures, recent, distance, kZoomedModelPoints);
  // The pending points within twice the box: farther ones barely change its model.
  problem.pending.clear();
  for (const std::vector<double>& x : data.pending) {
    if (distance(x) <= kReach) problem.pending.push_back(x);
  }
}

ModelInstance carried_model(const Config& config, const ModelInstance& model,
                            const ZoomedProblem& problem) {
  const auto rescaled = [&](std::vector<double> lengthscales) {
    for (std::size_t d = 0; d < lengthscales.size(); ++d) lengthscales[d] /= problem.width[d];
    return lengthscales;
  };
  ModelInstance carried;
  carried.parameters = model.parameters;
  carried.parameters.lengthscales = rescaled(model.parameters.lengthscales);
  carried.parameters.jitter = 0.0;  // a new model's jitter ladder starts from none
  for (const ConstraintModel& constraint : model.constraints) {
    ConstraintModel bound{constraint.parameters, std::nullopt};
    bound.parameters.lengthscales = rescaled(constraint.parameters.lengthscales);
    bound.parameters.jitter = 0.0;
    carried.constraints.push_back(std::move(bound));
  }
  if (model.failure_parameters) {
    carried.failure_parameters = model.failure_parameters;
    carried.failure_parameters->lengthscales = rescaled(model.failure_parameters->lengthscales);
    // The box holds the failures nearest its centre, where the search presses on the boundary
    // of the region that fails. With the whole domain's lengthscales the classifier's
    // probability falls off across a band wider than the box (where a deterministic boundary
    // is a step), and the box's best point, a success, can lie in that band below the
    // probability an ask must reach, so that every ask is pushed away from it
    // (docs/benchmarks-log.md). So the box's classifier, like its objective's model, fits a
    // factor on its lengthscales to its own points.
    carried.failure_lengthscale_factors.assign(std::begin(kBoxLengthscaleFactors),
                                               std::end(kBoxLengthscaleFactors));
  }
  carried.structure = build_structure(config, problem.space, carried.parameters.edges);
  return carried;
}

BoxFit box_fit(const Config& config, const ModelInstance& carried, const ZoomedProblem& problem,
               const std::vector<double>& noise_choices, LengthscaleFactorKernels* kept) {
  return highest_evidence_fit(problem, carried.parameters, carried.structure.cliques, noise_choices,
                              resolve_thread_count(config.threads), kept);
}

ModelInstance scaled_model(ModelInstance carried, const ZoomedProblem& problem, const BoxFit& fit) {
  carried.parameters.lengthscales = scaled_lengthscales(
      problem.space.types(), std::move(carried.parameters.lengthscales), fit.factor);
  carried.parameters.noise_variance = fit.noise_variance;
  return carried;
}

}  // namespace addbo::core
