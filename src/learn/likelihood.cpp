#include "learn/likelihood.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "gp/additive_kernel.hpp"
#include "linalg/numerics.hpp"
#include "linalg/resize.hpp"
#include "linalg/vector_exp.hpp"
#include "util/parallel.hpp"

namespace addbo::core {
namespace {

// Evicted factor storage kept for reuse (each one n(n+1)/2 doubles), at least one per thread:
// a step's candidates, evaluated side by side, each need a factor of their own.
constexpr std::size_t kSpareBuffers = 4;
// Columns per work unit when a matrix is filled on several threads.
constexpr std::size_t kColumnsPerUnit = 16;
// Below this many points the assembly of one Delta stays on one thread (a pass over its
// columns costs less than waking a helper).
constexpr Eigen::Index kParallelAssemblyPoints = 400;
// Below this many exponentials the new factor matrices are computed on the caller only.
constexpr std::size_t kParallelFactorEntries = 8192;
// The least amplitude a profiled likelihood fits (of standardised observations, variance 1).
constexpr double kMinProfiledAmplitude = 1e-12;

std::vector<std::vector<std::pair<int, double>>> sorted_keys(
    const std::vector<VarSet>& cliques, const std::vector<double>& lengthscales) {
  std::vector<std::vector<std::pair<int, double>>> keys;
  keys.reserve(cliques.size());
  for (const VarSet& clique : cliques) {
    std::vector<std::pair<int, double>> key;
    key.reserve(clique.size());
    for (int d : clique) key.emplace_back(d, lengthscales[d]);
    keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

LikelihoodEvaluator::LikelihoodEvaluator(std::vector<VariableType> types, Eigen::MatrixXd points,
                                         Eigen::VectorXd y, int threads,
                                         std::size_t extra_factor_bytes, SignalAmplitude amplitude)
    : types_(std::move(types)),
      points_(std::move(points)),
      y_(std::move(y)),
      threads_(std::max(1, threads)),
      extra_factor_bytes_(extra_factor_bytes),
      amplitude_(amplitude) {
  const std::size_t n = static_cast<std::size_t>(y_.size());
  column_start_.resize(n + 1);
  column_start_[0] = 0;
  for (std::size_t j = 0; j < n; ++j) column_start_[j + 1] = column_start_[j] + (n - j);
}

LikelihoodEvaluator::FactorStorage LikelihoodEvaluator::new_buffer() {
  if (spare_.empty()) return FactorStorage(new double[packed_size()]);
  FactorStorage buffer = std::move(spare_.back());
  spare_.pop_back();
  return buffer;
}

const double* LikelihoodEvaluator::factor(const FactorKey& key,
                                          std::vector<std::pair<FactorKey, double*>>& to_fill) {
  auto found = factors_.find(key);
  if (found == factors_.end()) {
    found = factors_.emplace(key, Factor{new_buffer(), 0}).first;
    to_fill.emplace_back(key, found->second.values.get());
  }
  found->second.last_use = ++use_clock_;
  return found->second.values.get();
}

void LikelihoodEvaluator::fill_factors(const std::vector<std::pair<FactorKey, double*>>& to_fill) {
  if (to_fill.empty()) return;
  const std::size_t n = static_cast<std::size_t>(y_.size());
  const std::size_t units_per_factor = (n + kColumnsPerUnit - 1) / kColumnsPerUnit;
  const int threads = to_fill.size() * packed_size() >= kParallelFactorEntries ? threads_ : 1;
  parallel_for(to_fill.size() * units_per_factor, threads, [&](std::size_t unit) {
    const auto& [key, values] = to_fill[unit / units_per_factor];
    const int d = key.first;
    const double lengthscale = key.second;
    const std::size_t first = (unit % units_per_factor) * kColumnsPerUnit;
    const std::size_t last = std::min(n, first + kColumnsPerUnit);
    const double* x = points_.col(d).data();
    if (types_[d] == VariableType::categorical) {
      // Two values only: equal choices, or not (variable_factor's, computed once).
      const double apart = variable_factor(types_[d], lengthscale, 0.0, 1.0);
      for (std::size_t j = first; j < last; ++j) {
        double* column = values + column_start_[j] - j;
        for (std::size_t i = j; i < n; ++i) column[i] = x[i] == x[j] ? 1.0 : apart;
      }
      return;
    }
    // The exponents of a column first, then one vectorised exp over them: the same values
    // as the model of record's kernel (gp/additive_posterior.cpp's factor_column).
    const double inverse_two_l2 = 0.5 / (lengthscale * lengthscale);
    for (std::size_t j = first; j < last; ++j) {
      double* column = values + column_start_[j] - j;
      for (std::size_t i = j; i < n; ++i) {
        const double difference = x[i] - x[j];
        column[i] = -difference * difference * inverse_two_l2;
      }
      exp_nonpositive(column + j, n - j, column + j);
    }
  });
}

LikelihoodEvaluator::SumPlan LikelihoodEvaluator::plan_sum(
    std::vector<CliqueKey> keys, std::vector<std::pair<FactorKey, double*>>& to_fill) {
  SumPlan plan;
  double total_size = 0.0;
  for (const CliqueKey& key : keys) total_size += static_cast<double>(key.size());
  plan.scale = 1.0 / total_size;
  plan.keys = std::move(keys);
  const auto term = [&](const CliqueKey& key, double sign) {
    Term t{{}, sign * static_cast<double>(key.size())};
    t.factors.reserve(key.size());
    for (const FactorKey& f : key) t.factors.push_back(factor(f, to_fill));
    return t;
  };
  if (base_valid_) {
    if (plan.keys == base_keys_) {
      plan.is_base = true;
      return plan;
    }
    // The cliques in which the model differs from the current sample (multiset difference of
    // two sorted lists), in merge order.
    std::vector<std::pair<const CliqueKey*, double>> changes;
    std::size_t a = 0, b = 0;
    while (a < base_keys_.size() || b < plan.keys.size()) {
      if (b == plan.keys.size() || (a < base_keys_.size() && base_keys_[a] < plan.keys[b])) {
        changes.emplace_back(&base_keys_[a++], -1.0);
      } else if (a == base_keys_.size() || plan.keys[b] < base_keys_[a]) {
        changes.emplace_back(&plan.keys[b++], 1.0);
      } else {
        ++a;
        ++b;
      }
    }
    if (changes.size() < plan.keys.size()) {
      plan.from_base = true;
      for (const auto& [key, sign] : changes) plan.terms.push_back(term(*key, sign));
      return plan;
    }
  }
  for (const CliqueKey& key : plan.keys) plan.terms.push_back(term(key, 1.0));
  return plan;
}

void LikelihoodEvaluator::assemble(const SumPlan& plan, Slot& slot, double diagonal, bool write_sum,
                                   int threads) {
  const Eigen::Index n = y_.size();
  resize_fresh(slot.delta, n, n);
  const bool new_sum = write_sum && !plan.is_base;
  if (new_sum) slot.sum.resize(packed_size());
  // Without a new S the terms are not added again: S is the base's or the slot's own.
  const double* source = plan.is_base ? base_sum_.data() : slot.sum.data();
  const double* start = plan.from_base ? base_sum_.data() : nullptr;
  const Eigen::Index units = (n + static_cast<Eigen::Index>(kColumnsPerUnit) - 1) /
                             static_cast<Eigen::Index>(kColumnsPerUnit);
  parallel_for(static_cast<std::size_t>(units), n >= kParallelAssemblyPoints ? threads : 1,
               [&](std::size_t unit) {
                 const Eigen::Index first = static_cast<Eigen::Index>(unit * kColumnsPerUnit);
                 const Eigen::Index last =
                     std::min(n, first + static_cast<Eigen::Index>(kColumnsPerUnit));
                 for (Eigen::Index j = first; j < last; ++j) {
                   const std::size_t offset =
                       column_start_[static_cast<std::size_t>(j)] - static_cast<std::size_t>(j);
                   if (new_sum) {
                     // S's column: the start, then each term's product added in order (the
                     // product of a clique multiplied out factor by factor, as P_C is defined).
                     double* s = slot.sum.data() + offset;
                     if (start != nullptr) {
                       for (Eigen::Index i = j; i < n; ++i) s[i] = start[offset + i];
                     } else {
                       for (Eigen::Index i = j; i < n; ++i) s[i] = 0.0;
                     }
                     for (const Term& term : plan.terms) {
                       const double w = term.weight;
                       const double* f0 = term.factors[0] + offset;
                       if (term.factors.size() == 1) {
                         for (Eigen::Index i = j; i < n; ++i) s[i] += w * f0[i];
                         continue;
                       }
                       const double* f1 = term.factors[1] + offset;
                       if (term.factors.size() == 2) {
                         for (Eigen::Index i = j; i < n; ++i) s[i] += w * (f0[i] * f1[i]);
                         continue;
                       }
                       for (Eigen::Index i = j; i < n; ++i) {
                         double product = f0[i] * f1[i];
                         for (std::size_t f = 2; f < term.factors.size(); ++f) {
                           product *= term.factors[f][offset + i];
                         }
                         s[i] += w * product;
                       }
                     }
                   }
                   const double* s = source + offset;
                   double* column = slot.delta.data() + j * n;
                   for (Eigen::Index i = j; i < n; ++i) column[i] = 0.0 + plan.scale * s[i];
                   column[j] += diagonal;
                 }
               });
}

double LikelihoodEvaluator::evaluate(const SumPlan& plan, double noise_variance, Slot& slot,
                                     int threads) {
  const Eigen::Index n = y_.size();
  bool first = true;
  // The optimizer's jitter ladder, so that a model is judged by the numerics it is used with.
  for (double jitter = 0.0; !past_last_jitter(jitter); jitter = next_jitter(jitter)) {
    assemble(plan, slot, noise_variance + jitter, first, threads);
    first = false;
    if (!cholesky_lower_in_place(slot.delta, threads, slot.cholesky)) continue;
    const Eigen::VectorXd z = slot.delta.triangularView<Eigen::Lower>().solve(y_);
    const double log_determinant = 2.0 * slot.delta.diagonal().array().log().sum();
    const double count = static_cast<double>(n);
    double value = -0.5 * z.squaredNorm() - 0.5 * log_determinant - 0.5 * count * kLogTwoPi;
    if (amplitude_ == SignalAmplitude::profiled) {
      // Constant observations (all standardised to 0) have no amplitude to fit: the floor keeps
      // the value finite, the same for every model, so that the determinant decides.
      const double fitted = std::max(z.squaredNorm() / count, kMinProfiledAmplitude);
      value =
          -0.5 * count * std::log(fitted) - 0.5 * log_determinant - 0.5 * count * (1.0 + kLogTwoPi);
    }
    if (std::isfinite(value)) return value;
  }
  return -std::numeric_limits<double>::infinity();
}

double LikelihoodEvaluator::log_likelihood(const std::vector<VarSet>& cliques,
                                           const std::vector<double>& lengthscales,
                                           double noise_variance) {
  return log_likelihoods({Model{&cliques, &lengthscales, noise_variance}})[0];
}

std::vector<double> LikelihoodEvaluator::log_likelihoods(const std::vector<Model>& models) {
  const std::size_t model_count = models.size();
  evaluations_ += model_count;
  std::vector<double> values(model_count, 0.0);
  if (y_.size() == 0) return values;
  std::size_t next = 0;
  while (next < model_count) {
    // The first model evaluated is where the chain starts: alone, it becomes the base that
    // the others are built from.
    const std::size_t count =
        base_valid_ ? std::min(model_count - next, static_cast<std::size_t>(threads_)) : 1;
    std::vector<std::pair<FactorKey, double*>> to_fill;
    std::vector<SumPlan> plans;
    plans.reserve(count);
    for (std::size_t k = 0; k < count; ++k) {
      const Model& model = models[next + k];
      plans.push_back(plan_sum(sorted_keys(*model.cliques, *model.lengthscales), to_fill));
    }
    fill_factors(to_fill);
    if (slots_.size() < count) slots_.resize(count);
    // Side by side, each factorisation on one thread; alone, on all of them.
    const int inner_threads = count > 1 ? 1 : threads_;
    parallel_for(count, threads_, [&](std::size_t k) {
      values[next + k] =
          evaluate(plans[k], models[next + k].noise_variance, slots_[k], inner_threads);
    });
    if (!base_valid_) {
      base_sum_ = slots_[0].sum;
      set_base_keys(plans[0].keys);
    }
    // Which S each slot holds, for retain (moved: at D = 10,000 a copy is 10,000 vectors).
    for (std::size_t k = 0; k < count; ++k) {
      if (plans[k].is_base) continue;
      slots_[k].sum_keys = std::move(plans[k].keys);
      slots_[k].holds_sum = true;
    }
    next += count;
    trim_factors();
  }
  return values;
}

void LikelihoodEvaluator::set_base_keys(std::vector<CliqueKey> keys) {
  base_keys_ = std::move(keys);
  base_valid_ = true;
  current_lengthscales_.assign(types_.size(), std::numeric_limits<double>::quiet_NaN());
  current_factor_count_ = 0;
  for (const CliqueKey& key : base_keys_) {
    for (const FactorKey& f : key) {
      double& current = current_lengthscales_[static_cast<std::size_t>(f.first)];
      if (std::isnan(current)) ++current_factor_count_;
      current = f.second;
    }
  }
}

void LikelihoodEvaluator::trim_factors() {
  const std::size_t bytes = std::max<std::size_t>(1, packed_size() * sizeof(double));
  const std::size_t kept = extra_factor_bytes_ / bytes;
  // Within the bound whichever factors are the others: no need to look (at D = 10,000 a look
  // walks 10,000 map entries).
  if (factors_.size() <= current_factor_count_ + kept) return;
  std::vector<std::pair<std::uint64_t, FactorKey>> extras;
  for (const auto& [key, entry] : factors_) {
    if (!(current_lengthscales_[static_cast<std::size_t>(key.first)] == key.second)) {
      extras.emplace_back(entry.last_use, key);
    }
  }
  if (extras.size() <= kept) return;
  std::sort(extras.begin(), extras.end(), [](const auto& a, const auto& b) { return a > b; });
  for (std::size_t k = kept; k < extras.size(); ++k) {
    auto found = factors_.find(extras[k].second);
    if (spare_.size() < std::max(kSpareBuffers, static_cast<std::size_t>(threads_))) {
      spare_.push_back(std::move(found->second.values));
    }
    factors_.erase(found);
  }
}

void LikelihoodEvaluator::retain(const std::vector<VarSet>& cliques,
                                 const std::vector<double>& lengthscales) {
  std::vector<CliqueKey> keys = sorted_keys(cliques, lengthscales);
  if (!base_valid_ || keys != base_keys_) {
    if (y_.size() > 0) {
      // Usually a candidate just evaluated, whose S is still in its slot: no work.
      auto holder = std::find_if(slots_.begin(), slots_.end(), [&](const Slot& slot) {
        return slot.holds_sum && slot.sum_keys == keys;
      });
      if (holder == slots_.end()) {
        std::vector<std::pair<FactorKey, double*>> to_fill;
        const SumPlan plan = plan_sum(keys, to_fill);
        fill_factors(to_fill);
        if (slots_.empty()) slots_.resize(1);
        holder = slots_.begin();
        assemble(plan, *holder, 0.0, true, threads_);
      }
      std::swap(base_sum_, holder->sum);
    }
    set_base_keys(std::move(keys));
    // Every slot's S was built from the old base, or is the old base: none is valid now.
    for (Slot& slot : slots_) slot.holds_sum = false;
  }
  trim_factors();
}

}  // namespace addbo::core
