#include "gp/additive_kernel.hpp"

#include "util/error.hpp"

namespace addbo::core {

AdditiveKernel::AdditiveKernel(std::vector<VariableType> types, std::vector<VarSet> cliques,
                               std::vector<double> lengthscales, double noise_variance)
    : types_(std::move(types)),
      cliques_(std::move(cliques)),
      lengthscales_(std::move(lengthscales)),
      noise_variance_(noise_variance) {
  if (lengthscales_.size() != types_.size()) {
    throw Error(Status::internal, "AdditiveKernel: one lengthscale per variable is required");
  }
  std::size_t total_size = 0;
  for (const VarSet& clique : cliques_) {
    if (clique.empty()) throw Error(Status::internal, "AdditiveKernel: empty clique");
    for (int d : clique) {
      if (d < 0 || static_cast<std::size_t>(d) >= types_.size()) {
        throw Error(Status::internal, "AdditiveKernel: clique names an unknown variable");
      }
    }
    total_size += clique.size();
  }
  clique_scales_.reserve(cliques_.size());
  for (const VarSet& clique : cliques_) {
    clique_scales_.push_back(static_cast<double>(clique.size()) / static_cast<double>(total_size));
  }
}

double AdditiveKernel::clique_value(std::size_t c, const double* u, const double* v) const {
  double value = clique_scales_[c];
  for (int d : cliques_[c]) value *= factor(d, u[d], v[d]);
  return value;
}

double AdditiveKernel::operator()(const double* u, const double* v) const {
  double sum = 0.0;
  for (std::size_t c = 0; c < cliques_.size(); ++c) sum += clique_value(c, u, v);
  return sum;
}

}  // namespace addbo::core
