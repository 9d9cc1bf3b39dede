#include "learn/learning_data.hpp"

#include <algorithm>
#include <numeric>

#include "util/error.hpp"

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

namespace {

// Ties keep the earlier index first, as select_observations' stable sort does.
bool ranks_before(const std::pair<double, std::size_t>& a,
                  const std::pair<double, std::size_t>& b) {
  return a.first > b.first || (a.first == b.first && a.second < b.second);
}

}  // namespace

void ValueRanking::reserve_one_more() {
  if (best_.size() < tracked_ && best_.size() == best_.capacity()) {
    best_.reserve(std::min(tracked_, std::max<std::size_t>(16, 2 * best_.size())));
  }
}

void ValueRanking::add(double value) noexcept {
  const std::pair<double, std::size_t> entry{value, count_++};
  if (best_.size() == tracked_ && (tracked_ == 0 || !ranks_before(entry, best_.back()))) return;
  if (best_.size() == tracked_) best_.pop_back();
  // Within the capacity reserve_one_more made: no allocation.
  best_.insert(std::upper_bound(best_.begin(), best_.end(), entry, ranks_before), entry);
}

std::vector<std::size_t> ValueRanking::select(std::size_t cap) const {
  std::vector<std::size_t> selected;
  if (cap == 0 || count_ <= cap) {
    selected.resize(count_);
    std::iota(selected.begin(), selected.end(), std::size_t{0});
    return selected;
  }
  const std::size_t best_count = (cap + 3) / 4;
  if (best_count > best_.size()) {
    throw Error(Status::internal, "ValueRanking::select: the cap's best quarter is not ranked");
  }
  std::vector<std::size_t> best;
  for (std::size_t k = 0; k < best_count; ++k) best.push_back(best_[k].second);
  std::sort(best.begin(), best.end());
  selected = best;
  // The most recent of the others until the cap: at most cap of them are looked at beyond the
  // best ones.
  for (std::size_t i = count_; i-- > 0 && selected.size() < cap;) {
    if (!std::binary_search(best.begin(), best.end(), i)) selected.push_back(i);
  }
  std::sort(selected.begin(), selected.end());
  return selected;
}

}  // namespace addbo::core
