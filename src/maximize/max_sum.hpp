// Exact maximisation of a sum of low-dimensional tables by max-sum message passing on a
// junction tree, with argmax backtracking (paper Algorithm 2 + eq. 8).
#pragma once

#include <vector>

#include "graph/junction_tree.hpp"
#include "graph/table.hpp"

namespace addbo::core {

struct MaxSumResult {
  std::vector<int> assignment;  // one domain index per variable 0..D-1
  double value = 0.0;           // sum of all factors at `assignment`
};

// Maximises sum_i factors[i](x) over the product of domains {0..domain_sizes[v]-1}.
// factors[i] is handled at tree.factor_node[i]; every variable must appear in some tree node.
// Ties are broken towards the smallest index, so the result is deterministic. NaN entries are
// treated as -infinity.
MaxSumResult maximize_sum(const JunctionTree& tree, const std::vector<Table>& factors,
                          const std::vector<int>& domain_sizes);

// Per variable, which domain values an assignment may take (empty: all of them).
using DomainMasks = std::vector<std::vector<char>>;

// The same over the assignments whose every variable v takes a value with allowed[v][value]
// true (allowed.size() is 0 or D). When no assignment is allowed, value is -infinity.
MaxSumResult maximize_sum(const JunctionTree& tree, const std::vector<Table>& factors,
                          const std::vector<int>& domain_sizes, const DomainMasks& allowed);

// Index of `assignment` (per-variable indices) into a table over `vars` with `domain_sizes`.
std::size_t table_offset(const VarSet& vars, const std::vector<int>& domain_sizes,
                         const std::vector<int>& assignment);

}  // namespace addbo::core
