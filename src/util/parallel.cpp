#include "util/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace addbo::core {

int resolve_thread_count(int configured) {
  if (configured > 0) return configured;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& body) {
  const std::size_t workers = std::min<std::size_t>(count, threads < 1 ? 1 : threads);
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::size_t failed_index = count;
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        body(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (i < failed_index) {
          failed_index = i;
          failure = std::current_exception();
        }
      }
    }
  };
  // One worker (or none needed) runs on the caller alone, with the same failure rule.
  std::vector<std::thread> helpers;
  try {
    for (std::size_t t = 1; t < workers; ++t) helpers.emplace_back(work);
  } catch (...) {
    // Could not start a thread (resource limits): the threads that did start and the caller
    // still finish every index.
  }
  work();
  for (std::thread& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace addbo::core
