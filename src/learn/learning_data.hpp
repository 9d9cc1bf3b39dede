// Which observations a model uses when their number is capped: structure learning
// (structure.max_learning_points; every likelihood costs O(m^3) in the number m of points used)
// and the posterior (limits.max_model_observations, docs/limits.md). When capped, the best
// quarter of the cap are kept (by value, in the goal's direction: these shape the optimum's
// region) and the rest filled with the most recent observations (these reflect where the search
// is now).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace addbo::core {

// Indices (ascending) into y_model (larger is better) of the points to learn from; cap 0 = all.
std::vector<std::size_t> select_observations(const std::vector<double>& y_model, std::size_t cap);

// select_observations of every value added so far, kept up to date as values are added, so that
// a choice costs O(cap log cap) however many values were added (a run's whole history): only
// the best `tracked` values are ranked, which covers every cap whose best quarter,
// (cap + 3) / 4, is at most `tracked`.
class ValueRanking {
 public:
  explicit ValueRanking(std::size_t tracked = 0) : tracked_(tracked) {}

  // Makes room for the next add, so that add itself never allocates (a commit calls it).
  void reserve_one_more();
  // Ranks the next value (index size()); requires room (reserve_one_more).
  void add(double value) noexcept;
  std::size_t size() const { return count_; }
  // select_observations(the values added, cap). Requires (cap + 3) / 4 <= tracked when
  // size() > cap.
  std::vector<std::size_t> select(std::size_t cap) const;

 private:
  std::size_t tracked_;
  std::size_t count_ = 0;
  // The best values with their indices, best first (the earlier index on a tie).
  std::vector<std::pair<double, std::size_t>> best_;
};

}  // namespace addbo::core
