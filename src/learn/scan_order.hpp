// The order in which the Gibbs steps visit their coordinates (the labels in "disjoint" mode, the
// learned lengthscales, the noise; edges change by the sampler's edge moves instead): a
// pseudo-random permutation of 0..size-1, i -> (stride * i + offset) mod size with
// gcd(stride, size) = 1, that continues across learning rounds (a round with a budget smaller
// than one sweep resumes where the last one stopped, so every coordinate is revisited). It needs
// O(1) memory whatever the number of coordinates, and its state is four integers in the saved
// state.
#pragma once

#include <cstdint>

#include "util/random.hpp"

namespace addbo::core {

struct ScanOrder {
  std::uint64_t size = 0;
  std::uint64_t stride = 1;
  std::uint64_t offset = 0;
  std::uint64_t cursor = 0;  // position within the current sweep

  bool operator==(const ScanOrder& o) const {
    return size == o.size && stride == o.stride && offset == o.offset && cursor == o.cursor;
  }

  // The next coordinate; starts a new random sweep (new stride and offset) when one ends or
  // when the number of coordinates changed. Requires coordinate_count >= 1.
  std::uint64_t next(std::uint64_t coordinate_count, Random& random);
};

}  // namespace addbo::core
