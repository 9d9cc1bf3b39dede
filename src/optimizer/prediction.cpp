// What the model predicts (addbo_predict, addbo_predict_json, addbo_predicted_best;
// docs/c-api.md): the posterior of the current model given the told observations, in the
// user's units of y. Members of OptimizerEngine, all const: a prediction changes neither the
// saved state, the generators, nor what the next ask returns.
#include <algorithm>
#include <cmath>

#include "gp/probit_classifier.hpp"
#include "json/json_text.hpp"
#include "optimizer/optimizer_engine.hpp"
#include "util/error.hpp"

namespace addbo::core {
namespace {

void require_observations(const std::vector<Observation>& observations) {
  if (observations.empty()) {
    throw Error(Status::state,
                "no observation has been told yet: the model has nothing to predict from");
  }
}

// The model for predictions: the model of record when its posteriors are built, or (before the
// first model-based ask, after a restore or a new model) a replay into `scratch` over one-point
// grids (no tables to fill), which has the same factors and standardisations: its told blocks
// are what a new build would give, bit for bit. The build (and its jitter ladders) runs as the
// next ask would run it (pending points included), but nothing is committed.
const ModelInstance& prediction_model(const ModelData& data, const ModelInstance& model,
                                      std::optional<ModelInstance>& scratch) {
  if (model.posterior) return model;
  scratch.emplace();
  scratch->parameters = model.parameters;
  scratch->structure = model.structure;
  for (const ConstraintModel& constraint : model.constraints) {
    scratch->constraints.push_back(ConstraintModel{constraint.parameters, std::nullopt});
  }
  scratch->origin = model.origin;
  scratch->failure_parameters = model.failure_parameters;
  const std::vector<std::vector<double>> axes(data.space.dimension(), std::vector<double>{0.0});
  build_posterior_over(data, *scratch, axes, 1);
  return *scratch;
}

// The told observations' posteriors at the encoded point u, in the user's units.
Prediction prediction_at(const ModelData& data, const ModelInstance& model,
                         const ProbitClassifier* failure_model, const std::vector<double>& u) {
  const AdditivePosterior& posterior = *model.posterior;
  // The model sees goal values (y, or -y when minimising) standardised as (v - offset) / scale:
  // v = offset + scale f, and y = sign v.
  const AdditivePosterior::Moments moments = posterior.told_moments(u);
  const Standardization& units = posterior.standardization();
  const double sign = data.model_value(1.0);
  Prediction prediction;
  prediction.mean = sign * units.mean_in_units(moments.mean);
  prediction.stddev = units.deviation_in_units(moments.variance);
  prediction.offset = sign * units.offset;
  prediction.noise_stddev =
      units.deviation_in_units(posterior.kernel().noise_variance() + posterior.jitter());
  prediction.observations = posterior.observation_count();
  prediction.cliques = posterior.kernel().cliques();
  for (std::size_t c = 0; c < moments.clique_mean.size(); ++c) {
    prediction.clique_mean.push_back(sign * units.scale * moments.clique_mean[c]);
    prediction.clique_stddev.push_back(units.deviation_in_units(moments.clique_variance[c]));
  }
  // Each constraint through the models of its bounds: the value is read from the bound's
  // margin at its mean (the median, bilog being monotone), its standard deviation by the delta
  // method, and the probability that it holds is that of each margin being at least 0 (their
  // product when there are two: the models are independent).
  const std::vector<ConstraintBound> bounds = data.config.constraint_bounds();
  prediction.constraints.assign(data.config.constraints.size(), Prediction::Constraint{});
  for (Prediction::Constraint& constraint : prediction.constraints) constraint.probability = 1.0;
  for (std::size_t b = 0; b < bounds.size(); ++b) {
    const AdditivePosterior& margin = *model.constraints[b].posterior;
    const AdditivePosterior::Moments at = margin.told_moments(u);
    const Standardization& scale = margin.standardization();
    const double mean = scale.mean_in_units(at.mean);
    const double sd = scale.deviation_in_units(at.variance);
    const ConstraintSpec& spec = data.config.constraints[bounds[b].constraint];
    Prediction::Constraint& predicted = prediction.constraints[bounds[b].constraint];
    // From the upper bound's model when there is one, else from the lower bound's.
    if (bounds[b].upper || !spec.has_upper) {
      predicted.mean =
          bounds[b].upper ? spec.upper - inverse_bilog(mean) : spec.lower + inverse_bilog(mean);
      predicted.stddev = std::exp(std::fabs(mean)) * sd;  // d inverse_bilog / dm = e^|m|
    }
    predicted.probability *= sd > 0.0 ? normal_cdf(mean / sd) : (mean >= 0.0 ? 1.0 : 0.0);
  }
  if (failure_model != nullptr)
    prediction.success_probability = failure_model->success_probability(u);
  return prediction;
}

// The failure model for predictions: the model's own when it is fitted to every evaluation,
// else one fitted into `scratch` (nothing without failures).
const ProbitClassifier* prediction_failure_model(const ModelData& data, const ModelInstance& model,
                                                 std::optional<ProbitClassifier>& scratch) {
  if (data.failures.empty()) return nullptr;
  if (model.failure_model && model.failure_model_observations == data.observations.size() &&
      model.failure_model_failures == data.failures.size()) {
    return &*model.failure_model;
  }
  // Before the first model-based ask after the first failure, no hyperparameters are learned:
  // the prediction has no failure model yet.
  if (!model.failure_parameters) return nullptr;
  scratch = fit_failure_model(data, model);
  return &*scratch;
}

// Among the told points the model holds (all of them up to its capacity: docs/limits.md) from
// observation `first` on, the feasible one with the best posterior mean (the first on a tie):
// the model's mean is best supported where it has data, and a point never evaluated is not
// offered as the answer. None when none of them is feasible.
std::optional<std::size_t> best_held(const ModelData& data, const ModelInstance& model,
                                     std::size_t first) {
  const Eigen::VectorXd means = model.posterior->told_point_means();  // larger is better
  const std::vector<std::size_t> held = model_observations(data, model);
  std::optional<Eigen::Index> best;
  for (Eigen::Index i = 0; i < means.size(); ++i) {
    const std::size_t observation = held[static_cast<std::size_t>(i)];
    if (observation < first) continue;
    if (!data.config.feasible(data.observations[observation].constraints)) continue;
    if (!best || means(i) > means(*best)) best = i;
  }
  if (!best) return std::nullopt;
  return held[static_cast<std::size_t>(*best)];
}

std::size_t best_held_or_throw(const ModelData& data, const ModelInstance& model) {
  const std::optional<std::size_t> best = best_held(data, model, 0);
  if (!best) {
    throw Error(Status::state,
                "none of the observations the model holds meets every "
                "constraint yet");
  }
  return *best;
}

}  // namespace

std::size_t OptimizerEngine::best_by_model() const {
  std::optional<ModelInstance> scratch;
  return best_held_or_throw(data(), prediction_model(data(), model_, scratch));
}

std::optional<std::size_t> OptimizerEngine::best_by_model_since(std::size_t first) const {
  std::optional<ModelInstance> scratch;
  return best_held(data(), prediction_model(data(), model_, scratch), first);
}

Prediction OptimizerEngine::predict(const std::vector<double>& x) const {
  space_.check_point(x, "x");
  require_observations(observations_);
  std::optional<ModelInstance> scratch;
  std::optional<ProbitClassifier> classifier;
  const ModelInstance& model = prediction_model(data(), model_, scratch);
  return prediction_at(data(), model, prediction_failure_model(data(), model, classifier),
                       space_.encode_point(x));
}

PredictedBest OptimizerEngine::predicted_best() const {
  require_observations(observations_);
  std::optional<ModelInstance> scratch;
  std::optional<ProbitClassifier> classifier;
  const ModelInstance& model = prediction_model(data(), model_, scratch);
  PredictedBest result;
  result.x = observations_[best_held_or_throw(data(), model)].x;
  // Reported exactly as predict(x) reports it.
  result.prediction =
      prediction_at(data(), model, prediction_failure_model(data(), model, classifier),
                    space_.encode_point(result.x));
  return result;
}

nlohmann::json OptimizerEngine::prediction_json(const Prediction& prediction) const {
  using json = nlohmann::json;
  // Built in place, every member set with operator[] (json_text.hpp, build_json_object).
  return build_json_object([&](json& out) {
    out["mean"] = prediction.mean;
    out["stddev"] = prediction.stddev;
    out["offset"] = prediction.offset;
    out["noise_stddev"] = prediction.noise_stddev;
    out["observations"] = prediction.observations;
    out["observations_told"] = observations_.size();
    json& cliques = out["cliques"] = json::array();
    for (std::size_t c = 0; c < prediction.cliques.size(); ++c) {
      json& clique = cliques.emplace_back(json::object());
      put(clique["variables"], prediction.cliques[c]);
      json& names = clique["names"] = json::array();
      for (int v : prediction.cliques[c])
        names.push_back(space_.variable(static_cast<std::size_t>(v)).name);
      clique["mean"] = prediction.clique_mean[c];
      clique["stddev"] = prediction.clique_stddev[c];
    }
    json& constraints = out["constraints"] = json::array();
    for (std::size_t k = 0; k < prediction.constraints.size(); ++k) {
      json& constraint = constraints.emplace_back(json::object());
      constraint["name"] = config_.constraints[k].name;
      constraint["mean"] = prediction.constraints[k].mean;
      constraint["stddev"] = prediction.constraints[k].stddev;
      constraint["probability"] = prediction.constraints[k].probability;
    }
    out["success_probability"] = prediction.success_probability;
    out["failures"] = failures_.size();
  });
}

}  // namespace addbo::core
