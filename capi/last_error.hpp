// The thread-local message behind addbo_last_error().
#pragma once

namespace addbo::capi {

// Replaces this thread's message with "<function>: <detail>". Never throws: if the message
// cannot be allocated, a static out-of-memory message takes its place.
void set_last_error(const char* function, const char* detail) noexcept;

}  // namespace addbo::capi
