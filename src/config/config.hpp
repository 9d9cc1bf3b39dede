// The validated configuration (docs/configuration.md). parse_config() is the only way JSON becomes
// a Config: every later module may trust these fields without checking them again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "graph/structure_mode.hpp"
#include "learn/lengthscale_prior.hpp"
#include "maximize/grid_plan.hpp"
#include "space/variable.hpp"

namespace addbo::core {

enum class Goal { maximize, minimize };
enum class Strategy { gp_ucb, random };

// Documented limits (docs/configuration.md); going past one is a ConfigError, never a silent
// truncation.
constexpr std::size_t kMaxVariables = 10000;
constexpr int kMinGrid = 2;
constexpr int kMaxGrid = 4096;
constexpr int kMaxIntegerValues = 4096;
constexpr int kMaxJsonDepth = 32;
// limits.max_model_observations and limits.max_pending (docs/limits.md): how many observations
// the model is built from at most, and how many points may be pending. The defaults keep the
// first ask after loading a long run within seconds (docs/benchmarks.md).
constexpr int kMinModelObservations = 2;
constexpr int kDefaultMaxModelObservations = 2000;
constexpr int kDefaultMaxPending = 256;
// limits.max_model_work: the multiply-adds a build of the model's tables may cost (about
// cells x n^2 / 2 for n observations): bounds the model's observations below
// max_model_observations when its tables are large (docs/limits.md).
constexpr std::int64_t kDefaultMaxModelWork = 100000000000;  // 10^11

// Who decides when learning runs (structure.relearn).
enum class Relearn { automatic, ahead, manual };

struct StructureSpec {
  StructureMode mode = StructureMode::learn;
  std::vector<std::pair<int, int>> edges;  // normalised: i < j, sorted, no duplicates
  // Prior of the learned graph: each pair is an edge with probability edge_prior, in (0, 1).
  // Unless given it is derived from an expected degree (structure.expected_degree, a
  // deprecated alias; 1 by default) as degree / (D - 1), capped at 0.5: a probability that
  // does not scale with D expects D(D-1)/2 * p edges, dense graphs the data cannot clean up.
  double edge_prior = 0.5;
  // A learned or random graph is never used when its triangulation has a clique whose full
  // grids hold more cells than this (nor more than limits.max_table_cells): every table stays
  // small enough to update per tell and to maximise without coarsening.
  std::int64_t max_clique_cells = 32768;  // >= 2
  int tree_edges = 0;                     // random-tree: edges per draw; 0 = max(1, D / 5)
  // learn: the share of model-based asks that maximise the acquisition over a fresh random
  // tree (RDUCB) with the learned hyperparameters instead of over the learned graph, a hedge
  // against a graph learned from data that cannot identify it (docs/configuration.md). A saved
  // state without the key reads it as 0 (saved_state.cpp).
  double random_tree_share = 0.5;  // [0, 1]
  // "auto": asks relearn every relearn_every tells; "ahead": so do they, the learning running
  // while the host evaluates and made the model at the next ask; "manual": only the host's
  // learn calls do.
  Relearn relearn = Relearn::automatic;
  int relearn_every = 30;       // >= 1
  int gibbs_evaluations = 200;  // >= 1
  // Each likelihood is a Cholesky of m x m, m the points learning uses: past 500 a learning
  // round would cost seconds (200 likelihoods of 17 ms at m = 1000) for hyperparameters that
  // 500 well-chosen points already pin down. 0 = all observations.
  int max_learning_points = 500;

  // Edges of one random-tree draw for `dimension` variables.
  int tree_edge_count(std::size_t dimension) const;
  // Whether the model-based ask made with `known` points evaluated or pending uses a random
  // tree in learn mode: the asks for which floor(known * s) steps up, s = random_tree_share x
  // `scale` (the optimizer's cost bound), which spreads them evenly (every other ask at 0.5)
  // and is a function of the history alone.
  bool random_tree_ask(std::size_t known, double scale = 1.0) const;

  bool operator==(const StructureSpec& o) const {
    return mode == o.mode && edges == o.edges && edge_prior == o.edge_prior &&
           max_clique_cells == o.max_clique_cells && tree_edges == o.tree_edges &&
           random_tree_share == o.random_tree_share && relearn == o.relearn &&
           relearn_every == o.relearn_every && gibbs_evaluations == o.gibbs_evaluations &&
           max_learning_points == o.max_learning_points;
  }
};

struct KernelSpec {
  bool learn_lengthscales = true;
  std::vector<double> lengthscales;  // one per variable, > 0, when not learned
  std::vector<double> lengthscale_choices = {0.05, 0.1, 0.2, 0.4, 0.8};
  // Of a learned lengthscale over the choices (learn/lengthscale_prior.hpp).
  LengthscalePrior lengthscale_prior = LengthscalePrior::dimension_scaled;
  // Of the factor that joins the learned lengthscales (learn/lengthscale_prior.hpp); 0: none.
  double lengthscale_spread = 0.5;
  // "learn": always learned; "auto" (the default): learned once two evaluations of one point
  // disagree (the objective is noisy), noise_variance until then (docs/configuration.md).
  bool learn_noise = false;
  bool auto_noise = true;
  double noise_variance = 1e-4;  // > 0, in standardised units of y
  std::vector<double> noise_variance_choices = {1e-6, 1e-4, 1e-3, 1e-2, 1e-1, 0.3, 1.0};

  bool operator==(const KernelSpec& o) const {
    return learn_lengthscales == o.learn_lengthscales && lengthscales == o.lengthscales &&
           lengthscale_choices == o.lengthscale_choices &&
           lengthscale_prior == o.lengthscale_prior && lengthscale_spread == o.lengthscale_spread &&
           learn_noise == o.learn_noise && auto_noise == o.auto_noise &&
           noise_variance == o.noise_variance && noise_variance_choices == o.noise_variance_choices;
  }
};

// An outcome the host measures with each value, which must stay within bounds
// (docs/configuration.md, "constraints"): feasible when lower <= value <= upper, either bound
// may be absent.
struct ConstraintSpec {
  std::string name;
  bool has_lower = false, has_upper = false;
  double lower = 0.0, upper = 0.0;

  bool satisfied_by(double value) const {
    return (!has_lower || value >= lower) && (!has_upper || value <= upper);
  }
  bool operator==(const ConstraintSpec& o) const {
    return name == o.name && has_lower == o.has_lower && has_upper == o.has_upper &&
           lower == o.lower && upper == o.upper;
  }
};

// At most this many constraints: each bound is modelled by a GP of its own, as costly as the
// objective's.
constexpr std::size_t kMaxConstraints = 64;

// One bound of one constraint (its upper or its lower): what one margin model models
// (docs/real-objectives.md).
struct ConstraintBound {
  std::size_t constraint = 0;
  bool upper = true;
};

struct Config {
  std::vector<VariableSpec> variables;
  Goal goal = Goal::maximize;
  std::uint64_t seed = 0;
  int initial_points = 10;  // >= 1
  Strategy strategy = Strategy::gp_ucb;
  StructureSpec structure;
  KernelSpec kernel;
  double beta_scale = 0.5;   // acquisition.beta_scale, >= 0
  bool local_search = true;  // acquisition.local_search (optimizer/trust_region)
  std::int64_t max_table_cells = kDefaultMaxTableCells;  // limits.max_table_cells, >= 2
  int threads = 0;  // limits.threads: 0 = all cores, else an upper bound
  // limits.max_model_observations: the most observations the model is built from (past it, a
  // chosen subset: docs/limits.md), >= 2.
  int max_model_observations = kDefaultMaxModelObservations;
  // limits.max_model_work: past max_model_observations, the most a build of the model's tables
  // may cost, in multiply-adds (cells x n^2 / 2), >= 10^6.
  std::int64_t max_model_work = kDefaultMaxModelWork;
  // limits.max_pending: the most pending points; an ask past it fails, >= 1.
  int max_pending = kDefaultMaxPending;
  std::vector<ConstraintSpec> constraints;

  std::size_t dimension() const { return variables.size(); }
  // Whether every constraint holds for these values (one per constraint).
  bool feasible(const std::vector<double>& constraint_values) const {
    for (std::size_t k = 0; k < constraints.size(); ++k) {
      if (!constraints[k].satisfied_by(constraint_values[k])) return false;
    }
    return true;
  }
  // Every bound of every constraint, each constraint's lower before its upper.
  std::vector<ConstraintBound> constraint_bounds() const {
    std::vector<ConstraintBound> bounds;
    for (std::size_t k = 0; k < constraints.size(); ++k) {
      if (constraints[k].has_lower) bounds.push_back({k, false});
      if (constraints[k].has_upper) bounds.push_back({k, true});
    }
    return bounds;
  }
  // How far the constraint values are inside `bound`: upper - value, or value - lower; at least
  // 0 when the bound holds.
  double margin(const ConstraintBound& bound, const std::vector<double>& constraint_values) const {
    const ConstraintSpec& spec = constraints[bound.constraint];
    const double value = constraint_values[bound.constraint];
    return bound.upper ? spec.upper - value : value - spec.lower;
  }
  bool operator==(const Config& o) const {
    return variables == o.variables && goal == o.goal && seed == o.seed &&
           initial_points == o.initial_points && strategy == o.strategy &&
           structure == o.structure && kernel == o.kernel && beta_scale == o.beta_scale &&
           local_search == o.local_search && max_table_cells == o.max_table_cells &&
           threads == o.threads && max_model_observations == o.max_model_observations &&
           max_model_work == o.max_model_work && max_pending == o.max_pending &&
           constraints == o.constraints;
  }
};

// Validates and converts. Throws ConfigError naming the JSON pointer of the first bad field.
Config parse_config(const nlohmann::json& document);
// Parses text first (rejecting nesting deeper than kMaxJsonDepth, numbers that overflow a double,
// and malformed JSON), then validates as parse_config.
Config parse_config_text(const std::string& text);
// The canonical JSON of a Config (no shorthand, every key explicit, doubles exact):
// parse_config(config_to_json(c)) == c.
nlohmann::json config_to_json(const Config& config);
// The same written in place into `out` (a member of a larger document: json/json_text.hpp says
// why documents are built in place).
void config_to_json(const Config& config, nlohmann::json& out);

}  // namespace addbo::core
