#include "util/parallel.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace addbo::core {
namespace {

// One parallel_for call: its indices, handed out one at a time to the caller and to the pool's
// threads that join it, and the failure of the smallest index.
struct Job {
  Job(std::size_t index_count, const std::function<void(std::size_t)>& index_body)
      : count(index_count), body(index_body) {}

  void work() {
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
  }

  const std::size_t count;
  const std::function<void(std::size_t)>& body;
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::size_t failed_index = count;
  // Guarded by the pool's mutex: helpers still wanted, and helpers inside work().
  std::size_t open_slots = 0;
  std::size_t active = 0;
};

// Threads kept for the life of the process, so that a parallel pass costs no thread starts
// (an ask+tell makes a few passes, a learning hundreds: tens of microseconds each). They sleep
// on a condition variable when there is no work. Several callers (handles on different host
// threads) may post jobs at once; a caller always works on its own job too, so it finishes even
// when every pool thread is busy elsewhere or none could be started.
class ThreadPool {
 public:
  ThreadPool() = default;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void run(Job& job, std::size_t helpers) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      grow(helpers);
      job.open_slots = std::min(helpers, threads_.size());
      if (job.open_slots > 0) {
        jobs_.push_back(&job);
        wake_.notify_all();
      }
    }
    job.work();
    std::unique_lock<std::mutex> lock(mutex_);
    // Every index is taken: no helper may join any more; wait for those inside.
    jobs_.remove(&job);
    job.open_slots = 0;
    done_.wait(lock, [&] { return job.active == 0; });
  }

  ~ThreadPool() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

 private:
  // Starts threads until `wanted` exist (called with the mutex held). A thread that cannot be
  // started (resource limits) is not an error: the caller and the threads there are do the work.
  void grow(std::size_t wanted) {
    while (threads_.size() < std::min(wanted, kMostThreads)) {
      try {
        threads_.emplace_back([this] { serve(); });
      } catch (...) {
        return;
      }
    }
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      Job* job = jobs_.front();
      if (--job->open_slots == 0) jobs_.pop_front();
      ++job->active;
      lock.unlock();
      job->work();
      lock.lock();
      if (--job->active == 0) done_.notify_all();
    }
  }

  // Far above any core count this library is run on; a larger `limits.threads` still works,
  // with the extra share done by the threads there are.
  static constexpr std::size_t kMostThreads = 256;

  std::mutex mutex_;
  std::condition_variable wake_;  // work was posted, or the pool stops
  std::condition_variable done_;  // a job's last helper left it
  std::list<Job*> jobs_;          // jobs that still want helpers, oldest first
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

// Whether the pool was torn down (at exit or dlclose), and how many callers are inside it.
// Plain atomics: constant-initialised and never destroyed, so that they can be read at any
// moment of the process's exit, also after the pool itself is gone. A call made then (from an
// atexit handler, a static destructor, or another thread while exit runs) works on its
// caller's thread alone instead of posting to threads that no longer exist.
std::atomic<bool> pool_torn_down{false};
std::atomic<std::size_t> pool_callers{0};

// The process's pool. Destroyed at exit, or when a host dlclose()s the library, which joins its
// threads first (a sleeping thread must not outlive the code it runs): it first marks the pool
// torn down, so that no new caller enters, then waits for the callers inside to finish their
// jobs (their helpers are still there). A child process made by fork() has none of the
// parent's threads: it gets a new pool, and the parent's, whose threads do not exist there, is
// left alone (joining or destroying them would be undefined).
class PoolHolder {
 public:
  static ThreadPool& pool() {
    static PoolHolder holder;
    return *holder.pool_;
  }
  ~PoolHolder() {
    pool_torn_down.store(true);
    while (pool_callers.load() != 0) std::this_thread::yield();
    delete pool_;
  }

 private:
  PoolHolder() : pool_(new ThreadPool) {
    instance_ = this;
    pthread_atfork(nullptr, nullptr, [] {
      // Only the forking thread exists in the child, and it is inside no job.
      pool_callers.store(0);
      if (!pool_torn_down.load()) PoolHolder::instance_->pool_ = new ThreadPool;
    });
  }
  static PoolHolder* instance_;
  ThreadPool* pool_;
};

PoolHolder* PoolHolder::instance_ = nullptr;

// Runs the job on the pool with `helpers` more threads, or on the caller alone once the pool
// is torn down. The count is raised before the flag is read (both sequentially consistent), so
// the teardown either sees this caller and waits for it, or this caller sees the teardown.
void run_on_pool(Job& job, std::size_t helpers) {
  pool_callers.fetch_add(1);
  if (pool_torn_down.load()) {
    pool_callers.fetch_sub(1);
    job.work();
    return;
  }
  struct Leave {
    ~Leave() { pool_callers.fetch_sub(1); }
  } leave;
  PoolHolder::pool().run(job, helpers);
}

}  // namespace

int resolve_thread_count(int configured) {
  if (configured > 0) return configured;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& body) {
  const std::size_t workers = std::min<std::size_t>(count, threads < 1 ? 1 : threads);
  Job job(count, body);
  // One worker (or none needed) runs on the caller alone, with the same failure rule.
  if (workers <= 1) {
    job.work();
  } else {
    run_on_pool(job, workers - 1);
  }
  if (job.failure) std::rethrow_exception(job.failure);
}

}  // namespace addbo::core
