// The command line of mpi_evaluation, read by every rank (kUsage says what each option does).
#pragma once

#include <string>

namespace mpi_evaluation {

extern const char* const kUsage;

struct Options {
  int evaluations = 60;  // values told in all, across restarts
  int per_worker = 1;    // points queued at each worker: k = per_worker x workers in flight
  std::string checkpoint = "mpi_evaluation_state.json";
  bool resume = false;
  double timeout = 30.0;  // seconds a worker may stay silent while it holds points
  int fail_every = 0;     // > 0: workers report every fail_every-th point (by id) as failed
  int hang_rank = 0;      // > 0: this worker stops answering for hang_seconds ...
  int hang_after = 0;     // ... on receiving its (hang_after + 1)-th point
  double hang_seconds = 3.0;
  int die_rank = 0;   // > 0: this worker's process exits ...
  int die_after = 0;  // ... on receiving its (die_after + 1)-th point
  int seed = 1;
  bool help = false;
};

// The options, or std::invalid_argument naming the one that is wrong.
Options parse_options(int argc, char** argv);

}  // namespace mpi_evaluation
