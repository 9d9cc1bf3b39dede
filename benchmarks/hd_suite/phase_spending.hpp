// Where a run's evaluations went and which of them paid: per phase of the ask (as addbo's info
// reports it), how many evaluations and how many improved the best value so far; and how many
// evaluations after the initial design fell in local-search runs (the stretch from one restart
// to the next) that never improved the best of all runs. Issue 26's stalls are such runs: a
// new run that settles in a basin no better than the best one's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace hd_suite {

// The phase of the initial design's asks, which no run counts.
inline const char* const kInitialDesignPhase = "initial design";

struct PhaseCount {
  std::string phase;
  int evaluations = 0;
  int improvements = 0;  // evaluations that improved the best so far
};

struct RunSpending {
  std::vector<PhaseCount> phases;  // in the order each phase first appears
  int runs = 0;                    // local-search runs met after the initial design
  int evaluations_after_design = 0;
  // Of those, the evaluations in runs none of whose evaluations improved the best so far (the
  // last run, cut off by the budget, counts as any other).
  int futile_evaluations = 0;
};

// The index of the entry of `phases` named `phase`, or phases.size() when there is none.
inline std::size_t phase_index(const std::vector<PhaseCount>& phases, const std::string& phase) {
  return static_cast<std::size_t>(
      std::find_if(phases.begin(), phases.end(),
                   [&](const PhaseCount& p) { return p.phase == phase; }) -
      phases.begin());
}

// Adds `count` to the entry of `phases` named as it, appending one at the end if there is none
// (so that phases stay in the order each first appears).
inline void add_phase_count(std::vector<PhaseCount>& phases, const PhaseCount& count) {
  const std::size_t index = phase_index(phases, count.phase);
  if (index == phases.size()) phases.push_back({count.phase, 0, 0});
  phases[index].evaluations += count.evaluations;
  phases[index].improvements += count.improvements;
}

// `regret`: the best-so-far regret after each evaluation (evaluation t improved the best when
// regret[t] < regret[t - 1]; the first never counts); `phases` and `runs`: each evaluation's
// ask phase and local-search run (the restarts before it). Evaluations beyond the shortest of
// the three are ignored.
inline RunSpending phase_spending(const std::vector<double>& regret,
                                  const std::vector<std::string>& phases,
                                  const std::vector<int>& runs) {
  RunSpending spending;
  const std::size_t count = std::min({regret.size(), phases.size(), runs.size()});
  std::map<int, std::pair<int, bool>> by_run;  // run -> (evaluations, improved)
  for (std::size_t t = 0; t < count; ++t) {
    const bool improved = t > 0 && regret[t] < regret[t - 1];
    add_phase_count(spending.phases, {phases[t], 1, improved ? 1 : 0});
    if (phases[t] == kInitialDesignPhase) continue;
    ++spending.evaluations_after_design;
    std::pair<int, bool>& run = by_run[runs[t]];
    ++run.first;
    run.second = run.second || improved;
  }
  spending.runs = static_cast<int>(by_run.size());
  for (const auto& [run, tally] : by_run) {
    if (!tally.second) spending.futile_evaluations += tally.first;
  }
  return spending;
}

}  // namespace hd_suite
