// The checkpoint of mpi_evaluation: addbo's saved state (addbo_save), written after every tell,
// replaced atomically so that a crash at any moment leaves the previous complete state.
#pragma once

#include <string>

namespace mpi_evaluation {

// Writes `state` to `path` through `path`.tmp and rename(); std::runtime_error on failure.
void write_checkpoint(const std::string& path, const std::string& state);

// The whole file, or std::runtime_error naming it.
std::string read_checkpoint(const std::string& path);

}  // namespace mpi_evaluation
