#include "optimizer/optimizer_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "acquisition/known_points.hpp"
#include "acquisition/random_points.hpp"
#include "acquisition/ucb.hpp"
#include "gp/standardization.hpp"
#include "graph/graph.hpp"
#include "graph/partition.hpp"
#include "graph/random_forest.hpp"
#include "learn/gibbs_sampler.hpp"
#include "optimizer/edge_history.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"
#include "util/text.hpp"

namespace addbo::core {
namespace {

// Two evaluations of one point disagree when their values differ by more than this fraction of
// their magnitude: a deterministic objective gives the same double, or nearly so when its
// arithmetic runs in a varying order (threads).
constexpr double kReplicateTolerance = 1e-9;

// The noise probe needs a design of at least this many points (it takes the last one).
constexpr int kMinProbedDesign = 4;

// How far (as a fraction of a continuous variable's range) a told or cancelled point may be
// from a pending one and still be it: covers six printed decimals on ranges down to about 1.
constexpr double kPendingTolerance = 1e-6;

// A learning the host asks for needs two observations: the likelihood of one standardised
// value says nothing about the graph or the lengthscales.
constexpr std::size_t kMinLearningObservations = 2;

// Multiply-adds of a hedged ask's posterior build up to which the hedge keeps its full share
// (about 0.3 s on one core): every run of a few hundred evaluations at D <= 50 on 32-point grids.
constexpr double kHedgeWork = 1e9;

// How many times further apart learnings are while the search is local, once their interval
// has grown with the observations (OptimizerEngine::learning_due).
constexpr std::size_t kLocalLearningSpacing = 4;

// The share of beta_t (a tenth of the exploration weight) with which the global search after a
// restart exploits the model (OptimizerEngine::ask_beta).
constexpr double kRestartBetaShare = 0.01;

// The learning generator's seed: a fixed odd constant mixed into the user's seed keeps it
// distinct from the main stream.
std::uint64_t learning_seed(std::uint64_t seed) { return seed ^ 0x9E3779B97F4A7C15ull; }

// The initial design's strata come from a third stream of their own.
std::uint64_t design_seed(std::uint64_t seed) { return seed ^ 0xC2B2AE3D27D4EB4Full; }

// The Latin hypercube keeps D x N strata in memory: past this many, the initial points beyond
// the first 2^20 / D are uniform random.
constexpr std::size_t kMaxDesignEntries = std::size_t{1} << 20;

// The local search's rule for the configuration. The model is exploited after a restart
// except where the optimum may lie on a constraint's bound: there, and once an evaluation has
// failed, a converged run may be followed by a box reopened around the best, and exploiting
// the model between runs made the engineering designs' later runs repeat the best's basin
// (pressure vessel at 200 evaluations, 10 seeds: 0.145 with it, 0.106 without; see
// docs/benchmarks-log.md).
TrustRegionRule local_search_rule(const Config& config, std::size_t dimension) {
  TrustRegionRule rule = trust_region_rule(dimension);
  rule.exploit_after_restart = config.constraints.empty();
  return rule;
}

LatinHypercube make_design(const Config& config) {
  Random random(design_seed(config.seed));
  const std::size_t dimension = std::max<std::size_t>(config.dimension(), 1);
  const std::size_t points = std::min(static_cast<std::size_t>(config.initial_points),
                                      std::max<std::size_t>(1, kMaxDesignEntries / dimension));
  return LatinHypercube(config.dimension(), points, random);
}

double middle_choice(std::vector<double> choices) {
  std::sort(choices.begin(), choices.end());
  return choices[choices.size() / 2];
}

// Room for one more element, made as push_back would make it (doubling), so that the
// push_back of a call's commit cannot throw.
template <class T>
void reserve_one_more(std::vector<T>& list) {
  if (list.size() == list.capacity()) list.reserve(std::max<std::size_t>(8, 2 * list.size()));
}

}  // namespace

OptimizerEngine::OptimizerEngine(const Config& config)
    : config_(config),
      space_(config.variables),
      random_(config.seed),
      design_(make_design(config)),
      region_rule_(local_search_rule(config, space_.dimension())) {
  learning_.random = Random(learning_seed(config.seed));
  model_.parameters = initial_parameters();
  model_.constraints.resize(config_.constraint_bounds().size());
  for (ConstraintModel& constraint : model_.constraints) {
    constraint.parameters = model_.parameters;
    constraint.parameters.edges.clear();  // the model's graph is theirs
    constraint.parameters.labels.clear();
  }
  edge_since_.assign(model_.parameters.edges.size(), 0);  // given before any observation
  model_.structure = build_structure(config_, space_, model_.parameters.edges);
  index_observations();
}

OptimizerEngine::OptimizerEngine(const Config& config, Restored restored)
    : config_(config),
      space_(config.variables),
      random_(restored.random),
      edge_since_(std::move(restored.edge_since)),
      learning_(std::move(restored.learning)),
      observations_(std::move(restored.observations)),
      pending_(std::move(restored.pending)),
      failures_(std::move(restored.failures)),
      design_(make_design(config)),
      region_rule_(local_search_rule(config, space_.dimension())) {
  model_.parameters = std::move(restored.parameters);
  for (ModelParameters& parameters : restored.constraint_parameters) {
    model_.constraints.push_back(ConstraintModel{std::move(parameters), std::nullopt});
  }
  model_.failure_parameters = std::move(restored.failure_parameters);
  model_.origin = restored.origin;
  model_.structure = build_structure(config_, space_, model_.parameters.edges);
  index_observations();
}

ModelParameters OptimizerEngine::initial_parameters() const {
  const int dimension = static_cast<int>(space_.dimension());
  ModelParameters parameters;
  parameters.edges = config_.structure.edges;  // the given graph, or where learning starts
  if (config_.structure.mode == StructureMode::disjoint) {
    parameters.labels = component_labels(dimension, parameters.edges);
    parameters.edges = edges_of_labels(parameters.labels);
  }
  parameters.lengthscales =
      config_.kernel.learn_lengthscales
          ? std::vector<double>(space_.dimension(),
                                middle_choice(config_.kernel.lengthscale_choices))
          : config_.kernel.lengthscales;
  parameters.noise_variance = config_.kernel.learn_noise
                                  ? middle_choice(config_.kernel.noise_variance_choices)
                                  : config_.kernel.noise_variance;
  return parameters;
}

OptimizerEngine::ObservedCells OptimizerEngine::index_cells(const GridPlan& grids) const {
  ObservedCells index{grids, {}, {}};
  for (std::size_t i = 0; i < observations_.size(); ++i) {
    const std::vector<double>& x = observations_[i].x;
    index.cells.add(grid_cell(space_, grids, x), space_.encode_point(x), i);
  }
  for (const Failure& failure : failures_) {
    index.failed.add(grid_cell(space_, grids, failure.x), space_.encode_point(failure.x));
  }
  return index;
}

void OptimizerEngine::index_observations() {
  // The first disagreement between evaluations of one point, replayed in the order told.
  observed_cells_ = ObservedCells{model_.structure.grids, {}, {}};
  noisy_since_.reset();
  for (std::size_t i = 0; i < observations_.size(); ++i) {
    const std::vector<double>& x = observations_[i].x;
    const std::vector<int> cell = grid_cell(space_, observed_cells_.grids, x);
    const std::vector<double> u = space_.encode_point(x);
    if (!noisy_since_ && disagrees(cell, u, observations_[i].y)) noisy_since_ = i + 1;
    observed_cells_.cells.add(cell, u, i);
  }
  for (const Failure& failure : failures_) {
    observed_cells_.failed.add(grid_cell(space_, observed_cells_.grids, failure.x),
                               space_.encode_point(failure.x));
  }
  // The values ranked, the best quarter of the largest cap they are chosen for (the model's,
  // which bounds learning's), and the batch a restored model was built from.
  ranking_ = ValueRanking((static_cast<std::size_t>(config_.max_model_observations) + 3) / 4);
  model_.origin.batch.clear();
  for (std::size_t i = 0;; ++i) {
    if (model_.origin.built_at == i) {
      model_.origin.batch = ranking_.select(batch_size(model_.structure.max_observations, i));
    }
    if (i == observations_.size()) break;
    ranking_.reserve_one_more();
    ranking_.add(goal_value(observations_[i].y));
  }
  // The local search's state replays every outcome in the order told.
  region_ = TrustRegionTracker(static_cast<std::size_t>(config_.initial_points), region_rule_);
  best_index_.reset();
  feasible_count_ = 0;
  std::size_t next_failure = 0;
  for (std::size_t i = 0; i < observations_.size(); ++i) {
    for (; next_failure < failures_.size() && failures_[next_failure].observations_before <= i;
         ++next_failure) {
      region_.add_failure(failures_[next_failure].observations_before);
    }
    const Observation& observation = observations_[i];
    if (!config_.feasible(observation.constraints)) {
      region_.add_failure(i + 1);
      continue;
    }
    ++feasible_count_;
    const double value = goal_value(observation.y);
    region_.add(value, i);
    if (!best_index_ || value > goal_value(observations_[*best_index_].y)) best_index_ = i;
  }
  for (; next_failure < failures_.size(); ++next_failure) {
    region_.add_failure(failures_[next_failure].observations_before);
  }
}

const OptimizerEngine::ObservedCells& OptimizerEngine::observed_cells_on(
    const GridPlan& grids, std::optional<ObservedCells>& scratch) const {
  if (grids.indices == observed_cells_.grids.indices) return observed_cells_;
  scratch = index_cells(grids);
  return *scratch;
}

TrustRegionState OptimizerEngine::trust_region() const {
  if (!config_.local_search || config_.strategy != Strategy::gp_ucb) return TrustRegionState();
  return region_.state();
}

bool OptimizerEngine::learns() const {
  return config_.strategy == Strategy::gp_ucb &&
         (config_.structure.mode != StructureMode::fixed || config_.kernel.learn_lengthscales ||
          config_.kernel.learn_noise || (config_.kernel.auto_noise && noisy()));
}

bool OptimizerEngine::learning_due() const {
  const std::size_t n = observations_.size();
  if (!learns() || config_.structure.relearn == Relearn::manual) return false;
  if (n < static_cast<std::size_t>(config_.initial_points)) return false;
  // A noisy objective found since the last learning learns its noise at once.
  const bool noise_found =
      config_.kernel.auto_noise && noisy_since_ && learning_.learned_at < *noisy_since_;
  // Past ten times relearn_every observations the interval grows with them (a tenth of the
  // observations at the last learning): a learning's cost grows with the points it uses while
  // what a fixed number of new points can change shrinks, and at long budgets the local
  // search's box fits its own lengthscale factor at every ask (optimizer/zoomed_problem.hpp).
  const std::size_t every = static_cast<std::size_t>(config_.structure.relearn_every);
  std::size_t interval = std::max(every, learning_.learned_at / 10);
  // There, while the search is local, four times that: the box uses the learned model only as
  // the start its factor scales, and the points a local phase adds crowd into the box, where
  // most of a learning's recent points would then lie. So the global model is mostly learned
  // between runs, from points spread over them; on issue 26's long run (60 variables, 3,000
  // evaluations) that saved about a tenth of the time, and no function lost at 2,000
  // evaluations (docs/benchmarks-log.md).
  if (interval > every && trust_region().local) interval *= kLocalLearningSpacing;
  return learning_.learned_at == 0 || noise_found || n >= learning_.learned_at + interval;
}

bool OptimizerEngine::noise_probe_due(std::size_t known) const {
  return config_.kernel.auto_noise && config_.initial_points >= kMinProbedDesign &&
         known + 1 == static_cast<std::size_t>(config_.initial_points) && !observations_.empty();
}

bool OptimizerEngine::disagrees(const std::vector<int>& cell, const std::vector<double>& u,
                                double y) const {
  const CellPoints::Points* points = observed_cells_.cells.find(cell);
  if (points == nullptr) return false;
  const std::vector<std::size_t>& tags = *observed_cells_.cells.tags(cell);
  // The newest evaluations of the cell, as the known-point rule looks at them: a tell's work
  // does not grow with a crowded cell's count.
  const std::size_t first = points->size() - std::min(points->size(), kMostCellPoints);
  for (std::size_t k = first; k < points->size(); ++k) {
    if ((*points)[k] != u) continue;
    const double told = observations_[tags[k]].y;
    if (std::fabs(told - y) > kReplicateTolerance * std::max(std::fabs(told), std::fabs(y))) {
      return true;
    }
  }
  return false;
}

double OptimizerEngine::replicate_noise() const {
  // The pooled variance within groups of evaluations of one point, over the variance of the
  // values (the model's standardisation), among the observations the model holds (every one
  // up to its capacity), so that the work stays within the cap.
  const std::vector<std::size_t> held = model_observations(data(), model_);
  std::vector<double> values;
  for (std::size_t i : held) values.push_back(observations_[i].y);
  const Standardization units = standardize(values);
  std::map<std::vector<double>, std::vector<double>> groups;
  for (std::size_t i : held) groups[observations_[i].x].push_back(observations_[i].y);
  double squares = 0.0;
  std::size_t freedom = 0;
  for (const auto& group : groups) {
    if (group.second.size() < 2) continue;
    double mean = 0.0;
    for (double y : group.second) mean += y / units.scale;
    mean /= static_cast<double>(group.second.size());
    for (double y : group.second) squares += (y / units.scale - mean) * (y / units.scale - mean);
    freedom += group.second.size() - 1;
  }
  const double variance = freedom > 0 ? squares / static_cast<double>(freedom) : 0.0;
  const std::vector<double>& choices = config_.kernel.noise_variance_choices;
  double nearest = choices.front();
  for (double choice : choices) {
    if (std::fabs(std::log(choice) - std::log(std::max(variance, 1e-300))) <
        std::fabs(std::log(nearest) - std::log(std::max(variance, 1e-300)))) {
      nearest = choice;
    }
  }
  return nearest;
}

std::unique_ptr<LearningJob> OptimizerEngine::learning_job(const InterruptCheck& interrupt) const {
  auto job = std::make_unique<LearningJob>();
  LearningInput& input = job->input;
  input.interrupt = interrupt;
  GibbsSettings& settings = input.settings;
  settings.mode = config_.structure.mode;
  settings.learn_lengthscales = config_.kernel.learn_lengthscales;
  settings.learn_noise = config_.kernel.learn_noise || (config_.kernel.auto_noise && noisy());
  settings.edge_prior = config_.structure.edge_prior;
  settings.lengthscale_choices = config_.kernel.lengthscale_choices;
  settings.lengthscale_prior = config_.kernel.lengthscale_prior;
  settings.lengthscale_spread = config_.kernel.lengthscale_spread;
  settings.noise_choices = config_.kernel.noise_variance_choices;
  for (std::size_t d = 0; d < space_.dimension(); ++d) {
    settings.grid_sizes.push_back(space_.grid_size(d));
    input.types.push_back(space_.type(d));
  }
  settings.max_node_cells = node_cell_limit();
  // At most structure.max_learning_points and limits.max_model_observations, chosen from the
  // ranking (learn/learning_data.hpp), so that what a learning costs does not grow with the
  // observations told. Not the model's capacity: limits.max_model_work bounds the tables'
  // work, which learning's likelihoods do not have. A constraint's learning takes the same
  // points.
  const std::size_t observations_cap = static_cast<std::size_t>(config_.max_model_observations);
  const std::size_t learning_cap = static_cast<std::size_t>(config_.structure.max_learning_points);
  const std::vector<std::size_t> chosen = ranking_.select(
      learning_cap == 0 ? observations_cap : std::min(learning_cap, observations_cap));
  for (std::size_t i : chosen) {
    input.points.push_back(space_.encode_point(observations_[i].x));
    input.y_model.push_back(goal_value(observations_[i].y));
  }
  input.budget = static_cast<std::size_t>(config_.structure.gibbs_evaluations);
  input.threads = resolve_thread_count(config_.threads);
  input.start = model_.parameters;
  // The first learning of a noisy objective's noise starts from what the replicates show.
  const bool noise_found =
      config_.kernel.auto_noise && noisy_since_ && learning_.learned_at < *noisy_since_;
  if (noise_found) input.start.noise_variance = replicate_noise();
  input.scan = learning_.scan;
  input.random = learning_.random;
  // Each bound's model learns its lengthscales and noise as the objective's do, on the
  // objective's graph (fixed), from the same points; its sampler starts a new scan every time
  // (D + 1 coordinates: the budget covers a few sweeps).
  job->constraints_follow_graph = config_.structure.mode != StructureMode::random_tree;
  const std::vector<ConstraintBound> bounds = config_.constraint_bounds();
  for (std::size_t k = 0; k < model_.constraints.size(); ++k) {
    LearningInput constraint = input;
    constraint.settings.mode = StructureMode::fixed;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      constraint.y_model[i] =
          bilog(config_.margin(bounds[k], observations_[chosen[i]].constraints));
    }
    constraint.start = model_.constraints[k].parameters;
    if (noise_found) constraint.start.noise_variance = input.start.noise_variance;
    constraint.start.edges = model_.parameters.edges;
    constraint.start.labels.clear();
    constraint.scan = ScanOrder{};
    job->constraint_inputs.push_back(std::move(constraint));
  }
  if (!failures_.empty()) job->failure_input = failure_learning_input(data(), model_, {});
  job->observations = observations_.size();
  job->learning_before = learning_;
  return job;
}

LearningCommit OptimizerEngine::learning_commit(const LearningJob& job) const {
  const LearningOutput& output = job.output;
  const std::size_t learned_at = job.observations;
  LearningCommit commit;
  LearningState& learning = commit.learning = learning_;
  learning.scan = output.scan;
  learning.random =
      job.constraint_outputs.empty() ? output.random : job.constraint_outputs.back().random;
  learning.learned_at = learned_at;
  learning.log_likelihood = output.log_likelihood;
  learning.evaluations = output.evaluations;
  learning.seconds = job.seconds;
  learning.on_worker = false;
  learning.waited_seconds = 0.0;
  ModelParameters& parameters = commit.parameters = output.best;
  // Learning does not judge the jitter (the model's may have grown since the learning began).
  parameters.jitter = model_.parameters.jitter;
  // random-tree draws its graph at every ask: learning only sets the hyperparameters.
  if (config_.structure.mode == StructureMode::random_tree) {
    parameters.edges = model_.parameters.edges;
  }
  bool constraints_changed = false;
  for (std::size_t k = 0; k < job.constraint_outputs.size(); ++k) {
    ModelParameters constraint = job.constraint_outputs[k].best;
    constraint.edges.clear();
    constraint.labels.clear();
    constraint.jitter = model_.constraints[k].parameters.jitter;
    constraints_changed = constraints_changed || !(constraint == model_.constraints[k].parameters);
    commit.constraints.push_back(std::move(constraint));
  }
  commit.failure_parameters = model_.failure_parameters;
  if (job.failure_output && !(job.failure_output == model_.failure_parameters)) {
    commit.failure_parameters = job.failure_output;
    commit.failure_changed = true;
  }
  // The chain often keeps the graph and hyperparameters it had: then the posterior tables are
  // already those of the model (rebuilding them would replay every observation for nothing).
  // A new model needs a new structure and posteriors rebuilt from scratch, whose jitter
  // ladders start again from none; if the structure cannot be built, nothing changes.
  commit.edge_since = edge_since_;
  if (!(parameters == model_.parameters) || constraints_changed) {
    parameters.jitter = 0.0;
    for (ModelParameters& constraint : commit.constraints) constraint.jitter = 0.0;
    commit.edge_since =
        carry_edge_since(model_.parameters.edges, edge_since_, parameters.edges, learned_at);
    commit.structure = build_structure(config_, space_, parameters.edges);
  }
  return commit;
}

void OptimizerEngine::commit_learning(LearningCommit&& commit) noexcept {
  if (commit.failure_changed) {
    model_.failure_parameters = std::move(commit.failure_parameters);
    model_.failure_model.reset();
  }
  if (commit.structure) {
    model_.parameters = std::move(commit.parameters);
    model_.structure = std::move(*commit.structure);
    for (std::size_t k = 0; k < commit.constraints.size(); ++k) {
      model_.constraints[k].parameters = std::move(commit.constraints[k]);
    }
    edge_since_ = std::move(commit.edge_since);
    model_.drop_posterior();
  }
  learning_ = std::move(commit.learning);
}

void OptimizerEngine::relearn(const InterruptCheck& interrupt) {
  std::unique_ptr<LearningJob> job = learning_job(interrupt);
  run_learning(*job);
  commit_learning(learning_commit(*job));
}

void OptimizerEngine::begin_learning_at_ask(const InterruptCheck& interrupt) {
  std::shared_ptr<LearningJob> job = learning_job(interrupt);
  // With one thread allowed the ask runs the learning itself: the same job, the same result.
  if (resolve_thread_count(config_.threads) < 2) run_learning(*job);
  begun_learning_ = LearningAhead::prepare(std::move(job));
}

bool OptimizerEngine::learned_since(const LearningJob& job) const {
  const LearningState& before = job.learning_before;
  return learning_.learned_at != before.learned_at || !(learning_.scan == before.scan) ||
         learning_.random.state() != before.random.state();
}

void OptimizerEngine::commit_learning_ahead(const InterruptCheck& interrupt) {
  if (!learning_ahead_.held()) return;
  const auto start = std::chrono::steady_clock::now();
  const LearningJob& job = learning_ahead_.finished(interrupt);
  // A learning the host committed meanwhile (addbo_learn) is newer: it stays.
  if (!learned_since(job)) {
    LearningCommit commit = learning_commit(job);
    commit.learning.on_worker = learning_ahead_.on_worker();
    commit.learning.waited_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    commit_learning(std::move(commit));
  }
  learning_ahead_.drop();
}

ModelRecord OptimizerEngine::model_record() const {
  ModelRecord record{model_.parameters,      {},          model_.failure_parameters,
                     model_.origin.built_at, edge_since_, learning_};
  for (const ConstraintModel& constraint : model_.constraints) {
    record.constraints.push_back(constraint.parameters);
  }
  if (!learning_ahead_.held()) return record;
  // The learning the next ask commits, as committed: a restored optimizer continues as this
  // one does after that ask (docs/saved-state.md).
  const LearningJob& job = learning_ahead_.finished(InterruptCheck());
  if (learned_since(job)) return record;
  LearningCommit commit = learning_commit(job);
  record.failure_parameters = std::move(commit.failure_parameters);
  if (commit.structure) {
    record.parameters = std::move(commit.parameters);
    record.constraints = std::move(commit.constraints);
    record.edge_since = std::move(commit.edge_since);
    record.built_at.reset();  // the posteriors are dropped
  }
  record.learning = std::move(commit.learning);
  return record;
}

std::unique_ptr<LearningJob> OptimizerEngine::begin_learning(const InterruptCheck& interrupt) {
  // The learning an ask began first becomes the model, as the next ask would make it: the
  // host's learning starts from it, as it does in a state saved now.
  commit_learning_ahead(interrupt);
  if (!learns() || observations_.size() < kMinLearningObservations) return nullptr;
  return learning_job(interrupt);
}

bool OptimizerEngine::finish_learning(const LearningJob& job) {
  if (!job.done) throw Error(Status::internal, "finish_learning: the job has not run");
  // Another learning committed since the job began (an ask that relearned): keep it, so that
  // the sampler's generator and scan never step back.
  if (learned_since(job)) return false;
  commit_learning(learning_commit(job));
  return true;
}

void OptimizerEngine::refresh_pending(const std::vector<std::vector<double>>& pending) {
  model_.posterior->clear_pending();
  for (const std::vector<double>& x : pending) {
    if (!add_pending_to(data(), *model_.posterior, x)) {
      model_.drop_posterior();
      return;
    }
  }
}

void OptimizerEngine::discard_posterior(PosteriorOrigin&& origin) noexcept {
  model_.drop_posterior();
  model_.origin = std::move(origin);
}

std::ptrdiff_t OptimizerEngine::find_pending(const std::vector<double>& x) const {
  // A host may round a point on its way to a worker and back (text with six decimals): a told
  // point is the pending one when every continuous value is within kPendingTolerance of the
  // variable's range and every integer and categorical value is equal. The nearest such
  // pending point wins, the first one asked on a tie.
  std::ptrdiff_t found = -1;
  double nearest = 0.0;
  for (std::size_t k = 0; k < pending_.size(); ++k) {
    double distance = 0.0;
    for (std::size_t d = 0; d < x.size() && distance <= kPendingTolerance; ++d) {
      if (space_.type(d) == VariableType::continuous) {
        distance = std::max(distance,
                            std::fabs(space_.encode(d, x[d]) - space_.encode(d, pending_[k][d])));
      } else if (x[d] != pending_[k][d]) {
        distance = INFINITY;
      }
    }
    if (distance <= kPendingTolerance && (found < 0 || distance < nearest)) {
      found = static_cast<std::ptrdiff_t>(k);
      nearest = distance;
    }
  }
  return found;
}

std::int64_t OptimizerEngine::node_cell_limit() const {
  return std::min(config_.structure.max_clique_cells, config_.max_table_cells);
}

std::vector<Edge> OptimizerEngine::random_tree_edges(Random& random) const {
  const int dimension = static_cast<int>(space_.dimension());
  const std::int64_t limit = node_cell_limit();
  std::vector<int> sizes(space_.dimension());
  for (std::size_t d = 0; d < sizes.size(); ++d) sizes[d] = space_.grid_size(d);
  const auto fits = [&](const Edge& edge) {
    return node_fits({edge.first, edge.second}, sizes, limit);
  };
  return random_forest(dimension, config_.structure.tree_edge_count(space_.dimension()), random,
                       fits);
}

void OptimizerEngine::draw_random_tree(Random& random) {
  std::vector<Edge> edges = random_tree_edges(random);
  if (edges == model_.parameters.edges) return;
  edge_since_ = carry_edge_since(model_.parameters.edges, edge_since_, edges, observations_.size());
  model_.structure = build_structure(config_, space_, edges);
  model_.parameters.edges = std::move(edges);
  model_.drop_posterior();
}

bool OptimizerEngine::random_tree_ask_due(std::size_t known) const {
  if (config_.structure.mode != StructureMode::learn) return false;
  // A hedged ask builds a posterior from scratch: about n^2 x (the forest's table cells) +
  // n^3 / 3 multiply-adds. Past kHedgeWork the hedge's share shrinks in proportion, so that on
  // average it adds at most share x kHedgeWork per ask at any n (docs/limits.md). Counting
  // work, not time, keeps the choice a function of the history.
  const std::size_t dimension = space_.dimension();
  double grid_points = 0.0;
  for (std::size_t d = 0; d < dimension; ++d) grid_points += space_.grid_size(d);
  const double mean_grid = grid_points / static_cast<double>(dimension);
  const double cells =
      grid_points + config_.structure.tree_edge_count(dimension) * mean_grid * mean_grid;
  // The build holds at most limits.max_model_observations observations (batch_size; the tree's
  // small tables never make limits.max_model_work the bound) and the pending points, and is
  // made once more for every constraint's model.
  const double n = static_cast<double>(
      batch_size(static_cast<std::size_t>(config_.max_model_observations), observations_.size()) +
      pending_.size());
  const double work =
      (n * n * cells + n * n * n / 3.0) * static_cast<double>(1 + model_.constraints.size());
  return config_.structure.random_tree_ask(known, std::min(1.0, kHedgeWork / work));
}

namespace {

// A point is asked only when the failure model gives it a chance of success of at least this,
// or, while the model is less sure of every point that succeeded, of the safest of those: an
// ask is at least as safe as the safest evaluation that worked, up to 80%. Where the optimum
// lies near the edge of a region that fails, the classifier's probability falls off over about
// its lengthscale; at 90% that band closed the way to the optimum in 2 runs of 20 (relative
// regret 0.2 and 0.02 at 200 evaluations, the others at most 0.004), at 80% in none, for twice
// the failed asks (7% after the initial design; docs/real-objectives.md).
constexpr double kSafeSuccess = 0.8;
// A constraint is met optimistically by one posterior standard deviation: a point is asked when
// its bound is within one standard deviation of the predicted value (CONFIG's optimism, Xu et
// al. 2023, at a fixed weight), so the search reaches a bound from either side.
constexpr double kConstraintOptimism = 1.0;

// Over the whole domain a point's chance of success is the classifier's predictive probability,
// which falls towards 1/2 where its latent is uncertain: far from the data, around the region
// that fails, the global search keeps off. In the box the chance is the probit of the latent's
// mean, the quantity the mean tables steer by. The box lies around a success, its classifier is
// fitted to the box's own points (ModelInstance::failure_lengthscale_factors), and its uncertain
// points are those between its successes and the failures, the band an optimum near the
// region's boundary lies in: the predictive probability kept every ask out of that band while
// the failures were far (constrained_suite's bowl10_ problems, 40 seeds: regret at 200
// evaluations 16 and 5 times lower where the region that succeeds is a slab or the failures
// are bands, 1.3 times on a half-space, as many asks failing or fewer; with the latent's mean
// globally too, additive20_failures lost: docs/benchmarks-log.md).
AskCondition failure_condition(const ProbitClassifier& classifier,
                               const std::vector<std::vector<double>>& axes, SearchScope scope) {
  AskCondition condition;
  condition.margin = classifier.mean_tables(axes);
  const bool by_mean = scope == SearchScope::local;
  const double threshold =
      std::min(kSafeSuccess, by_mean ? classifier.safest_mean_success_probability()
                                     : classifier.safest_success_probability());
  condition.admits = [&classifier, threshold, by_mean](const std::vector<double>& u) {
    return (by_mean ? classifier.mean_success_probability(u) : classifier.success_probability(u)) >=
           threshold;
  };
  return condition;
}

// One bound of a constraint, through its margin model (bilog of the margin: at least 0 where the
// bound holds), met within one posterior standard deviation.
AskCondition bound_condition(const AdditivePosterior& posterior) {
  AskCondition condition;
  for (std::size_t c = 0; c < posterior.kernel().cliques().size(); ++c) {
    condition.margin.push_back(posterior.mean_table(c));
  }
  condition.admits = [&posterior](const std::vector<double>& u) {
    const AdditivePosterior::Moments moments = posterior.told_moments(u);
    const Standardization& units = posterior.standardization();
    return units.mean_in_units(moments.mean) +
               kConstraintOptimism * units.deviation_in_units(moments.variance) >=
           0.0;
  };
  return condition;
}

}  // namespace

std::optional<std::size_t> OptimizerEngine::least_violating() const {
  if (observations_.empty()) return std::nullopt;
  // Among the observations the model holds (every one up to its capacity), so that an ask's
  // work stays within the cap.
  const std::vector<std::size_t> held = model_observations(data(), model_);
  const std::size_t constraints = config_.constraints.size();
  // Each constraint's violations in units of the spread of its told values (1 when they do not
  // spread), so that no constraint's units outweigh another's.
  std::vector<double> spread(constraints, 1.0);
  for (std::size_t k = 0; k < constraints; ++k) {
    std::vector<double> values;
    for (std::size_t i : held) values.push_back(observations_[i].constraints[k]);
    const Standardization units = standardize(values);
    spread[k] = units.scale;
  }
  std::optional<std::size_t> least;
  double least_violation = 0.0;
  for (std::size_t i : held) {
    double violation = 0.0;
    for (std::size_t k = 0; k < constraints; ++k) {
      const ConstraintSpec& constraint = config_.constraints[k];
      const double value = observations_[i].constraints[k];
      double excess = 0.0;
      if (constraint.has_upper) excess = std::max(excess, value - constraint.upper);
      if (constraint.has_lower) excess = std::max(excess, constraint.lower - value);
      violation += excess / spread[k];
    }
    if (!least || violation < least_violation) {
      least = i;
      least_violation = violation;
    }
  }
  return least;
}

std::optional<std::size_t> OptimizerEngine::incumbent() const {
  return best_index_ ? best_index_ : least_violating();
}

double OptimizerEngine::ask_beta(std::size_t known) const {
  // t counts every point evaluated (or failed) or pending, the initial design included: the
  // exploration weight grows with the information the model has been given.
  const double beta = ucb_beta(config_.beta_scale, known + 1);
  // Once a run has converged, the global search looks for the next run's basin on a model that
  // holds every run's observations. Its posterior mean, maximised over the grid, combines the
  // best values each group of variables took in any run, which no single run found: the
  // additive model's strength, which a trust region without a global model lacks. At the full
  // weight the sum of the groups' deviations outweighs it, and the asks go wherever the model
  // is least sure. So the global search between two runs exploits the model until the next
  // box opens (TrustRegionState::exploiting; styblinski50 at 2,000 evaluations, 5 seeds:
  // regret 37.3 against 5.9 with it, docs/benchmarks-log.md); the known-point rule still moves
  // each ask off the observed cells by the least extra weight.
  return trust_region().exploiting ? kRestartBetaShare * beta : beta;
}

std::optional<std::size_t> OptimizerEngine::box_centre() const {
  const TrustRegionState region = trust_region();
  if (!region.local) return std::nullopt;
  // On a noisy objective the run's best value is its luckiest draw, and a box around it
  // searches near a point no better than its neighbours: the run's point of best posterior
  // mean is, as best() reports it (on additive20 with noise 0.1-1 and on four hd_suite
  // functions with noise, better in 9 of 11 settings: docs/benchmarks-log.md).
  if (noisy() && region.run_best) {
    if (const std::optional<std::size_t> best = best_by_model_since(region.run_start)) return best;
  }
  // The run's best is feasible (an infeasible value is a failure of the step); while the run
  // has none, the search's incumbent.
  return region.run_best ? region.run_best : incumbent();
}

OptimizerEngine::AskTerms OptimizerEngine::ask_terms(const ModelData& data, ModelInstance& model,
                                                     SearchScope scope) const {
  AskTerms terms;
  // Where evaluations fail, once any has: the failure model of this model's kernel.
  update_failure_model(data, model);
  if (model.failure_model) {
    terms.conditions.push_back(
        failure_condition(*model.failure_model, grid_axes(data.space, model.structure), scope));
  }
  if (!model.constraints.empty()) {
    const std::vector<ConstraintBound> bounds = config_.constraint_bounds();
    if (best_index_) {
      // A feasible point is known: the objective's UCB among points that meet every bound.
      for (const ConstraintModel& bound : model.constraints) {
        terms.conditions.push_back(bound_condition(*bound.posterior));
      }
    } else {
      // None is yet: asks raise the margins of the bounds the least violating observation
      // breaks, optimistically (each margin's UCB, in its standardised units), among the points
      // that keep the bounds it meets; the objective is set aside until a feasible point is
      // found.
      const Observation& least = observations_[*least_violating()];
      for (std::size_t b = 0; b < bounds.size(); ++b) {
        if (config_.margin(bounds[b], least.constraints) < 0.0) {
          terms.objective.push_back({&*model.constraints[b].posterior, 1.0, 1.0});
        } else {
          terms.conditions.push_back(bound_condition(*model.constraints[b].posterior));
        }
      }
    }
  }
  return terms;
}

std::optional<AskDecision> OptimizerEngine::choose_over(ModelInstance& model, double beta,
                                                        Random& random) {
  const GridPlan& grids = model.structure.grids;
  std::optional<ObservedCells> scratch;
  const ObservedCells& cells = observed_cells_on(grids, scratch);
  const CellPoints pending = cell_points(space_, grids, pending_);
  AskTerms terms = ask_terms(data(), model, SearchScope::global);
  const std::vector<AskCondition>& conditions = terms.conditions;
  const ModelView view{space_,
                       model.structure.tree,
                       grids,
                       *model.posterior,
                       CellOccupancy{cells.cells, pending, cells.failed},
                       std::move(terms.objective),
                       conditions.empty() ? nullptr : &conditions,
                       noisy()};
  if (std::optional<AskDecision> decision = choose_model_point(view, beta, SearchScope::global)) {
    return decision;
  }
  if (conditions.empty()) return std::nullopt;
  // The model has nothing admitted left to offer: a random free point, preferring one that
  // meets every condition, else one that meets the most.
  const PointPreference preference{[&view](const std::vector<double>& u) {
                                     double met = 0.0;
                                     for (const AskCondition& condition : *view.conditions)
                                       met += condition.admits(u);
                                     return met;
                                   },
                                   static_cast<double>(conditions.size())};
  AskDecision decision;
  decision.phase = AskPhase::fallback;
  decision.x = free_random_point(space_, grids, view.occupancy, random, &preference);
  return decision;
}

std::optional<AskDecision> OptimizerEngine::choose_in_box(const ModelInstance& source, double beta,
                                                          Random& random) {
  const TrustRegionState region = trust_region();
  const std::optional<std::size_t> centre = box_centre();
  if (!centre) return std::nullopt;
  // The model of record's box is kept from ask to ask (optimizer/box_model.hpp); the hedge's
  // model is new at every ask, and so is its box.
  BoxModel hedge_box;
  BoxModel& box = &source == &model_ ? box_ : hedge_box;
  const BoxKey key =
      box_key(*centre, region.length, region.box_since, source, model_observations(data(), source),
              box_noise_choices(config_, noisy()));
  if (!box.update(data(), source, key, observations_[*centre].x,
                  trust_region_sides(space_, region.length, source.parameters.lengthscales))) {
    return std::nullopt;
  }
  const ZoomedProblem& problem = box.problem();
  const ModelData box_data = problem.data(config_);
  ModelInstance& model = box.model();
  // The box's points by cell of its grids: only those inside it (a point outside would count
  // for the cell at the box's edge). Observations are tagged by their index in the box's data.
  const GridPlan& grids = model.structure.grids;
  CellPoints observed;
  for (std::size_t i = 0; i < problem.observations.size(); ++i) {
    const std::vector<double>& x = problem.observations[i].x;
    if (problem.contains(x)) {
      observed.add(grid_cell(problem.space, grids, x), problem.space.encode_point(x), i);
    }
  }
  std::vector<std::vector<double>> pending_inside, failed_inside;
  for (const std::vector<double>& x : problem.pending) {
    if (problem.contains(x)) pending_inside.push_back(x);
  }
  for (const Failure& failure : problem.failures) {
    if (problem.contains(failure.x)) failed_inside.push_back(failure.x);
  }
  const CellPoints pending = cell_points(problem.space, grids, pending_inside);
  const CellPoints failed = cell_points(problem.space, grids, failed_inside);
  AskTerms terms = ask_terms(box_data, model, SearchScope::local);
  const std::vector<AskCondition>& conditions = terms.conditions;
  const ModelView view{problem.space,
                       model.structure.tree,
                       grids,
                       *model.posterior,
                       CellOccupancy{observed, pending, failed},
                       std::move(terms.objective),
                       conditions.empty() ? nullptr : &conditions,
                       noisy()};
  std::optional<AskDecision> decision = choose_model_point(view, beta, SearchScope::local);
  if (decision || conditions.empty()) return decision;
  // No point of the box's grid meets the conditions: where several bounds meet near the
  // optimum, the region that does can be narrower than the grid's step. Points drawn in the box
  // (as many as TuRBO's candidates) find it before the ask leaves the box for the whole domain.
  const std::size_t count = std::min<std::size_t>(100 * problem.space.dimension(), 5000);
  std::vector<std::vector<double>> points(count);
  for (std::vector<double>& x : points) x = problem.space.random_point(random);
  return choose_among_points(view, beta, points);
}

AskDecision OptimizerEngine::decide(Random& random, AskRecord& record,
                                    const InterruptCheck& interrupt) {
  // The learning the previous ask began is the model from this ask on.
  commit_learning_ahead(interrupt);
  const std::size_t known = observations_.size() + pending_.size() + failures_.size();
  AskDecision decision;
  if (config_.strategy == Strategy::random) {
    decision.phase = AskPhase::random;
    decision.x = space_.random_point(random);
    return decision;
  }
  const auto free_point = [&](AskPhase phase) {
    const GridPlan& grids = model_.structure.grids;
    std::optional<ObservedCells> scratch;
    const ObservedCells& cells = observed_cells_on(grids, scratch);
    const CellPoints pending = cell_points(space_, grids, pending_);
    const CellOccupancy occupancy{cells.cells, pending, cells.failed};
    decision.phase = phase;
    if (phase == AskPhase::initial_design) {
      decision.x = initial_design_point(space_, grids, design_, known, occupancy, random);
      return decision;
    }
    // The fallback prefers points the failure model admits, else the likeliest to succeed.
    std::optional<PointPreference> preference;
    if (!failures_.empty()) {
      update_failure_model(data(), model_);
      const ProbitClassifier& classifier = *model_.failure_model;
      preference = PointPreference{
          [&classifier](const std::vector<double>& u) { return classifier.success_probability(u); },
          std::min(kSafeSuccess, classifier.safest_success_probability())};
    }
    decision.x =
        free_random_point(space_, grids, occupancy, random, preference ? &*preference : nullptr);
    return decision;
  };
  // The initial design goes on past failures (they count as known points), and until the
  // first success: the model needs a value to model.
  if (observations_.empty() || known < static_cast<std::size_t>(config_.initial_points)) {
    if (noise_probe_due(known)) {
      decision.phase = AskPhase::initial_design;
      decision.x = observations_.front().x;
      return decision;
    }
    return free_point(AskPhase::initial_design);
  }
  // RDUCB: a new random decomposition for every ask, drawn from the ask's own generator so that
  // a restored optimizer draws the same.
  if (config_.structure.mode == StructureMode::random_tree) draw_random_tree(random);
  // A learning due now: the model of this ask; with "relearn": "ahead", it runs while the host
  // evaluates this ask's point instead, and is the model from the next ask on
  // (optimizer/learning_ahead.hpp).
  if (learning_due()) {
    if (config_.structure.relearn == Relearn::ahead) {
      begin_learning_at_ask(interrupt);
    } else {
      relearn(interrupt);
    }
  }
  // The first failure: its model's hyperparameters are learned now (then with each learning).
  if (!failures_.empty() && !model_.failure_parameters) {
    model_.failure_parameters =
        learn_failure_model(failure_learning_input(data(), model_, model_.structure.cliques));
  }
  const double beta = ask_beta(known);
  // Why a hedge: on the data a search collects, the likelihood often cannot tell which
  // variables interact, and a graph learned from it can mislead every ask the same way; random
  // decompositions (Ziomek & Bou-Ammar 2023) do not, but ignore what the data does show.
  // Alternating the two keeps the strengths of both (docs/benchmarks.md). The hedge's model has
  // the learned hyperparameters on a fresh random forest, its posteriors built for this ask
  // only; the learned model stays the model of record.
  std::optional<ModelInstance> hedge;
  if (random_tree_ask_due(known)) {
    hedge.emplace();
    hedge->parameters = model_.parameters;
    hedge->parameters.edges = random_tree_edges(random);
    hedge->parameters.jitter = 0.0;  // a new model's jitter ladder starts from none
    for (const ConstraintModel& constraint : model_.constraints) {
      hedge->constraints.push_back(ConstraintModel{constraint.parameters, std::nullopt});
      hedge->constraints.back().parameters.jitter = 0.0;
    }
    hedge->failure_parameters = model_.failure_parameters;
    hedge->structure = build_structure(config_, space_, hedge->parameters.edges);
  }
  ModelInstance& model = hedge ? *hedge : model_;
  // The local phase searches its box on the box's own model; a box with nothing left to ask
  // gives way to the global search.
  std::optional<AskDecision> chosen;
  if (trust_region().local) {
    // A noisy objective's box is centred by the model of record's posterior means (box_centre):
    // built here once after a learning and kept current by the tells, not built from scratch
    // at every local ask (O(n^3) each: 67 ms an ask at 800 noisy observations in 20 variables).
    if (noisy() && !model_.posterior) build_posterior(data(), model_);
    chosen = choose_in_box(model, beta, random);
  }
  if (!chosen) {
    if (hedge || !model_.posterior) build_posterior(data(), model);
    chosen = choose_over(model, beta, random);
  }
  if (chosen && hedge) {
    record.random_tree = true;
    record.random_tree_edges = std::move(hedge->parameters.edges);
  }
  if (chosen) return std::move(*chosen);
  // Every grid cell is known (a small discrete domain), or a long run of the best cells is.
  return free_point(AskPhase::fallback);
}

std::vector<double> OptimizerEngine::ask(const InterruptCheck& interrupt) {
  if (pending_.size() >= static_cast<std::size_t>(config_.max_pending)) {
    throw Error(Status::state, std::to_string(pending_.size()) +
                                   " points are pending, and limits.max_pending is " +
                                   std::to_string(config_.max_pending) +
                                   ": tell or cancel one before asking again");
  }
  // Committed only on success: a failed ask leaves the saved state as it was, and the model as
  // a handle restored from it has it (the strong guarantee of docs/c-api.md). Everything that
  // can throw runs on copies or before the commit; the posteriors, which the ask may have
  // changed half way, are derived state: on failure they are discarded and rebuilt when next
  // needed from the unchanged history and origin, with identical tables.
  Random random = random_;
  ModelParameters parameters = model_.parameters;
  std::vector<ModelParameters> constraints;
  for (const ConstraintModel& constraint : model_.constraints) {
    constraints.push_back(constraint.parameters);
  }
  std::optional<FailureHyperparameters> failure_parameters = model_.failure_parameters;
  ModelStructure structure = model_.structure;
  std::vector<std::size_t> edge_since = edge_since_;
  LearningState learning = learning_;
  PosteriorOrigin origin = model_.origin;
  LearningAhead ahead = learning_ahead_;  // shares the learning the last ask began
  AskRecord record;
  std::vector<double> x, pending_point;
  std::optional<ObservedCells> reindexed;
  try {
    record.decision = decide(random, record, interrupt);
    // A learning that changed the grids (a coarsened starting graph learned away) moves the
    // index of told points to the new ones.
    if (model_.structure.grids.indices != observed_cells_.grids.indices) {
      reindexed = index_cells(model_.structure.grids);
    }
    record.time = std::chrono::system_clock::now();
    x = record.decision.x;
    pending_point = x;
    reserve_one_more(pending_);
    if (model_.posterior && !add_pending_to(data(), *model_.posterior, pending_point)) {
      model_.drop_posterior();
    }
  } catch (...) {
    discard_posterior(std::move(origin));
    model_.parameters = std::move(parameters);
    for (std::size_t k = 0; k < constraints.size(); ++k) {
      model_.constraints[k].parameters = std::move(constraints[k]);
    }
    model_.failure_parameters = std::move(failure_parameters);
    model_.structure = std::move(structure);
    edge_since_ = std::move(edge_since);
    learning_ = std::move(learning);
    learning_ahead_ = std::move(ahead);
    begun_learning_.drop();
    throw;
  }
  // The commit: nothing below allocates (the pending list has room for the point).
  pending_.push_back(std::move(pending_point));
  random_ = random;
  if (reindexed) std::swap(observed_cells_, *reindexed);
  last_ask_ = std::move(record);
  if (begun_learning_.held()) {
    learning_ahead_ = std::move(begun_learning_);
    learning_ahead_.start();
  }
  return x;
}

void OptimizerEngine::tell(const std::vector<double>& x, double y,
                           const std::vector<double>& constraints) {
  space_.check_point(x, "x");
  if (!std::isfinite(y)) throw invalid_argument("y is not a finite number");
  if (constraints.size() != config_.constraints.size()) {
    throw invalid_argument(
        std::to_string(constraints.size()) +
        " constraint values were given, and the "
        "configuration has " +
        std::to_string(config_.constraints.size()) +
        " constraints: give one value per constraint, in the order of \"constraints\"");
  }
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    if (!std::isfinite(constraints[k])) {
      throw invalid_argument("constraints[" + std::to_string(k) + "] (constraint '" +
                             shorten_for_message(config_.constraints[k].name) +
                             "') is not a finite number");
    }
  }
  const std::ptrdiff_t pending_index = find_pending(x);
  // The new lists and index entries are made before anything changes, and the posteriors,
  // updated in place, are discarded if that fails half way (as in ask): a failed tell changes
  // nothing.
  std::vector<std::vector<double>> remaining = pending_;
  if (pending_index >= 0) remaining.erase(remaining.begin() + pending_index);
  Observation observation{x, y, constraints};
  reserve_one_more(observations_);
  ranking_.reserve_one_more();
  const std::vector<int> told_cell = grid_cell(space_, observed_cells_.grids, x);
  const std::vector<double> told_u = space_.encode_point(x);
  const bool replicate_disagrees = !noisy_since_ && disagrees(told_cell, told_u, y);
  CellPoints::Addition cell =
      observed_cells_.cells.prepare(told_cell, told_u, observations_.size());
  PosteriorOrigin origin = model_.origin;
  // A model that would hold more than limits.max_model_observations is built again at the next
  // ask from a chosen part of them (batch_observations): a function of the history alone, so a
  // restored optimizer, which has no posterior yet, makes the same choice.
  const bool refit =
      model_.origin.built_at && !origin_fits(model_.structure.max_observations,
                                             *model_.origin.built_at, observations_.size() + 1);
  try {
    if (refit) {
      model_.drop_posterior();
    } else if (model_.posterior) {
      if (add_observation_to(data(), model_, observation)) {
        refresh_pending(remaining);
      } else {
        model_
            .drop_posterior();  // numerically a duplicate: rebuilt with more jitter at the next ask
      }
    }
  } catch (...) {
    discard_posterior(std::move(origin));
    throw;
  }
  // The commit: nothing below allocates.
  observed_cells_.cells.commit(std::move(cell));
  ranking_.add(goal_value(y));
  if (replicate_disagrees) noisy_since_ = observations_.size() + 1;
  if (config_.feasible(constraints)) {
    region_.add(goal_value(y), observations_.size());
    ++feasible_count_;
    if (!best_index_ || goal_value(y) > goal_value(observations_[*best_index_].y)) {
      best_index_ = observations_.size();
    }
  } else {
    region_.add_failure(observations_.size() + 1);
  }
  observations_.push_back(std::move(observation));  // has room
  if (pending_index < 0 && !pending_.empty()) ++unmatched_tells_;
  pending_.swap(remaining);
  last_tell_time_ = std::chrono::system_clock::now();
}

void OptimizerEngine::tell_failure(const std::vector<double>& x) {
  space_.check_point(x, "x");
  const std::ptrdiff_t pending_index = find_pending(x);
  std::vector<std::vector<double>> remaining = pending_;
  if (pending_index >= 0) remaining.erase(remaining.begin() + pending_index);
  Failure failure{x, observations_.size()};
  reserve_one_more(failures_);
  CellPoints::Addition cell = observed_cells_.failed.prepare(
      grid_cell(space_, observed_cells_.grids, x), space_.encode_point(x));
  PosteriorOrigin origin = model_.origin;
  try {
    // A failure tells the objective's model nothing; only its pending points change.
    if (model_.posterior && pending_index >= 0) refresh_pending(remaining);
  } catch (...) {
    discard_posterior(std::move(origin));
    throw;
  }
  // The commit: nothing below allocates.
  observed_cells_.failed.commit(std::move(cell));
  region_.add_failure(observations_.size());
  failures_.push_back(std::move(failure));  // has room
  if (pending_index < 0 && !pending_.empty()) ++unmatched_tells_;
  pending_.swap(remaining);
  last_tell_time_ = std::chrono::system_clock::now();
}

void OptimizerEngine::cancel(const std::vector<double>& x) {
  space_.check_point(x, "x");
  const std::ptrdiff_t pending_index = find_pending(x);
  if (pending_index < 0)
    throw invalid_argument(
        "x is not a pending point (ask returned no such point, or it was already told or "
        "cancelled)");
  std::vector<std::vector<double>> remaining = pending_;
  remaining.erase(remaining.begin() + pending_index);
  PosteriorOrigin origin = model_.origin;
  try {
    if (model_.posterior) refresh_pending(remaining);
  } catch (...) {
    discard_posterior(std::move(origin));
    throw;
  }
  pending_.swap(remaining);
}

Observation OptimizerEngine::best() const {
  if (observations_.empty()) throw Error(Status::state, "no observation has been told yet");
  if (!best_index_) {
    throw Error(Status::state, "none of the " + std::to_string(observations_.size()) +
                                   " observations told meets every constraint yet");
  }
  // On a noisy objective the best value told is the luckiest draw: the model's mean is not.
  if (noisy()) return observations_[best_by_model()];
  return observations_[*best_index_];
}

}  // namespace addbo::core
