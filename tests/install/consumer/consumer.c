/* Uses an installed addbo: the version, then one ask and one tell through the C API. */
#include <addbo/addbo.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  addbo_optimizer* opt = NULL;
  double x[2];
  size_t observations = 0, pending = 0;
  printf("addbo %s (header %s)\n", addbo_version(), ADDBO_VERSION_STRING);
  if (strcmp(addbo_version(), ADDBO_VERSION_STRING) != 0) {
    fprintf(stderr, "the library and the header differ\n");
    return 1;
  }
  if (addbo_create(&opt, "{\"dimension\": 2, \"seed\": 1}") != ADDBO_OK ||
      addbo_ask(opt, x, 2) != ADDBO_OK ||
      addbo_tell(opt, x, 2, -(x[0] - 0.5) * (x[0] - 0.5) - x[1]) != ADDBO_OK ||
      addbo_count(opt, &observations, &pending) != ADDBO_OK) {
    fprintf(stderr, "addbo failed: %s\n", addbo_last_error());
    addbo_destroy(opt);
    return 1;
  }
  addbo_destroy(opt);
  if (observations != 1 || pending != 0) {
    fprintf(stderr, "counts %zu %zu, expected 1 0\n", observations, pending);
    return 1;
  }
  printf("one ask/tell at (%.3f, %.3f): ok\n", x[0], x[1]);
  return 0;
}
