/* The limits of a run through the C API (docs/limits.md): an ask with limits.max_pending points
 * pending fails with ADDBO_ERR_STATE naming the limit and changes nothing; past
 * limits.max_model_observations the model holds at most that many observations, every one is
 * kept, and a saved state continues identically after addbo_load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define DIM 3

static const char* const kConfig =
    "{\"dimension\": 3, \"initial_points\": 3, \"seed\": 11,"
    " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1]]},"
    " \"kernel\": {\"lengthscales\": [0.3, 0.3, 0.4]},"
    " \"limits\": {\"max_pending\": 2, \"max_model_observations\": 6, \"threads\": 1}}";

static double objective(const double* x) {
  return x[0] * (1.0 - x[1]) - (x[2] - 0.4) * (x[2] - 0.4);
}

static void check_pending_limit(void) {
  addbo_optimizer* opt = NULL;
  double first[DIM], second[DIM], x[DIM] = {-1.0, -1.0, -1.0};
  char *before, *after;
  if (!CHECK_OK(addbo_create(&opt, kConfig))) return;
  CHECK_OK(addbo_ask(opt, first, DIM));
  CHECK_OK(addbo_ask(opt, second, DIM));
  before = test_save(opt);
  CHECK_FAILS(addbo_ask(opt, x, DIM), ADDBO_ERR_STATE, "addbo_ask",
              "2 points are pending, and limits.max_pending is 2: tell or cancel one");
  CHECK(x[0] == -1.0 && x[1] == -1.0 && x[2] == -1.0);
  after = test_save(opt);
  CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
  CHECK_OK(addbo_cancel(opt, second, DIM));
  CHECK_OK(addbo_ask(opt, x, DIM));
  addbo_free_string(before);
  addbo_free_string(after);
  addbo_destroy(opt);
}

static void check_model_limit(void) {
  addbo_optimizer* opt = NULL;
  double x[DIM], y[DIM];
  size_t told = 0, pending = 0;
  int round;
  if (!CHECK_OK(addbo_create(&opt, kConfig))) return;
  for (round = 0; round < 20; ++round) {
    char* state = test_save(opt);
    addbo_optimizer* restored = NULL;
    char* info = NULL;
    const char* model;
    CHECK_OK(addbo_load(&restored, state));
    CHECK_OK(addbo_ask(opt, x, DIM));
    CHECK_OK(addbo_ask(restored, y, DIM));
    CHECK(memcmp(x, y, sizeof x) == 0);
    CHECK_OK(addbo_tell(opt, x, DIM, objective(x)));
    CHECK_OK(addbo_info(opt, &info));
    model = info != NULL ? strstr(info, "\"model_observations\":") : NULL;
    CHECK(model != NULL && atoi(model + strlen("\"model_observations\":")) <= 6);
    addbo_free_string(info);
    addbo_free_string(state);
    addbo_destroy(restored);
  }
  CHECK_OK(addbo_count(opt, &told, &pending));
  CHECK(told == 20 && pending == 0);
  addbo_destroy(opt);
}

int main(void) {
  check_pending_limit();
  check_model_limit();
  return test_finish("test_limits");
}
