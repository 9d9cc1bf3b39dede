// Gibbs sampling of the dependency graph and the kernel hyperparameters from their posterior
// given the data (paper section 4, Algorithm 3):
//  - "learn" (the paper's Overlap): every edge indicator Z_ij ~ Bernoulli(edge_prior); the
//    kernel's groups are the maximal cliques of G(Z). Instead of the paper's single-edge Gibbs
//    flips in scan order (a sweep over D(D-1)/2 pairs that a round's budget cannot finish past
//    D = 20, and that starves the lengthscales), the graph changes by Metropolis-Hastings
//    moves that travel through sparse graphs: remove a random edge, add a random non-edge
//    (birth/death), or move an edge to a new partner of one of its endpoints. Each move leaves
//    the posterior invariant on its own; they take a fixed share of the steps, the scan of the
//    hyperparameters the rest;
//  - "disjoint" (No Overlap, Kandasamy et al. 2015 with Wang et al. 2017's sampler): each
//    variable carries a group label with a Dirichlet-multinomial prior (alpha = 1, at most D
//    groups); the groups are the kernel's cliques;
//  - "fixed" and "random-tree": the graph is given (a random tree is drawn by the optimizer);
// and in every mode the per-variable lengthscales (over lengthscale_choices, with the prior of
// learn/lengthscale_prior.hpp, which depends on the size of the variable's largest group) and
// the noise variance (uniform over its choices) when they are learned; with a lengthscale
// spread the lengthscales' joint prior holds the factor that joins them. Each conditional is
// computed exactly from the marginal likelihood of every value of the coordinate.
//
// Graphs whose triangulation has a clique with more grid cells than max_node_cells have prior
// probability zero: the optimizer could not maximise their acquisition without coarsening.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "graph/graph.hpp"
#include "graph/partition.hpp"
#include "graph/structure_mode.hpp"
#include "learn/lengthscale_prior.hpp"
#include "learn/likelihood.hpp"
#include "learn/model_parameters.hpp"
#include "learn/scan_order.hpp"
#include "maximize/grid_plan.hpp"
#include "util/interrupt.hpp"
#include "util/random.hpp"

namespace addbo::core {

struct GibbsSettings {
  StructureMode mode = StructureMode::learn;
  bool learn_lengthscales = true;
  bool learn_noise = false;
  double edge_prior = 0.5;
  // Learn mode: the share of steps that are Metropolis-Hastings edge moves; the others update
  // the next coordinate of the scan (a lengthscale, the noise).
  double edge_move_share = 0.5;
  // Disjoint mode: a variable's label is drawn from its exact conditional (one likelihood per
  // group it could join) while there are at most this many groups to choose from; beyond, one
  // group is proposed at random and accepted by Metropolis-Hastings (one likelihood), so that a
  // step's work stays bounded at any D (D = 4,000 singletons would cost 4,000 likelihoods).
  int max_label_candidates = 32;
  std::vector<double> lengthscale_choices;
  // Uniform here; the optimizer passes the configuration's (kernel.lengthscale_prior).
  LengthscalePrior lengthscale_prior = LengthscalePrior::uniform;
  // The joining factor's spread (kernel.lengthscale_spread; learn/lengthscale_prior.hpp); 0
  // here: independent lengthscales.
  double lengthscale_spread = 0.0;
  std::vector<double> noise_choices;
  // Cells of a clique: the product of its variables' grid sizes (2 for a variable not listed).
  std::vector<int> grid_sizes;
  // A graph whose triangulation has a clique of more cells is never sampled.
  std::int64_t max_node_cells = kDefaultMaxTableCells;
};

// The groups of a sample: maximal cliques of its graph, or its label groups.
std::vector<VarSet> sample_cliques(int dimension, const ModelParameters& sample);

class GibbsSampler {
 public:
  // Evaluates the start (one likelihood evaluation).
  GibbsSampler(GibbsSettings settings, LikelihoodEvaluator& evaluator, ModelParameters start,
               ScanOrder& scan, Random& random);

  // One step: an edge move, or the next coordinate in the scan order updated by sampling its
  // exact conditional.
  void step();
  // Number of coordinates (labels, lengthscales, noise) the scan visits.
  std::uint64_t coordinate_count() const;
  bool moves_edges() const;  // learn mode: edge moves are part of the steps

  const ModelParameters& sample() const { return sample_; }
  double log_likelihood() const { return log_likelihood_; }
  double log_posterior() const { return log_likelihood_ + log_prior(sample_); }
  double log_prior(const ModelParameters& sample) const;

 private:
  int dimension() const { return static_cast<int>(sample_.lengthscales.size()); }
  double evaluate(const ModelParameters& candidate);
  // The log likelihoods of candidates[1..] evaluated as one batch, after candidates[0]'s (the
  // current sample's, known).
  std::vector<double> likelihoods_of(const std::vector<ModelParameters>& candidates);
  bool admissible(const ModelParameters& candidate) const;
  bool fits(const VarSet& clique) const;  // within max_node_cells
  // The lengthscales' log prior given the sample's groups: the group terms below and the
  // spread's joining factor; exactly 0 under the uniform prior without a spread (a constant,
  // left out so that it adds no rounding to the posterior's sums: the uniform prior's chain is
  // then the paper's sampler's, which paper_synthetic and states learned with it rely on).
  double lengthscale_log_prior_of(const ModelParameters& sample) const;
  // The part of it that depends on the groups (each variable's term given its largest group):
  // all that a move of the graph or of a label changes, since the lengthscales stay.
  double lengthscale_group_terms(const ModelParameters& sample) const;
  // The log prior of one lengthscale of a variable whose largest group has `group_size`
  // variables (0 for a value off the choices).
  double lengthscale_term(double lengthscale, int group_size) const;
  // Samples one of the candidates with probability proportional to exp(log_weight) and makes
  // it current; index 0 must be the current sample with its known likelihood.
  void choose(std::vector<ModelParameters>& candidates, const std::vector<double>& log_likelihoods,
              const std::vector<double>& log_prior_weights);
  void update_coordinate(std::uint64_t coordinate);
  // Metropolis-Hastings: makes `candidate` current with probability
  // min(1, exp(log posterior ratio + log_proposal_ratio)), where the proposal ratio is
  // q(candidate -> current) / q(current -> candidate).
  void metropolis(ModelParameters candidate, double log_proposal_ratio);
  void edge_move();
  void birth_or_death();
  void move_edge();
  void label_step(int variable);
  void lengthscale_step(int variable);
  void noise_step();

  GibbsSettings settings_;
  LikelihoodEvaluator& evaluator_;
  ModelParameters sample_;
  double log_likelihood_;
  ScanOrder& scan_;
  Random& random_;
  // lengthscale_log_prior's weights per group size, computed when first needed.
  mutable std::map<int, std::vector<double>> choice_log_priors_;
};

struct LearningResult {
  ModelParameters best;         // the visited sample with the highest posterior
  double log_likelihood = 0.0;  // of `best`
  std::size_t evaluations = 0;  // likelihood evaluations spent
};

// Runs the sampler from `start` until `budget` likelihood evaluations are spent. `interrupt` is
// polled before every step (a step costs at most a few dozen likelihoods): a request throws
// Error(Status::interrupted), and `scan` and `random` are then to be discarded.
LearningResult run_gibbs(const GibbsSettings& settings, LikelihoodEvaluator& evaluator,
                         const ModelParameters& start, std::size_t budget, ScanOrder& scan,
                         Random& random, const InterruptCheck& interrupt = InterruptCheck());

}  // namespace addbo::core
