/* A library that is not a complete libaddbo, for test_dl_load: built as addbo_dl_stub_partial
 * (this header's version, but only addbo_version and addbo_status_name) and as
 * addbo_dl_stub_major (a version of the next major). */
#include <stdio.h>

#include "addbo/addbo.h"

const char* addbo_version(void) {
#ifdef STUB_NEXT_MAJOR
  static char version[32];
  snprintf(version, sizeof version, "%d.0.0", ADDBO_VERSION_MAJOR + 1);
  return version;
#else
  return ADDBO_VERSION_STRING;
#endif
}

const char* addbo_status_name(int status) { return status == 0 ? "ADDBO_OK" : "stub"; }
