// A buffer of doubles per thread, kept between calls so that a hot loop does not map fresh
// memory at every call. Not a C++ thread_local: glibc ends the process when it cannot allocate
// the record of a thread_local's destructor (at the thread's first use), while a pthread key
// reports the failure, which becomes std::bad_alloc here. A thread's buffer is freed when the
// thread exits; when the library is unloaded, the buffers of threads still running are left to
// the system (the key is deleted, so that no thread calls code that is gone). A call made after
// the key is deleted (while the process exits) works on a buffer of its thread that is never
// freed.
#pragma once

#include <vector>

namespace addbo::core {

// This thread's buffer (empty at first; the caller grows it). Throws std::bad_alloc when it
// cannot be made.
std::vector<double>& thread_scratch();

}  // namespace addbo::core
