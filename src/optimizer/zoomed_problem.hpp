// The local search's box as a problem of its own (docs/configuration.md, "Local search"): a
// search space whose variables span the box, on grids of their own that are finer than the
// global grid once the box is small, the observations nearest the box's centre, and the model
// carried over to the box's units. Asks in the local phase maximise the acquisition of this
// model, so that the search keeps converging below the global grid's step, and an ask's cost
// is bounded by the box's model, however many observations were told.
//
// The box's model is the model of record's GP restricted to fewer points: the same graph, and
// the same lengthscales and noise in the box's encoded units (a lengthscale l becomes l / w
// along a variable whose box spans w of its range), standardised on the points it holds, as
// TuRBO fits its GP to the points of its trust region. Like TuRBO's, it then fits to those
// points what the whole domain cannot tell: a factor on the lengthscales, and while the
// objective is deterministic its noise (box_fit).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "config/config.hpp"
#include "learn/lengthscale_factor.hpp"
#include "optimizer/model_instance.hpp"
#include "optimizer/optimizer.hpp"
#include "space/space.hpp"

namespace addbo::core {

// A box's model holds at most this many observations, those nearest its centre: its posterior
// tables cost about cells x points^2 to build (a posterior of every told point would cost
// cells x n^2 at every ask), and far from a small box the global lengthscales make the far
// points nearly uninformative anyway.
constexpr std::size_t kZoomedModelPoints = 128;
// Half the grid points of a box's variable once the box is smaller than 16 global grid steps:
// 2 x 8 + 1 points, the centre's value among them, so that an ask can leave any variable where
// the best point has it.
constexpr int kZoomedHalfGrid = 8;

// The factors on the carried-over lengthscales a box's model may take (the one whose marginal
// likelihood of the box's points is highest): the global lengthscales describe the objective
// at the scale of the whole domain, and within a small box the data often show it rougher (a
// curved valley that the global model sees as a slope). Each half the one before
// (learn/lengthscale_factor.hpp).
inline constexpr double kBoxLengthscaleFactors[] = {2.0, 1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125};

struct ZoomedProblem {
  Space space;  // the box: each variable's bounds and grid
  // Per variable, the width of the box's range in the global encoded units (1 for a variable
  // kept whole: a categorical one, or one whose box covers its range).
  std::vector<double> width;
  // The observations nearest the centre among those told before the box took its place (the
  // first `nearest_count`), then those told since within twice the box, in the order told.
  std::vector<Observation> observations;
  std::size_t nearest_count = 0;
  std::size_t told = 0;  // observations of the history looked at so far
  std::vector<std::vector<double>> pending;
  std::vector<Failure> failures;
  std::vector<double> centre_u;  // the centre, in the global encoded units
  std::vector<double> sides;     // the box's sides, in the global encoded units

  ModelData data(const Config& config) const {
    return ModelData{config, space, observations, pending, failures};
  }
  // Whether x (user units) lies in the box.
  bool contains(const std::vector<double>& x) const;
};

// The box of sides `sides` (encoded units, per variable: trust_region_sides) around `centre`
// (user units) and the problem's points nearest to it: among the observations `candidates`
// (ascending indices: those the model it is carried from holds, at most its capacity) told
// before `since` (when the box took its centre and side: TrustRegionState::box_since), then
// every later observation within twice the box (catch_up), and the most recent failures, so
// that the box costs the same however many were told. Each continuous variable's grid steps by
// the smaller of a sixteenth of its side and the global grid's step, from the centre's value,
// within its bounds; an integer variable keeps the integers in the box (at least two, the
// centre's among them; a log-scale integer only where its grid holds each of them, else its
// whole grid). Nothing when the box would hold no variable of its own (every variable kept
// whole: the global search is the same search).
std::optional<ZoomedProblem> zoom_problem(const ModelData& data,
                                          const std::vector<std::size_t>& candidates,
                                          const std::vector<double>& centre,
                                          const std::vector<double>& sides, std::size_t since);

// Brings `problem` up to `data`'s history: appends the observations told since it last looked
// that lie within twice the box, and takes the pending points within twice the box and the
// failures nearest it afresh.
void catch_up(ZoomedProblem& problem, const ModelData& data);

// The model of record (or the hedge's) carried over to the box: the same graph and noise,
// lengthscales divided by the box's widths (the failure model's and the constraints' too), no
// posterior yet, and the structure on the box's grids. Its failure model chooses a factor of
// kBoxLengthscaleFactors on its lengthscales when fitted (ModelInstance).
ModelInstance carried_model(const Config& config, const ModelInstance& model,
                            const ZoomedProblem& problem);
// What a box's model fits to the box's observations: a factor on the carried model's objective
// lengthscales, and the objective's noise variance.
struct BoxFit {
  double factor = 1.0;
  double noise_variance = 0.0;
  bool operator==(const BoxFit& o) const {
    return factor == o.factor && noise_variance == o.noise_variance;
  }
};

// The pair of a factor of kBoxLengthscaleFactors on the carried model's objective lengthscales
// (the continuous and integer ones) and a noise variance of `noise_choices` (empty: the
// carried model's) with the highest marginal likelihood of the box's observations; with `kept`
// (may be null), the candidates' kernels of the box's observations when it was last fitted,
// which are still its first observations (LengthscaleFactorKernels).
BoxFit box_fit(const Config& config, const ModelInstance& carried, const ZoomedProblem& problem,
               const std::vector<double>& noise_choices, LengthscaleFactorKernels* kept);
// The carried model with its objective's lengthscales scaled by fit.factor and its objective's
// noise variance fit.noise_variance.
ModelInstance scaled_model(ModelInstance carried, const ZoomedProblem& problem, const BoxFit& fit);

}  // namespace addbo::core
