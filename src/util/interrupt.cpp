#include "util/interrupt.hpp"

#include "util/error.hpp"

namespace addbo::core {

void InterruptCheck::throw_if_requested() const {
  if (requested()) {
    throw Error(Status::interrupted,
                "interrupted by addbo_interrupt: the learning was stopped and nothing changed");
  }
}

}  // namespace addbo::core
