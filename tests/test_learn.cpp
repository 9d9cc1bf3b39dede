// Structure learning: the Gibbs chain against the exact posterior by enumeration, recovery of
// known graphs from GP-sampled data, the No Overlap invariants, and the helpers.
#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "evaluation/graph_metrics.hpp"
#include "gp/additive_kernel.hpp"
#include "learn/gibbs_sampler.hpp"
#include "learn/learning_data.hpp"
#include "learn/likelihood.hpp"
#include "learn/scan_order.hpp"
#include "optimizer/optimizer.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("learn");

namespace {

struct Data {
  Eigen::MatrixXd points;
  Eigen::VectorXd y;
};

// Delta = K + noise I of the additive kernel on `graph`'s maximal cliques, entry by entry.
Eigen::MatrixXd dense_delta(const std::vector<VariableType>& types, const Graph& graph,
                            const std::vector<double>& lengthscales, double noise,
                            const Eigen::MatrixXd& points) {
  const AdditiveKernel kernel(types, maximal_cliques(graph), lengthscales, 0.0);
  const Eigen::Index n = points.rows(), dimension = points.cols();
  Eigen::MatrixXd delta(n, n);
  std::vector<double> a(dimension), b(dimension);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      for (Eigen::Index d = 0; d < dimension; ++d) a[d] = points(i, d), b[d] = points(j, d);
      delta(i, j) = kernel(a.data(), b.data());
    }
  }
  delta.diagonal().array() += noise;
  return delta;
}

// log N(y; 0, amplitude * delta) by Eigen's LLT.
double dense_log_likelihood(const Eigen::MatrixXd& delta, const Eigen::VectorXd& y,
                            double amplitude) {
  const Eigen::LLT<Eigen::MatrixXd> llt(amplitude * delta);
  REQUIRE(llt.info() == Eigen::Success);
  const Eigen::VectorXd z = llt.matrixL().solve(y);
  return -0.5 * z.squaredNorm() - llt.matrixL().toDenseMatrix().diagonal().array().log().sum() -
         0.5 * static_cast<double>(y.size()) * std::log(2.0 * M_PI);
}

// n uniform points in [0,1]^D and y = f + noise with f drawn from the additive GP whose groups
// are the maximal cliques of `truth` (standardised afterwards, as the optimizer does).
Data gp_data(int dimension, const std::vector<Edge>& truth, double lengthscale, int n,
             double noise_sd, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  Data data{Eigen::MatrixXd(n, dimension), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < dimension; ++d) data.points(i, d) = unit(rng);
  const AdditiveKernel kernel(std::vector<VariableType>(dimension, VariableType::continuous),
                              maximal_cliques(Graph(dimension, truth)),
                              std::vector<double>(dimension, lengthscale), 0.0);
  Eigen::MatrixXd k(n, n);
  std::vector<std::vector<double>> rows(n, std::vector<double>(dimension));
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < dimension; ++d) rows[i][d] = data.points(i, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) k(i, j) = kernel(rows[i].data(), rows[j].data());
  k.diagonal().array() += 1e-8;
  Eigen::LLT<Eigen::MatrixXd> llt(k);
  REQUIRE(llt.info() == Eigen::Success);
  Eigen::VectorXd z(n);
  for (int i = 0; i < n; ++i) z(i) = normal(rng);
  data.y = llt.matrixL() * z;
  for (int i = 0; i < n; ++i) data.y(i) += noise_sd * normal(rng);
  const double mean = data.y.mean();
  const double sd = std::sqrt((data.y.array() - mean).square().mean());
  data.y = (data.y.array() - mean) / sd;
  return data;
}

std::vector<Edge> all_pairs(int dimension) {
  std::vector<Edge> pairs;
  for (int a = 0; a < dimension; ++a)
    for (int b = a + 1; b < dimension; ++b) pairs.emplace_back(a, b);
  return pairs;
}

// Total-variation distance between two distributions over the same keys.
template <typename Key>
double total_variation(const std::map<Key, double>& p, const std::map<Key, double>& q) {
  std::set<Key> keys;
  for (const auto& entry : p) keys.insert(entry.first);
  for (const auto& entry : q) keys.insert(entry.first);
  double sum = 0.0;
  for (const Key& key : keys) {
    const auto a = p.find(key), b = q.find(key);
    sum += std::fabs((a == p.end() ? 0.0 : a->second) - (b == q.end() ? 0.0 : b->second));
  }
  return 0.5 * sum;
}

template <typename Key>
std::map<Key, double> normalise_log(const std::map<Key, double>& log_weights) {
  double largest = -INFINITY;
  for (const auto& entry : log_weights) largest = std::max(largest, entry.second);
  std::map<Key, double> p;
  double total = 0.0;
  for (const auto& entry : log_weights) total += p[entry.first] = std::exp(entry.second - largest);
  for (auto& entry : p) entry.second /= total;
  return p;
}

using GraphKey = std::vector<Edge>;

// The unnormalised log posterior of every graph on `dimension` variables that `allowed`
// accepts: the likelihood at fixed lengthscales and noise 1e-2 plus the Bernoulli edge prior.
template <typename Allowed>
std::map<GraphKey, double> enumerate_graph_posterior(int dimension, LikelihoodEvaluator& evaluator,
                                                     const std::vector<double>& lengthscales,
                                                     double edge_prior, Allowed allowed) {
  const std::vector<Edge> pairs = all_pairs(dimension);
  std::map<GraphKey, double> log_posterior;
  for (unsigned mask = 0; mask < (1u << pairs.size()); ++mask) {
    GraphKey edges;
    for (std::size_t k = 0; k < pairs.size(); ++k)
      if (mask & (1u << k)) edges.push_back(pairs[k]);
    const Graph graph(dimension, edges);
    if (!allowed(graph)) continue;
    const double count = static_cast<double>(edges.size());
    log_posterior[edges] = evaluator.log_likelihood(maximal_cliques(graph), lengthscales, 1e-2) +
                           count * std::log(edge_prior) +
                           (static_cast<double>(pairs.size()) - count) * std::log1p(-edge_prior);
  }
  return log_posterior;
}
using JointKey = std::pair<std::vector<Edge>, std::vector<double>>;

// Runs `steps` single-coordinate updates after a burn-in and returns the visit frequencies.
template <typename Key, typename KeyOf>
std::map<Key, double> chain_frequencies(GibbsSampler& sampler, int steps, KeyOf key_of) {
  for (int i = 0; i < 2000; ++i) sampler.step();
  std::map<Key, double> frequency;
  for (int i = 0; i < steps; ++i) {
    sampler.step();
    frequency[key_of(sampler.sample())] += 1.0 / steps;
  }
  return frequency;
}

}  // namespace

// The bound: each state of a chain with N steps and integrated autocorrelation time tau has a
// frequency error of about sqrt(p (1 - p) tau / N), so the expected TV over K states is at most
// about 0.5 * sqrt(K tau / N). Single-site Gibbs on these few binary/small coordinates mixes
// within a sweep or two (tau <= ~10 steps here), which gives 0.5 * sqrt(8 * 10 / 60000) = 0.018
// for D = 3 and 0.5 * sqrt(64 * 10 / 150000) = 0.033 for D = 4; the checks allow about 1.5 times
// that. A sampler with a wrong conditional lands far outside: one run with edge prior 0.5
// instead of 0.3 gave TV 0.23 (D = 3) and 0.38 (D = 4) on these data.
TEST_CASE("the Overlap chain visits graphs with their exact posterior probabilities") {
  for (int dimension : {3, 4}) {
    CAPTURE(dimension);
    const Data data = gp_data(dimension, {{0, 1}}, 0.3, 10, 0.3, 17 + dimension);
    LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                  data.points, data.y);
    GibbsSettings settings;
    settings.mode = StructureMode::learn;
    settings.learn_lengthscales = false;
    settings.edge_prior = 0.3;
    const std::vector<double> lengthscales(dimension, 0.3);

    // Exact posterior over all 2^(D(D-1)/2) graphs.
    const std::vector<Edge> pairs = all_pairs(dimension);
    const auto exact = normalise_log(enumerate_graph_posterior(
        dimension, evaluator, lengthscales, 0.3, [](const Graph&) { return true; }));

    // The graph moves by birth/death and move-edge steps alone (no lengthscale is learned);
    // a second chain from a dense start must agree.
    for (bool dense_start : {false, true}) {
      CAPTURE(dense_start);
      ScanOrder scan;
      Random random(5);
      GibbsSampler sampler(
          settings, evaluator,
          ModelParameters{dense_start ? pairs : GraphKey{}, {}, lengthscales, 1e-2}, scan, random);
      const int steps = dimension == 3 ? 60000 : 150000;
      const auto empirical = chain_frequencies<GraphKey>(
          sampler, steps, [](const ModelParameters& s) { return s.edges; });
      const double tv = total_variation(exact, empirical);
      CHECK(tv < (dimension == 3 ? 0.03 : 0.05));
    }
    // The posterior is spread (no single graph dominates), so the test has teeth.
    double largest = 0.0;
    for (const auto& entry : exact) largest = std::max(largest, entry.second);
    CHECK(largest < 0.8);
  }
}

// Graphs whose triangulation has a node over the cell budget have prior probability zero: with
// 4 grid points per variable and 16 cells, only forests remain (a triangle or a chordless cycle
// needs a 3-variable node). The chain must visit the forests with their renormalised posterior
// and never leave them.
TEST_CASE("the cell budget truncates the graph prior exactly") {
  const int dimension = 4;
  const Data data = gp_data(dimension, {{0, 1}, {1, 2}, {0, 2}}, 0.3, 12, 0.3, 23);
  LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                data.points, data.y);
  GibbsSettings settings;
  settings.mode = StructureMode::learn;
  settings.learn_lengthscales = false;
  settings.edge_prior = 0.4;
  settings.grid_sizes = std::vector<int>(dimension, 4);
  settings.max_node_cells = 16;
  const std::vector<double> lengthscales(dimension, 0.3);
  const std::map<GraphKey, double> log_posterior =
      enumerate_graph_posterior(dimension, evaluator, lengthscales, 0.4, [](const Graph& graph) {
        const std::vector<VarSet> nodes = maximal_cliques(triangulate_min_fill(graph));
        return std::none_of(nodes.begin(), nodes.end(),
                            [](const VarSet& node) { return node.size() > 2; });
      });
  REQUIRE(log_posterior.size() == 38);  // the labelled forests on 4 vertices
  const auto exact = normalise_log(log_posterior);
  ScanOrder scan;
  Random random(11);
  GibbsSampler sampler(settings, evaluator, ModelParameters{{}, {}, lengthscales, 1e-2}, scan,
                       random);
  const auto empirical = chain_frequencies<GraphKey>(
      sampler, 150000, [](const ModelParameters& s) { return s.edges; });
  for (const auto& entry : empirical) CHECK(log_posterior.count(entry.first) == 1);
  CHECK(total_variation(exact, empirical) < 0.05);
}

namespace {

// The dimension-scaled lengthscale prior, written out from its definition: log l ~ Normal(
// sqrt(2) + ln(k) / 2, 3) at the choices, normalised over them, k the size of the variable's
// largest maximal clique (1 alone).
double scaled_prior_by_definition(const std::vector<double>& choices, double lengthscale, int k) {
  const auto log_density = [&](double l) {
    const double z = std::log(l) - (std::sqrt(2.0) + 0.5 * std::log(static_cast<double>(k)));
    return -z * z / 6.0;
  };
  double total = 0.0;
  for (double c : choices) total += std::exp(log_density(c));
  return log_density(lengthscale) - std::log(total);
}

double scaled_prior_of_graph(int dimension, const std::vector<Edge>& edges,
                             const std::vector<double>& lengthscales,
                             const std::vector<double>& choices) {
  double value = 0.0;
  for (int d = 0; d < dimension; ++d) {
    int k = 1;
    for (const VarSet& clique : maximal_cliques(Graph(dimension, edges))) {
      if (std::find(clique.begin(), clique.end(), d) != clique.end())
        k = std::max(k, static_cast<int>(clique.size()));
    }
    value += scaled_prior_by_definition(choices, lengthscales[d], k);
  }
  return value;
}

// kernel.lengthscale_spread's factor written out: the squared distances of the log-lengthscales
// from their mean, by the pairwise identity sum_d (x_d - mean)^2 = sum_{d<e} (x_d - x_e)^2 / n.
double spread_factor_by_definition(const std::vector<double>& lengthscales, double spread) {
  if (spread == 0.0) return 0.0;
  double pairs = 0.0;
  for (std::size_t d = 0; d < lengthscales.size(); ++d) {
    for (std::size_t e = d + 1; e < lengthscales.size(); ++e) {
      const double difference = std::log(lengthscales[d] / lengthscales[e]);
      pairs += difference * difference;
    }
  }
  return -pairs / static_cast<double>(lengthscales.size()) / (2.0 * spread * spread);
}

// Sampler settings that learn the lengthscales over `choices` under the dimension-scaled prior.
GibbsSettings scaled_prior_settings(StructureMode mode, const std::vector<double>& choices) {
  GibbsSettings settings;
  settings.mode = mode;
  settings.learn_lengthscales = true;
  settings.lengthscale_choices = choices;
  settings.lengthscale_prior = LengthscalePrior::dimension_scaled;
  return settings;
}

// The lengthscales of three variables over two choices, bit d of `bits` choosing variable d's.
std::vector<double> lengthscales_of_bits(unsigned bits, const std::vector<double>& choices) {
  std::vector<double> lengthscales;
  for (int d = 0; d < 3; ++d) lengthscales.push_back((bits >> d) & 1 ? choices[1] : choices[0]);
  return lengthscales;
}

// The total-variation distance between the joint (graph, lengthscales) visit frequencies of a
// chain from `start` (150,000 steps after the burn-in) and the exact posterior.
double joint_chain_distance(const GibbsSettings& settings, LikelihoodEvaluator& evaluator,
                            const ModelParameters& start, std::uint64_t seed,
                            const std::map<JointKey, double>& exact) {
  ScanOrder scan;
  Random random(seed);
  GibbsSampler sampler(settings, evaluator, start, scan, random);
  const auto empirical = chain_frequencies<JointKey>(sampler, 150000, [](const ModelParameters& s) {
    return JointKey{s.edges, s.lengthscales};
  });
  const double distance = total_variation(exact, empirical);
  MESSAGE("total variation " << distance);
  return distance;
}

}  // namespace

TEST_CASE("the dimension-scaled lengthscale prior follows its definition on every graph") {
  const std::vector<double> choices = {0.05, 0.1, 0.2, 0.4, 0.8};
  for (int k : {1, 2, 3, 7}) {
    const std::vector<double> log_prior =
        lengthscale_log_prior(LengthscalePrior::dimension_scaled, choices, k);
    double total = 0.0;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      CHECK(log_prior[i] ==
            doctest::Approx(scaled_prior_by_definition(choices, choices[i], k)).epsilon(1e-12));
      total += std::exp(log_prior[i]);
    }
    CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
    // Longer lengthscales are favoured, the more so the more variables the kernel sees.
    CHECK(std::is_sorted(log_prior.begin(), log_prior.end()));
  }
  CHECK(lengthscale_log_prior(LengthscalePrior::dimension_scaled, choices, 3)[4] >
        lengthscale_log_prior(LengthscalePrior::dimension_scaled, choices, 1)[4]);
  for (double value : lengthscale_log_prior(LengthscalePrior::uniform, choices, 3))
    CHECK(value == doctest::Approx(-std::log(5.0)));

  // The sampler's prior of whole samples: every graph on 4 variables, random lengthscales.
  const int dimension = 4;
  const Data data = gp_data(dimension, {{0, 1}}, 0.3, 5, 0.3, 3);
  LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                data.points, data.y);
  GibbsSettings settings;
  settings.mode = StructureMode::learn;
  settings.edge_prior = 0.5;
  settings.lengthscale_choices = choices;
  settings.lengthscale_prior = LengthscalePrior::dimension_scaled;
  ScanOrder scan;
  Random random(1);
  GibbsSampler sampler(settings, evaluator, ModelParameters{{}, {}, {0.2, 0.2, 0.2, 0.2}, 1e-2},
                       scan, random);
  const std::vector<Edge> pairs = all_pairs(dimension);
  std::mt19937_64 rng(9);
  for (unsigned mask = 0; mask < (1u << pairs.size()); ++mask) {
    GraphKey edges;
    for (std::size_t k = 0; k < pairs.size(); ++k)
      if (mask & (1u << k)) edges.push_back(pairs[k]);
    std::vector<double> lengthscales;
    for (int d = 0; d < dimension; ++d) lengthscales.push_back(choices[rng() % choices.size()]);
    const double edge_part = static_cast<double>(pairs.size()) * std::log(0.5);
    CHECK(sampler.log_prior(ModelParameters{edges, {}, lengthscales, 1e-2}) - edge_part ==
          doctest::Approx(scaled_prior_of_graph(dimension, edges, lengthscales, choices))
              .epsilon(1e-12));
  }
}

TEST_CASE("the lengthscale spread's factor follows its definition") {
  std::mt19937_64 rng(4);
  const std::vector<double> choices = {0.05, 0.1, 0.2, 0.4, 0.8};
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> lengthscales;
    for (int d = 0; d < 1 + trial % 7; ++d) lengthscales.push_back(choices[rng() % 5]);
    for (double spread : {0.0, 0.3, 0.5, 2.0}) {
      CHECK(lengthscale_spread_log_prior(lengthscales, spread) ==
            doctest::Approx(spread_factor_by_definition(lengthscales, spread)).epsilon(1e-12));
    }
  }
  // Equal lengthscales are not penalised; one apart costs more the smaller the spread.
  CHECK(lengthscale_spread_log_prior({0.2, 0.2, 0.2}, 0.5) == 0.0);
  CHECK(lengthscale_spread_log_prior({0.2, 0.2, 0.8}, 0.5) <
        lengthscale_spread_log_prior({0.2, 0.2, 0.8}, 1.0));

  // In the sampler's prior of a whole sample, beside the dimension-scaled terms.
  const Data data = gp_data(3, {{0, 1}}, 0.3, 5, 0.3, 3);
  LikelihoodEvaluator evaluator(std::vector<VariableType>(3, VariableType::continuous), data.points,
                                data.y);
  GibbsSettings settings = scaled_prior_settings(StructureMode::learn, choices);
  settings.lengthscale_spread = 0.5;
  ScanOrder scan;
  Random random(1);
  GibbsSampler sampler(settings, evaluator, ModelParameters{{}, {}, {0.2, 0.2, 0.2}, 1e-2}, scan,
                       random);
  const std::vector<double> lengthscales = {0.05, 0.4, 0.8};
  const std::vector<Edge> edges = {{0, 1}};
  CHECK(sampler.log_prior(ModelParameters{edges, {}, lengthscales, 1e-2}) - 3.0 * std::log(0.5) ==
        doctest::Approx(scaled_prior_of_graph(3, edges, lengthscales, choices) +
                        spread_factor_by_definition(lengthscales, 0.5))
            .epsilon(1e-12));
}

// The graph and the lengthscales sampled jointly, under the uniform prior and under the
// dimension-scaled one. For the latter, few points, so that the prior weighs as much as the
// data: edge moves change a variable's largest clique and with it its lengthscale's prior,
// which the moves must account for. Without the prior in the chain (it sampling the
// likelihood alone) the TV distance in that case is 0.47. The third case adds the factor of
// kernel.lengthscale_spread, which joins the lengthscales (without it in the chain: 0.30).
TEST_CASE("graph and lengthscales sampled jointly match the exact joint posterior") {
  struct Case {
    LengthscalePrior prior;
    std::vector<double> choices;
    int points;
    double spread;  // kernel.lengthscale_spread
  };
  for (const Case& c : {Case{LengthscalePrior::uniform, {0.15, 0.5}, 10, 0.0},
                        Case{LengthscalePrior::dimension_scaled, {0.15, 1.5}, 4, 0.0},
                        Case{LengthscalePrior::dimension_scaled, {0.15, 1.5}, 4, 0.7}}) {
    const bool scaled = c.prior == LengthscalePrior::dimension_scaled;
    CAPTURE(scaled);
    CAPTURE(c.spread);
    const int dimension = 3;
    const Data data = gp_data(dimension, {{1, 2}}, 0.3, c.points, 0.3, 99);
    LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                  data.points, data.y);
    GibbsSettings settings = scaled_prior_settings(StructureMode::learn, c.choices);
    settings.lengthscale_prior = c.prior;
    settings.lengthscale_spread = c.spread;
    settings.edge_prior = 0.5;
    std::map<JointKey, double> log_posterior;
    const std::vector<Edge> pairs = all_pairs(dimension);
    for (unsigned mask = 0; mask < 8; ++mask) {
      GraphKey edges;
      for (std::size_t k = 0; k < 3; ++k)
        if (mask & (1u << k)) edges.push_back(pairs[k]);
      for (unsigned l = 0; l < 8; ++l) {
        const std::vector<double> lengthscales = lengthscales_of_bits(l, c.choices);
        log_posterior[{edges, lengthscales}] =
            evaluator.log_likelihood(maximal_cliques(Graph(dimension, edges)), lengthscales, 1e-2) +
            (scaled ? scaled_prior_of_graph(dimension, edges, lengthscales, c.choices) : 0.0) +
            spread_factor_by_definition(lengthscales, c.spread);
      }
    }
    const ModelParameters start{{}, {}, {c.choices[0], c.choices[0], c.choices[0]}, 1e-2};
    // 64 joint states: the same bound as for the 64 graphs of D = 4.
    CHECK(joint_chain_distance(settings, evaluator, start, 8, normalise_log(log_posterior)) < 0.05);
  }
}

// No Overlap with learned lengthscales under the dimension-scaled prior: a label step changes
// the groups, and with them the prior of the moved variable's and its new partners'
// lengthscales. Both label kernels, as below; without the prior in the chain the TV distance
// here is 0.49.
TEST_CASE(
    "partitions and lengthscales under the dimension-scaled prior match the exact posterior") {
  const int dimension = 3;
  const std::vector<double> choices = {0.15, 1.5};
  const Data data = gp_data(dimension, {{0, 1}}, 0.3, 4, 0.3, 5);
  LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                data.points, data.y);
  GibbsSettings settings = scaled_prior_settings(StructureMode::disjoint, choices);
  // Exact: the Dirichlet-multinomial prior summed over every labelling (3^3) of each partition,
  // times the lengthscales' prior given its groups.
  std::map<JointKey, double> weight;
  for (int code = 0; code < 27; ++code) {
    std::vector<int> labels;
    for (int d = 0, c = code; d < dimension; ++d, c /= 3) labels.push_back(c % 3);
    std::map<int, int> counts;
    for (int label : labels) ++counts[label];
    double label_prior = std::lgamma(3.0) - std::lgamma(6.0);
    for (const auto& count : counts) label_prior += std::lgamma(count.second + 1.0);
    const std::vector<Edge> edges = edges_of_labels(labels);
    for (unsigned l = 0; l < 8; ++l) {
      const std::vector<double> lengthscales = lengthscales_of_bits(l, choices);
      const ModelParameters sample{edges, labels, lengthscales, 1e-2};
      weight[{edges, lengthscales}] +=
          std::exp(label_prior + scaled_prior_of_graph(dimension, edges, lengthscales, choices) +
                   evaluator.log_likelihood(sample_cliques(dimension, sample), lengthscales, 1e-2));
    }
  }
  double total = 0.0;
  for (const auto& entry : weight) total += entry.second;
  std::map<JointKey, double> exact;
  for (const auto& entry : weight) exact[entry.first] = entry.second / total;
  CHECK(exact.size() == 5 * 8);  // the Bell number B3 times the lengthscale choices
  for (int max_label_candidates : {32, 1}) {
    CAPTURE(max_label_candidates);
    settings.max_label_candidates = max_label_candidates;
    const ModelParameters start{{}, {0, 1, 2}, {choices[0], choices[0], choices[0]}, 1e-2};
    CHECK(joint_chain_distance(settings, evaluator, start, 21, exact) < 0.05);
  }
}

// Both label kernels: the exact conditional (up to 32 groups to choose from) and the
// Metropolis-Hastings move used beyond (forced here with max_label_candidates = 1).
TEST_CASE("the No Overlap chain samples partitions with their exact posterior probabilities") {
  const int dimension = 4;
  // Few points: the prior's weights matter as much as the likelihood's.
  const Data data = gp_data(dimension, {{0, 1}, {2, 3}}, 0.3, 3, 0.3, 4);
  LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                data.points, data.y);
  GibbsSettings settings;
  settings.mode = StructureMode::disjoint;
  settings.learn_lengthscales = false;
  const std::vector<double> lengthscales(dimension, 0.3);
  // Exact: sum the Dirichlet-multinomial prior over every labelling (4^4) of each partition.
  std::map<GraphKey, double> weight;
  for (int code = 0; code < 256; ++code) {
    std::vector<int> labels;
    for (int d = 0, c = code; d < dimension; ++d, c /= 4) labels.push_back(c % 4);
    ModelParameters sample{edges_of_labels(labels), labels, lengthscales, 1e-2};
    std::map<int, int> counts;
    for (int label : labels) ++counts[label];
    double log_prior = std::lgamma(4.0) - std::lgamma(8.0);
    for (const auto& count : counts) log_prior += std::lgamma(count.second + 1.0);
    const double log_like =
        evaluator.log_likelihood(sample_cliques(dimension, sample), lengthscales, 1e-2);
    weight[sample.edges] += std::exp(log_prior + log_like);
  }
  double total = 0.0;
  for (const auto& entry : weight) total += entry.second;
  std::map<GraphKey, double> exact;
  for (const auto& entry : weight) exact[entry.first] = entry.second / total;
  CHECK(exact.size() == 15);  // the Bell number B4

  for (int max_label_candidates : {32, 1}) {
    CAPTURE(max_label_candidates);
    settings.max_label_candidates = max_label_candidates;
    ScanOrder scan;
    Random random(12);
    GibbsSampler sampler(settings, evaluator, ModelParameters{{}, {0, 1, 2, 3}, lengthscales, 1e-2},
                         scan, random);
    const auto empirical =
        chain_frequencies<GraphKey>(sampler, 100000, [&](const ModelParameters& s) {
          // Every sample is a union of disjoint cliques: its edges are exactly its label groups'.
          REQUIRE(s.edges == edges_of_labels(s.labels));
          return s.edges;
        });
    MESSAGE("total variation " << total_variation(exact, empirical));
    CHECK(total_variation(exact, empirical) < 0.04);  // 15 states, same argument as above
  }
}

// The work of a learning round is bounded by its budget at any D: a label step beyond 32
// groups is one likelihood, not one per group.
TEST_CASE("disjoint learning keeps to its budget with thousands of variables") {
  const int dimension = 2000, n = 6;
  Data data{Eigen::MatrixXd::Random(n, dimension).cwiseAbs(), Eigen::VectorXd::LinSpaced(n, -1, 1)};
  LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                data.points, data.y);
  GibbsSettings settings;
  settings.mode = StructureMode::disjoint;
  settings.learn_lengthscales = false;
  settings.grid_sizes.assign(dimension, 32);
  std::vector<int> labels(dimension);
  for (int d = 0; d < dimension; ++d) labels[d] = d;
  ScanOrder scan;
  Random random(3);
  const LearningResult result = run_gibbs(
      settings, evaluator, ModelParameters{{}, labels, std::vector<double>(dimension, 0.2), 1e-2},
      50, scan, random);
  CHECK(result.evaluations >= 50);
  CHECK(result.evaluations <= 50 + 32);
}

TEST_CASE("learning recovers known graphs from GP-sampled data") {
  struct Truth {
    std::string name;
    int dimension;
    std::vector<Edge> edges;
  };
  const std::vector<Truth> truths = {
      {"star D=6", 6, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}}},
      {"chain D=8", 8, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}}},
      // The paper's Fig. 1, 0-based: cliques (0,1,2), (0,2,3), (3,4), (5).
      {"paper Fig. 1", 6, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {2, 3}, {3, 4}}},
  };
  for (const Truth& truth : truths) {
    CAPTURE(truth.name);
    const Data data = gp_data(truth.dimension, truth.edges, 0.2, 200, 0.05, 2018);
    LikelihoodEvaluator evaluator(
        std::vector<VariableType>(truth.dimension, VariableType::continuous), data.points, data.y);
    GibbsSettings settings;
    settings.mode = StructureMode::learn;
    settings.learn_lengthscales = true;
    settings.lengthscale_choices = {0.05, 0.1, 0.2, 0.4, 0.8};
    settings.edge_prior = 0.5;
    // The chain is a search for the most likely graph from a poor start: a run can stay in a
    // local mode, so the check is over several chains (seeds), most of which must find it.
    int recovered = 0;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      ScanOrder scan;
      Random random(seed);
      const ModelParameters start{{}, {}, std::vector<double>(truth.dimension, 0.4), 1e-2};
      const LearningResult result = run_gibbs(settings, evaluator, start, 1500, scan, random);
      const GraphAccuracy accuracy =
          graph_accuracy(truth.dimension, result.best.edges, truth.edges);
      recovered += accuracy.correct_connections >= 0.9 && accuracy.correct_separations >= 0.9;
      CHECK(result.evaluations >= 1500);
      CHECK(result.evaluations < 1500 + 8);  // stops at the budget (one step may overshoot)
    }
    CHECK(recovered >= 4);
  }
}

TEST_CASE("No Overlap recovers disjoint groups") {
  const int dimension = 6;
  const std::vector<Edge> truth = {{0, 1}, {0, 2}, {1, 2}, {3, 4}};  // groups {0,1,2} {3,4} {5}
  const Data data = gp_data(dimension, truth, 0.2, 150, 0.05, 7);
  LikelihoodEvaluator evaluator(std::vector<VariableType>(dimension, VariableType::continuous),
                                data.points, data.y);
  GibbsSettings settings;
  settings.mode = StructureMode::disjoint;
  settings.learn_lengthscales = true;
  settings.lengthscale_choices = {0.05, 0.1, 0.2, 0.4, 0.8};
  ScanOrder scan;
  Random random(3);
  const ModelParameters start{{}, {0, 1, 2, 3, 4, 5}, std::vector<double>(dimension, 0.4), 1e-2};
  const LearningResult result = run_gibbs(settings, evaluator, start, 800, scan, random);
  CHECK(result.best.edges == truth);
  CHECK(result.best.edges == edges_of_labels(result.best.labels));
}

// The evaluator builds a candidate's kernel matrix from the current sample's clique sum plus
// or minus the cliques the candidate changes, caches and trims products, and factorises with
// its own Cholesky on two threads. Against an independent truth: the kernel evaluated entry by
// entry from AdditiveKernel and Eigen's LLT, along a walk of edge flips and lengthscale changes
// that are sometimes accepted (retain) and sometimes not. n = 450 is past the sizes where the
// assembly and the factorisation use threads; a 5-variable hub graph with mixed types and a
// changing hub lengthscale makes many products at once, past the cache bound.
TEST_CASE("log likelihoods along a Gibbs-like walk equal the dense computation" *
          doctest::test_suite("threads")) {
  const int dimension = 5, n = 450;
  const Data data = gp_data(dimension, {{0, 1}, {0, 2}}, 0.3, n, 0.1, 91);
  std::vector<VariableType> types(dimension, VariableType::continuous);
  types[4] = VariableType::categorical;
  Eigen::MatrixXd points = data.points;
  for (int i = 0; i < n; ++i) points(i, 4) = std::floor(3.0 * points(i, 4));  // choice index
  LikelihoodEvaluator evaluator(types, points, data.y, 2);
  const double noise = 1e-2;
  const auto dense = [&](const std::vector<Edge>& edges, const std::vector<double>& lengthscales) {
    return dense_log_likelihood(
        dense_delta(types, Graph(dimension, edges), lengthscales, noise, points), data.y, 1.0);
  };
  std::mt19937_64 rng(4);
  const std::vector<double> choices = {0.1, 0.3, 0.8};
  std::vector<Edge> edges = {{0, 1}};
  std::vector<double> lengthscales(dimension, 0.3);
  double worst = 0.0;
  for (int step = 0; step < 24; ++step) {
    std::vector<Edge> candidate_edges = edges;
    std::vector<double> candidate_lengthscales = lengthscales;
    if (step % 3 == 2) {
      candidate_lengthscales[rng() % dimension] = choices[rng() % choices.size()];
    } else {
      const int a = static_cast<int>(rng() % dimension);
      const int b = (a + 1 + static_cast<int>(rng() % (dimension - 1))) % dimension;
      const Edge edge = std::minmax(a, b);
      const auto found = std::find(candidate_edges.begin(), candidate_edges.end(), edge);
      if (found == candidate_edges.end())
        candidate_edges.push_back(edge);
      else
        candidate_edges.erase(found);
    }
    const double fast = evaluator.log_likelihood(maximal_cliques(Graph(dimension, candidate_edges)),
                                                 candidate_lengthscales, noise);
    const double truth = dense(candidate_edges, candidate_lengthscales);
    worst = std::max(worst, std::fabs(fast - truth) / std::max(1.0, std::fabs(truth)));
    if (rng() % 2 == 0) {  // accepted: the candidate becomes the sample others are built from
      edges = candidate_edges;
      lengthscales = candidate_lengthscales;
    }
    evaluator.retain(maximal_cliques(Graph(dimension, edges)), lengthscales);
  }
  MESSAGE("largest relative difference " << worst);
  CHECK(worst < 1e-10);
}

// With the amplitude profiled, the likelihood is the dense one of amplitude * Delta at the
// amplitude that fits best, found here by a golden-section search on log amplitude (the dense
// log-likelihood is unimodal in it), for several noise variances and lengthscales; constant
// observations give every model the same first term, so the determinant decides.
TEST_CASE("a profiled likelihood is the dense likelihood at its best amplitude") {
  const int dimension = 3, n = 60;
  const Data data = gp_data(dimension, {{0, 1}}, 0.3, n, 0.5, 17);
  const std::vector<VariableType> types(dimension, VariableType::continuous);
  const Graph graph(dimension, {{0, 1}});
  LikelihoodEvaluator evaluator(types, data.points, data.y, 1,
                                LikelihoodEvaluator::kExtraFactorBytes, SignalAmplitude::profiled);
  for (double noise : {1e-3, 0.1, 1.0}) {
    for (double lengthscale : {0.1, 0.4}) {
      const std::vector<double> lengthscales(dimension, lengthscale);
      const Eigen::MatrixXd delta = dense_delta(types, graph, lengthscales, noise, data.points);
      double low = std::log(1e-4), high = std::log(1e4);
      const double golden = 0.5 * (std::sqrt(5.0) - 1.0);
      for (int step = 0; step < 200; ++step) {
        const double a = high - golden * (high - low), b = low + golden * (high - low);
        if (dense_log_likelihood(delta, data.y, std::exp(a)) <
            dense_log_likelihood(delta, data.y, std::exp(b)))
          low = a;
        else
          high = b;
      }
      const double truth = dense_log_likelihood(delta, data.y, std::exp(0.5 * (low + high)));
      const double profiled = evaluator.log_likelihood(maximal_cliques(graph), lengthscales, noise);
      CHECK(profiled == doctest::Approx(truth).epsilon(1e-9));
      // At amplitude 1 the dense value is lower unless 1 is the best amplitude.
      CHECK(dense_log_likelihood(delta, data.y, 1.0) <= profiled + 1e-9);
    }
  }
  LikelihoodEvaluator constant(types, data.points, Eigen::VectorXd::Zero(n), 1,
                               LikelihoodEvaluator::kExtraFactorBytes, SignalAmplitude::profiled);
  for (double lengthscale : {0.1, 0.4}) {
    const std::vector<double> lengthscales(dimension, lengthscale);
    const Eigen::MatrixXd delta = dense_delta(types, graph, lengthscales, 0.1, data.points);
    const Eigen::LLT<Eigen::MatrixXd> llt(delta);
    const double log_determinant =
        2.0 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    const double value = constant.log_likelihood(maximal_cliques(graph), lengthscales, 0.1);
    CHECK(std::isfinite(value));
    CHECK(value == doctest::Approx(-0.5 * n * std::log(1e-12) - 0.5 * log_determinant -
                                   0.5 * n * (1.0 + std::log(2.0 * M_PI))));
  }
}

// A step's candidates are evaluated as one batch, side by side on the threads, with factor
// matrices cached across lengthscales up to a byte budget. Against the same evaluator asked one
// model at a time on one thread with an unbounded cache: every value equal bit for bit, for
// batches of lengthscale choices (a hub variable's changes every clique it is in), noise
// choices (the current sample's cliques), several graphs at once and single edge flips, with
// no cache (every other lengthscale's factor evicted) and with room for two factors. n = 420
// puts single evaluations past the size where the assembly uses threads.
TEST_CASE("batched likelihoods equal one evaluation at a time, on any thread count and cache") {
  const int dimension = 6;
  for (const int n : {90, 420}) {
    CAPTURE(n);
    const Data data = gp_data(dimension, {{0, 1}, {1, 2}}, 0.3, n, 0.1, 17);
    std::vector<VariableType> types(dimension, VariableType::continuous);
    types[5] = VariableType::categorical;
    Eigen::MatrixXd points = data.points;
    for (int i = 0; i < n; ++i) points(i, 5) = std::floor(4.0 * points(i, 5));
    const std::size_t factor_bytes = static_cast<std::size_t>(n) * (n + 1) / 2 * sizeof(double);
    LikelihoodEvaluator reference(types, points, data.y, 1, std::size_t{1} << 40);
    std::vector<LikelihoodEvaluator> batched;
    batched.emplace_back(types, points, data.y, 2, 0);
    batched.emplace_back(types, points, data.y, 3, 2 * factor_bytes);
    batched.emplace_back(types, points, data.y, 2);
    std::mt19937_64 rng(8);
    const std::vector<double> choices = {0.05, 0.1, 0.2, 0.4, 0.8};
    const std::vector<double> noises = {1e-4, 1e-3, 1e-2, 1e-1};
    struct Candidate {
      std::vector<VarSet> cliques;
      std::vector<double> lengthscales;
      double noise_variance;
    };
    Candidate sample{{}, std::vector<double>(dimension, 0.2), 1e-2};
    std::vector<Edge> edges = {{0, 1}, {0, 2}, {0, 3}};
    sample.cliques = maximal_cliques(Graph(dimension, edges));
    std::size_t compared = 0;
    for (int step = 0; step < 24; ++step) {
      std::vector<Candidate> models;
      std::vector<std::vector<Edge>> model_edges;
      const int kind = step == 0 ? 3 : static_cast<int>(rng() % 4);
      if (kind == 0) {  // a lengthscale step, often of the hub
        const int d = rng() % 2 == 0 ? 0 : static_cast<int>(rng() % dimension);
        for (double choice : choices) {
          if (choice == sample.lengthscales[d]) continue;
          models.push_back(sample);
          models.back().lengthscales[d] = choice;
          model_edges.push_back(edges);
        }
      } else if (kind == 1) {  // a noise step: the current sample's cliques
        for (double noise : noises) {
          if (noise == sample.noise_variance) continue;
          models.push_back(sample);
          models.back().noise_variance = noise;
          model_edges.push_back(edges);
        }
      } else {  // one (kind 2) or several (kind 3) edge flips
        const int count = kind == 2 ? 1 : 5;
        for (int k = 0; k < count; ++k) {
          const int a = static_cast<int>(rng() % dimension);
          const int b = (a + 1 + static_cast<int>(rng() % (dimension - 1))) % dimension;
          const Edge edge = std::minmax(a, b);
          std::vector<Edge> flipped = edges;
          const auto found = std::find(flipped.begin(), flipped.end(), edge);
          if (found == flipped.end()) {
            flipped.insert(std::lower_bound(flipped.begin(), flipped.end(), edge), edge);
          } else {
            flipped.erase(found);
          }
          models.push_back(sample);
          models.back().cliques = maximal_cliques(Graph(dimension, flipped));
          model_edges.push_back(flipped);
        }
      }
      std::vector<LikelihoodEvaluator::Model> views;
      for (const Candidate& model : models) {
        views.push_back({&model.cliques, &model.lengthscales, model.noise_variance});
      }
      std::vector<double> expected;
      for (const Candidate& model : models) {
        expected.push_back(
            reference.log_likelihood(model.cliques, model.lengthscales, model.noise_variance));
      }
      for (auto& evaluator : batched) {
        const std::vector<double> values = evaluator.log_likelihoods(views);
        REQUIRE(values.size() == expected.size());
        for (std::size_t k = 0; k < values.size(); ++k) {
          CHECK(values[k] == expected[k]);
          CHECK(std::isfinite(values[k]));
          ++compared;
        }
      }
      if (rng() % 3 != 0) {  // one of them accepted: the sample the next ones are built from
        const std::size_t chosen = rng() % models.size();
        sample = models[chosen];
        edges = model_edges[chosen];
      }
      reference.retain(sample.cliques, sample.lengthscales);
      for (auto& evaluator : batched) evaluator.retain(sample.cliques, sample.lengthscales);
    }
    CHECK(compared > 150);
    for (const auto& evaluator : batched) CHECK(evaluator.evaluations() == reference.evaluations());
  }
}

TEST_CASE("the scan order is a permutation that continues across rounds") {
  Random random(1);
  ScanOrder scan;
  for (std::uint64_t size : {1ull, 2ull, 7ull, 45ull, 1000ull}) {
    std::set<std::uint64_t> seen;
    for (std::uint64_t i = 0; i < size; ++i) seen.insert(scan.next(size, random));
    CHECK(seen.size() == size);
    CHECK(*seen.rbegin() == size - 1);
  }
  // Half a sweep now, half later: still every coordinate exactly once.
  ScanOrder resumable;
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 20; ++i) seen.insert(resumable.next(45, random));
  const ScanOrder saved = resumable;
  ScanOrder restored = saved;
  for (int i = 0; i < 25; ++i) seen.insert(restored.next(45, random));
  CHECK(seen.size() == 45);
}

TEST_CASE("capped learning data keeps the best quarter and the most recent points") {
  const std::vector<double> y = {5, 1, 9, 2, 3, 8, 0, 4, 7, 6};
  CHECK(select_observations(y, 0).size() == 10);
  CHECK(select_observations(y, 20).size() == 10);
  // cap 4: best 1 (index 2, value 9), then the 3 most recent: 9, 8, 7.
  CHECK(select_observations(y, 4) == std::vector<std::size_t>{2, 7, 8, 9});
}

TEST_CASE("a ranking kept as values arrive chooses what the sort of every value chooses") {
  // Values on a coarse lattice (many ties), runs of ten equal values each above every earlier
  // one (ties at the top, so the earlier index must win), the reference choosing from the
  // whole history at every size.
  std::mt19937_64 generator(17);
  std::uniform_int_distribution<int> coarse(0, 3);
  ValueRanking ranking(10);  // covers every cap up to 40
  std::vector<double> values;
  for (int i = 0; i < 400; ++i) {
    const double value = i % 97 < 10   ? static_cast<double>(6 + i / 97)
                         : i % 50 == 7 ? 5.0
                                       : static_cast<double>(coarse(generator));
    ranking.reserve_one_more();
    ranking.add(value);
    values.push_back(value);
    REQUIRE(ranking.size() == values.size());
    for (std::size_t cap : {0u, 2u, 5u, 16u, 37u, 40u}) {
      CHECK(ranking.select(cap) == select_observations(values, cap));
    }
  }
  // A cap whose best quarter is not ranked is refused, not answered wrongly.
  CHECK_THROWS(ranking.select(41));
}

TEST_CASE("graph accuracy follows the paper's definitions") {
  const std::vector<Edge> truth = {{0, 1}, {1, 2}};
  const GraphAccuracy same = graph_accuracy(4, truth, truth);
  CHECK(same.correct_connections == 1.0);
  CHECK(same.correct_separations == 1.0);
  const GraphAccuracy other = graph_accuracy(4, {{0, 1}, {2, 3}}, truth);
  CHECK(other.correct_connections == 0.5);                    // 1 of 2 true edges
  CHECK(other.correct_separations == doctest::Approx(0.75));  // 3 of 4 true non-edges
}

TEST_CASE("learning never makes an ask fail on degenerate data") {
  for (const char* mode : {"learn", "disjoint"}) {
    CAPTURE(mode);
    const nlohmann::json config = {{"dimension", 5},
                                   {"initial_points", 5},
                                   {"structure", {{"mode", mode}, {"relearn_every", 3}}},
                                   {"kernel", {{"noise_variance", "learn"}}}};
    Optimizer constant(parse_config(config));
    for (int i = 0; i < 12; ++i) constant.tell(constant.ask(), 2.0);
    Optimizer duplicates(parse_config(config));
    for (int i = 0; i < 12; ++i) duplicates.tell({0.5, 0.5, 0.5, 0.5, 0.5}, i % 2);
    for (Optimizer* optimizer : {&constant, &duplicates}) {
      for (int i = 0; i < 4; ++i) {
        const std::vector<double> x = optimizer->ask();
        for (double value : x) {
          CHECK(std::isfinite(value));
          CHECK(value >= 0.0);
          CHECK(value <= 1.0);
        }
      }
      CHECK(optimizer->info()["likelihood_evaluations"].get<int>() > 0);
    }
  }
}

TEST_CASE("a restored optimizer continues bit-identically across relearns") {
  const nlohmann::json config = {
      {"dimension", 6},
      {"seed", 9},
      {"initial_points", 6},
      {"structure", {{"mode", "learn"}, {"relearn_every", 7}, {"gibbs_evaluations", 60}}}};
  Optimizer original(parse_config(config));
  const auto objective = [](const std::vector<double>& x) {
    return std::sin(3 * x[0]) * x[1] + std::cos(2 * x[2] + x[3]) - (x[4] - 0.3) * (x[5] - 0.6);
  };
  for (int i = 0; i < 16; ++i) {
    const std::vector<double> x = original.ask();
    original.tell(x, objective(x));
  }
  original.ask();  // pending
  const nlohmann::json saved = original.save();
  CHECK(saved["learning"]["learned_at"].get<int>() > 0);
  Optimizer restored = Optimizer::from_state(saved);
  CHECK(restored.save() == saved);
  for (int i = 0; i < 20; ++i) {  // spans further relearns
    const std::vector<double> a = original.ask(), b = restored.ask();
    REQUIRE(a == b);
    original.tell(a, objective(a));
    restored.tell(b, objective(b));
  }
  CHECK(original.save() == restored.save());
}

// The schedule of docs/configuration.md, re-derived from what info reports before each ask:
// learnings every relearn_every tells, a tenth of the observations apart once that is more,
// and four times that while the search is local; a restored optimizer keeps it.
TEST_CASE("past the growing interval a local phase learns four times less often") {
  constexpr std::size_t every = 2, initial = 5;
  const nlohmann::json config = {
      {"dimension", 3},
      {"seed", 5},
      {"initial_points", initial},
      {"structure", {{"relearn_every", every}, {"gibbs_evaluations", 10}}}};
  const auto objective = [](const std::vector<double>& x) {
    return std::sin(7 * x[0]) + std::cos(5 * x[1]) * x[2] - (x[2] - 0.4) * (x[2] - 0.4);
  };
  Optimizer optimizer(parse_config(config));
  nlohmann::json saved;
  std::vector<std::pair<std::vector<double>, double>> after_save;
  std::size_t deferred = 0, late_local_learnings = 0;
  for (int i = 0; i < 240; ++i) {
    const nlohmann::json before = optimizer.info();
    const std::size_t n = before["observations"].get<std::size_t>();
    const std::size_t last = before["learned_at_observations"].get<std::size_t>();
    const bool local = before["search"]["phase"] == "local";
    const bool grown = last / 10 > every;
    const std::size_t interval = std::max(every, last / 10);
    const bool plain_due = n >= initial && (last == 0 || n >= last + interval);
    const bool due = n >= initial && (last == 0 || n >= last + (grown && local ? 4 : 1) * interval);
    if (i == 180) saved = optimizer.save();
    const std::vector<double> x = optimizer.ask();
    const std::size_t learned_at = optimizer.info()["learned_at_observations"].get<std::size_t>();
    CAPTURE(n);
    CAPTURE(last);
    CHECK((learned_at != last) == due);
    if (due) CHECK(learned_at == n);
    if (plain_due && !due) ++deferred;
    if (due && grown && local) ++late_local_learnings;
    const double y = objective(x);
    if (i >= 180) after_save.emplace_back(x, y);
    optimizer.tell(x, y);
  }
  // Both sides of the rule were met: learnings the local phase deferred, and ones it made.
  CHECK(deferred > 0);
  CHECK(late_local_learnings > 0);
  Optimizer restored = Optimizer::from_state(saved);
  for (const auto& [x, y] : after_save) {
    REQUIRE(restored.ask() == x);
    restored.tell(x, y);
  }
  CHECK(restored.save() == optimizer.save());
}

// A state saved before kernel.lengthscale_prior (or kernel.lengthscale_spread) existed learned
// with the uniform prior (with independent lengthscales) and keeps it: it continues exactly as
// a run configured with that value does, across relearns; naming the key in the state opts in.
TEST_CASE("a saved state without lengthscale_prior or lengthscale_spread keeps the old prior") {
  const auto objective = [](const std::vector<double>& x) {
    return std::sin(9 * x[0]) + std::cos(7 * x[1]) * x[2] - 4 * (x[3] - 0.3) * (x[3] - 0.3);
  };
  struct Case {
    const char* key;
    nlohmann::json old_value, new_value;
  };
  for (const Case& c : {Case{"lengthscale_prior", "uniform", "dimension-scaled"},
                        Case{"lengthscale_spread", 0.0, 0.5}}) {
    CAPTURE(c.key);
    Optimizer old_kind(parse_config({{"dimension", 4},
                                     {"seed", 3},
                                     {"structure", {{"relearn_every", 6}}},
                                     {"kernel", {{c.key, c.old_value}}}}));
    for (int i = 0; i < 30; ++i) {
      const std::vector<double> x = old_kind.ask();
      old_kind.tell(x, objective(x));
    }
    nlohmann::json saved = old_kind.save();
    REQUIRE(saved["config"]["kernel"][c.key] == c.old_value);
    saved["config"]["kernel"].erase(c.key);  // as a state of an earlier release
    Optimizer restored = Optimizer::from_state(saved);
    CHECK(restored.config().kernel == old_kind.config().kernel);
    for (int i = 0; i < 14; ++i) {  // spans two relearns
      const std::vector<double> a = old_kind.ask(), b = restored.ask();
      REQUIRE(a == b);
      old_kind.tell(a, objective(a));
      restored.tell(b, objective(b));
    }
    CHECK(old_kind.info()["lengthscales"] == restored.info()["lengthscales"]);
    saved["config"]["kernel"][c.key] = c.new_value;
    CHECK(Optimizer::from_state(saved).config().kernel == parse_config({{"dimension", 4}}).kernel);
  }
}

TEST_SUITE_END();
