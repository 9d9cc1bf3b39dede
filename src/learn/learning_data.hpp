// Which observations a model uses when their number is capped: structure learning
// (structure.max_learning_points; every likelihood costs O(m^3) in the number m of points used)
// and the posterior (limits.max_model_observations, docs/limits.md). When capped, the best
// quarter of the cap are kept (by value, in the goal's direction: these shape the optimum's
// region) and the rest filled with the most recent observations (these reflect where the search
// is now).
#pragma once

#include <cstddef>
#include <vector>

namespace addbo::core {

// Indices (ascending) into y_model (larger is better) of the points to learn from; cap 0 = all.
std::vector<std::size_t> select_observations(const std::vector<double>& y_model, std::size_t cap);

}  // namespace addbo::core
