/* Test 7: through dlopen/dlsym, libaddbo.so exposes every function of addbo.h and none of the
 * C++ core (the library is built with -fvisibility=hidden and the version script
 * capi/addbo.map). check_exports.cmake completes this with the full list from `nm -D`.
 * Usage: test_exports path/to/libaddbo.so */
#include <dlfcn.h>
#include <stdio.h>

#include "test_support.h"

int main(int argc, char** argv) {
  static const char* const public_functions[] = {
      "addbo_version", "addbo_status_name", "addbo_last_error",  "addbo_create",
      "addbo_destroy", "addbo_dimension",   "addbo_ask",         "addbo_tell",
      "addbo_cancel",  "addbo_best",        "addbo_count",       "addbo_info",
      "addbo_save",    "addbo_load",        "addbo_free_string", "addbo_learn"};
  /* Defined in the library (see check_exports.cmake) but internal. */
  static const char* const internal_functions[] = {
      "_ZN5addbo17parse_config_textERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
      "_ZN5addbo4capi14set_last_errorEPKcS2_"};
  void* library;
  size_t i;
  if (!CHECK(argc == 2)) return test_finish("test_exports");
  library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!CHECK(library != NULL)) {
    fprintf(stderr, "  dlopen: %s\n", dlerror());
    return test_finish("test_exports");
  }
  for (i = 0; i < sizeof public_functions / sizeof public_functions[0]; ++i) {
    if (!CHECK(dlsym(library, public_functions[i]) != NULL)) {
      fprintf(stderr, "  %s is not exported\n", public_functions[i]);
    }
  }
  for (i = 0; i < sizeof internal_functions / sizeof internal_functions[0]; ++i) {
    if (!CHECK(dlsym(library, internal_functions[i]) == NULL)) {
      fprintf(stderr, "  %s is exported\n", internal_functions[i]);
    }
  }
  dlclose(library);
  return test_finish("test_exports");
}
