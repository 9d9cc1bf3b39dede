// Which observations structure learning uses. Every likelihood costs O(m^3) in the number m of
// points used, so structure.max_learning_points can cap m. When capped, learning keeps the best
// quarter of the cap (by value, in the goal's direction: these shape the optimum's region) and
// fills the rest with the most recent observations (these reflect where the search is now).
#pragma once

#include <cstddef>
#include <vector>

namespace addbo::core {

// Indices (ascending) into y_model (larger is better) of the points to learn from; cap 0 = all.
std::vector<std::size_t> select_learning_points(const std::vector<double>& y_model,
                                                std::size_t cap);

}  // namespace addbo::core
