#include "optimizer/optimizer_engine.hpp"

#include <algorithm>
#include <cmath>

#include "acquisition/ucb.hpp"
#include "maximize/max_sum.hpp"
#include "util/error.hpp"

namespace addbo {
namespace {

// Jitter ladder (DESIGN.md: escalate 1e-10 -> 1e-4 before giving up).
constexpr double kFirstJitter = 1e-10;
constexpr double kLastJitter = 1e-4;

double next_jitter(double jitter) { return jitter == 0.0 ? kFirstJitter : jitter * 10.0; }

}  // namespace

OptimizerEngine::OptimizerEngine(const Config& config)
    : config_(config), space_(config.variables), random_(config.seed) {
  check_supported();
  parameters_.edges = config_.structure.edges;
  parameters_.lengthscales = config_.kernel.lengthscales;
  parameters_.noise_variance = config_.kernel.noise_variance;
  build_structure();
}

OptimizerEngine::OptimizerEngine(const Config& config, ModelParameters parameters,
                                 std::vector<Observation> observations,
                                 std::vector<std::vector<double>> pending, const Random& random)
    : config_(config),
      space_(config.variables),
      random_(random),
      parameters_(std::move(parameters)),
      observations_(std::move(observations)),
      pending_(std::move(pending)) {
  check_supported();
  build_structure();
}

void OptimizerEngine::check_supported() const {
  if (config_.strategy == Strategy::random) return;
  // Structure and hyperparameter learning arrive with the Gibbs samplers; until then a model
  // needs its graph and kernel given in full.
  if (config_.structure.mode != StructureMode::fixed) {
    throw ConfigError("/structure/mode",
                      "only \"fixed\" is available in this version (give the edges); \"learn\" "
                      "and \"disjoint\" need the structure learner");
  }
  if (config_.kernel.learn_lengthscales) {
    throw ConfigError("/kernel/lengthscales",
                      "must be an array of one lengthscale per variable in this version "
                      "(learning needs the structure learner)");
  }
  if (config_.kernel.learn_noise) {
    throw ConfigError("/kernel/noise_variance",
                      "must be a number in this version (learning needs the structure learner)");
  }
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
    AdditivePosterior posterior(make_kernel(), axes, jitter);
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

bool OptimizerEngine::is_known(const std::vector<double>& x) const {
  if (find_pending(x) >= 0) return true;
  return std::any_of(observations_.begin(), observations_.end(),
                     [&](const Observation& observation) { return observation.x == x; });
}

std::vector<double> OptimizerEngine::maximize_acquisition(double mean_weight, double sd_weight) {
  const std::vector<Table> tables = acquisition_tables(*posterior_, mean_weight, sd_weight);
  const MaxSumResult best = maximize_sum(structure_.tree, tables, structure_.grids.sizes());
  std::vector<double> x(space_.dimension());
  for (std::size_t d = 0; d < x.size(); ++d) {
    x[d] = space_.grid_value(d, structure_.grids.indices[d][best.assignment[d]]);
  }
  return x;
}

std::vector<double> OptimizerEngine::choose_point(Random& random) {
  const std::size_t known = observations_.size() + pending_.size();
  if (config_.strategy == Strategy::random || observations_.empty() ||
      known < static_cast<std::size_t>(config_.initial_points)) {
    return space_.random_point(random);
  }
  if (!posterior_) build_posterior();
  const double beta = ucb_beta(config_.beta_scale, known + 1);
  // The clique deviations sigma_C stay large even at evaluated points (the data pin down the
  // sum of the components, not each one), so a dominant mean can make GP-UCB choose a point
  // that is already observed or pending: asking it again teaches the model nothing. Then widen
  // the exploration step by step, and as a last resort draw at random, so that every ask is a
  // new point.
  std::vector<double> x;
  for (double widen = 1.0; widen <= 1024.0; widen *= 4.0) {
    x = maximize_acquisition(1.0, std::sqrt(beta * widen));
    if (!is_known(x)) return x;
  }
  x = maximize_acquisition(0.0, 1.0);
  if (!is_known(x)) return x;
  return space_.random_point(random);
}

std::vector<double> OptimizerEngine::ask() {
  Random random = random_;  // committed only on success
  std::vector<double> x = choose_point(random);
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
      // No structure learning yet: the parameters are the configured ones.
      {"likelihood_evaluations", 0},
      {"seconds", 0.0},
  };
  info["log_likelihood"] =
      posterior_ ? nlohmann::json(posterior_->log_marginal_likelihood()) : nlohmann::json(nullptr);
  return info;
}

}  // namespace addbo
