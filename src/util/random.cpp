#include "util/random.hpp"

#include <locale>
#include <new>
#include <sstream>

namespace addbo::core {

std::uint64_t Random::below(std::uint64_t n) {
  if (n <= 1) return 0;
  // Largest multiple of n that fits: draws at or above it would bias the low residues.
  const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
  std::uint64_t draw = engine_();
  while (draw >= limit) draw = engine_();
  return draw % n;
}

// The classic locale on both streams: a host that installs a global locale with digit grouping
// would otherwise write "17,158,391 ..." and fail to read states written elsewhere. A stream
// catches what its buffer throws and only sets badbit; with badbit in exceptions() it throws it
// on, so that running out of memory is std::bad_alloc (ADDBO_ERR_OUT_OF_MEMORY), never a state
// cut short nor a valid state refused as malformed.
std::string Random::state() const {
  std::ostringstream out;
  out.exceptions(std::ios::badbit);
  out.imbue(std::locale::classic());
  out << engine_;
  if (!out) throw std::bad_alloc();  // a string stream fails only when its string cannot grow
  return out.str();
}

bool Random::set_state(const std::string& text) {
  std::istringstream in(text);
  in.exceptions(std::ios::badbit);
  in.imbue(std::locale::classic());
  std::mt19937_64 parsed;
  in >> parsed;
  if (in.fail()) return false;
  in >> std::ws;
  if (!in.eof()) return false;
  engine_ = parsed;
  return true;
}

}  // namespace addbo::core
