// Running independent pieces of work on several threads (the per-clique table updates, the
// column blocks of the learning's kernel matrices and Cholesky updates). Results must not depend on
// the number of threads, so the pieces write disjoint outputs and every piece is computed by the
// same code whichever thread runs it; only the order in which pieces finish varies.
#pragma once

#include <cstddef>
#include <functional>

namespace addbo::core {

// The number of threads a `limits.threads` value allows: 0 means every core the machine has
// (at least 1), any other value is used as given.
int resolve_thread_count(int configured);

// Calls body(i) exactly once for every i in [0, count), on up to `threads` threads (the calling
// thread included; threads <= 1 or count <= 1 runs everything on the caller). Blocks until all
// are done. A throwing body does not stop the others: every index still runs, then the
// exception of the smallest failing index is rethrown, so a failure is reported the same way
// whatever the thread count.
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& body);

}  // namespace addbo::core
