// util/parallel: every index runs exactly once on any thread count, and a failing body is
// reported as the failure of the smallest failing index whatever the thread count.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "util/parallel.hpp"

using namespace addbo::core;

TEST_SUITE_BEGIN("util");

TEST_CASE("parallel_for runs every index exactly once" * doctest::test_suite("threads")) {
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

TEST_CASE("parallel_for rethrows the smallest failing index after finishing the others" *
          doctest::test_suite("threads")) {
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

// The threads are a process-wide pool: several host threads post passes at once, and a body may
// run a pass of its own (every caller works on its own pass, so none waits for a busy pool).
TEST_CASE("parallel_for from several host threads at once, and nested" *
          doctest::test_suite("threads")) {
  constexpr int kHosts = 4;
  std::vector<int> wrong(kHosts, 0);
  std::vector<std::thread> hosts;
  for (int h = 0; h < kHosts; ++h) {
    hosts.emplace_back([&wrong, h] {
      for (int round = 0; round < 50; ++round) {
        const std::size_t count = 1 + static_cast<std::size_t>((round * 7 + h) % 40);
        std::vector<std::atomic<int>> runs(count * 3);
        parallel_for(count, 1 + (round + h) % 4, [&](std::size_t i) {
          ++runs[i];
          parallel_for(2, 2, [&](std::size_t j) { ++runs[count + 2 * i + j]; });
        });
        for (std::atomic<int>& run : runs) wrong[h] += run != 1;
      }
    });
  }
  for (std::thread& host : hosts) host.join();
  for (int h = 0; h < kHosts; ++h) CHECK(wrong[h] == 0);
}

// A child process made by fork() after the pool has threads has none of them: its passes still
// run every index (on a new pool), and it does not wait for the parent's threads.
TEST_CASE("a child process made by fork runs parallel_for passes") {
  parallel_for(64, 3, [](std::size_t) {});  // the pool has started its threads
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::vector<std::atomic<int>> runs(500);
    parallel_for(runs.size(), 3, [&](std::size_t i) { ++runs[i]; });
    int wrong = 0;
    for (std::atomic<int>& run : runs) wrong += run != 1;
    _exit(wrong == 0 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("resolve_thread_count: 0 is every core, anything else as given" *
          doctest::test_suite("threads")) {
  CHECK(resolve_thread_count(0) >= 1);
  CHECK(resolve_thread_count(1) == 1);
  CHECK(resolve_thread_count(3) == 3);
}

TEST_SUITE_END();
