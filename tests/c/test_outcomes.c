/* Failed evaluations and outcome constraints through the C API (addbo_tell_failure,
 * addbo_tell_constrained, addbo_failure_count): bad arguments fail with a status and a message
 * naming the function and the argument, and change nothing; a run with both saves and
 * continues bit-identically after addbo_load. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define DIM 3

static const char* const kConfig =
    "{\"dimension\": 3, \"seed\": 4, \"initial_points\": 5,"
    " \"structure\": {\"relearn_every\": 6, \"gibbs_evaluations\": 30},"
    " \"constraints\": [{\"name\": \"load\", \"upper\": 0.9}, {\"name\": \"heat\", \"lower\": 0.1}]}";

/* Fails where x0 > 0.8; otherwise the objective and the two constrained outcomes. */
static int evaluate(addbo_optimizer* opt, const double* x) {
  double outcomes[2];
  if (x[0] > 0.8) return addbo_tell_failure(opt, x, DIM);
  outcomes[0] = x[0] + x[1];
  outcomes[1] = x[2] * x[2];
  return addbo_tell_constrained(opt, x, DIM, -(x[0] - 0.5) * (x[0] - 0.5) - x[1] * x[2], outcomes,
                                2);
}

static void check_arguments(void) {
  addbo_optimizer* opt = NULL;
  double x[DIM] = {0.2, 0.3, 0.4};
  double outcomes[2] = {0.5, 0.5};
  double bad[2] = {0.5, NAN};
  size_t failures = 7;
  char* before;
  char* after;
  if (!CHECK_OK(addbo_create(&opt, kConfig))) return;
  CHECK_OK(addbo_tell_constrained(opt, x, DIM, 1.0, outcomes, 2));
  x[0] = 0.9;
  CHECK_OK(addbo_tell_failure(opt, x, DIM));
  CHECK_OK(addbo_failure_count(opt, &failures));
  CHECK(failures == 1);
  before = test_save(opt);

  CHECK_FAILS(addbo_tell_failure(NULL, x, DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell_failure",
              "opt is NULL");
  CHECK_FAILS(addbo_tell_failure(opt, NULL, DIM), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_tell_failure", "x is NULL");
  CHECK_FAILS(addbo_tell_failure(opt, x, 2), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell_failure",
              "dim is 2");
  x[1] = 1.5;
  CHECK_FAILS(addbo_tell_failure(opt, x, DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell_failure",
              "x[1]");
  x[1] = 0.3;
  CHECK_FAILS(addbo_tell_constrained(opt, x, DIM, 1.0, outcomes, 1), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_tell_constrained", "count is 1 but the configuration has 2 constraints");
  CHECK_FAILS(addbo_tell_constrained(opt, x, DIM, 1.0, NULL, 2), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_tell_constrained", "constraints is NULL");
  CHECK_FAILS(addbo_tell_constrained(opt, x, DIM, 1.0, bad, 2), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_tell_constrained", "constraint 'heat'");
  CHECK_FAILS(addbo_tell_constrained(opt, x, DIM, INFINITY, outcomes, 2),
              ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell_constrained", "y is +Inf");
  CHECK_FAILS(addbo_tell(opt, x, DIM, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "addbo_tell_constrained");
  CHECK_FAILS(addbo_failure_count(opt, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_failure_count",
              "failures is NULL");
  after = test_save(opt);
  CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
  addbo_free_string(before);
  addbo_free_string(after);
  addbo_destroy(opt);
}

/* A run of 40 evaluations saved after 20 (with a point pending) continues as the original. */
static void check_continuation(void) {
  addbo_optimizer* original = NULL;
  addbo_optimizer* restored = NULL;
  double x[DIM], y[DIM];
  char* state;
  char* a;
  char* b;
  size_t failures = 0;
  int i, same = 1;
  if (!CHECK_OK(addbo_create(&original, kConfig))) return;
  for (i = 0; i < 20; ++i) {
    CHECK_OK(addbo_ask(original, x, DIM));
    CHECK_OK(evaluate(original, x));
  }
  CHECK_OK(addbo_ask(original, x, DIM)); /* pending when saved */
  state = test_save(original);
  if (state == NULL || !CHECK_OK(addbo_load(&restored, state))) {
    addbo_free_string(state);
    addbo_destroy(original);
    return;
  }
  addbo_free_string(state);
  CHECK_OK(evaluate(original, x));
  CHECK_OK(evaluate(restored, x));
  for (i = 0; i < 20; ++i) {
    CHECK_OK(addbo_ask(original, x, DIM));
    CHECK_OK(addbo_ask(restored, y, DIM));
    same = same && memcmp(x, y, sizeof x) == 0;
    CHECK_OK(evaluate(original, x));
    CHECK_OK(evaluate(restored, y));
  }
  CHECK(same);
  a = test_save(original);
  b = test_save(restored);
  CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
  CHECK_OK(addbo_failure_count(restored, &failures));
  CHECK(failures > 0);
  addbo_free_string(a);
  addbo_free_string(b);
  addbo_destroy(original);
  addbo_destroy(restored);
}

int main(void) {
  check_arguments();
  check_continuation();
  return test_finish("capi_outcomes");
}
