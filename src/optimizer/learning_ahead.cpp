#include "optimizer/learning_ahead.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

namespace addbo::core {

namespace {

// How often a waiting ask looks at the host's interrupt requests.
constexpr std::chrono::milliseconds kInterruptPoll{10};

// Points the job's learnings (the objective's and every constraint's) at `interrupt`.
void set_interrupt(LearningJob& job, const InterruptCheck& interrupt) {
  job.input.interrupt = interrupt;
  for (LearningInput& constraint : job.constraint_inputs) constraint.interrupt = interrupt;
}

// The workers still running when the library is unloaded (dlclose) or the process exits are
// stopped and joined then, so that none runs the library's code after it is gone (as the thread
// pool's, util/parallel.cpp); from then on no worker starts, and a job runs on the thread that
// needs it. The flag and the count of threads inside the registry are plain atomics, constant-
// initialised and never destroyed, so that they can be read at any moment of the exit.
std::atomic<bool> workers_torn_down{false};
std::atomic<std::size_t> registry_users{0};

class WorkerRegistry {
 public:
  // Calls `action` with the registry, unless it was torn down (then returns false). The count
  // is raised before the flag is read, so the teardown either waits for this caller or this
  // caller sees it.
  template <class Action>
  static bool with(Action&& action) {
    registry_users.fetch_add(1);
    struct Leave {
      ~Leave() { registry_users.fetch_sub(1); }
    } leave;
    if (workers_torn_down.load()) return false;
    WorkerRegistry& registry = instance();
    std::lock_guard<std::mutex> lock(registry.mutex_);
    action(registry.flights_);
    return true;
  }

 private:
  static WorkerRegistry& instance() {
    static WorkerRegistry registry;
    return registry;
  }
  ~WorkerRegistry();
  std::mutex mutex_;
  std::set<LearningAhead::Flight*> flights_;
};

}  // namespace

struct LearningAhead::Flight {
  // What the worker thread shares: the job, the request that stops it, and its end.
  struct Work {
    std::shared_ptr<LearningJob> job;
    InterruptSource stop;
    std::mutex mutex;
    std::condition_variable ended;
    bool finished = false;  // the worker is done with the job (which is done unless it failed)
  };
  std::shared_ptr<Work> work = std::make_shared<Work>();
  std::thread worker;
  bool on_worker = false;
  // Serialises running a job on callers when no worker could be started for it.
  std::mutex caller_run;

  // Stops the worker (within one step of its sampler) and joins it.
  void stop_worker() {
    if (worker.joinable()) {
      work->stop.request();
      worker.join();
    }
  }
  ~Flight() {
    if (on_worker) {
      // After a teardown the registry is gone, and it joined the worker.
      WorkerRegistry::with([this](std::set<Flight*>& flights) { flights.erase(this); });
    }
    stop_worker();
  }
};

WorkerRegistry::~WorkerRegistry() {
  workers_torn_down.store(true);
  while (registry_users.load() != 0) std::this_thread::yield();
  std::lock_guard<std::mutex> lock(mutex_);
  for (LearningAhead::Flight* flight : flights_) flight->stop_worker();
}

LearningAhead LearningAhead::prepare(std::shared_ptr<LearningJob> job) {
  LearningAhead ahead;
  ahead.flight_ = std::make_shared<Flight>();
  ahead.flight_->work->job = std::move(job);
  return ahead;
}

void LearningAhead::start() noexcept {
  const std::shared_ptr<Flight>& flight = flight_;
  if (flight == nullptr || flight->work->job->done || flight->worker.joinable()) return;
  try {
    set_interrupt(*flight->work->job, flight->work->stop.check());
    std::shared_ptr<Flight::Work> work = flight->work;
    // Started and registered at once, so that a teardown joins every worker that started.
    WorkerRegistry::with([&](std::set<Flight*>& flights) {
      flights.insert(flight.get());
      try {
        flight->worker = std::thread([work] {
          // The job reads only its own copies and writes only its outputs.
          try {
            run_learning(*work->job);
          } catch (...) {
            // Stopped, or no memory: the job is not done, and finished() runs it again.
          }
          std::lock_guard<std::mutex> lock(work->mutex);
          work->finished = true;
          work->ended.notify_all();
        });
      } catch (...) {
        flights.erase(flight.get());
        throw;
      }
      flight->on_worker = true;
    });
  } catch (...) {
    // No thread could be started: finished() runs the job on its caller.
  }
}

const LearningJob& LearningAhead::finished(const InterruptCheck& interrupt) const {
  Flight& flight = *flight_;
  Flight::Work& work = *flight.work;
  if (flight.on_worker) {
    std::unique_lock<std::mutex> lock(work.mutex);
    while (!work.finished) {
      interrupt.throw_if_requested();  // the job runs on, for the next ask to commit
      work.ended.wait_for(lock, kInterruptPoll);
    }
  }
  // A job that never started, or whose worker failed (no memory, say), runs on the caller, as
  // an ask runs its learning with one thread: its failure fails the call, and the job is kept
  // to run again at the next.
  std::lock_guard<std::mutex> lock(flight.caller_run);
  if (!work.job->done) {
    set_interrupt(*work.job, interrupt);
    run_learning(*work.job);
  }
  return *work.job;
}

bool LearningAhead::on_worker() const noexcept { return flight_->on_worker; }

}  // namespace addbo::core
