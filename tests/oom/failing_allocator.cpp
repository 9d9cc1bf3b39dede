// The allocator of failing_allocator.hpp. The executable's definitions of the allocation
// functions take precedence over the C library's (and over libasan's, whose own are weak) for
// every shared library of the process too; underneath they call the real allocator by its
// other name: glibc's __libc_* functions, or AddressSanitizer's __interceptor_* ones, so that an
// ASan build still checks every access. free() is not replaced: the real one releases what
// either allocator returned.
#include "failing_allocator.hpp"

#include <cerrno>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define ADDBO_OOM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDBO_OOM_ASAN 1
#endif
#endif

#ifdef ADDBO_OOM_ASAN
#define ADDBO_REAL(name) __interceptor_##name
#else
#define ADDBO_REAL(name) __libc_##name
#endif

extern "C" {
void* ADDBO_REAL(malloc)(std::size_t size);
void* ADDBO_REAL(calloc)(std::size_t count, std::size_t size);
void* ADDBO_REAL(realloc)(void* pointer, std::size_t size);
void* ADDBO_REAL(memalign)(std::size_t alignment, std::size_t size);
}

// The allocator runs before AddressSanitizer has set up its shadow memory (its start-up calls
// malloc): the code that runs then is not instrumented, and its state is plain variables read
// and written with the compiler's atomic builtins (std::atomic's members are separate,
// instrumented functions in an unoptimised build).
#define ADDBO_OOM_UNINSTRUMENTED __attribute__((no_sanitize_address))

namespace {

// 0: disarmed. Otherwise the index (from 1) of the allocation to fail first.
std::size_t target = 0;
std::size_t counted = 0;
bool persistent = false;
bool failed = false;

}  // namespace

// Called at every allocation made to fail: a place for a debugger's breakpoint
// (gdb: break addbo_oom_failing if index == 1033).
extern "C" __attribute__((noinline)) void addbo_oom_failing(std::size_t index) {
  asm volatile("" ::"r"(index) : "memory");
}

namespace {

// Counts one allocation; true when it is to fail.
ADDBO_OOM_UNINSTRUMENTED bool should_fail() {
  const std::size_t k = __atomic_load_n(&target, __ATOMIC_RELAXED);
  if (k == 0) return false;
  const std::size_t index = __atomic_add_fetch(&counted, 1, __ATOMIC_RELAXED);
  if (index == k || (index > k && __atomic_load_n(&persistent, __ATOMIC_RELAXED))) {
    __atomic_store_n(&failed, true, __ATOMIC_RELAXED);
    addbo_oom_failing(index);
    return true;
  }
  return false;
}

ADDBO_OOM_UNINSTRUMENTED void* aligned(std::size_t alignment, std::size_t size) {
  if (should_fail()) return nullptr;
  return ADDBO_REAL(memalign)(alignment, size);
}

void* new_or_throw(std::size_t size) {
  if (size == 0) size = 1;
  void* pointer = std::malloc(size);
  if (pointer == nullptr) throw std::bad_alloc();
  return pointer;
}

void* aligned_new_or_throw(std::size_t size, std::align_val_t alignment) {
  if (size == 0) size = 1;
  void* pointer = aligned(static_cast<std::size_t>(alignment), size);
  if (pointer == nullptr) throw std::bad_alloc();
  return pointer;
}

}  // namespace

namespace addbo_oom {

void arm(std::size_t k, Failure failure) {
  __atomic_store_n(&counted, 0, __ATOMIC_SEQ_CST);
  __atomic_store_n(&failed, false, __ATOMIC_SEQ_CST);
  __atomic_store_n(&persistent, failure == Failure::from_then, __ATOMIC_SEQ_CST);
  __atomic_store_n(&target, k == 0 ? 1 : k, __ATOMIC_SEQ_CST);
}

bool disarm() {
  __atomic_store_n(&target, 0, __ATOMIC_SEQ_CST);
  return __atomic_load_n(&failed, __ATOMIC_SEQ_CST);
}

std::size_t allocations() { return __atomic_load_n(&counted, __ATOMIC_SEQ_CST); }

}  // namespace addbo_oom

extern "C" {

ADDBO_OOM_UNINSTRUMENTED void* malloc(std::size_t size) {
  if (should_fail()) return nullptr;
  return ADDBO_REAL(malloc)(size);
}

ADDBO_OOM_UNINSTRUMENTED void* calloc(std::size_t count, std::size_t size) {
  if (should_fail()) return nullptr;
  return ADDBO_REAL(calloc)(count, size);
}

ADDBO_OOM_UNINSTRUMENTED void* realloc(void* pointer, std::size_t size) {
  if (should_fail()) return nullptr;
  return ADDBO_REAL(realloc)(pointer, size);
}

ADDBO_OOM_UNINSTRUMENTED void* memalign(std::size_t alignment, std::size_t size) {
  return aligned(alignment, size);
}

ADDBO_OOM_UNINSTRUMENTED void* aligned_alloc(std::size_t alignment, std::size_t size) {
  return aligned(alignment, size);
}

ADDBO_OOM_UNINSTRUMENTED int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  void* pointer = aligned(alignment, size);
  if (pointer == nullptr) return ENOMEM;
  *out = pointer;
  return 0;
}

}  // extern "C"

// Through malloc and free, so that AddressSanitizer sees one kind of allocation (libasan
// replaces the operators too, and would report a malloc'd block given to its operator delete).
void* operator new(std::size_t size) { return new_or_throw(size); }
void* operator new[](std::size_t size) { return new_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  return aligned_new_or_throw(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return aligned_new_or_throw(size, alignment);
}
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete[](void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete[](void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t, std::align_val_t) noexcept {
  std::free(pointer);
}
