// The additive squared-exponential kernel (docs/configuration.md, "The model"):
//   k(x, x') = sum_C s_C prod_{d in C} k_d(x_d, x'_d),  s_C = |C| / sum_C' |C'|,
// so that k(x, x) = 1. Inputs are encoded (unit interval, or the choice index for categorical
// variables).
#pragma once

#include <cmath>
#include <vector>

#include "graph/graph.hpp"
#include "space/variable.hpp"

namespace addbo::core {

// k_d: exp(-(u-v)^2 / (2 l^2)) for continuous and integer variables; for categorical ones
// 1 when the indices are equal, else exp(-1 / (2 l^2)).
inline double variable_factor(VariableType type, double lengthscale, double u, double v) {
  const double inverse_two_l2 = 0.5 / (lengthscale * lengthscale);
  if (type == VariableType::categorical) return u == v ? 1.0 : std::exp(-inverse_two_l2);
  const double difference = u - v;
  return std::exp(-difference * difference * inverse_two_l2);
}

class AdditiveKernel {
 public:
  AdditiveKernel(std::vector<VariableType> types, std::vector<VarSet> cliques,
                 std::vector<double> lengthscales, double noise_variance);

  std::size_t dimension() const { return types_.size(); }
  const std::vector<VariableType>& types() const { return types_; }
  const std::vector<VarSet>& cliques() const { return cliques_; }
  double clique_scale(std::size_t c) const { return clique_scales_[c]; }
  const std::vector<double>& lengthscales() const { return lengthscales_; }
  double noise_variance() const { return noise_variance_; }

  double factor(std::size_t d, double u, double v) const {
    return variable_factor(types_[d], lengthscales_[d], u, v);
  }
  // s_C prod_{d in C} k_d(u_d, v_d) for clique c; u and v hold all D encoded values.
  double clique_value(std::size_t c, const double* u, const double* v) const;
  // The full additive kernel (without noise).
  double operator()(const double* u, const double* v) const;

 private:
  std::vector<VariableType> types_;
  std::vector<VarSet> cliques_;
  std::vector<double> clique_scales_;
  std::vector<double> lengthscales_;
  double noise_variance_;
};

}  // namespace addbo::core
