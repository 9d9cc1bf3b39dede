#include "optimizer/optimizer_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "acquisition/random_points.hpp"
#include "acquisition/ucb.hpp"
#include "graph/partition.hpp"
#include "graph/random_forest.hpp"
#include "learn/gibbs_sampler.hpp"
#include "optimizer/edge_history.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// How far (as a fraction of a continuous variable's range) a told or cancelled point may be
// from a pending one and still be it: covers six printed decimals on ranges down to about 1.
constexpr double kPendingTolerance = 1e-6;

// A learning the host asks for needs two observations: the likelihood of one standardised
// value says nothing about the graph or the lengthscales.
constexpr std::size_t kMinLearningObservations = 2;

// Multiply-adds of a hedged ask's posterior build up to which the hedge keeps its full share
// (about 0.3 s on one core): every run of a few hundred evaluations at D <= 50 on 32-point grids.
constexpr double kHedgeWork = 1e9;

// The learning generator's seed: a fixed odd constant mixed into the user's seed keeps it
// distinct from the main stream.
std::uint64_t learning_seed(std::uint64_t seed) { return seed ^ 0x9E3779B97F4A7C15ull; }

// The initial design's strata come from a third stream of their own.
std::uint64_t design_seed(std::uint64_t seed) { return seed ^ 0xC2B2AE3D27D4EB4Full; }

// The Latin hypercube keeps D x N strata in memory: past this many, the initial points beyond
// the first 2^20 / D are uniform random.
constexpr std::size_t kMaxDesignEntries = std::size_t{1} << 20;

LatinHypercube make_design(const Config& config) {
  Random random(design_seed(config.seed));
  const std::size_t dimension = std::max<std::size_t>(config.dimension(), 1);
  const std::size_t points = std::min(static_cast<std::size_t>(config.initial_points),
                                      std::max<std::size_t>(1, kMaxDesignEntries / dimension));
  return LatinHypercube(config.dimension(), points, random);
}

TrustRegionRule region_rule(const Space& space) {
  int finest_grid = 2;
  for (std::size_t d = 0; d < space.dimension(); ++d)
    finest_grid = std::max(finest_grid, space.grid_size(d));
  return trust_region_rule(space.dimension(), finest_grid);
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
      region_rule_(region_rule(space_)) {
  learning_.random = Random(learning_seed(config.seed));
  model_.parameters = initial_parameters();
  edge_since_.assign(model_.parameters.edges.size(), 0);  // given before any observation
  model_.structure = build_structure(config_, space_, model_.parameters.edges);
  index_observations();
}

OptimizerEngine::OptimizerEngine(const Config& config, ModelParameters parameters,
                                 std::vector<Observation> observations,
                                 std::vector<std::vector<double>> pending, const Random& random,
                                 LearningState learning, PosteriorOrigin origin,
                                 std::vector<std::size_t> edge_since)
    : config_(config),
      space_(config.variables),
      random_(random),
      edge_since_(std::move(edge_since)),
      learning_(std::move(learning)),
      observations_(std::move(observations)),
      pending_(std::move(pending)),
      design_(make_design(config)),
      region_rule_(region_rule(space_)) {
  model_.parameters = std::move(parameters);
  model_.origin = origin;
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
  ObservedCells index{grids, {}};
  for (const Observation& observation : observations_) {
    index.cells.add(grid_cell(space_, grids, observation.x), space_.encode_point(observation.x));
  }
  return index;
}

void OptimizerEngine::index_observations() {
  observed_cells_ = index_cells(model_.structure.grids);
  region_ = TrustRegionTracker(static_cast<std::size_t>(config_.initial_points), region_rule_);
  best_index_ = 0;
  for (std::size_t i = 0; i < observations_.size(); ++i) {
    const double value = goal_value(observations_[i].y);
    region_.add(value);
    if (value > goal_value(observations_[best_index_].y)) best_index_ = i;
  }
}

const CellPoints& OptimizerEngine::observed_cells_on(const GridPlan& grids,
                                                     std::optional<CellPoints>& scratch) const {
  if (grids.indices == observed_cells_.grids.indices) return observed_cells_.cells;
  scratch = index_cells(grids).cells;
  return *scratch;
}

TrustRegionState OptimizerEngine::trust_region() const {
  if (!config_.local_search || config_.strategy != Strategy::gp_ucb) return TrustRegionState();
  return region_.state();
}

bool OptimizerEngine::learns() const {
  return config_.strategy == Strategy::gp_ucb &&
         (config_.structure.mode != StructureMode::fixed || config_.kernel.learn_lengthscales ||
          config_.kernel.learn_noise);
}

bool OptimizerEngine::learning_due() const {
  const std::size_t n = observations_.size();
  if (!learns() || config_.structure.manual_relearn) return false;
  if (n < static_cast<std::size_t>(config_.initial_points)) return false;
  return learning_.learned_at == 0 ||
         n >= learning_.learned_at + static_cast<std::size_t>(config_.structure.relearn_every);
}

LearningInput OptimizerEngine::learning_input() const {
  LearningInput input;
  GibbsSettings& settings = input.settings;
  settings.mode = config_.structure.mode;
  settings.learn_lengthscales = config_.kernel.learn_lengthscales;
  settings.learn_noise = config_.kernel.learn_noise;
  settings.edge_prior = config_.structure.edge_probability(space_.dimension());
  settings.lengthscale_choices = config_.kernel.lengthscale_choices;
  settings.lengthscale_prior = config_.kernel.lengthscale_prior;
  settings.lengthscale_spread = config_.kernel.lengthscale_spread;
  settings.noise_choices = config_.kernel.noise_variance_choices;
  for (std::size_t d = 0; d < space_.dimension(); ++d) {
    settings.grid_sizes.push_back(space_.grid_size(d));
    input.types.push_back(space_.type(d));
  }
  settings.max_node_cells = node_cell_limit();
  for (const Observation& observation : observations_) {
    input.points.push_back(space_.encode_point(observation.x));
    input.y_model.push_back(goal_value(observation.y));
  }
  // structure.max_learning_points, and never more than the model holds at most.
  const std::size_t model_cap = static_cast<std::size_t>(config_.max_model_observations);
  const std::size_t learning_cap = static_cast<std::size_t>(config_.structure.max_learning_points);
  input.max_points = learning_cap == 0 ? model_cap : std::min(learning_cap, model_cap);
  input.budget = static_cast<std::size_t>(config_.structure.gibbs_evaluations);
  input.threads = resolve_thread_count(config_.threads);
  input.start = model_.parameters;
  input.scan = learning_.scan;
  input.random = learning_.random;
  return input;
}

void OptimizerEngine::commit_learning(const LearningOutput& output, std::size_t learned_at,
                                      double seconds) {
  // Everything that can throw (copies, the new structure) happens before the commit, which
  // only moves: a failed commit changes nothing.
  LearningState learning = learning_;
  learning.scan = output.scan;
  learning.random = output.random;
  learning.learned_at = learned_at;
  learning.log_likelihood = output.log_likelihood;
  learning.evaluations = output.evaluations;
  learning.seconds = seconds;
  ModelParameters parameters = output.best;
  // Learning does not judge the jitter (the model's may have grown since the learning began).
  parameters.jitter = model_.parameters.jitter;
  // random-tree draws its graph at every ask: learning only sets the hyperparameters.
  if (config_.structure.mode == StructureMode::random_tree) {
    parameters.edges = model_.parameters.edges;
  }
  // The chain often keeps the graph and hyperparameters it had: then the posterior tables are
  // already those of the model (rebuilding them would replay every observation for nothing).
  // A new model needs a new structure and a posterior rebuilt from scratch, whose jitter
  // ladder starts again from none; if the structure cannot be built, nothing changes.
  if (!(parameters == model_.parameters)) {
    parameters.jitter = 0.0;
    std::vector<std::size_t> edge_since =
        carry_edge_since(model_.parameters.edges, edge_since_, parameters.edges, learned_at);
    ModelStructure structure = build_structure(config_, space_, parameters.edges);
    model_.parameters = std::move(parameters);
    model_.structure = std::move(structure);
    edge_since_ = std::move(edge_since);
    model_.drop_posterior();
  }
  learning_ = std::move(learning);
}

void OptimizerEngine::relearn() {
  const auto start = std::chrono::steady_clock::now();
  const LearningOutput output = learn_model(learning_input());
  commit_learning(output, observations_.size(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

std::unique_ptr<LearningJob> OptimizerEngine::begin_learning() const {
  if (!learns() || observations_.size() < kMinLearningObservations) return nullptr;
  auto job = std::make_unique<LearningJob>();
  job->input = learning_input();
  job->observations = observations_.size();
  job->learning_before = learning_;
  return job;
}

void run_learning(LearningJob& job) {
  const auto start = std::chrono::steady_clock::now();
  job.output = learn_model(job.input);
  job.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  job.done = true;
}

bool OptimizerEngine::finish_learning(const LearningJob& job) {
  if (!job.done) throw Error(Status::internal, "finish_learning: the job has not run");
  // Another learning committed since the job began (an ask that relearned): keep it, so that
  // the sampler's generator and scan never step back.
  const LearningState& before = job.learning_before;
  if (learning_.learned_at != before.learned_at || !(learning_.scan == before.scan) ||
      learning_.random.state() != before.random.state()) {
    return false;
  }
  commit_learning(job.output, job.observations, job.seconds);
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

void OptimizerEngine::discard_posterior(const PosteriorOrigin& origin) noexcept {
  model_.posterior.reset();
  model_.origin = origin;
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
  // The build holds at most limits.max_model_observations observations (batch_size).
  const double n = static_cast<double>(batch_size(config_, observations_.size()) +
                                       (known - observations_.size()));
  const double work = n * n * cells + n * n * n / 3.0;
  return config_.structure.random_tree_ask(known, std::min(1.0, kHedgeWork / work));
}

std::optional<AskDecision> OptimizerEngine::choose_over(const ModelInstance& model, double beta) {
  const GridPlan& grids = model.structure.grids;
  std::optional<CellPoints> scratch;
  const CellPoints pending = cell_points(space_, grids, pending_);
  const ModelView view{space_, model.structure.tree, grids, *model.posterior,
                       CellOccupancy{observed_cells_on(grids, scratch), pending}};
  std::optional<DomainMasks> box;
  if (!observations_.empty()) box = trust_region_box(space_, grids, trust_region(), best().x);
  return choose_model_point(view, beta, box);
}

AskDecision OptimizerEngine::decide(Random& random, AskRecord& record) {
  const std::size_t known = observations_.size() + pending_.size();
  AskDecision decision;
  if (config_.strategy == Strategy::random) {
    decision.phase = AskPhase::random;
    decision.x = space_.random_point(random);
    return decision;
  }
  const auto occupancy_free_point = [&](AskPhase phase) {
    const GridPlan& grids = model_.structure.grids;
    std::optional<CellPoints> scratch;
    const CellPoints pending = cell_points(space_, grids, pending_);
    const CellOccupancy occupancy{observed_cells_on(grids, scratch), pending};
    decision.phase = phase;
    decision.x = phase == AskPhase::initial_design
                     ? initial_design_point(space_, grids, design_, known, occupancy, random)
                     : free_random_point(space_, grids, occupancy, random);
    return decision;
  };
  if (observations_.empty() || known < static_cast<std::size_t>(config_.initial_points)) {
    return occupancy_free_point(AskPhase::initial_design);
  }
  // RDUCB: a new random decomposition for every ask, drawn from the ask's own generator so that
  // a restored optimizer draws the same.
  if (config_.structure.mode == StructureMode::random_tree) draw_random_tree(random);
  if (learning_due()) relearn();
  // t counts every point evaluated or pending, the initial design included: the exploration
  // weight grows with the information the model has been given.
  const double beta = ucb_beta(config_.beta_scale, known + 1);
  std::optional<AskDecision> chosen;
  if (random_tree_ask_due(known)) {
    // Why a hedge: on the data a search collects, the likelihood often cannot tell which
    // variables interact, and a graph learned from it can mislead every ask the same way;
    // random decompositions (Ziomek & Bou-Ammar 2023) do not, but ignore what the data does
    // show. Alternating the two keeps the strengths of both (docs/benchmarks.md). The hedge's
    // model has the learned hyperparameters on a fresh random forest, its posterior built for
    // this ask only; the learned model stays the model of record.
    ModelInstance hedge;
    hedge.parameters = model_.parameters;
    hedge.parameters.edges = random_tree_edges(random);
    hedge.parameters.jitter = 0.0;  // a new model's jitter ladder starts from none
    hedge.structure = build_structure(config_, space_, hedge.parameters.edges);
    build_posterior(data(), hedge);
    chosen = choose_over(hedge, beta);
    if (chosen) {
      record.random_tree = true;
      record.random_tree_edges = std::move(hedge.parameters.edges);
    }
  } else {
    if (!model_.posterior) build_posterior(data(), model_);
    chosen = choose_over(model_, beta);
  }
  if (chosen) return std::move(*chosen);
  // Every grid cell is known (a small discrete domain), or a long run of the best cells is.
  return occupancy_free_point(AskPhase::fallback);
}

std::vector<double> OptimizerEngine::ask() {
  if (pending_.size() >= static_cast<std::size_t>(config_.max_pending)) {
    throw Error(Status::state, std::to_string(pending_.size()) +
                                   " points are pending, and limits.max_pending is " +
                                   std::to_string(config_.max_pending) +
                                   ": tell or cancel one before asking again");
  }
  // Committed only on success: a failed ask leaves the saved state as it was, and the model as
  // a handle restored from it has it (the strong guarantee of docs/c-api.md). Everything that
  // can throw runs on copies or before the commit; the posterior, which the ask may have changed
  // half way, is derived state: on failure it is discarded and rebuilt when next needed from the
  // unchanged history and origin, with identical tables.
  Random random = random_;
  ModelParameters parameters = model_.parameters;
  ModelStructure structure = model_.structure;
  std::vector<std::size_t> edge_since = edge_since_;
  LearningState learning = learning_;
  const PosteriorOrigin origin = model_.origin;
  AskRecord record;
  std::vector<double> x, pending_point;
  std::optional<ObservedCells> reindexed;
  try {
    record.decision = decide(random, record);
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
    discard_posterior(origin);
    model_.parameters = std::move(parameters);
    model_.structure = std::move(structure);
    edge_since_ = std::move(edge_since);
    learning_ = std::move(learning);
    throw;
  }
  // The commit: nothing below allocates (the pending list has room for the point).
  pending_.push_back(std::move(pending_point));
  random_ = random;
  if (reindexed) std::swap(observed_cells_, *reindexed);
  last_ask_ = std::move(record);
  return x;
}

void OptimizerEngine::tell(const std::vector<double>& x, double y) {
  space_.check_point(x, "x");
  if (!std::isfinite(y)) throw invalid_argument("y is not a finite number");
  const std::ptrdiff_t pending_index = find_pending(x);
  // The new lists and index entries are made before anything changes, and the posterior,
  // updated in place, is discarded if that fails half way (as in ask): a failed tell changes
  // nothing.
  std::vector<std::vector<double>> remaining = pending_;
  if (pending_index >= 0) remaining.erase(remaining.begin() + pending_index);
  Observation observation{x, y};
  reserve_one_more(observations_);
  CellPoints::Addition cell = observed_cells_.cells.prepare(
      grid_cell(space_, observed_cells_.grids, x), space_.encode_point(x));
  const PosteriorOrigin origin = model_.origin;
  // A model that would hold more than limits.max_model_observations is built again at the next
  // ask from a chosen part of them (batch_observations): a function of the history alone, so a
  // restored optimizer, which has no posterior yet, makes the same choice.
  const bool refit = model_.origin.built_at &&
                     !origin_fits(config_, *model_.origin.built_at, observations_.size() + 1);
  try {
    if (refit) {
      model_.drop_posterior();
    } else if (model_.posterior) {
      model_.posterior->clear_pending();
      if (model_.posterior->add_observation(space_.encode_point(x), goal_value(y))) {
        refresh_pending(remaining);
      } else {
        model_
            .drop_posterior();  // numerically a duplicate: rebuilt with more jitter at the next ask
      }
    }
  } catch (...) {
    discard_posterior(origin);
    throw;
  }
  // The commit: nothing below allocates.
  observed_cells_.cells.commit(std::move(cell));
  region_.add(goal_value(y));
  if (observations_.empty() || goal_value(y) > goal_value(observations_[best_index_].y)) {
    best_index_ = observations_.size();
  }
  observations_.push_back(std::move(observation));  // has room
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
  const PosteriorOrigin origin = model_.origin;
  try {
    if (model_.posterior) refresh_pending(remaining);
  } catch (...) {
    discard_posterior(origin);
    throw;
  }
  pending_.swap(remaining);
}

Observation OptimizerEngine::best() const {
  if (observations_.empty()) throw Error(Status::state, "no observation has been told yet");
  return observations_[best_index_];
}

}  // namespace addbo::core
