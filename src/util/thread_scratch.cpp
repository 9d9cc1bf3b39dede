#include "util/thread_scratch.hpp"

#include <pthread.h>

#include <memory>
#include <new>

namespace addbo::core {
namespace {

void free_scratch(void* buffer) { delete static_cast<std::vector<double>*>(buffer); }

// Made when the library is loaded, deleted at exit or unload.
class ScratchKey {
 public:
  ScratchKey() : made_(pthread_key_create(&key_, free_scratch) == 0) {}
  ScratchKey(const ScratchKey&) = delete;
  ScratchKey& operator=(const ScratchKey&) = delete;
  ~ScratchKey() {
    if (made_) pthread_key_delete(key_);
  }

  std::vector<double>& buffer() const {
    if (!made_) throw std::bad_alloc();  // the process ran out of keys when the library loaded
    if (void* existing = pthread_getspecific(key_))
      return *static_cast<std::vector<double>*>(existing);
    auto made = std::make_unique<std::vector<double>>();
    if (pthread_setspecific(key_, made.get()) != 0) throw std::bad_alloc();
    return *made.release();
  }

 private:
  pthread_key_t key_{};
  bool made_;
};

const ScratchKey scratch_key;

}  // namespace

std::vector<double>& thread_scratch() { return scratch_key.buffer(); }

}  // namespace addbo::core
