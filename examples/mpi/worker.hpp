// A worker rank: evaluates the points rank 0 sends, one after another, and sends each value
// back, until rank 0 says stop.
#pragma once

#include "options.hpp"

namespace mpi_evaluation {

// Runs until a kStop message; returns the process's exit status. Options used: fail_every,
// hang_rank, hang_after, hang_seconds, die_rank and die_after (the tests' failing, stuck and
// dying workers).
int run_worker(const Options& options, int rank);

}  // namespace mpi_evaluation
