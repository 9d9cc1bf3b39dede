// A host's request to stop long work (addbo_interrupt): one source per handle, which any thread
// may raise at any time, and the check a call takes when it starts, which its long loops poll.
// A check sees only the requests made after it was taken, so a request stops the calls in
// progress and never one that starts later.
#pragma once

#include <atomic>
#include <cstdint>

namespace addbo::core {

class InterruptCheck;

class InterruptSource {
 public:
  // Thread-safe and lock-free: callable while another thread is inside a call on the handle.
  void request() noexcept { requests_.fetch_add(1, std::memory_order_relaxed); }
  InterruptCheck check() const noexcept;

 private:
  friend class InterruptCheck;
  std::atomic<std::uint64_t> requests_{0};
};

class InterruptCheck {
 public:
  // A check that is never interrupted (calls from the core's own tests, and work that no host
  // call started).
  InterruptCheck() = default;

  bool requested() const noexcept {
    return source_ != nullptr && source_->requests_.load(std::memory_order_relaxed) != seen_;
  }
  // Throws Error(Status::interrupted) when a request came since the check was taken.
  void throw_if_requested() const;

 private:
  friend class InterruptSource;
  InterruptCheck(const InterruptSource* source, std::uint64_t seen)
      : source_(source), seen_(seen) {}
  const InterruptSource* source_ = nullptr;
  std::uint64_t seen_ = 0;
};

inline InterruptCheck InterruptSource::check() const noexcept {
  return InterruptCheck(this, requests_.load(std::memory_order_relaxed));
}

}  // namespace addbo::core
