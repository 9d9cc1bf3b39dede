// "relearn": "ahead": the learning an ask found due, run while the host evaluates that ask's
// point, and made the model at the next ask (docs/configuration.md, "When learning happens"). A
// learning costs 0.06-1 s at 250-3,000 observations (docs/benchmarks.md); run inside the ask
// ("auto"), it makes that ask as slow, which a host that must not wait (a game engine's frame)
// cannot have.
//
// The job is a pure function of what the ask copied into it, and it is committed at a point the
// history fixes (the next ask), so the run does not depend on whether it ran on a worker thread
// or on the ask's own (limits.threads 1), nor on how fast. This class holds the job between the
// two asks: on a worker thread, or already run by the ask.
#pragma once

#include <memory>

#include "optimizer/learning_job.hpp"
#include "util/interrupt.hpp"

namespace addbo::core {

class LearningAhead {
 public:
  // Whether a job is held (begun at an ask, not yet committed).
  bool held() const noexcept { return flight_ != nullptr; }
  // Holds `job`, which the ask prepared (and ran already when `job->done`), not started yet:
  // everything the holding needs is allocated here, so that an ask can prepare it before it
  // commits and start it after.
  static LearningAhead prepare(std::shared_ptr<LearningJob> job);
  // Runs the held job on a worker thread unless it is done. Never throws: if no thread can be
  // started, the job runs on the first caller of finished().
  void start() noexcept;
  // The held job run to its end: waits for the worker, or runs the job on the caller if it
  // never started or its worker failed (no memory, say). A request on `interrupt` meanwhile
  // throws Error(Status::interrupted), and a failure of the run its error; the job is kept
  // either way. Requires held().
  const LearningJob& finished(const InterruptCheck& interrupt) const;
  // Whether the held job ran on a worker thread. Requires held().
  bool on_worker() const noexcept;
  // Lets the job go (a job still running is stopped, within one step of its sampler, once no
  // copy holds it).
  void drop() noexcept { flight_.reset(); }

  // The held job and its worker (learning_ahead.cpp), shared by copies: an optimizer copied
  // between the two asks commits the same learning at its own next ask.
  struct Flight;

 private:
  std::shared_ptr<Flight> flight_;
};

}  // namespace addbo::core
