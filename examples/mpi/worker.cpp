#include "worker.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "objective.hpp"
#include "protocol.hpp"

namespace mpi_evaluation {

int run_worker(const Options& options, int rank) {
  int received = 0;
  for (;;) {
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_DOUBLE, &count);
    std::vector<double> message(static_cast<std::size_t>(count));
    MPI_Recv(message.data(), count, MPI_DOUBLE, 0, status.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    if (status.MPI_TAG == kStop) return 0;
    if (status.MPI_TAG != kWork || count != 1 + kDimension) {
      std::fprintf(stderr, "worker %d: unexpected message (tag %d, %d numbers)\n", rank,
                   status.MPI_TAG, count);
      return 1;
    }
    // The tests' failing workers: one stops answering for a while (a stuck node, or one so
    // slow that rank 0 gives it up), one exits (a crashed node; MPI then ends the whole job).
    if (rank == options.hang_rank && received == options.hang_after) {
      std::fprintf(stderr, "worker %d: silent for %.1f s (--hang-rank)\n", rank,
                   options.hang_seconds);
      std::this_thread::sleep_for(std::chrono::duration<double>(options.hang_seconds));
    }
    if (rank == options.die_rank && received == options.die_after) {
      std::fprintf(stderr, "worker %d: exiting (--die-rank)\n", rank);
      std::_Exit(3);
    }
    ++received;
    const auto id = static_cast<std::int64_t>(message[0]);
    const std::vector<double> x(message.begin() + 1, message.end());
    std::this_thread::sleep_for(std::chrono::milliseconds(evaluation_milliseconds(id)));
    const bool failed = options.fail_every > 0 && id % options.fail_every == options.fail_every - 1;
    const double result[3] = {message[0], static_cast<double>(failed ? kFailed : kValue),
                              failed ? 0.0 : objective(x)};
    MPI_Send(result, 3, MPI_DOUBLE, 0, kResult, MPI_COMM_WORLD);
  }
}

}  // namespace mpi_evaluation
