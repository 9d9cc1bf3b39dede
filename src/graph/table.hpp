// A table over a clique of variables: the acquisition writes one per clique (acquisition/ucb)
// and the maximiser reads them (maximize/max_sum). Defined with the variable sets both build on,
// so that neither module includes the other.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace addbo::core {

// A function of the variables `vars` (sorted) over their finite domains, stored row-major:
// the last variable of `vars` varies fastest. values.size() == product of the domain sizes.
struct Table {
  VarSet vars;
  std::vector<double> values;
};

}  // namespace addbo::core
