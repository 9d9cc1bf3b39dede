// The messages between rank 0, which owns the optimizer, and the worker ranks: arrays of doubles
// on MPI_COMM_WORLD, told apart by their tag. Points travel as the doubles addbo gave, so a
// value comes back for exactly the point asked and is matched to it when told.
#pragma once

namespace mpi_evaluation {

enum Tag : int {
  kWork = 1,    // rank 0 -> worker: {id, x_1, ..., x_D}, a point to evaluate
  kResult = 2,  // worker -> rank 0: {id, outcome, y}
  kStop = 3,    // rank 0 -> worker: empty; the worker ends
};

// The second number of a kResult message.
enum Outcome : int {
  kValue = 0,   // y is the objective's value at the point
  kFailed = 1,  // the evaluation failed (y is meaningless)
};

}  // namespace mpi_evaluation
