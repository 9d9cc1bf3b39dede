// The known-point rule's variance bound against the dense posterior of the reference
// implementation given the same points: exact while a cell holds at most kMostCellPoints
// points, and past that the bound of the newest ones, never below the variance given them all.
#include <doctest/doctest.h>

#include <random>

#include "acquisition/known_points.hpp"
#include "evaluation/reference_posterior.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("acquisition");

namespace {

// Two continuous variables on grids of 2 and 3 points: every point of the lower half of the
// first variable with the second at 0.5 falls in the cell {0, 1}.
struct Crowd {
  Crowd()
      : kernel({VariableType::continuous, VariableType::continuous}, {{0}, {1}}, {0.4, 0.5}, 1e-3),
        posterior(kernel, {{0.0, 1.0}, {0.0, 0.5, 1.0}}, 0.0) {}

  AdditiveKernel kernel;
  AdditivePosterior posterior;
  CellPoints observed, pending, failed;
  std::vector<std::vector<double>> observed_points, pending_points;
  const std::vector<int> cell{0, 1};
};

double reference_variance(const AdditiveKernel& kernel,
                          const std::vector<std::vector<double>>& points,
                          const std::vector<double>& u) {
  const ReferencePosterior reference(
      kernel, points, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(points.size())), 0.0);
  return reference.variance(u);
}

}  // namespace

TEST_CASE(
    "test_known_points: the cell's variance bound is exact up to the cap, then an upper bound") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> half(0.0, 0.45);
  for (const std::size_t observed : {1, 7, 40, 64, 65, 150}) {
    for (const std::size_t pending : {0, 3, 70}) {
      CAPTURE(observed);
      CAPTURE(pending);
      Crowd crowd;
      for (std::size_t i = 0; i < observed; ++i) {
        crowd.observed_points.push_back({half(rng), 0.5});
        crowd.observed.add(crowd.cell, crowd.observed_points.back(), i);
      }
      for (std::size_t i = 0; i < pending; ++i) {
        crowd.pending_points.push_back({half(rng), 0.5});
        crowd.pending.add(crowd.cell, crowd.pending_points.back());
      }
      const CellOccupancy occupancy{crowd.observed, crowd.pending, crowd.failed};
      const std::vector<double> u{0.2, 0.5};
      for (const bool with_pending : {false, true}) {
        CAPTURE(with_pending);
        std::vector<std::vector<double>> all = crowd.observed_points;
        if (with_pending) {
          all.insert(all.end(), crowd.pending_points.begin(), crowd.pending_points.end());
        }
        // The newest ones the rule keeps: pending first, observed filling the rest.
        const std::size_t pending_kept =
            with_pending ? std::min(crowd.pending_points.size(), kMostCellPoints) : 0;
        const std::size_t observed_kept = std::min(observed, kMostCellPoints - pending_kept);
        std::vector<std::vector<double>> kept(crowd.observed_points.end() - observed_kept,
                                              crowd.observed_points.end());
        kept.insert(kept.end(), crowd.pending_points.end() - pending_kept,
                    crowd.pending_points.end());
        const double bound =
            cell_variance_bound(crowd.posterior, u, occupancy, crowd.cell, with_pending);
        const double full = reference_variance(crowd.kernel, all, u);
        CHECK(bound == doctest::Approx(reference_variance(crowd.kernel, kept, u)).epsilon(1e-9));
        if (all.size() <= kMostCellPoints) {
          CHECK(bound == doctest::Approx(full).epsilon(1e-9));
        } else {
          CHECK(bound >= full - 1e-12);
        }
      }
    }
  }
}

TEST_CASE("test_known_points: an empty cell is never known, a crowded one is") {
  Crowd crowd;
  const CellOccupancy occupancy{crowd.observed, crowd.pending, crowd.failed};
  CHECK_FALSE(is_known(crowd.posterior, {0.2, 0.5}, occupancy, crowd.cell, true));
  // Thousands of evaluations at the point: known, from the newest kMostCellPoints of them.
  for (std::size_t i = 0; i < 5000; ++i) crowd.observed.add(crowd.cell, {0.2, 0.5}, i);
  CHECK(is_known(crowd.posterior, {0.2, 0.5}, occupancy, crowd.cell, false));
  CHECK(cell_variance_bound(crowd.posterior, {0.2, 0.5}, occupancy, crowd.cell, false) ==
        doctest::Approx(
            reference_variance(crowd.kernel,
                               std::vector<std::vector<double>>(kMostCellPoints, {0.2, 0.5}),
                               {0.2, 0.5}))
            .epsilon(1e-9));
}

TEST_SUITE_END();
