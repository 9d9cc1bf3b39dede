/* Test 6: addbo.h alone compiles as strict C99 with -Wall -Wextra -pedantic -Werror (CMake
 * builds this file with those flags: a warning fails the build, and so the test), the pinned
 * status values have not moved, and the header's version matches the project's and the
 * loaded library's. */
/* First, so that the header is shown to compile on its own. */
#include "addbo/addbo.h"
/* For the run-time checks in main(). */
#include <stdio.h>
#include <string.h>

/* Compile-time checks: an array of negative size does not compile. */
#define STATIC_CHECK(name, condition) typedef char static_check_##name[(condition) ? 1 : -1]
STATIC_CHECK(ok, ADDBO_OK == 0);
STATIC_CHECK(invalid_argument, ADDBO_ERR_INVALID_ARGUMENT == 1);
STATIC_CHECK(config, ADDBO_ERR_CONFIG == 2);
STATIC_CHECK(state, ADDBO_ERR_STATE == 3);
STATIC_CHECK(numerical, ADDBO_ERR_NUMERICAL == 4);
STATIC_CHECK(out_of_memory, ADDBO_ERR_OUT_OF_MEMORY == 5);
STATIC_CHECK(internal, ADDBO_ERR_INTERNAL == 6);
STATIC_CHECK(interrupted, ADDBO_ERR_INTERRUPTED == 7);
STATIC_CHECK(version_number,
             ADDBO_VERSION_NUMBER ==
                 ADDBO_VERSION_MAJOR * 10000 + ADDBO_VERSION_MINOR * 100 + ADDBO_VERSION_PATCH);

int main(void) {
  int failures = 0;
  if (strcmp(ADDBO_VERSION_STRING, ADDBO_EXPECTED_VERSION) != 0) {
    fprintf(stderr, "addbo.h says %s, the CMake project %s\n", ADDBO_VERSION_STRING,
            ADDBO_EXPECTED_VERSION);
    ++failures;
  }
  if (strcmp(addbo_version(), ADDBO_VERSION_STRING) != 0) {
    fprintf(stderr, "the library says %s, addbo.h %s\n", addbo_version(), ADDBO_VERSION_STRING);
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}
