#include "checkpoint.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mpi_evaluation {

void write_checkpoint(const std::string& path, const std::string& state) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << state;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + temporary);
  }
  // rename() replaces the old checkpoint in one step: a reader (or a restart after a crash)
  // sees the previous state or this one, never half of one.
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename " + temporary + " to " + path);
  }
}

std::string read_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the checkpoint " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace mpi_evaluation
