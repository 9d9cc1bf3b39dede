// addbo::Optimizer forwards to OptimizerEngine; the indirection keeps the engine's many headers
// out of the C API and lets a failed call leave the handle untouched. The text conversions are
// here, so that the C API passes text through and handles no JSON.
#include "optimizer/optimizer.hpp"

#include "json/json_text.hpp"
#include "optimizer/info_report.hpp"
#include "optimizer/optimizer_engine.hpp"
#include "optimizer/saved_state.hpp"
#include "util/error.hpp"

namespace addbo::core {

Optimizer::Optimizer(const Config& config) : engine_(std::make_unique<OptimizerEngine>(config)) {}

Optimizer::Optimizer(std::unique_ptr<OptimizerEngine> engine) : engine_(std::move(engine)) {}

Optimizer Optimizer::from_state(const nlohmann::json& state) {
  return Optimizer(std::make_unique<OptimizerEngine>(restore_state(state)));
}

Optimizer Optimizer::from_config_text(const std::string& config_text) {
  return Optimizer(parse_config_text(config_text));
}

Optimizer Optimizer::from_state_text(const std::string& state_text) {
  nlohmann::json state = parse_state_text(state_text);
  const JsonRelease release(state);
  return from_state(state);
}

Optimizer::Optimizer(Optimizer&&) noexcept = default;
Optimizer& Optimizer::operator=(Optimizer&&) noexcept = default;
Optimizer::Optimizer(const Optimizer& other)
    : engine_(std::make_unique<OptimizerEngine>(*other.engine_)) {}
Optimizer& Optimizer::operator=(const Optimizer& other) {
  if (this != &other) engine_ = std::make_unique<OptimizerEngine>(*other.engine_);
  return *this;
}
Optimizer::~Optimizer() = default;

const Config& Optimizer::config() const { return engine_->config(); }
std::size_t Optimizer::dimension() const { return engine_->space().dimension(); }
std::vector<double> Optimizer::ask(const InterruptCheck& interrupt) {
  return engine_->ask(interrupt);
}
void Optimizer::tell(const std::vector<double>& x, double y) {
  const std::size_t constraints = engine_->config().constraints.size();
  if (constraints > 0) {
    throw invalid_argument("the configuration has " + std::to_string(constraints) +
                           " constraints: tell their values with the objective's "
                           "(addbo_tell_constrained)");
  }
  engine_->tell(x, y, {});
}
void Optimizer::tell(const std::vector<double>& x, double y,
                     const std::vector<double>& constraints) {
  engine_->tell(x, y, constraints);
}
void Optimizer::tell_failure(const std::vector<double>& x) { engine_->tell_failure(x); }
void Optimizer::cancel(const std::vector<double>& x) { engine_->cancel(x); }
Observation Optimizer::best() const { return engine_->best(); }
std::size_t Optimizer::observation_count() const { return engine_->observations().size(); }
std::size_t Optimizer::pending_count() const { return engine_->pending().size(); }
std::size_t Optimizer::failure_count() const { return engine_->failures().size(); }
nlohmann::json Optimizer::info() const { return info_report(*engine_); }
Prediction Optimizer::predict(const std::vector<double>& x) const { return engine_->predict(x); }
PredictedBest Optimizer::predicted_best() const { return engine_->predicted_best(); }
nlohmann::json Optimizer::prediction_json(const Prediction& prediction) const {
  return engine_->prediction_json(prediction);
}

std::shared_ptr<LearningJob> Optimizer::begin_learning(const InterruptCheck& interrupt) {
  return std::shared_ptr<LearningJob>(engine_->begin_learning(interrupt));
}
void Optimizer::run_learning(LearningJob& job) { core::run_learning(job); }
bool Optimizer::finish_learning(const LearningJob& job) { return engine_->finish_learning(job); }
bool Optimizer::learn() {
  const std::shared_ptr<LearningJob> job = begin_learning();
  if (!job) return false;
  run_learning(*job);
  return finish_learning(*job);
}
nlohmann::json Optimizer::save() const { return save_state(*engine_); }

std::string Optimizer::info_text() const { return json_to_text(info()); }
std::string Optimizer::save_text() const { return json_to_text(save()); }
std::string Optimizer::prediction_text(const Prediction& prediction) const {
  return json_to_text(prediction_json(prediction));
}

}  // namespace addbo::core
