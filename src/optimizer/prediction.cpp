// What the model predicts (addbo_predict, addbo_predict_json, addbo_predicted_best;
// docs/c-api.md): the posterior of the current model given the told observations, in the
// user's units of y. Members of OptimizerEngine, all const: a prediction changes neither the
// saved state, the generators, nor what the next ask returns.
#include <algorithm>
#include <cmath>

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

// The model's posterior for predictions: its own, when it has one, or (before the first
// model-based ask, after a restore or a new model) a replay into `scratch` over a one-point grid
// (no tables to fill), which has the same factor and standardisation.
const AdditivePosterior& prediction_posterior(const ModelData& data, const ModelInstance& model,
                                              std::optional<AdditivePosterior>& scratch,
                                              PosteriorOrigin& origin) {
  // The model's posterior, when it has one, is built from the same history with the same
  // hyperparameters and jitter: its told block is what a new build would give, bit for bit.
  if (model.posterior) {
    origin = model.origin;
    return *model.posterior;
  }
  // One grid point per variable: the factor, the standardisation and z do not depend on the
  // grid, and one-cell tables cost nothing to keep up. The build (and its jitter ladder) runs
  // as the next ask would run it (pending points included), but nothing is committed.
  const std::vector<std::vector<double>> axes(data.space.dimension(), std::vector<double>{0.0});
  double jitter = model.parameters.jitter;
  scratch.emplace(make_posterior(data, model, axes, 1, jitter, origin));
  return *scratch;
}

// The told observations' posterior at the encoded point u, in the user's units.
Prediction prediction_at(const ModelData& data, const AdditivePosterior& posterior,
                         const std::vector<double>& u) {
  // The model sees goal values (y, or -y when minimising) standardised as (v - offset) / scale:
  // v = offset + scale f, and y = sign v.
  const AdditivePosterior::Moments moments = posterior.told_moments(u);
  const Standardization& units = posterior.standardization();
  const double sign = data.model_value(1.0);
  const auto deviation = [&](double variance) {
    return units.scale * std::sqrt(std::max(variance, 0.0));  // rounding can go below zero
  };
  Prediction prediction;
  prediction.mean = sign * (units.offset + units.scale * moments.mean);
  prediction.stddev = deviation(moments.variance);
  prediction.offset = sign * units.offset;
  prediction.noise_stddev = deviation(posterior.kernel().noise_variance() + posterior.jitter());
  prediction.cliques = posterior.kernel().cliques();
  for (std::size_t c = 0; c < moments.clique_mean.size(); ++c) {
    prediction.clique_mean.push_back(sign * units.scale * moments.clique_mean[c]);
    prediction.clique_stddev.push_back(deviation(moments.clique_variance[c]));
  }
  return prediction;
}

}  // namespace

Prediction OptimizerEngine::predict(const std::vector<double>& x) const {
  space_.check_point(x, "x");
  require_observations(observations_);
  std::optional<AdditivePosterior> scratch;
  PosteriorOrigin origin;
  return prediction_at(data(), prediction_posterior(data(), model_, scratch, origin),
                       space_.encode_point(x));
}

PredictedBest OptimizerEngine::predicted_best() const {
  require_observations(observations_);
  std::optional<AdditivePosterior> scratch;
  PosteriorOrigin origin;
  const AdditivePosterior& posterior = prediction_posterior(data(), model_, scratch, origin);
  // Among the told points the model holds (all of them up to limits.max_model_observations):
  // the model's mean is best supported where it has data, and a point never evaluated is not
  // offered as the answer. In model units larger is better.
  const Eigen::VectorXd means = posterior.told_point_means();
  Eigen::Index best = 0;
  for (Eigen::Index i = 1; i < means.size(); ++i) {
    if (means(i) > means(best)) best = i;
  }
  PredictedBest result;
  result.x = observations_[model_observations(data(), origin)[static_cast<std::size_t>(best)]].x;
  // Reported exactly as predict(x) reports it.
  result.prediction = prediction_at(data(), posterior, space_.encode_point(result.x));
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
    out["observations"] = observations_.size();
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
  });
}

}  // namespace addbo::core
