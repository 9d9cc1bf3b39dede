#include "last_error.hpp"

#include <cstring>

#include "addbo/addbo.h"

namespace {

// Per thread, so that a failure on one thread never overwrites the message another thread is
// about to read. A fixed buffer rather than a std::string: recording an error then never
// allocates (a call that ran out of memory still reports what failed), and a thread_local with
// a destructor would make glibc register it at the thread's first failure, an allocation whose
// failure ends the process. Empty until the first failure on the thread.
constexpr std::size_t kMessageBytes = 2048;
thread_local char message[kMessageBytes];

// Appends `text` at `length`, keeping room for the terminating NUL; returns the new length, or
// kMessageBytes when the text did not fit.
std::size_t append(std::size_t length, const char* text) {
  const std::size_t room = kMessageBytes - 1 - length;
  const std::size_t size = std::strlen(text);
  if (size > room) {
    std::memcpy(message + length, text, room);
    return kMessageBytes;
  }
  std::memcpy(message + length, text, size);
  return length + size;
}

}  // namespace

namespace addbo::capi {

void set_last_error(const char* function, const char* detail) noexcept {
  std::size_t length = append(0, function);
  if (length < kMessageBytes) length = append(length, ": ");
  if (length < kMessageBytes) length = append(length, detail);
  if (length == kMessageBytes) {
    // Cut short: end with "..." on a UTF-8 character boundary.
    length = kMessageBytes - 4;
    while (length > 0 && (static_cast<unsigned char>(message[length]) & 0xC0) == 0x80) --length;
    std::memcpy(message + length, "...", 3);
    length += 3;
  }
  message[length] = '\0';
}

}  // namespace addbo::capi

const char* addbo_last_error(void) { return message; }
