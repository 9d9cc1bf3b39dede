#include "optimizer/learning_ahead.hpp"

#include <chrono>
#include <condition_variable>
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
// needs it. The registry itself is never destroyed, so that a handle destroyed on another thread
// while the process exits can still look in it: a flight the teardown took out was joined by it.
class WorkerRegistry {
 public:
  static WorkerRegistry& instance() {
    static WorkerRegistry* const registry = new WorkerRegistry;
    return *registry;
  }
  // Calls `start` (which starts the flight's worker) and registers the flight, unless the
  // registry was torn down (then false, and nothing is started).
  template <class Start>
  bool add(LearningAhead::Flight* flight, Start&& start) {
    register_tear_down();
    std::lock_guard<std::mutex> lock(mutex_);
    if (torn_down_) return false;
    flights_.insert(flight);  // before the start: a failed insertion starts nothing
    try {
      start();
    } catch (...) {
      flights_.erase(flight);
      throw;
    }
    return true;
  }
  // Takes the flight out; false when the teardown did (and joined its worker).
  bool remove(LearningAhead::Flight* flight) {
    std::lock_guard<std::mutex> lock(mutex_);
    return flights_.erase(flight) == 1;
  }

 private:
  struct TearDownAtExit {
    ~TearDownAtExit() { WorkerRegistry::instance().tear_down(); }
  };
  // Registers the teardown once, when the first worker starts. Not a static of `add`: a
  // template holds one per instantiation, and each would tear down again.
  static void register_tear_down() {
    static TearDownAtExit tear_down_at_exit;  // destroyed, in turn, at exit or dlclose
  }
  void tear_down();
  std::mutex mutex_;
  bool torn_down_ = false;
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
    if (on_worker && !WorkerRegistry::instance().remove(this)) return;  // joined by the teardown
    stop_worker();
  }
};

void WorkerRegistry::tear_down() {
  std::lock_guard<std::mutex> lock(mutex_);
  torn_down_ = true;
  for (LearningAhead::Flight* flight : flights_) flight->stop_worker();
  flights_.clear();
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
    flight->on_worker = WorkerRegistry::instance().add(flight.get(), [&] {
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
