// Allocation-failure injection for the test executable it is linked into (as SQLite's and
// libxml2's test suites do): failing_allocator.cpp defines malloc, calloc, realloc,
// posix_memalign, aligned_alloc, memalign and every global operator new and delete of the
// process, on top of the C library's allocator (or AddressSanitizer's, in an ASan build). Once
// armed with k, the k-th allocation from then on fails (malloc returns NULL, operator new throws
// std::bad_alloc), in every library of the process, libaddbo's and libstdc++'s included.
#pragma once

#include <cstddef>

namespace addbo_oom {

enum class Failure {
  once,      // only the k-th allocation fails; later ones succeed again
  from_then  // the k-th and every later allocation fail until disarm()
};

// Counts allocations from now on and fails the k-th (k >= 1) as `failure` says.
void arm(std::size_t k, Failure failure = Failure::once);
// Stops counting and failing; true when an allocation was made to fail since arm().
bool disarm();
// Allocations counted since the last arm() (the failed ones included).
std::size_t allocations();

}  // namespace addbo_oom
