#include "optimizer/optimizer_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "acquisition/ucb.hpp"
#include "graph/partition.hpp"
#include "graph/random_forest.hpp"
#include "json/json_text.hpp"
#include "learn/gibbs_sampler.hpp"
#include "learn/learning_data.hpp"
#include "linalg/numerics.hpp"
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

double middle_choice(std::vector<double> choices) {
  std::sort(choices.begin(), choices.end());
  return choices[choices.size() / 2];
}

// A wall-clock time as ISO 8601 UTC with milliseconds ("2025-01-31T12:00:00.123Z"); null when
// there is none.
nlohmann::json iso_time(const std::optional<std::chrono::system_clock::time_point>& time) {
  if (!time) return nullptr;
  const auto since_epoch = time->time_since_epoch();
  const std::int64_t milliseconds =
      std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count();
  const std::int64_t seconds =
      milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000;
  const std::time_t whole = static_cast<std::time_t>(seconds);
  std::tm utc{};
  if (gmtime_r(&whole, &utc) == nullptr) return nullptr;
  char text[40];
  const int written =
      std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                    utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                    static_cast<int>(milliseconds - seconds * 1000));
  if (written <= 0 || written >= static_cast<int>(sizeof text)) return nullptr;
  return std::string(text);
}

// Room for one more element, made as push_back would make it (doubling), so that the
// push_back of a call's commit cannot throw.
template <class T>
void reserve_one_more(std::vector<T>& list) {
  if (list.size() == list.capacity()) list.reserve(std::max<std::size_t>(8, 2 * list.size()));
}

// A finite number, or null (NaN: not recorded).
nlohmann::json number_or_null(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace

OptimizerEngine::OptimizerEngine(const Config& config)
    : config_(config),
      space_(config.variables),
      random_(config.seed),
      design_(make_design(config)) {
  learning_.random = Random(learning_seed(config.seed));
  parameters_ = initial_parameters();
  edge_since_.assign(parameters_.edges.size(), 0);  // given before any observation
  build_structure();
}

OptimizerEngine::OptimizerEngine(const Config& config, ModelParameters parameters,
                                 std::vector<Observation> observations,
                                 std::vector<std::vector<double>> pending, const Random& random,
                                 LearningState learning, PosteriorOrigin origin,
                                 std::vector<std::size_t> edge_since)
    : config_(config),
      space_(config.variables),
      random_(random),
      parameters_(std::move(parameters)),
      edge_since_(std::move(edge_since)),
      learning_(std::move(learning)),
      observations_(std::move(observations)),
      pending_(std::move(pending)),
      design_(make_design(config)),
      origin_(origin) {
  build_structure();
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
    input.y_model.push_back(model_value(observation.y));
  }
  // structure.max_learning_points, and never more than the model holds at most.
  const std::size_t model_cap = static_cast<std::size_t>(config_.max_model_observations);
  const std::size_t learning_cap = static_cast<std::size_t>(config_.structure.max_learning_points);
  input.max_points = learning_cap == 0 ? model_cap : std::min(learning_cap, model_cap);
  input.budget = static_cast<std::size_t>(config_.structure.gibbs_evaluations);
  input.threads = resolve_thread_count(config_.threads);
  input.start = parameters_;
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
  parameters.jitter = parameters_.jitter;
  // random-tree draws its graph at every ask: learning only sets the hyperparameters.
  if (config_.structure.mode == StructureMode::random_tree) parameters.edges = parameters_.edges;
  // The chain often keeps the graph and hyperparameters it had: then the posterior tables are
  // already those of the model (rebuilding them would replay every observation for nothing).
  // A new model needs a new structure and a posterior rebuilt from scratch, whose jitter
  // ladder starts again from none; if the structure cannot be built, nothing changes.
  if (!(parameters == parameters_)) {
    parameters.jitter = 0.0;
    std::vector<std::size_t> edge_since =
        carry_edge_since(parameters_.edges, edge_since_, parameters.edges, learned_at);
    std::swap(parameters_, parameters);
    std::swap(edge_since_, edge_since);
    try {
      build_structure();
    } catch (...) {
      std::swap(parameters_, parameters);
      std::swap(edge_since_, edge_since);
      throw;
    }
    drop_posterior();
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

void OptimizerEngine::build_structure() {
  const int dimension = static_cast<int>(space_.dimension());
  const Graph graph(dimension, parameters_.edges);
  std::vector<int> full_sizes(space_.dimension());
  for (std::size_t d = 0; d < full_sizes.size(); ++d) full_sizes[d] = space_.grid_size(d);
  const auto plan = [&](const std::vector<VarSet>& nodes) {
    try {
      return plan_grids(full_sizes, nodes, config_.max_table_cells);
    } catch (const Error& error) {
      throw ConfigError("/structure/edges", error.what());
    }
  };
  // Fail fast: the junction tree's nodes, the maximal cliques of the triangulated graph, are at
  // most D and found in polynomial time, while the given graph can have exponentially many
  // maximal cliques (14 million for a dense graph of 45 variables). A graph whose nodes cannot
  // fit the cell budget is refused before those are listed.
  plan(maximal_cliques(triangulate_min_fill(graph)));
  ModelStructure structure;
  structure.cliques = maximal_cliques(graph);
  structure.tree = build_junction_tree(graph, structure.cliques);
  structure.grids = plan(structure.tree.nodes);
  structure_ = std::move(structure);
}

AdditiveKernel OptimizerEngine::make_kernel() const {
  std::vector<VariableType> types(space_.dimension());
  for (std::size_t d = 0; d < types.size(); ++d) types[d] = space_.type(d);
  return AdditiveKernel(std::move(types), structure_.cliques, parameters_.lengthscales,
                        parameters_.noise_variance);
}

void OptimizerEngine::build_posterior() {
  std::vector<std::vector<double>> axes(space_.dimension());
  for (std::size_t d = 0; d < axes.size(); ++d) {
    for (int index : structure_.grids.indices[d])
      axes[d].push_back(space_.encoded_grid_value(d, index));
  }
  double jitter = parameters_.jitter;
  PosteriorOrigin origin;
  posterior_ = make_posterior(axes, resolve_thread_count(config_.threads), jitter, origin);
  parameters_.jitter = jitter;
  origin_ = origin;
}

void OptimizerEngine::drop_posterior() {
  posterior_.reset();
  origin_ = PosteriorOrigin{};
}

AdditivePosterior OptimizerEngine::make_posterior(const std::vector<std::vector<double>>& axes,
                                                  int threads, double& jitter_used,
                                                  PosteriorOrigin& origin) const {
  const std::size_t told = observations_.size();
  // How many observations the batch holds: all of them, or after a restore what the saved
  // optimizer's did. A version 1 state (built_at 0) adds every observation one at a time (the
  // batch is empty), climbing the jitter ladder as then.
  std::size_t batch = told;
  if (origin_.built_at && *origin_.built_at <= told && origin_fits(*origin_.built_at, told)) {
    batch = *origin_.built_at;
    // The saved optimizer's tables, at its jitter. Should a pivot fail, the saved optimizer
    // failed on it too and dropped its tables: then, as it did, all the observations at once.
    if (batch > 0) {
      if (std::optional<AdditivePosterior> posterior =
              batch_then_replay(axes, threads, parameters_.jitter, batch)) {
        jitter_used = parameters_.jitter;
        origin.built_at = batch;
        return std::move(*posterior);
      }
      batch = told;
    }
  }
  for (double jitter = parameters_.jitter;; jitter = next_jitter(jitter)) {
    if (past_last_jitter(jitter)) {
      throw Error(Status::numerical,
                  "the kernel matrix stays singular even with jitter 1e-4 added to the noise");
    }
    if (std::optional<AdditivePosterior> posterior =
            batch_then_replay(axes, threads, jitter, batch)) {
      jitter_used = jitter;
      origin.built_at = batch;
      return std::move(*posterior);
    }
  }
}

std::optional<AdditivePosterior> OptimizerEngine::batch_then_replay(
    const std::vector<std::vector<double>>& axes, int threads, double jitter,
    std::size_t batch) const {
  std::optional<AdditivePosterior> posterior;
  posterior.emplace(make_kernel(), axes, jitter, threads);
  std::vector<std::vector<double>> points;
  std::vector<double> values;
  for (std::size_t i : batch_observations(batch)) {
    points.push_back(space_.encode_point(observations_[i].x));
    values.push_back(model_value(observations_[i].y));
  }
  if (!posterior->build(points, values)) return std::nullopt;
  for (std::size_t i = batch; i < observations_.size(); ++i) {
    if (!posterior->add_observation(space_.encode_point(observations_[i].x),
                                    model_value(observations_[i].y))) {
      return std::nullopt;
    }
  }
  // At most limits.max_pending of them: only a loaded state can hold more, and its asks fail
  // until some are told or cancelled; a prediction meanwhile does not pay for them all.
  const std::size_t pending = std::min(pending_.size(), max_pending());
  for (std::size_t k = 0; k < pending; ++k) {
    if (!add_pending_to(*posterior, pending_[k])) return std::nullopt;
  }
  return posterior;
}

std::size_t OptimizerEngine::batch_size(std::size_t told) const {
  const std::size_t cap = static_cast<std::size_t>(config_.max_model_observations);
  return told <= cap ? told : cap - cap / 4;
}

std::vector<std::size_t> OptimizerEngine::batch_observations(std::size_t told) const {
  std::vector<double> values;
  values.reserve(told);
  for (std::size_t i = 0; i < told; ++i) values.push_back(model_value(observations_[i].y));
  return select_observations(values, batch_size(told));
}

bool OptimizerEngine::origin_fits(std::size_t built_at, std::size_t told) const {
  return batch_size(built_at) + (told - built_at) <=
         static_cast<std::size_t>(config_.max_model_observations);
}

std::vector<std::size_t> OptimizerEngine::model_observations(const PosteriorOrigin& origin) const {
  const std::size_t told = observations_.size();
  std::vector<std::size_t> indices = batch_observations(origin.built_at.value_or(told));
  for (std::size_t i = origin.built_at.value_or(told); i < told; ++i) indices.push_back(i);
  return indices;
}

bool OptimizerEngine::add_pending_to(AdditivePosterior& posterior,
                                     const std::vector<double>& x) const {
  // Fantasised at f's lower confidence bound with the weight an ask made now would use
  // (t: the told points, the pending points before this one, plus one): see
  // gp/additive_posterior.hpp for why not at the mean.
  const double beta =
      ucb_beta(config_.beta_scale, posterior.observation_count() + posterior.pending_count() + 1);
  return posterior.add_pending(space_.encode_point(x), std::sqrt(beta));
}

void OptimizerEngine::refresh_pending(const std::vector<std::vector<double>>& pending) {
  posterior_->clear_pending();
  for (const std::vector<double>& x : pending) {
    if (!add_pending_to(*posterior_, x)) {
      drop_posterior();
      return;
    }
  }
}

void OptimizerEngine::discard_posterior(const PosteriorOrigin& origin) noexcept {
  posterior_.reset();
  origin_ = origin;
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
  if (edges == parameters_.edges) return;
  edge_since_ = carry_edge_since(parameters_.edges, edge_since_, edges, observations_.size());
  parameters_.edges = std::move(edges);
  build_structure();
  drop_posterior();
}

std::vector<double> OptimizerEngine::ask() {
  if (pending_.size() >= max_pending()) {
    throw Error(Status::state, std::to_string(pending_.size()) +
                                   " points are pending, and limits.max_pending is " +
                                   std::to_string(max_pending()) +
                                   ": tell or cancel one before asking again");
  }
  // Committed only on success: a failed ask leaves the saved state as it was, and the model as
  // a handle restored from it has it (the strong guarantee of docs/c-api.md). Everything that
  // can throw runs on copies or before the commit; the posterior, which the ask may have changed
  // half way, is derived state: on failure it is discarded and rebuilt when next needed from the
  // unchanged history and origin, with identical tables.
  Random random = random_;
  ModelParameters parameters = parameters_;
  std::vector<std::size_t> edge_since = edge_since_;
  LearningState learning = learning_;
  ModelStructure structure = structure_;
  const PosteriorOrigin origin = origin_;
  std::vector<double> x, pending_point;
  AskRecord record;
  ask_beta_ = ask_weight_ = ask_acquisition_ = std::numeric_limits<double>::quiet_NaN();
  try {
    x = choose_point(random);
    if (choice_ == AskChoice::global || choice_ == AskChoice::local) {
      record.beta = ask_beta_;
      record.weight = ask_weight_;
      record.acquisition = ask_acquisition_;
      record.random_tree = ask_random_tree_;
      if (ask_random_tree_) record.random_edges = ask_random_edges_;
    }
    record.x = x;
    record.time = std::chrono::system_clock::now();
    pending_point = x;
    reserve_one_more(pending_);
    if (posterior_ && !add_pending_to(*posterior_, x)) drop_posterior();
  } catch (...) {
    discard_posterior(origin);
    parameters_ = std::move(parameters);
    edge_since_ = std::move(edge_since);
    learning_ = std::move(learning);
    structure_ = std::move(structure);
    throw;
  }
  // The commit: nothing below allocates (the pending list has room for the point).
  pending_.push_back(std::move(pending_point));
  random_ = random;
  last_choice_ = choice_;
  last_ask_ = std::move(record);
  return x;
}

void OptimizerEngine::tell(const std::vector<double>& x, double y) {
  space_.check_point(x, "x");
  if (!std::isfinite(y)) throw invalid_argument("y is not a finite number");
  const std::ptrdiff_t pending_index = find_pending(x);
  // The new lists are made before anything changes, and the posterior, updated in place, is
  // discarded if that fails half way (as in ask): a failed tell changes nothing.
  std::vector<std::vector<double>> remaining = pending_;
  if (pending_index >= 0) remaining.erase(remaining.begin() + pending_index);
  Observation observation{x, y};
  reserve_one_more(observations_);
  const PosteriorOrigin origin = origin_;
  // A model that would hold more than limits.max_model_observations is built again at the next
  // ask from a chosen part of them (batch_observations): a function of the history alone, so a
  // restored optimizer, which has no posterior yet, makes the same choice.
  const bool refit = origin_.built_at && !origin_fits(*origin_.built_at, observations_.size() + 1);
  try {
    if (refit) {
      drop_posterior();
    } else if (posterior_) {
      posterior_->clear_pending();
      if (posterior_->add_observation(space_.encode_point(x), model_value(y))) {
        refresh_pending(remaining);
      } else {
        drop_posterior();  // numerically a duplicate: rebuilt with more jitter at the next ask
      }
    }
  } catch (...) {
    discard_posterior(origin);
    throw;
  }
  observations_.push_back(std::move(observation));  // has room: cannot throw
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
  const PosteriorOrigin origin = origin_;
  try {
    if (posterior_) refresh_pending(remaining);
  } catch (...) {
    discard_posterior(origin);
    throw;
  }
  pending_.swap(remaining);
}

Observation OptimizerEngine::best() const {
  if (observations_.empty()) throw Error(Status::state, "no observation has been told yet");
  const Observation* best = &observations_.front();
  for (const Observation& observation : observations_) {
    if (model_value(observation.y) > model_value(best->y)) best = &observation;
  }
  return *best;
}

nlohmann::json OptimizerEngine::info() const {
  using json = nlohmann::json;
  // Built in place, every member set with operator[] (json_text.hpp, build_json_object).
  return build_json_object([&](json& info) {
    set_array_of_arrays(info["edges"], parameters_.edges);
    put(info["edge_since"], edge_since_);
    set_array_of_arrays(info["cliques"], structure_.cliques);
    json& tree = info["junction_tree"] = json::object();
    set_array_of_arrays(tree["nodes"], structure_.tree.nodes);
    set_array_of_arrays(tree["links"], structure_.tree.links);
    put(tree["factor_node"], structure_.tree.factor_node);
    put(tree["grid_sizes"], structure_.grids.sizes());
    tree["coarsened"] = structure_.grids.coarsened;
    put(info["lengthscales"], parameters_.lengthscales);
    info["noise_variance"] = parameters_.noise_variance;
    info["jitter"] = parameters_.jitter;
    info["observations"] = observations_.size();
    info["pending"] = pending_.size();
    // How many of the observations the model holds (limits.max_model_observations).
    const std::size_t told = observations_.size();
    info["model_observations"] =
        origin_.built_at && *origin_.built_at <= told && origin_fits(*origin_.built_at, told)
            ? batch_size(*origin_.built_at) + (told - *origin_.built_at)
            : batch_size(told);
    set_array_of_arrays(info["pending_points"], pending_);
    info["likelihood_evaluations"] = learning_.evaluations;
    info["seconds"] = learning_.seconds;
    info["learned_at_observations"] = learning_.learned_at;
    if (!parameters_.labels.empty()) put(info["labels"], parameters_.labels);
    // Where the next model-based ask searches: the whole grid, or the local box.
    const TrustRegionState region = trust_region();
    // How the last ask of this handle chose its point (not saved: "none" after a restore).
    static const char* const kChoiceNames[] = {"none", "initial design", "global", "local",
                                               "random"};
    json& search = info["search"] = json::object();
    search["phase"] = region.local ? "local" : "global";
    search["box_length"] = region.local ? region.length : 0.0;
    search["restarts"] = region.restarts;
    search["last_ask"] = kChoiceNames[static_cast<int>(last_choice_)];
    // Names beside indices: the variables, and the edges, cliques and junction-tree nodes by
    // name.
    json& names = info["variables"] = json::array();
    for (std::size_t d = 0; d < space_.dimension(); ++d) names.push_back(space_.variable(d).name);
    const auto write_named = [&](const VarSet& set, json& list) {
      list = json::array();
      for (int v : set) list.push_back(names[static_cast<std::size_t>(v)]);
    };
    json& edge_names = info["edge_names"] = json::array();
    for (const Edge& edge : parameters_.edges) {
      write_named({edge.first, edge.second}, edge_names.emplace_back());
    }
    json& clique_names = info["clique_names"] = json::array();
    for (const VarSet& clique : structure_.cliques)
      write_named(clique, clique_names.emplace_back());
    json& node_names = tree["node_names"] = json::array();
    for (const VarSet& node : structure_.tree.nodes) write_named(node, node_names.emplace_back());
    // The best told observation, as addbo_best gives it.
    json& best_json = info["best"];
    if (!observations_.empty()) {
      const Observation top = best();
      best_json = json::object();
      put(best_json["x"], top.x);
      best_json["y"] = top.y;
    }
    // The last ask and tell of this handle (not saved: null after a restore). The phase tells
    // the fallback to a random point apart from the random strategy.
    const char* phase = kChoiceNames[static_cast<int>(last_choice_)];
    if (last_choice_ == AskChoice::random && config_.strategy != Strategy::random) {
      phase = "fallback";
    }
    json& last_ask = info["last_ask"] = json::object();
    last_ask["phase"] = phase;
    json& last_x = last_ask["x"];
    if (last_ask_.time) put(last_x, last_ask_.x);
    last_ask["beta"] = number_or_null(last_ask_.beta);
    last_ask["exploration_weight"] = number_or_null(last_ask_.weight);
    last_ask["acquisition"] = number_or_null(last_ask_.acquisition);
    last_ask["graph"] = !last_ask_.time || std::isnan(last_ask_.beta)
                            ? json(nullptr)
                            : json(last_ask_.random_tree ? "random tree" : "model");
    if (last_ask_.random_tree) {
      set_array_of_arrays(last_ask["random_tree_edges"], last_ask_.random_edges);
    } else {
      last_ask["random_tree_edges"] = nullptr;
    }
    last_ask["time"] = iso_time(last_ask_.time);
    json& last_tell = info["last_tell"] = json::object();
    last_tell["time"] = iso_time(last_tell_time_);
    // The last learning's chosen sample; without learning, the current model on all the data.
    if (learning_.learned_at > 0) {
      info["log_likelihood"] = learning_.log_likelihood;
    } else {
      info["log_likelihood"] =
          posterior_ ? json(posterior_->log_marginal_likelihood()) : json(nullptr);
    }
  });
}

}  // namespace addbo::core
