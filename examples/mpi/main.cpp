// mpi_evaluation: addbo on a cluster. Rank 0 owns the optimizer and keeps points in flight on
// the other ranks, which evaluate asynchronously (coordinator.cpp, worker.cpp); see kUsage
// (options.cpp) and docs/examples.md.
//   mpirun -np 4 build/examples/mpi/mpi_evaluation --evaluations 60
#include <mpi.h>

#include <cstdio>
#include <exception>

#include "coordinator.hpp"
#include "options.hpp"
#include "worker.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  // An MPI error is returned to the call, not turned into an abort inside the library.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  mpi_evaluation::Options options;
  int status = 0;
  try {
    options = mpi_evaluation::parse_options(argc, argv);
  } catch (const std::exception& error) {
    if (rank == 0)
      std::fprintf(stderr, "mpi_evaluation: %s\n%s", error.what(), mpi_evaluation::kUsage);
    status = 2;
  }
  if (status == 0 && options.help) {
    if (rank == 0) std::fputs(mpi_evaluation::kUsage, stdout);
  } else if (status == 0 && size < 2) {
    std::fprintf(stderr, "mpi_evaluation: needs at least 2 ranks (mpirun -np 4 ...)\n");
    status = 2;
  } else if (status == 0) {
    status = rank == 0 ? mpi_evaluation::run_coordinator(options, size)
                       : mpi_evaluation::run_worker(options, rank);
  }
  MPI_Finalize();
  return status;
}
