/* addbo_dl.h's types match addbo.h's prototypes: each function of addbo.h is assigned to its
 * addbo_<name>_fn. CMake builds this file as strict C99 with -Werror, so a type that differs
 * (an incompatible-pointer-types warning) fails the build, and ctest then reports
 * capi_dl_types_c as failed (its executable is missing). At run time: the struct has one
 * pointer per entry of ADDBO_DL_FUNCTIONS and nothing else, and unloading clears it.
 * ADDBO_DL_FUNCTIONS against addbo.h's declarations: check_dl_functions.cmake. */
/* First, so that the header is shown to compile on its own. */
#include "addbo/addbo_dl.h"
/* For the run-time checks in main(). */
#include <stdio.h>

/* Naming a field of the struct that ADDBO_DL_FUNCTIONS lists also checks that it exists. */
#define CHECK_TYPE(name)                       \
  {                                            \
    addbo_##name##_fn checked = &addbo_##name; \
    api.name = checked;                        \
    ++functions;                               \
  }
#define CHECK_CLEARED(name)                              \
  if (api.name != NULL) {                                \
    fprintf(stderr, "addbo_dl_unload left " #name "\n"); \
    ++failures;                                          \
  }

int main(void) {
  struct addbo_dl api;
  size_t functions = 0;
  int failures = 0;
  api.library = NULL;
  ADDBO_DL_FUNCTIONS(CHECK_TYPE)
  /* Every function pointer has the size of a void* on POSIX systems (dlsym relies on it). */
  if (sizeof api != (functions + 1) * sizeof(void*)) {
    fprintf(stderr, "struct addbo_dl has %u bytes, ADDBO_DL_FUNCTIONS lists %u functions\n",
            (unsigned)sizeof api, (unsigned)functions);
    ++failures;
  }
  addbo_dl_unload(&api);
  ADDBO_DL_FUNCTIONS(CHECK_CLEARED)
  if (api.library != NULL) ++failures;
  addbo_dl_unload(NULL);
  printf("%u functions: types as in addbo.h\n", (unsigned)functions);
  return failures == 0 ? 0 : 1;
}
