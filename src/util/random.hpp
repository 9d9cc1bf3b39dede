// The only source of randomness in addbo. std::mt19937_64's sequence is fixed by the standard and
// every draw below is derived from its raw 64-bit output, so results do not depend on the
// standard library's distribution code (docs/saved-state.md) and the state can be saved exactly.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace addbo::core {

class Random {
 public:
  explicit Random(std::uint64_t seed = 0) : engine_(seed) {}

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n), n >= 1, without modulo bias (rejection on the raw bits).
  std::uint64_t below(std::uint64_t n);

  // The engine's full state as text (operator<< of the standard engine), and back.
  std::string state() const;
  // Returns false (and leaves the engine unchanged) when the text is not a valid state.
  bool set_state(const std::string& text);

 private:
  std::mt19937_64 engine_;
};

}  // namespace addbo::core
