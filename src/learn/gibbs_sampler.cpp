#include "learn/gibbs_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "util/error.hpp"

namespace addbo::core {
namespace {

constexpr double kNegativeInfinity = -std::numeric_limits<double>::infinity();

// Edge index k of the row-major enumeration of pairs (i, j), i < j, of `dimension` variables.
Edge edge_of_index(std::uint64_t k, int dimension) {
  int i = 0;
  std::uint64_t row_start = 0;
  // Rows shrink by one each time; D is at most 10,000 so a linear walk is cheap next to a
  // likelihood evaluation.
  while (k >= row_start + static_cast<std::uint64_t>(dimension - 1 - i)) {
    row_start += static_cast<std::uint64_t>(dimension - 1 - i);
    ++i;
  }
  return {i, i + 1 + static_cast<int>(k - row_start)};
}

std::uint64_t pair_count(int dimension) {
  return static_cast<std::uint64_t>(dimension) * static_cast<std::uint64_t>(dimension - 1) / 2;
}

}  // namespace

std::vector<VarSet> sample_cliques(int dimension, const ModelParameters& sample) {
  if (sample.labels.empty()) return maximal_cliques(Graph(dimension, sample.edges));
  std::map<int, VarSet> groups;
  for (int d = 0; d < dimension; ++d) groups[sample.labels[d]].push_back(d);
  std::vector<VarSet> cliques;
  for (auto& group : groups) cliques.push_back(std::move(group.second));
  std::sort(cliques.begin(), cliques.end());
  return cliques;
}

GibbsSampler::GibbsSampler(GibbsSettings settings, LikelihoodEvaluator& evaluator,
                           ModelParameters start, ScanOrder& scan, Random& random)
    : settings_(std::move(settings)),
      evaluator_(evaluator),
      sample_(std::move(start)),
      scan_(scan),
      random_(random) {
  if (settings_.mode == StructureMode::disjoint) sample_.edges = edges_of_labels(sample_.labels);
  log_likelihood_ = evaluate(sample_);
}

std::uint64_t GibbsSampler::coordinate_count() const {
  std::uint64_t count = 0;
  if (settings_.mode == StructureMode::disjoint) count += static_cast<std::uint64_t>(dimension());
  if (settings_.learn_lengthscales) count += static_cast<std::uint64_t>(dimension());
  if (settings_.learn_noise) count += 1;
  return count;
}

double GibbsSampler::log_prior(const ModelParameters& sample) const {
  const double lengthscales = lengthscale_log_prior_of(sample);
  if (settings_.mode == StructureMode::learn) {
    const double edges = static_cast<double>(sample.edges.size());
    const double non_edges = static_cast<double>(pair_count(dimension())) - edges;
    return edges * std::log(settings_.edge_prior) + non_edges * std::log1p(-settings_.edge_prior) +
           lengthscales;
  }
  if (settings_.mode == StructureMode::disjoint) {
    // Dirichlet-multinomial with K = D labels and alpha = 1:
    //   p(labels) = Gamma(K) / Gamma(D + K) * prod_k Gamma(n_k + 1).
    std::map<int, int> counts;
    for (int label : sample.labels) ++counts[label];
    const double d = static_cast<double>(dimension());
    double value = std::lgamma(d) - std::lgamma(2.0 * d);
    for (const auto& count : counts) value += std::lgamma(count.second + 1.0);
    return value + lengthscales;
  }
  return lengthscales;  // the noise has a uniform prior
}

double GibbsSampler::lengthscale_log_prior_of(const ModelParameters& sample) const {
  if (!settings_.learn_lengthscales) return 0.0;
  return lengthscale_group_terms(sample) +
         lengthscale_spread_log_prior(sample.lengthscales, settings_.lengthscale_spread);
}

double GibbsSampler::lengthscale_group_terms(const ModelParameters& sample) const {
  if (!settings_.learn_lengthscales || settings_.lengthscale_prior == LengthscalePrior::uniform) {
    return 0.0;
  }
  const std::vector<int> sizes =
      largest_group_sizes(dimension(), sample_cliques(dimension(), sample));
  double value = 0.0;
  for (int d = 0; d < dimension(); ++d) value += lengthscale_term(sample.lengthscales[d], sizes[d]);
  return value;
}

double GibbsSampler::lengthscale_term(double lengthscale, int group_size) const {
  const std::vector<double>& choices = settings_.lengthscale_choices;
  const auto choice = std::find(choices.begin(), choices.end(), lengthscale);
  if (choice == choices.end()) return 0.0;  // a start off the choices: no choice of its own
  // Computed once per group size for the whole learning: every step of every variable asks.
  auto cached = choice_log_priors_.find(group_size);
  if (cached == choice_log_priors_.end()) {
    cached = choice_log_priors_
                 .emplace(group_size,
                          lengthscale_log_prior(settings_.lengthscale_prior, choices, group_size))
                 .first;
  }
  return cached->second[static_cast<std::size_t>(choice - choices.begin())];
}

double GibbsSampler::evaluate(const ModelParameters& candidate) {
  return evaluator_.log_likelihood(sample_cliques(dimension(), candidate), candidate.lengthscales,
                                   candidate.noise_variance);
}

std::vector<double> GibbsSampler::likelihoods_of(const std::vector<ModelParameters>& candidates) {
  // One batch, so that the evaluator can compute them side by side; no random draw happens
  // between them, so the chain is the same as with one evaluation at a time.
  // Candidates with the current sample's graph (other lengthscales, noise) share its cliques.
  const std::vector<VarSet> current = sample_cliques(dimension(), sample_);
  std::vector<std::vector<VarSet>> other_cliques;
  other_cliques.reserve(candidates.size());
  std::vector<LikelihoodEvaluator::Model> models;
  models.reserve(candidates.size() - 1);
  for (std::size_t k = 1; k < candidates.size(); ++k) {
    const ModelParameters& candidate = candidates[k];
    const std::vector<VarSet>* cliques = &current;
    if (candidate.edges != sample_.edges || candidate.labels != sample_.labels) {
      other_cliques.push_back(sample_cliques(dimension(), candidate));
      cliques = &other_cliques.back();
    }
    models.push_back({cliques, &candidate.lengthscales, candidate.noise_variance});
  }
  std::vector<double> likelihoods = evaluator_.log_likelihoods(models);
  likelihoods.insert(likelihoods.begin(), log_likelihood_);
  return likelihoods;
}

bool GibbsSampler::fits(const VarSet& clique) const {
  return node_fits(clique, settings_.grid_sizes, settings_.max_node_cells);
}

bool GibbsSampler::admissible(const ModelParameters& candidate) const {
  if (!candidate.labels.empty()) {
    std::map<int, VarSet> groups;
    for (int d = 0; d < dimension(); ++d) groups[candidate.labels[d]].push_back(d);
    return std::all_of(groups.begin(), groups.end(),
                       [&](const auto& group) { return fits(group.second); });
  }
  const Graph chordal = triangulate_min_fill(Graph(dimension(), candidate.edges));
  const std::vector<VarSet> nodes = maximal_cliques(chordal);
  return std::all_of(nodes.begin(), nodes.end(), [&](const VarSet& node) { return fits(node); });
}

void GibbsSampler::choose(std::vector<ModelParameters>& candidates,
                          const std::vector<double>& log_likelihoods,
                          const std::vector<double>& log_prior_weights) {
  std::vector<double> weights(candidates.size());
  double largest = kNegativeInfinity;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    weights[k] = log_likelihoods[k] + log_prior_weights[k];
    if (std::isnan(weights[k])) weights[k] = kNegativeInfinity;
    largest = std::max(largest, weights[k]);
  }
  if (largest == kNegativeInfinity) return;  // nothing is possible: stay
  double total = 0.0;
  for (double& weight : weights) total += (weight = std::exp(weight - largest));
  double draw = random_.uniform() * total;
  std::size_t chosen = 0;
  while (chosen + 1 < candidates.size() && draw >= weights[chosen]) draw -= weights[chosen++];
  // Rounding can leave the draw on a zero-weight tail; step back to a possible candidate.
  while (weights[chosen] == 0.0 && chosen > 0) --chosen;
  if (chosen == 0) return;
  sample_ = std::move(candidates[chosen]);
  log_likelihood_ = log_likelihoods[chosen];
}

void GibbsSampler::metropolis(ModelParameters candidate, double log_proposal_ratio) {
  if (!admissible(candidate)) return;  // prior probability zero: rejected
  const double log_likelihood = evaluate(candidate);
  const double log_ratio =
      log_likelihood + log_prior(candidate) - log_posterior() + log_proposal_ratio;
  if (std::isnan(log_ratio)) return;
  // Accept when u < exp(log_ratio), compared in logs (u = 0 is accepted whatever the ratio).
  if (log_ratio >= 0.0 || std::log(random_.uniform()) < log_ratio) {
    sample_ = std::move(candidate);
    log_likelihood_ = log_likelihood;
  }
}

void GibbsSampler::edge_move() {
  // Two thirds birth/death, one third moves; the choice does not depend on the state, so each
  // kind only has to be reversible on its own.
  if (random_.below(3) < 2) {
    birth_or_death();
  } else {
    move_edge();
  }
}

void GibbsSampler::birth_or_death() {
  const std::uint64_t pairs = pair_count(dimension());
  const std::uint64_t edges = sample_.edges.size();
  const bool birth = random_.below(2) == 0;
  ModelParameters candidate = sample_;
  if (birth) {
    // A uniformly random non-edge, by rejection: graphs that fit the cell budget are sparse,
    // so this takes few draws.
    if (edges == pairs) return;
    Edge added;
    std::vector<Edge>::iterator position;
    do {
      added = edge_of_index(random_.below(pairs), dimension());
      position = std::lower_bound(candidate.edges.begin(), candidate.edges.end(), added);
    } while (position != candidate.edges.end() && *position == added);
    candidate.edges.insert(position, added);
    // q(G -> G + e) = 1/2 * 1/(P - m); q(G + e -> G) = 1/2 * 1/(m + 1).
    metropolis(std::move(candidate), std::log(static_cast<double>(pairs - edges)) -
                                         std::log(static_cast<double>(edges + 1)));
  } else {
    if (edges == 0) return;
    candidate.edges.erase(candidate.edges.begin() +
                          static_cast<std::ptrdiff_t>(random_.below(edges)));
    // q(G -> G - e) = 1/2 * 1/m; q(G - e -> G) = 1/2 * 1/(P - m + 1).
    metropolis(std::move(candidate), std::log(static_cast<double>(edges)) -
                                         std::log(static_cast<double>(pairs - edges + 1)));
  }
}

void GibbsSampler::move_edge() {
  // Edge (a, b) becomes (a, c), c not a neighbour of a. The reverse move picks (a, c), keeps a
  // and draws b among as many candidates, so the proposal is symmetric.
  if (sample_.edges.empty()) return;
  const Edge edge = sample_.edges[random_.below(sample_.edges.size())];
  const bool keep_first = random_.below(2) == 0;
  const int kept = keep_first ? edge.first : edge.second;
  std::vector<char> excluded(static_cast<std::size_t>(dimension()), 0);
  excluded[kept] = 1;
  for (const Edge& e : sample_.edges) {
    if (e.first == kept) excluded[e.second] = 1;
    if (e.second == kept) excluded[e.first] = 1;
  }
  std::vector<int> partners;
  for (int d = 0; d < dimension(); ++d) {
    if (!excluded[d]) partners.push_back(d);
  }
  if (partners.empty()) return;
  const int partner = partners[random_.below(partners.size())];
  ModelParameters candidate = sample_;
  candidate.edges.erase(std::find(candidate.edges.begin(), candidate.edges.end(), edge));
  const Edge added(std::min(kept, partner), std::max(kept, partner));
  candidate.edges.insert(std::lower_bound(candidate.edges.begin(), candidate.edges.end(), added),
                         added);
  metropolis(std::move(candidate), 0.0);
}

void GibbsSampler::label_step(int variable) {
  // Candidates: the current label, every other label in use, and one fresh label standing for
  // all unused ones (they give the same graph; their prior weights add up).
  std::map<int, int> others;
  for (int d = 0; d < dimension(); ++d) {
    if (d != variable) ++others[sample_.labels[d]];
  }
  const int current = sample_.labels[variable];
  int fresh = 0;
  while (others.count(fresh)) ++fresh;
  const double unused_labels =
      static_cast<double>(dimension()) - static_cast<double>(others.size());
  const auto prior_weight = [&](int label) {
    const auto found = others.find(label);
    return found == others.end() ? std::log(unused_labels) : std::log(found->second + 1.0);
  };

  std::vector<int> labels;
  for (const auto& entry : others) {
    if (entry.first != current) labels.push_back(entry.first);
  }
  if (others.count(current)) labels.push_back(fresh);  // alone already means "fresh"
  if (labels.size() > static_cast<std::size_t>(std::max(1, settings_.max_label_candidates))) {
    // Metropolis-Hastings: every other group, or a new one of its own, with probability 1/m.
    // m is the number of groups among the other variables whichever group this one is in, so
    // the proposal is symmetric and the ratio is that of the conditional weights.
    const int label = labels[random_.below(labels.size())];
    ModelParameters candidate = sample_;
    candidate.labels[variable] = label;
    if (!admissible(candidate)) return;  // prior probability zero: rejected
    candidate.edges = edges_of_labels(candidate.labels);
    const double log_likelihood = evaluate(candidate);
    const double log_ratio = log_likelihood + prior_weight(label) +
                             lengthscale_group_terms(candidate) - log_likelihood_ -
                             prior_weight(current) - lengthscale_group_terms(sample_);
    if (std::isnan(log_ratio)) return;
    if (log_ratio >= 0.0 || std::log(random_.uniform()) < log_ratio) {
      sample_ = std::move(candidate);
      log_likelihood_ = log_likelihood;
    }
    return;
  }
  std::vector<ModelParameters> candidates = {sample_};
  std::vector<double> priors = {prior_weight(current) + lengthscale_group_terms(sample_)};
  for (int label : labels) {
    if (label == current) continue;
    ModelParameters candidate = sample_;
    candidate.labels[variable] = label;
    if (!admissible(candidate)) continue;
    candidate.edges = edges_of_labels(candidate.labels);
    priors.push_back(prior_weight(label) + lengthscale_group_terms(candidate));
    candidates.push_back(std::move(candidate));
  }
  choose(candidates, likelihoods_of(candidates), priors);
}

void GibbsSampler::lengthscale_step(int variable) {
  // The graph stays, so the variable's largest group does, and with it the prior's choice
  // weights; the other variables' terms are common to every candidate.
  int group_size = 1;
  if (settings_.lengthscale_prior != LengthscalePrior::uniform) {
    group_size = largest_group_sizes(dimension(), sample_cliques(dimension(), sample_))[variable];
  }
  // The variable's own term, and the joining factor, which depends on every lengthscale.
  const auto prior_of = [&](const ModelParameters& candidate) {
    const double lengthscale = candidate.lengthscales[variable];
    return (settings_.lengthscale_prior == LengthscalePrior::uniform
                ? 0.0
                : lengthscale_term(lengthscale, group_size)) +
           lengthscale_spread_log_prior(candidate.lengthscales, settings_.lengthscale_spread);
  };
  std::vector<ModelParameters> candidates = {sample_};
  std::vector<double> priors = {prior_of(sample_)};
  for (double choice : settings_.lengthscale_choices) {
    if (choice == sample_.lengthscales[variable]) continue;
    ModelParameters candidate = sample_;
    candidate.lengthscales[variable] = choice;
    priors.push_back(prior_of(candidate));
    candidates.push_back(std::move(candidate));
  }
  choose(candidates, likelihoods_of(candidates), priors);
}

void GibbsSampler::noise_step() {
  std::vector<ModelParameters> candidates = {sample_};
  for (double choice : settings_.noise_choices) {
    if (choice == sample_.noise_variance) continue;
    ModelParameters candidate = sample_;
    candidate.noise_variance = choice;
    candidates.push_back(std::move(candidate));
  }
  choose(candidates, likelihoods_of(candidates), std::vector<double>(candidates.size(), 0.0));
}

bool GibbsSampler::moves_edges() const {
  return settings_.mode == StructureMode::learn && dimension() >= 2;
}

void GibbsSampler::step() {
  const std::uint64_t count = coordinate_count();
  if (moves_edges() && (count == 0 || random_.uniform() < settings_.edge_move_share)) {
    edge_move();
  } else if (count > 0) {
    update_coordinate(scan_.next(count, random_));
  } else {
    return;
  }
  // Cached products of rejected candidates are dropped, bounding memory to one model's worth.
  evaluator_.retain(sample_cliques(dimension(), sample_), sample_.lengthscales);
}

void GibbsSampler::update_coordinate(std::uint64_t c) {
  if (settings_.mode == StructureMode::disjoint) {
    if (c < static_cast<std::uint64_t>(dimension())) return label_step(static_cast<int>(c));
    c -= static_cast<std::uint64_t>(dimension());
  }
  if (settings_.learn_lengthscales) {
    if (c < static_cast<std::uint64_t>(dimension())) return lengthscale_step(static_cast<int>(c));
    c -= static_cast<std::uint64_t>(dimension());
  }
  noise_step();
}

LearningResult run_gibbs(const GibbsSettings& settings, LikelihoodEvaluator& evaluator,
                         const ModelParameters& start, std::size_t budget, ScanOrder& scan,
                         Random& random, const InterruptCheck& interrupt) {
  const std::size_t first = evaluator.evaluations();
  GibbsSampler sampler(settings, evaluator, start, scan, random);
  LearningResult result{sampler.sample(), sampler.log_likelihood(), 0};
  double best_posterior = sampler.log_posterior();
  // A sweep in which no coordinate can move (e.g. one lengthscale choice, or no edge that fits
  // the cell budget) would never spend the budget: stop after a sweep and a run of edge moves
  // without an evaluation.
  const std::uint64_t idle_limit = sampler.coordinate_count() + (sampler.moves_edges() ? 100 : 0);
  std::uint64_t idle_steps = 0;
  while (evaluator.evaluations() - first < budget && idle_steps <= idle_limit) {
    interrupt.throw_if_requested();
    const std::size_t before = evaluator.evaluations();
    sampler.step();
    idle_steps = evaluator.evaluations() == before ? idle_steps + 1 : 0;
    if (sampler.log_posterior() > best_posterior) {
      best_posterior = sampler.log_posterior();
      result.best = sampler.sample();
      result.log_likelihood = sampler.log_likelihood();
    }
  }
  result.evaluations = evaluator.evaluations() - first;
  return result;
}

}  // namespace addbo::core
