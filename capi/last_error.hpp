// The thread-local message behind addbo_last_error().
#pragma once

namespace addbo::capi {

// Replaces this thread's message with "<function>: <detail>", cut short with "..." past 2047
// bytes. Never allocates, never throws.
void set_last_error(const char* function, const char* detail) noexcept;

}  // namespace addbo::capi
