#include "options.hpp"

#include <stdexcept>

#include "output_files.hpp"

namespace mpi_evaluation {

const char* const kUsage = R"(usage: mpirun -np <ranks> mpi_evaluation [options]

Rank 0 owns an addbo optimizer and keeps points in flight on the other ranks, which evaluate
them and send the values back; each value is told as it arrives and the worker gets the next
point at once. A failed evaluation is told as a failure; a worker silent for --timeout seconds while it
holds points is given up and its points cancelled, so neither stalls the run (a value it sends
later is still told). After every tell the saved state is written to the checkpoint, from which
--resume continues without losing a told value (the points that were in flight are evaluated
again first): the way back from a job that ended early, by a dead process (MPI ends the whole
job), a time limit or a crash.

  --evaluations N    values told in all, counting those of the checkpoint (default 60)
  --per-worker Q     points queued at each worker (default 1): Q x (ranks - 1) in flight
  --checkpoint FILE  the saved state, written after every tell (default
                     mpi_evaluation_state.json)
  --resume           continue from the checkpoint instead of starting afresh
  --timeout S        seconds a worker may be silent while it holds points (default 30)
  --fail-every N     workers report every N-th point as a failed evaluation (testing)
  --hang-rank R      worker R stops answering ...              (testing)
  --hang-after M     ... when it receives its (M + 1)-th point (testing)
  --hang-seconds S   ... for S seconds (default 3)             (testing)
  --die-rank R       worker R's process exits ...              (testing)
  --die-after M      ... when it receives its (M + 1)-th point (testing)
  --seed N           addbo's seed (default 1)
  --help             this text
Exit status: 0 done; 1 a failure (said on stderr); 2 bad arguments.
)";

Options parse_options(int argc, char** argv) {
  using addbo_examples::integer_at_least;
  Options options;
  addbo_examples::read_options(
      argc, argv, {"--help", "-h", "--resume"},
      [&](const std::string& flag) {
        if (flag == "--resume") {
          options.resume = true;
        } else {
          options.help = true;
        }
      },
      [&](const std::string& flag, const std::string& value) {
        if (flag == "--evaluations") {
          options.evaluations = integer_at_least(flag, value, 1);
        } else if (flag == "--per-worker") {
          options.per_worker = integer_at_least(flag, value, 1);
        } else if (flag == "--checkpoint") {
          options.checkpoint = value;
        } else if (flag == "--timeout") {
          options.timeout = addbo_examples::positive_number(flag, value);
        } else if (flag == "--fail-every") {
          options.fail_every = integer_at_least(flag, value, 1);
        } else if (flag == "--hang-rank") {
          options.hang_rank = integer_at_least(flag, value, 1);
        } else if (flag == "--hang-after") {
          options.hang_after = integer_at_least(flag, value, 0);
        } else if (flag == "--hang-seconds") {
          options.hang_seconds = addbo_examples::positive_number(flag, value);
        } else if (flag == "--die-rank") {
          options.die_rank = integer_at_least(flag, value, 1);
        } else if (flag == "--die-after") {
          options.die_after = integer_at_least(flag, value, 0);
        } else if (flag == "--seed") {
          options.seed = integer_at_least(flag, value, 0);
        } else {
          throw std::invalid_argument("unknown option " + flag);
        }
      });
  return options;
}

}  // namespace mpi_evaluation
