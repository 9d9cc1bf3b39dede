// The object behind the C API's opaque `addbo_optimizer*`.
#pragma once

#include <mutex>
#include <utility>

#include "optimizer/optimizer.hpp"
#include "util/interrupt.hpp"

struct addbo_optimizer {
  explicit addbo_optimizer(addbo::core::Optimizer optimizer) : core(std::move(optimizer)) {}

  addbo::core::Optimizer core;
  // Serialises every call on this handle, reads included: the C API promises that a handle
  // may be shared between threads. Mutable so that the const entry points can lock it.
  mutable std::mutex mutex;
  // addbo_learn runs its learning round with the mutex released; this flag (read and written
  // under the mutex only) keeps a second addbo_learn from starting meanwhile, because two
  // rounds begun from the same state would race to commit and one would be wasted work.
  bool learning = false;
  // addbo_interrupt's requests: read and raised without the mutex, which the call to be
  // interrupted holds.
  addbo::core::InterruptSource interrupts;
};
