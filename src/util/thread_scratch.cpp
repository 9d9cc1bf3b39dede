#include "util/thread_scratch.hpp"

#include <pthread.h>

#include <atomic>
#include <memory>
#include <new>

namespace addbo::core {
namespace {

void free_scratch(void* buffer) { delete static_cast<std::vector<double>*>(buffer); }

// The key's state, in plain variables that are never destroyed: a call made while the process
// exits (from an atexit handler, a static destructor or another thread) may come after the key
// was deleted, and must still find out that it was.
enum KeyState : int { kNoKey, kKeyMade, kKeyDeleted };
pthread_key_t scratch_key_value;
std::atomic<int> scratch_key_state{kNoKey};

// Once the key is deleted, a thread's buffer is kept in a plain pointer of the thread: never
// freed (a thread_local with a destructor would have to be registered, see the header), which
// costs one buffer per thread that calls addbo while the process exits or after an unload.
thread_local std::vector<double>* late_buffer = nullptr;

// Makes the key when the library is loaded, deletes it at exit or unload.
class ScratchKey {
 public:
  ScratchKey() {
    if (pthread_key_create(&scratch_key_value, free_scratch) == 0) scratch_key_state = kKeyMade;
  }
  ScratchKey(const ScratchKey&) = delete;
  ScratchKey& operator=(const ScratchKey&) = delete;
  ~ScratchKey() {
    if (scratch_key_state.exchange(kKeyDeleted) == kKeyMade) pthread_key_delete(scratch_key_value);
  }
};

const ScratchKey scratch_key;

std::vector<double>& late_scratch() {
  if (late_buffer == nullptr) late_buffer = new std::vector<double>();
  return *late_buffer;
}

}  // namespace

std::vector<double>& thread_scratch() {
  const int state = scratch_key_state.load();
  if (state == kKeyDeleted) return late_scratch();
  if (state != kKeyMade) throw std::bad_alloc();  // the process ran out of keys at load time
  if (void* existing = pthread_getspecific(scratch_key_value))
    return *static_cast<std::vector<double>*>(existing);
  auto made = std::make_unique<std::vector<double>>();
  if (pthread_setspecific(scratch_key_value, made.get()) != 0) throw std::bad_alloc();
  return *made.release();
}

}  // namespace addbo::core
