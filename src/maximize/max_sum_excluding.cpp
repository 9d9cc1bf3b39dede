#include "maximize/max_sum_excluding.hpp"

#include <cmath>
#include <queue>

namespace addbo::core {
namespace {

struct Subspace {
  DomainMasks allowed;
  MaxSumResult best;
  std::size_t order = 0;  // ties between equal values go to the earlier subspace
};

struct WorseFirst {
  bool operator()(const Subspace& a, const Subspace& b) const {
    if (a.best.value != b.best.value) return a.best.value < b.best.value;
    return a.order > b.order;
  }
};

std::vector<char> single_value(int size, int value) {
  std::vector<char> mask(static_cast<std::size_t>(size), 0);
  mask[value] = 1;
  return mask;
}

}  // namespace

std::optional<ExcludingResult> maximize_sum_excluding(
    const JunctionTree& tree, const std::vector<Table>& factors,
    const std::vector<int>& domain_sizes,
    const std::function<bool(const std::vector<int>&)>& excluded, std::size_t max_skipped,
    const DomainMasks& allowed) {
  const std::size_t dimension = domain_sizes.size();
  std::priority_queue<Subspace, std::vector<Subspace>, WorseFirst> queue;
  std::size_t order = 0;
  DomainMasks start = allowed.empty() ? DomainMasks(dimension) : allowed;
  MaxSumResult best = maximize_sum(tree, factors, domain_sizes, start);
  Subspace whole{std::move(start), std::move(best), order++};
  queue.push(std::move(whole));
  ExcludingResult result;
  while (!queue.empty()) {
    Subspace top = queue.top();
    queue.pop();
    if (std::isinf(top.best.value) && top.best.value < 0) return std::nullopt;  // nothing left
    if (!excluded(top.best.assignment)) {
      result.best = std::move(top.best);
      return result;
    }
    if (++result.skipped > max_skipped) return std::nullopt;
    // Split the subspace minus x* into D disjoint parts.
    DomainMasks prefix = top.allowed;
    const std::vector<int>& x = top.best.assignment;
    for (std::size_t i = 0; i < dimension; ++i) {
      Subspace part{prefix, {}, order++};
      std::vector<char>& mask = part.allowed[i];
      if (mask.empty()) mask.assign(static_cast<std::size_t>(domain_sizes[i]), 1);
      mask[x[i]] = 0;
      bool any = false;
      for (char value_allowed : mask) any = any || value_allowed;
      if (any) {
        part.best = maximize_sum(tree, factors, domain_sizes, part.allowed);
        if (!(std::isinf(part.best.value) && part.best.value < 0)) queue.push(std::move(part));
      }
      prefix[i] = single_value(domain_sizes[i], x[i]);
    }
  }
  return std::nullopt;
}

}  // namespace addbo::core
