// The best assignment of a sum of tables that is not in a given set (points already evaluated
// or pending), exactly, by Lawler's partitioning of the assignment space (Lawler 1972; Nilsson
// 1998 for junction trees): when the best assignment x* of a subspace is excluded, the subspace
// minus x* splits into D disjoint subspaces, the i-th fixing variables 0..i-1 to x* and
// forbidding x*_i for variable i; each is maximised by masked max-sum and queued by its value.
// The first assignment popped that is not excluded is the best one outside the set.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "maximize/max_sum.hpp"

namespace addbo::core {

struct ExcludingResult {
  MaxSumResult best;        // the best assignment that is not excluded
  std::size_t skipped = 0;  // excluded assignments passed over on the way
};

// Searches the assignments that `allowed` admits (maximize_sum's masks; empty: all). Returns
// nothing when every one of them is excluded, or when more than `max_skipped` excluded
// assignments come first (each costs D max-sum passes).
std::optional<ExcludingResult> maximize_sum_excluding(
    const JunctionTree& tree, const std::vector<Table>& factors,
    const std::vector<int>& domain_sizes,
    const std::function<bool(const std::vector<int>&)>& excluded, std::size_t max_skipped,
    const DomainMasks& allowed = DomainMasks());

}  // namespace addbo::core
