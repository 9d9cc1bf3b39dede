// util/parallel: every index runs exactly once on any thread count, and a failing body is
// reported as the failure of the smallest failing index whatever the thread count.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/parallel.hpp"

using namespace addbo::core;

TEST_CASE("parallel_for runs every index exactly once") {
  for (int threads : {0, 1, 2, 3, 8}) {
    for (std::size_t count : {0u, 1u, 2u, 7u, 1000u}) {
      CAPTURE(threads);
      CAPTURE(count);
      std::vector<std::atomic<int>> runs(count);
      parallel_for(count, threads, [&](std::size_t i) { ++runs[i]; });
      for (std::size_t i = 0; i < count; ++i) CHECK(runs[i] == 1);
    }
  }
}

TEST_CASE("parallel_for rethrows the smallest failing index after finishing the others") {
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    std::atomic<int> finished{0};
    std::string message;
    try {
      parallel_for(100, threads, [&](std::size_t i) {
        if (i == 17 || i == 60 || i == 99) throw std::runtime_error("index " + std::to_string(i));
        ++finished;
      });
    } catch (const std::runtime_error& error) {
      message = error.what();
    }
    CHECK(message == "index 17");
    CHECK(finished == 97);
  }
}

TEST_CASE("resolve_thread_count: 0 is every core, anything else as given") {
  CHECK(resolve_thread_count(0) >= 1);
  CHECK(resolve_thread_count(1) == 1);
  CHECK(resolve_thread_count(3) == 3);
}
