#include "learn/learning_data.hpp"

#include <algorithm>
#include <numeric>

namespace addbo::core {

std::vector<std::size_t> select_observations(const std::vector<double>& y_model, std::size_t cap) {
  const std::size_t n = y_model.size();
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), 0);
  if (cap == 0 || n <= cap) return all;

  std::vector<bool> chosen(n, false);
  std::vector<std::size_t> by_value = all;
  // Stable, so ties keep the earlier observation: the choice is a pure function of the data.
  std::stable_sort(by_value.begin(), by_value.end(),
                   [&](std::size_t a, std::size_t b) { return y_model[a] > y_model[b]; });
  const std::size_t best_count = (cap + 3) / 4;
  for (std::size_t k = 0; k < best_count; ++k) chosen[by_value[k]] = true;
  std::size_t count = best_count;
  for (std::size_t i = n; i-- > 0 && count < cap;) {
    if (!chosen[i]) {
      chosen[i] = true;
      ++count;
    }
  }
  std::vector<std::size_t> selected;
  for (std::size_t i = 0; i < n; ++i) {
    if (chosen[i]) selected.push_back(i);
  }
  return selected;
}

}  // namespace addbo::core
