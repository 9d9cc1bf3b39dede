// Reproducible randomness for the paper_synthetic benchmark: every stream (a test function, a
// run's initial design, a method's observation noise) gets its own std::mt19937_64 seeded from a
// path of integers, so results never depend on how jobs are spread over threads. Uniforms and
// normals are derived from the engine's raw bits (no standard distribution code).
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>

namespace paper_synthetic {

// SplitMix64's finaliser: a well-mixed 64-bit function of its input.
inline std::uint64_t mix64(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

// A seed for the stream named by `path` (e.g. {base, graph, run, purpose}).
inline std::uint64_t derive_seed(std::initializer_list<std::uint64_t> path) {
  std::uint64_t seed = 0x5eed;
  for (std::uint64_t part : path) seed = mix64(seed ^ mix64(part));
  return seed;
}

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

  // Uniform in (0, 1]: 53 random bits, never 0 (safe under log).
  double uniform() { return (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53; }
  // Uniform integer in [0, n), n >= 1 (the modulo bias of 2^64 % n is negligible for small n).
  int below(int n) { return static_cast<int>(engine_() % static_cast<std::uint64_t>(n)); }
  // Standard normal by the Box-Muller transform (one of the pair is used).
  double normal() {
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    return radius * std::cos(kTwoPi * uniform());
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace paper_synthetic
