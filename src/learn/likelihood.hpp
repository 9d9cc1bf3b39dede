// The GP log marginal likelihood log p(y | graph, lengthscales, noise) that every Gibbs
// conditional is computed from (paper section 4):
//   -1/2 y^T Delta^-1 y - 1/2 log|Delta| - n/2 log 2 pi,  Delta = sum_C s_C P_C + noise I,
// where P_C = prod_{d in C} F_d and F_d is variable d's factor matrix between the data points.
// With the signal's amplitude profiled (SignalAmplitude::profiled), the model is a Delta for
// the amplitude a that fits y best, a = y^T Delta^-1 y / n (the concentrated likelihood):
//   -n/2 log a - 1/2 log|Delta| - n/2 (1 + log 2 pi).
// Learning asks for hundreds of these with one coordinate changed at a time, so:
//  - the factor matrices F_d are kept per variable and lengthscale for the current sample's
//    lengthscales (optionally a bounded cache of others, kExtraFactorBytes), and the storage of
//    dropped ones is reused, so that a learning touches little fresh memory;
//  - S = sum_C |C| P_C of the current sample is kept (Delta = S / sum_C |C| + noise I): a
//    candidate that differs from it in a few cliques (an edge flip, a lengthscale, a label)
//    costs those cliques' products added to or taken from S, computed on the fly from the
//    factors, then one Cholesky (linalg/dense_cholesky.hpp), however many cliques the graph has;
//  - a step's candidates (the choices of a lengthscale, of the noise, of a label) are evaluated
//    side by side, one per thread (log_likelihoods).
// Every value is computed by the same operations in the same order whichever thread, batch or
// cache state produced it, so the chain's decisions do not depend on the thread count. S is
// rebuilt from scratch for every new evaluator (every learning round), so its rounding depends
// only on the round's own history and a restored optimizer learns the same.
// Symmetric matrices are stored as their packed lower triangles (column j holds rows j..n-1).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "graph/graph.hpp"
#include "linalg/dense_cholesky.hpp"
#include "space/variable.hpp"

namespace addbo::core {

// Whether the kernel's amplitude (its variance, with the noise variance relative to it) is 1,
// the variance of standardised observations, or the one that fits the data best.
enum class SignalAmplitude { fixed, profiled };

class LikelihoodEvaluator {
 public:
  // One model to evaluate: the kernel's groups, every variable's lengthscale, the noise. Not
  // owned, only read during the call: the candidates of a step often share one graph, and at
  // D = 10,000 a copy of its cliques would cost more than their likelihood.
  struct Model {
    const std::vector<VarSet>* cliques;
    const std::vector<double>* lengthscales;
    double noise_variance;
  };

  // Bytes of factor matrices kept beyond the current sample's (fewer when one does not fit).
  // None by default: with the vectorised exp a factor is computed again in about 1 ns an entry,
  // which is less than a cache of fresh memory costs to fill (a page fault per 512 entries and
  // a cache miss per line); a cache of 64 MB made the learning 20-45% slower (docs/
  // benchmarks.md, "Speed"). Evicted storage is reused instead (new_buffer).
  static constexpr std::size_t kExtraFactorBytes = 0;

  // points: n x D encoded inputs; y: standardised observations. threads: how many threads the
  // evaluations may use; extra_factor_bytes: the cache beyond the current sample's factors
  // (neither value changes any result, bit for bit); amplitude: fixed at 1 or profiled.
  LikelihoodEvaluator(std::vector<VariableType> types, Eigen::MatrixXd points, Eigen::VectorXd y,
                      int threads = 1, std::size_t extra_factor_bytes = kExtraFactorBytes,
                      SignalAmplitude amplitude = SignalAmplitude::fixed);

  // Counts as one likelihood evaluation. Returns -infinity when Delta is not numerically
  // positive definite even with jitter 1e-4 (such a model is never chosen).
  double log_likelihood(const std::vector<VarSet>& cliques, const std::vector<double>& lengthscales,
                        double noise_variance);
  // log_likelihood of each model (one evaluation each), several at once on the threads; the
  // values equal those of one call per model, bit for bit.
  std::vector<double> log_likelihoods(const std::vector<Model>& models);
  std::size_t evaluations() const { return evaluations_; }

  // Makes the given model the current sample that candidates are compared with, and forgets
  // cached factor matrices beyond its own and the bounded cache of others.
  void retain(const std::vector<VarSet>& cliques, const std::vector<double>& lengthscales);

 private:
  using FactorKey = std::pair<int, double>;  // variable, lengthscale
  using CliqueKey = std::vector<FactorKey>;  // its variables with lengthscales, sorted
  // A factor matrix's packed lower triangle, allocated without zeroing: fill_factors writes
  // every entry, and zeroing first cost a serial pass (and its page faults) over every new
  // factor, a sixth of the first learning's time.
  using FactorStorage = std::unique_ptr<double[]>;
  struct Factor {
    FactorStorage values;
    std::uint64_t last_use = 0;
  };
  // A clique's product s * prod_f F_f added to the sum (s = +-|C|).
  struct Term {
    std::vector<const double*> factors;
    double weight;
  };
  // How one model's S is obtained: `start` (the current sample's S, or zero when null) plus
  // the terms, in order.
  struct SumPlan {
    std::vector<CliqueKey> keys;
    bool is_base = false;  // the keys are the current sample's: S is base_sum_ as it is
    bool from_base = false;
    std::vector<Term> terms;
    double scale = 1.0;  // 1 / sum_C |C|
  };
  // The workspace of one model evaluated at a time: its S and its Delta (factorised in place).
  struct Slot {
    std::vector<double> sum;
    std::vector<CliqueKey> sum_keys;  // with holds_sum, S of these keys is in `sum`
    bool holds_sum = false;
    Eigen::MatrixXd delta;
    CholeskyWorkspace cholesky;
  };

  std::size_t packed_size() const { return column_start_.back(); }
  // Makes `keys` the current sample's (its S must be in base_sum_ already).
  void set_base_keys(std::vector<CliqueKey> keys);
  // The sum S for `keys`: from the current sample's S when fewer cliques change than there are.
  // Factor matrices it needs that are not cached are created and listed in `to_fill`.
  SumPlan plan_sum(std::vector<CliqueKey> keys,
                   std::vector<std::pair<FactorKey, double*>>& to_fill);
  // The factor matrix of (d, lengthscale), created (unfilled, listed in `to_fill`) if absent.
  const double* factor(const FactorKey& key, std::vector<std::pair<FactorKey, double*>>& to_fill);
  void fill_factors(const std::vector<std::pair<FactorKey, double*>>& to_fill);
  // Writes S of the plan into `sum` (unless it is the base) and Delta = S scale + diagonal into
  // slot.delta, the columns on `threads` threads.
  void assemble(const SumPlan& plan, Slot& slot, double diagonal, bool write_sum, int threads);
  double evaluate(const SumPlan& plan, double noise_variance, Slot& slot, int threads);
  // Keeps the factors of the current sample and, most recently used first, others up to
  // extra_factor_bytes_.
  void trim_factors();
  FactorStorage new_buffer();

  std::vector<VariableType> types_;
  Eigen::MatrixXd points_;
  Eigen::VectorXd y_;
  int threads_ = 1;
  std::size_t extra_factor_bytes_;
  SignalAmplitude amplitude_;
  std::vector<std::size_t> column_start_;  // packed offset of column j; the last is the size
  std::map<FactorKey, Factor> factors_;
  std::uint64_t use_clock_ = 0;
  std::vector<FactorStorage> spare_;  // evicted factor storage, reused before allocating
  std::vector<CliqueKey> base_keys_;  // the current sample's cliques (sorted); S in base_sum_
  bool base_valid_ = false;
  std::vector<double> base_sum_;
  // The current sample's lengthscale of each variable (NaN: in none of its cliques), and how
  // many variables it has: its factors, which trim_factors keeps.
  std::vector<double> current_lengthscales_;
  std::size_t current_factor_count_ = 0;
  std::vector<Slot> slots_;
  std::size_t evaluations_ = 0;
};

}  // namespace addbo::core
