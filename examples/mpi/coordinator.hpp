// Rank 0 of mpi_evaluation: owns the addbo optimizer, keeps points in flight on the worker
// ranks, tells each value as it arrives, and writes the checkpoint after every tell.
#pragma once

#include "options.hpp"

namespace mpi_evaluation {

// Runs the optimisation with ranks 1 .. world_size - 1 as workers, then tells them to stop;
// returns the process's exit status (prints what happened on stdout, failures on stderr).
int run_coordinator(const Options& options, int world_size);

}  // namespace mpi_evaluation
