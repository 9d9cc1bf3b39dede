#include "learn/scan_order.hpp"

#include <numeric>

namespace addbo::core {

std::uint64_t ScanOrder::next(std::uint64_t coordinate_count, Random& random) {
  if (size != coordinate_count || cursor >= size) {
    size = coordinate_count;
    cursor = 0;
    offset = random.below(size);
    stride = 1;
    if (size > 2) {
      do {
        stride = 1 + random.below(size - 1);
      } while (std::gcd(stride, size) != 1);
    }
  }
  // (stride * cursor + offset) mod size without overflow: both factors are below size <= 2^32
  // in practice (50 million edges), and unsigned __int128 covers the rest.
  // (__extension__: a GCC/Clang type that ISO C++ does not name; -Wpedantic would warn.)
  __extension__ typedef unsigned __int128 Wide;
  const Wide product = static_cast<Wide>(stride) * cursor + offset;
  ++cursor;
  return static_cast<std::uint64_t>(product % size);
}

}  // namespace addbo::core
