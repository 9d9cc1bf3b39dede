#include "last_error.hpp"

#include <string>

#include "addbo/addbo.h"

namespace {

// Per thread, so that a failure on one thread never overwrites the message another thread is
// about to read. Empty until the first failure on the thread.
thread_local std::string message;
// Set instead of `message` when formatting it ran out of memory; static storage, never freed.
thread_local const char* fallback = nullptr;

}  // namespace

namespace addbo::capi {

void set_last_error(const char* function, const char* detail) noexcept {
  try {
    message.assign(function).append(": ").append(detail);
    fallback = nullptr;
  } catch (...) {
    fallback = "addbo: out of memory while recording an error message";
  }
}

}  // namespace addbo::capi

const char* addbo_last_error(void) { return fallback != nullptr ? fallback : message.c_str(); }
