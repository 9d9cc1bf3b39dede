// Fuzz target: the configuration text given to addbo_create.
//
// Contract checked: addbo_create returns a known status (never ADDBO_ERR_INTERNAL), with a
// message on failure and *out set to NULL; on success the optimizer saves, its state loads and
// saves back to the same bytes, info succeeds, and the first ask and tell of the restored copy
// equal the original's (status, point and saved bytes).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace addbo_fuzz;
  // A C string: the library reads up to the first NUL, as a host's would.
  const std::string text(reinterpret_cast<const char*>(data), size);
  int sentinel = 0;
  addbo_optimizer* created = reinterpret_cast<addbo_optimizer*>(&sentinel);
  const int status = check_status(addbo_create(&created, text.c_str()), "addbo_create");
  if (status != ADDBO_OK) {
    check(created == nullptr, "a failed addbo_create did not set *out to NULL");
    check(status == ADDBO_ERR_CONFIG || status == ADDBO_ERR_OUT_OF_MEMORY,
          std::string("addbo_create failed with ") + addbo_status_name(status));
    return 0;
  }
  check(created != nullptr, "addbo_create returned ADDBO_OK and no handle");
  Handle opt(created);
  first_steps(opt, 64);
  return 0;
}
