// The local search's box and its model, kept from one ask to the next while the box stays where
// it is (optimizer/zoomed_problem.hpp). Building a box's posteriors costs its tables' cells x
// n^2; between two asks in the same box only the points told since have changed, and adding
// each of them costs cells x n. So the box's points and posteriors are built when it takes its
// centre and side, or when the model it is carried from changes, and each later ask adds the
// observations told since. Each ask still fits the lengthscale factor (and while the objective
// is deterministic its noise) to every point the box holds (learn/lengthscale_factor.hpp; only
// the new points' kernel rows are computed), and builds the posteriors again when the fit
// changes: one kept from when the box took its place is stale once the box's own points show
// the objective rougher (Rosenbrock in 20 variables, 10 seeds: regret 167 / 75 at 200 / 300
// evaluations, against 145 / 63 with the factor fitted at every ask).
//
// What a box holds is a function of the history alone, however often it was brought up to date:
// the observations nearest its centre among those told before it took its place
// (TrustRegionState::box_since), then every later observation within twice the box, and
// posteriors of them with the first ones in one batch and the later ones added one at a time in
// the order told, each on the least rung of its jitter ladder on which all of them fit. A
// restored optimizer, which has no box yet, chooses the same points and factor, builds the same
// batch and adds the same points, so it continues bit for bit.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "config/config.hpp"
#include "learn/failure_learning.hpp"
#include "learn/model_parameters.hpp"
#include "optimizer/model_instance.hpp"
#include "optimizer/zoomed_problem.hpp"

namespace addbo::core {

// What a box is built from besides the history: where it is, and the model it is carried from.
// Two boxes with equal keys hold the same observations and model.
struct BoxKey {
  std::size_t centre = 0;  // index of the observation at the centre
  double length = 0.0;     // TrustRegionState::length
  std::size_t since = 0;   // TrustRegionState::box_since
  // The source model: its hyperparameters, and the observations it holds among those told
  // before `since` (the box's nearest points are chosen among them).
  ModelParameters parameters;
  std::vector<ModelParameters> constraint_parameters;
  std::optional<FailureHyperparameters> failure_parameters;
  std::vector<std::size_t> candidates;
  // The noise variances the box's model may fit (box_fit; empty: the source's).
  std::vector<double> noise_choices;

  bool operator==(const BoxKey& o) const {
    return centre == o.centre && length == o.length && since == o.since &&
           parameters == o.parameters && constraint_parameters == o.constraint_parameters &&
           failure_parameters == o.failure_parameters && candidates == o.candidates &&
           noise_choices == o.noise_choices;
  }
};

// The noise variances a box's model may fit to its points (box_fit): while the objective is
// deterministic (kernel.noise_variance "auto" and `noisy` false), kernel.noise_variance and the
// kernel.noise_variance_choices below it, ascending; else none (the box keeps the model's).
std::vector<double> box_noise_choices(const Config& config, bool noisy);

// The key of the box of length `length` around observation `centre`, which took its place when
// `since` observations were told, carried from `source`, which holds the observations
// `candidates` (ascending: model_observations), whose model may fit its noise among
// `noise_choices`.
BoxKey box_key(std::size_t centre, double length, std::size_t since, const ModelInstance& source,
               const std::vector<std::size_t>& candidates,
               const std::vector<double>& noise_choices);

class BoxModel {
 public:
  // The box for `key` up to date with `data` (the global history): built anew when `key`
  // differs from the one it holds, else with the observations told since added; false when
  // the box holds no variable of its own (zoom_problem). `centre` is the centre's point and
  // `sides` the box's sides (trust_region_sides). The pending points and failures are taken afresh,
  // and the failure model is fitted again when an ask needs it. Throws Error(Status::numerical)
  // when a posterior cannot be built; the box is then empty.
  bool update(const ModelData& data, const ModelInstance& source, const BoxKey& key,
              const std::vector<double>& centre, const std::vector<double>& sides);
  const ZoomedProblem& problem() const { return *problem_; }
  ModelInstance& model() { return model_; }
  void clear();

 private:
  void build(const ModelData& data);
  void add_pending(const ModelData& data);

  std::optional<BoxKey> key_;
  std::optional<ZoomedProblem> problem_;
  ModelInstance carried_;  // the source carried over to the box, before its lengthscale factor
  LengthscaleFactorKernels factor_kernels_;  // of the box's points, for the next fit
  BoxFit fit_;
  ModelInstance model_;  // the carried model with fit_, and its posteriors
};

}  // namespace addbo::core
