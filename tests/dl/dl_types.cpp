// addbo_dl.h's types are exactly those of addbo.h's functions (C only checks compatibility),
// and the header compiles as C++ with -Wold-style-cast -Werror. A mismatch fails the build of
// this file, and ctest then reports capi_dl_types_cpp as failed (its executable is missing).
#include <cstdio>
#include <type_traits>

#include "addbo/addbo_dl.h"

#define CHECK_TYPE(name)                                                         \
  static_assert(std::is_same<addbo_##name##_fn, decltype(&addbo_##name)>::value, \
                "addbo_" #name "_fn differs from the prototype of addbo_" #name " in addbo.h");
ADDBO_DL_FUNCTIONS(CHECK_TYPE)

int main() {
  // The loader compiles and runs in C++ too: a missing file is reported, not a crash.
  addbo_dl api;
  char error[256];
  const int status = addbo_dl_load(&api, "./no-such-libaddbo.so", error, sizeof error);
  std::printf("%s\n", error);
  return status == ADDBO_ERR_STATE && api.library == nullptr && api.ask == nullptr ? 0 : 1;
}
