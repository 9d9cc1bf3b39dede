// The exact maximisers of the synthetic test functions against brute-force enumeration of the
// whole grid: the 3x3 grid graph on a 4-point grid (4^9 = 262144 points) and the star graph on a
// 3-point grid (3^10 = 59049 points), over several GP draws and over arbitrary tables.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "exact_maximum.hpp"

#include <doctest/doctest.h>

#include "seeded_random.hpp"
#include "test_function.hpp"

using namespace paper_synthetic;

namespace {

// Independent uniform tables: no smoothness for the dynamic programming to lean on.
TestFunction rough_function(const TrueGraph& graph, int grid, std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<std::vector<double>> tables(graph.edges.size());
  for (auto& table : tables) {
    for (int cell = 0; cell < grid * grid; ++cell) table.push_back(random.uniform() * 2.0 - 1.0);
  }
  return TestFunction(graph, grid, std::move(tables));
}

// Three GP draws and three rough functions on `grid` points per variable.
void check_against_brute_force(const TrueGraph& graph, int grid) {
  const GridGpSampler sampler(grid, 0.2);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const TestFunction smooth(graph, sampler, seed), rough = rough_function(graph, grid, seed);
    for (const TestFunction* function : {&smooth, &rough}) {
      CHECK(exact_maximum(*function) ==
            doctest::Approx(brute_force_maximum(*function)).epsilon(1e-12));
    }
  }
}

}  // namespace

TEST_CASE("grid graph: the row dynamic programming equals brute force on a 4-point grid") {
  check_against_brute_force(grid_graph(), 4);
}

TEST_CASE("star graph: conditioning on the hub equals brute force on a 3-point grid") {
  check_against_brute_force(star_graph(), 3);
}

TEST_CASE("true graphs have the paper's shape") {
  CHECK(star_graph().dimension == 10);
  CHECK(star_graph().edges.size() == 9);
  CHECK(grid_graph().dimension == 9);
  CHECK(grid_graph().edges.size() == 12);
}

TEST_CASE("grid points round-trip through nearest_index") {
  for (int grid : {2, 10, 30}) {
    for (int i = 0; i < grid; ++i) CHECK(nearest_index(grid_point(i, grid), grid) == i);
  }
  CHECK(grid_point(29, 30) == 1.0);
}

TEST_CASE("GP components have the requested variance on average") {
  // 200 draws of a 5x5 table with variance 0.25: the pooled sample variance is close to 0.25.
  const GridGpSampler sampler(5, 0.2);
  double sum_squares = 0.0;
  int count = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    for (double value : sampler.sample(seed, 0.25)) {
      sum_squares += value * value;
      ++count;
    }
  }
  CHECK(sum_squares / count == doctest::Approx(0.25).epsilon(0.1));
}
