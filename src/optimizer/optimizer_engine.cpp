#include "optimizer/optimizer_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <set>

#include "acquisition/ucb.hpp"
#include "gp/standardization.hpp"
#include "learn/gibbs_sampler.hpp"
#include "graph/random_forest.hpp"
#include "maximize/continuous_refinement.hpp"
#include "maximize/max_sum_excluding.hpp"
#include "optimizer/trust_region.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace addbo {
namespace {

// Jitter ladder: escalate 1e-10 -> 1e-4 before giving up.
constexpr double kFirstJitter = 1e-10;
constexpr double kLastJitter = 1e-4;

double next_jitter(double jitter) { return jitter == 0.0 ? kFirstJitter : jitter * 10.0; }

// How many known grid cells the acquisition's maximiser may pass over before the ask falls back
// to a random point: each costs D max-sum passes, and a run of hundreds means the model has
// nothing left to say about the grid.
constexpr std::size_t kMaxKnownCellsSkipped = 256;
// In a local box a short run of known points ranking first means the box is used up: the
// ask then searches the whole grid instead.
constexpr std::size_t kMaxKnownInBoxSkipped = 8;

// A learning the host asks for needs two observations: the likelihood of one standardised
// value says nothing about the graph or the lengthscales.
constexpr std::size_t kMinLearningObservations = 2;

// A point is known when its posterior variance (standardised units) is at most this many noise
// variances, and at most the cap: a noisy objective may be evaluated again where it pays.
constexpr double kKnownNoiseMultiple = 10.0;
constexpr double kKnownVarianceCap = 1e-2;

// The exploration weight's steps when the acquisition settles on an observed point.
constexpr double kExplorationWidening = 4.0;
constexpr double kMaxExplorationWidening = 1024.0;

// The learning generator's seed: a fixed odd constant mixed into the user's seed keeps it
// distinct from the main stream.
std::uint64_t learning_seed(std::uint64_t seed) { return seed ^ 0x9E3779B97F4A7C15ull; }

// The initial design's strata come from a third stream of their own.
std::uint64_t design_seed(std::uint64_t seed) { return seed ^ 0xC2B2AE3D27D4EB4Full; }

// The Latin hypercube keeps D x N strata in memory: past this many, the initial points beyond
// the first 2^20 / D are uniform random.
constexpr std::size_t kMaxDesignEntries = std::size_t{1} << 20;

// A discrete domain of at most this many grid cells is listed to find the unknown ones.
constexpr std::size_t kMaxListedCells = std::size_t{1} << 16;

LatinHypercube make_design(const Config& config) {
  Random random(design_seed(config.seed));
  const std::size_t dimension = std::max<std::size_t>(config.dimension(), 1);
  const std::size_t points =
      std::min(static_cast<std::size_t>(config.initial_points), std::max<std::size_t>(1, kMaxDesignEntries / dimension));
  return LatinHypercube(config.dimension(), points, random);
}

double middle_choice(std::vector<double> choices) {
  std::sort(choices.begin(), choices.end());
  return choices[choices.size() / 2];
}

// Labels of the connected components of a graph (the disjoint groups that contain it).
std::vector<int> component_labels(int dimension, const std::vector<Edge>& edges) {
  std::vector<int> parent(static_cast<std::size_t>(dimension));
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const Edge& edge : edges) parent[root(edge.first)] = root(edge.second);
  std::vector<int> labels(static_cast<std::size_t>(dimension)), index(static_cast<std::size_t>(dimension), -1);
  int next = 0;
  for (int d = 0; d < dimension; ++d) {
    int& label = index[root(d)];
    if (label < 0) label = next++;
    labels[d] = label;
  }
  return labels;
}

}  // namespace

OptimizerEngine::OptimizerEngine(const Config& config)
    : config_(config), space_(config.variables), random_(config.seed), design_(make_design(config)) {
  learning_.random = Random(learning_seed(config.seed));
  parameters_ = initial_parameters();
  build_structure();
}

OptimizerEngine::OptimizerEngine(const Config& config, ModelParameters parameters,
                                 std::vector<Observation> observations,
                                 std::vector<std::vector<double>> pending, const Random& random,
                                 LearningState learning)
    : config_(config),
      space_(config.variables),
      random_(random),
      parameters_(std::move(parameters)),
      learning_(std::move(learning)),
      observations_(std::move(observations)),
      pending_(std::move(pending)),
      design_(make_design(config)) {
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
          ? std::vector<double>(space_.dimension(), middle_choice(config_.kernel.lengthscale_choices))
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
  input.max_points = static_cast<std::size_t>(config_.structure.max_learning_points);
  input.budget = static_cast<std::size_t>(config_.structure.gibbs_evaluations);
  input.threads = resolve_thread_count(config_.threads);
  input.start = ModelSample{parameters_.edges, parameters_.labels, parameters_.lengthscales,
                            parameters_.noise_variance};
  input.scan = learning_.scan;
  input.random = learning_.random;
  return input;
}

void OptimizerEngine::commit_learning(const LearningOutput& output, std::size_t learned_at,
                                      double seconds) {
  LearningState learning = learning_;
  learning.scan = output.scan;
  learning.random = output.random;
  learning.learned_at = learned_at;
  learning.log_likelihood = output.log_likelihood;
  learning.evaluations = output.evaluations;
  learning.seconds = seconds;

  ModelParameters parameters;
  // random-tree draws its graph at every ask: learning only sets the hyperparameters.
  parameters.edges = config_.structure.mode == StructureMode::random_tree ? parameters_.edges
                                                                          : output.best.edges;
  parameters.labels = output.best.labels;
  parameters.lengthscales = output.best.lengthscales;
  parameters.noise_variance = output.best.noise_variance;
  // The chain often keeps the graph and hyperparameters it had: then the posterior tables are
  // already those of the model (rebuilding them would replay every observation for nothing).
  if (parameters.edges == parameters_.edges && parameters.labels == parameters_.labels &&
      parameters.lengthscales == parameters_.lengthscales &&
      parameters.noise_variance == parameters_.noise_variance) {
    learning_ = std::move(learning);
    return;
  }
  // The new parameters need a new structure and a posterior rebuilt from scratch.
  std::swap(parameters_, parameters);
  try {
    build_structure();
  } catch (...) {
    std::swap(parameters_, parameters);
    throw;
  }
  learning_ = std::move(learning);
  posterior_.reset();
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
  ModelStructure structure;
  structure.cliques = maximal_cliques(graph);
  structure.tree = build_junction_tree(graph, structure.cliques);
  std::vector<int> full_sizes(space_.dimension());
  for (std::size_t d = 0; d < full_sizes.size(); ++d) full_sizes[d] = space_.grid_size(d);
  try {
    structure.grids = plan_grids(full_sizes, structure.tree.nodes, config_.max_table_cells);
  } catch (const Error& error) {
    throw ConfigError("/structure/edges", error.what());
  }
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
    for (int index : structure_.grids.indices[d]) axes[d].push_back(space_.encoded_grid_value(d, index));
  }
  for (double jitter = parameters_.jitter;; jitter = next_jitter(jitter)) {
    if (jitter > kLastJitter * 1.5) {
      throw Error(Status::numerical,
                  "the kernel matrix stays singular even with jitter 1e-4 added to the noise");
    }
    AdditivePosterior posterior(make_kernel(), axes, jitter, resolve_thread_count(config_.threads));
    bool ok = true;
    for (const Observation& observation : observations_) {
      ok = posterior.add_observation(space_.encode_point(observation.x), model_value(observation.y));
      if (!ok) break;
    }
    for (std::size_t i = 0; ok && i < pending_.size(); ++i) {
      ok = posterior.add_pending(space_.encode_point(pending_[i]));
    }
    if (ok) {
      posterior_ = std::move(posterior);
      parameters_.jitter = jitter;
      return;
    }
  }
}

void OptimizerEngine::refresh_pending() {
  posterior_->clear_pending();
  for (const std::vector<double>& x : pending_) {
    if (!posterior_->add_pending(space_.encode_point(x))) {
      posterior_.reset();
      return;
    }
  }
}

std::ptrdiff_t OptimizerEngine::find_pending(const std::vector<double>& x) const {
  const auto found = std::find(pending_.begin(), pending_.end(), x);
  return found == pending_.end() ? -1 : found - pending_.begin();
}

std::vector<int> OptimizerEngine::grid_cell(const std::vector<double>& x) const {
  std::vector<int> cell(x.size());
  for (std::size_t d = 0; d < x.size(); ++d) {
    // The plan's grid values ascend with their index: the nearest one is beside the first
    // value not below x[d].
    const std::vector<int>& indices = structure_.grids.indices[d];
    std::size_t low = 0, high = indices.size();
    while (low < high) {
      const std::size_t middle = (low + high) / 2;
      if (space_.grid_value(d, indices[middle]) < x[d]) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    std::size_t nearest = std::min(low, indices.size() - 1);
    if (low > 0 && (low == indices.size() ||
                    x[d] - space_.grid_value(d, indices[low - 1]) <=
                        space_.grid_value(d, indices[low]) - x[d])) {
      nearest = low - 1;
    }
    cell[d] = static_cast<int>(nearest);
  }
  return cell;
}

std::set<std::vector<int>> OptimizerEngine::known_cells() const {
  std::set<std::vector<int>> known;
  for (const Observation& observation : observations_) known.insert(grid_cell(observation.x));
  for (const std::vector<double>& x : pending_) known.insert(grid_cell(x));
  return known;
}

std::vector<double> OptimizerEngine::initial_point(std::size_t k, Random& random) const {
  const std::set<std::vector<int>> known = known_cells();
  if (k < design_.size()) {
    // A few new positions within the same strata before giving the strata up.
    for (int attempt = 0; attempt < 8; ++attempt) {
      const std::vector<double> u = design_.point(k, random);
      std::vector<double> x(u.size());
      for (std::size_t d = 0; d < x.size(); ++d) x[d] = space_.from_unit(d, u[d]);
      if (known.count(grid_cell(x)) == 0) return x;
    }
  }
  return unknown_random_point(known, random);
}

std::vector<double> OptimizerEngine::unknown_random_point(const std::set<std::vector<int>>& known,
                                                          Random& random) const {
  std::vector<double> x;
  for (int attempt = 0; attempt < 64; ++attempt) {
    x = space_.random_point(random);
    if (known.count(grid_cell(x)) == 0) return x;
  }
  // Mostly known: on a small discrete domain, list the unknown cells and pick one.
  const std::vector<int> sizes = structure_.grids.sizes();
  std::size_t cells = 1;
  for (std::size_t d = 0; d < sizes.size() && cells <= kMaxListedCells; ++d) {
    if (space_.type(d) == VariableType::continuous) cells = kMaxListedCells + 1;
    cells *= static_cast<std::size_t>(sizes[d]);
  }
  if (cells > kMaxListedCells) return x;
  std::vector<std::vector<int>> unknown;
  std::vector<int> cell(sizes.size(), 0);
  for (std::size_t i = 0; i < cells; ++i) {
    if (known.count(cell) == 0) unknown.push_back(cell);
    for (std::size_t d = 0; d < cell.size() && ++cell[d] == sizes[d]; ++d) cell[d] = 0;
  }
  if (unknown.empty()) return x;  // everything is known: any point is as good
  return grid_point(unknown[random.below(unknown.size())]);
}

std::vector<double> OptimizerEngine::grid_point(const std::vector<int>& cell) const {
  std::vector<double> x(space_.dimension());
  for (std::size_t d = 0; d < x.size(); ++d) {
    x[d] = space_.grid_value(d, structure_.grids.indices[d][cell[d]]);
  }
  return x;
}

double OptimizerEngine::known_variance() const {
  return std::min(kKnownVarianceCap,
                  kKnownNoiseMultiple * (parameters_.noise_variance + parameters_.jitter));
}

std::optional<std::vector<double>> OptimizerEngine::maximize_acquisition(double beta) {
  // A grid point is known when a point was evaluated (or is pending) in its cell and the model
  // has nothing left to learn there: its posterior variance (of f itself, from the full
  // posterior) is within a few noise variances of zero. A confident prediction alone is not
  // enough: the point the model believes best must still be evaluated to be had. The clique
  // deviations sigma_C stay large even at evaluated points (the data pin down the sum of the
  // components, not each one), so the additive UCB can rank a known point first, and asking it
  // again would teach the model nothing:
  //  - when the best cell's grid point is known only through pending points (a batch), the
  //    best unknown one is asked, found exactly;
  //  - when it is known through observations, the search has settled there: the exploration
  //    weight grows (x4 per step, at most x1024) until the best grid point is new, then the
  //    best unknown one at the widest weight is asked.
  // A noisy objective (noise variance above the threshold) is re-evaluated where UCB says so.
  // In the local phase (optimizer/trust_region.hpp) only the box is searched, and a known
  // best point there gives way to the best unknown one at once; a box with nothing left to ask
  // gives way to the whole grid.
  if (const std::optional<DomainMasks> box = trust_region_box()) {
    if (std::optional<std::vector<double>> x = maximize_acquisition_within(beta, *box, false)) {
      choice_ = AskChoice::local;
      return x;
    }
  }
  choice_ = AskChoice::global;
  return maximize_acquisition_within(beta, DomainMasks(), true);
}

std::optional<std::vector<double>> OptimizerEngine::maximize_acquisition_within(
    double beta, const DomainMasks& allowed, bool widen_when_settled) {
  const double threshold = known_variance();
  std::set<std::vector<int>> observed;
  for (const Observation& observation : observations_) observed.insert(grid_cell(observation.x));
  std::set<std::vector<int>> evaluated = observed;
  for (const std::vector<double>& x : pending_) evaluated.insert(grid_cell(x));
  const auto known_through = [&](const std::vector<int>& cell, bool with_pending) {
    if ((with_pending ? evaluated : observed).count(cell) == 0) return false;
    return posterior_->variance_at(space_.encode_point(grid_point(cell)), with_pending) <= threshold;
  };
  const std::vector<int> sizes = structure_.grids.sizes();
  double widen = 1.0;
  for (;; widen *= kExplorationWidening) {
    const double sd_weight = std::sqrt(beta * widen);
    const std::vector<Table> tables = acquisition_tables(*posterior_, 1.0, sd_weight);
    if (widen < kMaxExplorationWidening) {
      const MaxSumResult best = maximize_sum(structure_.tree, tables, sizes, allowed);
      if (!known_through(best.assignment, true)) {
        return refined_point(tables, best.assignment, sd_weight, evaluated.count(best.assignment) > 0);
      }
      if (widen_when_settled && known_through(best.assignment, false)) continue;
    }
    const auto found = maximize_sum_excluding(
        structure_.tree, tables, sizes,
        [&](const std::vector<int>& cell) { return known_through(cell, true); },
        widen_when_settled ? kMaxKnownCellsSkipped : kMaxKnownInBoxSkipped, allowed);
    if (!found) return std::nullopt;
    return refined_point(tables, found->best.assignment, sd_weight,
                         evaluated.count(found->best.assignment) > 0);
  }
}

TrustRegionState OptimizerEngine::trust_region() const {
  if (!config_.local_search || config_.strategy != Strategy::gp_ucb) return TrustRegionState();
  std::vector<double> values;
  int finest_grid = 2;
  for (std::size_t d = 0; d < space_.dimension(); ++d) finest_grid = std::max(finest_grid, space_.grid_size(d));
  for (const Observation& observation : observations_) values.push_back(goal_value(observation.y));
  return replay_trust_region(values, static_cast<std::size_t>(config_.initial_points),
                             trust_region_rule(space_.dimension(), finest_grid));
}

std::optional<DomainMasks> OptimizerEngine::trust_region_box() const {
  const TrustRegionState region = trust_region();
  if (!region.local || observations_.empty()) return std::nullopt;
  // The box is centred on the best observation, in encoded units; categorical variables keep
  // every choice (a box has no meaning for them).
  const std::vector<double> centre = space_.encode_point(best().x);
  const std::vector<int> nearest = grid_cell(best().x);
  DomainMasks masks(space_.dimension());
  for (std::size_t d = 0; d < space_.dimension(); ++d) {
    if (space_.type(d) == VariableType::categorical) continue;
    const std::vector<int>& indices = structure_.grids.indices[d];
    std::vector<char>& mask = masks[d];
    mask.assign(indices.size(), 0);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      mask[k] = std::fabs(space_.encoded_grid_value(d, indices[k]) - centre[d]) <= 0.5 * region.length;
    }
    mask[static_cast<std::size_t>(nearest[d])] = 1;
  }
  return masks;
}

std::vector<double> OptimizerEngine::refined_point(const std::vector<Table>& tables,
                                                   const std::vector<int>& cell, double sd_weight,
                                                   bool cell_evaluated) const {
  std::vector<double> x = grid_point(cell);
  const std::vector<int> sizes = structure_.grids.sizes();
  std::vector<char> movable(x.size(), 0);
  bool any = false;
  for (std::size_t d = 0; d < x.size(); ++d) {
    movable[d] = space_.type(d) == VariableType::continuous && sizes[d] >= 2;
    any = any || movable[d];
  }
  if (!any) return x;
  const std::vector<double> position = refine_on_interpolant(tables, sizes, movable, cell);
  std::vector<double> refined = x;
  bool moved = false;
  for (std::size_t d = 0; d < x.size(); ++d) {
    if (position[d] == static_cast<double>(cell[d])) continue;
    // Between the two plan grid points around the position (a coarsened plan is not evenly
    // spaced in index, so each interval is interpolated on its own).
    const std::vector<int>& indices = structure_.grids.indices[d];
    const int low = static_cast<int>(std::floor(position[d]));
    const int high = std::min(low + 1, sizes[d] - 1);
    const double a = space_.grid_value(d, indices[low]), b = space_.grid_value(d, indices[high]);
    refined[d] = std::min(std::max(a + (position[d] - low) * (b - a), std::min(a, b)), std::max(a, b));
    moved = true;
  }
  if (!moved) return x;
  // The interpolant only guides the search: the refined point is asked only when its exact
  // acquisition beats the grid point's (whose exact value is the tables' entry).
  std::vector<double> mean, variance;
  posterior_->clique_moments(space_.encode_point(refined), mean, variance);
  double refined_value = 0.0, grid_value = 0.0;
  for (std::size_t c = 0; c < tables.size(); ++c) {
    refined_value += mean[c] + sd_weight * std::sqrt(std::max(variance[c], 0.0));
    grid_value += tables[c].values[table_offset(tables[c].vars, sizes, cell)];
  }
  // A refined point that duplicates the point evaluated in its cell is not asked (the grid
  // point itself is not known, so it is).
  if (cell_evaluated &&
      posterior_->variance_at(space_.encode_point(refined), true) <= known_variance()) {
    return x;
  }
  return refined_value > grid_value ? refined : x;
}

std::int64_t OptimizerEngine::node_cell_limit() const {
  return std::min(config_.structure.max_clique_cells, config_.max_table_cells);
}

void OptimizerEngine::draw_random_tree(Random& random) {
  const int dimension = static_cast<int>(space_.dimension());
  const std::int64_t limit = node_cell_limit();
  const auto fits = [&](const Edge& edge) {
    return std::int64_t{space_.grid_size(static_cast<std::size_t>(edge.first))} *
               space_.grid_size(static_cast<std::size_t>(edge.second)) <=
           limit;
  };
  std::vector<Edge> edges = random_forest(
      dimension, config_.structure.tree_edge_count(space_.dimension()), random, fits);
  if (edges == parameters_.edges) return;
  parameters_.edges = std::move(edges);
  build_structure();
  posterior_.reset();
}

std::vector<double> OptimizerEngine::choose_point(Random& random) {
  const std::size_t known = observations_.size() + pending_.size();
  choice_ = AskChoice::random;
  if (config_.strategy == Strategy::random) return space_.random_point(random);
  choice_ = AskChoice::initial_design;
  if (observations_.empty() || known < static_cast<std::size_t>(config_.initial_points)) {
    return initial_point(known, random);
  }
  // RDUCB: a new random decomposition for every ask, drawn from the ask's own generator so that
  // a restored optimizer draws the same.
  if (config_.structure.mode == StructureMode::random_tree) draw_random_tree(random);
  if (learning_due()) relearn();
  if (!posterior_) build_posterior();
  // t counts every point evaluated or pending, the initial design included: the exploration
  // weight grows with the information the model has been given.
  const double beta = ucb_beta(config_.beta_scale, known + 1);
  if (std::optional<std::vector<double>> x = maximize_acquisition(beta)) return *x;
  // Every grid cell is known (a small discrete domain), or a long run of the best cells is.
  choice_ = AskChoice::random;
  return unknown_random_point(known_cells(), random);
}

std::vector<double> OptimizerEngine::ask() {
  // Committed only on success: a failed ask leaves the saved state as it was. The posterior is
  // derived state; dropped, it is rebuilt from the history with identical tables.
  Random random = random_;
  ModelParameters parameters = parameters_;
  LearningState learning = learning_;
  ModelStructure structure = structure_;
  std::vector<double> x;
  try {
    x = choose_point(random);
  } catch (...) {
    if (!(parameters == parameters_)) posterior_.reset();
    parameters_ = std::move(parameters);
    learning_ = std::move(learning);
    structure_ = std::move(structure);
    throw;
  }
  if (posterior_) {
    try {
      if (!posterior_->add_pending(space_.encode_point(x))) posterior_.reset();
    } catch (...) {
      posterior_.reset();  // derived state: rebuilt from the unchanged history when needed
      throw;
    }
  }
  pending_.push_back(x);
  random_ = random;
  last_choice_ = choice_;
  return x;
}

void OptimizerEngine::tell(const std::vector<double>& x, double y) {
  space_.check_point(x, "x");
  if (!std::isfinite(y)) throw invalid_argument("y is not a finite number");
  const std::ptrdiff_t pending_index = find_pending(x);
  std::vector<std::vector<double>> remaining = pending_;
  if (pending_index >= 0) remaining.erase(remaining.begin() + pending_index);

  if (posterior_) {
    try {
      posterior_->clear_pending();
      if (!posterior_->add_observation(space_.encode_point(x), model_value(y))) {
        posterior_.reset();
      }
    } catch (...) {
      posterior_.reset();
      throw;
    }
  }
  observations_.push_back(Observation{x, y});
  pending_.swap(remaining);
  if (posterior_) {
    try {
      refresh_pending();
    } catch (...) {
      posterior_.reset();  // the observation is kept; the model is rebuilt when next needed
    }
  }
}

void OptimizerEngine::cancel(const std::vector<double>& x) {
  space_.check_point(x, "x");
  const std::ptrdiff_t pending_index = find_pending(x);
  if (pending_index < 0) throw invalid_argument("x is not a pending point (ask returned no such point, or it was already told or cancelled)");
  pending_.erase(pending_.begin() + pending_index);
  if (posterior_) {
    try {
      refresh_pending();
    } catch (...) {
      posterior_.reset();
    }
  }
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
  nlohmann::json tree_nodes = nlohmann::json::array();
  for (const VarSet& node : structure_.tree.nodes) tree_nodes.push_back(node);
  nlohmann::json tree_links = nlohmann::json::array();
  for (const auto& link : structure_.tree.links) tree_links.push_back({link.first, link.second});
  nlohmann::json edges = nlohmann::json::array();
  for (const Edge& edge : parameters_.edges) edges.push_back({edge.first, edge.second});

  nlohmann::json info = {
      {"edges", edges},
      {"cliques", structure_.cliques},
      {"junction_tree",
       {{"nodes", tree_nodes},
        {"links", tree_links},
        {"factor_node", structure_.tree.factor_node},
        {"grid_sizes", structure_.grids.sizes()},
        {"coarsened", structure_.grids.coarsened}}},
      {"lengthscales", parameters_.lengthscales},
      {"noise_variance", parameters_.noise_variance},
      {"jitter", parameters_.jitter},
      {"observations", observations_.size()},
      {"pending", pending_.size()},
      {"likelihood_evaluations", learning_.evaluations},
      {"seconds", learning_.seconds},
      {"learned_at_observations", learning_.learned_at},
  };
  if (!parameters_.labels.empty()) info["labels"] = parameters_.labels;
  // Where the next model-based ask searches: the whole grid, or the local box.
  const TrustRegionState region = trust_region();
  // How the last ask of this handle chose its point (not saved: "none" after a restore).
  static const char* const kChoiceNames[] = {"none", "initial design", "global", "local", "random"};
  info["search"] = {{"phase", region.local ? "local" : "global"},
                    {"box_length", region.local ? region.length : 0.0},
                    {"restarts", region.restarts},
                    {"last_ask", kChoiceNames[static_cast<int>(last_choice_)]}};
  // The last learning's chosen sample; without learning, the current model on all the data.
  if (learning_.learned_at > 0) {
    info["log_likelihood"] = learning_.log_likelihood;
  } else {
    info["log_likelihood"] = posterior_ ? nlohmann::json(posterior_->log_marginal_likelihood())
                                        : nlohmann::json(nullptr);
  }
  return info;
}

}  // namespace addbo
