/* Test 3: save/load round trips at several moments of a run (during the initial design, with
 * pending points, far into the run, with learning across relearns). The restored optimizer must
 * save the same bytes and then continue exactly as the original: 30 further asks give identical
 * doubles, and both end in the same saved state. */
#include <stdio.h>
#include <string.h>

#include "test_support.h"

#define CONTINUATION 30

/* Returns a handle restored from opt's saved state, after checking save(load(s)) == s. */
static addbo_optimizer* reload(const addbo_optimizer* opt) {
  addbo_optimizer* copy = NULL;
  char* state = test_save(opt);
  char* again;
  if (state == NULL || !CHECK_OK(addbo_load(&copy, state))) {
    addbo_free_string(state);
    return NULL;
  }
  again = test_save(copy);
  CHECK(again != NULL && strcmp(state, again) == 0);
  addbo_free_string(again);
  addbo_free_string(state);
  return copy;
}

/* Drives both handles with the same calls and compares every ask bit for bit. */
static void check_same_future(addbo_optimizer* original, addbo_optimizer* copy,
                              const char* moment) {
  char* state_original;
  char* state_copy;
  int i;
  for (i = 0; i < CONTINUATION; ++i) {
    double a[TEST_DIM];
    double b[TEST_DIM];
    double y;
    if (!CHECK_OK(addbo_ask(original, a, TEST_DIM)) || !CHECK_OK(addbo_ask(copy, b, TEST_DIM))) {
      break;
    }
    if (!CHECK(memcmp(a, b, sizeof a) == 0)) {
      fprintf(stderr, "  %s: ask %d differs after load\n", moment, i);
      break;
    }
    y = test_objective(a);
    CHECK_OK(addbo_tell(original, a, TEST_DIM, y));
    CHECK_OK(addbo_tell(copy, b, TEST_DIM, y));
  }
  state_original = test_save(original);
  state_copy = test_save(copy);
  if (!CHECK(state_original && state_copy && strcmp(state_original, state_copy) == 0)) {
    fprintf(stderr, "  %s: the two handles end in different states\n", moment);
  }
  addbo_free_string(state_original);
  addbo_free_string(state_copy);
}

static void check_moment(unsigned seed, int steps, int pending, const char* moment) {
  double points[3][TEST_DIM];
  addbo_optimizer* original = test_create(seed);
  addbo_optimizer* copy;
  size_t observations = 0;
  size_t waiting = 0;
  int i;
  for (i = 0; i < steps; ++i) CHECK_OK(test_step(original));
  for (i = 0; i < pending; ++i) CHECK_OK(addbo_ask(original, points[i], TEST_DIM));
  copy = reload(original);
  if (copy != NULL) {
    CHECK_OK(addbo_count(copy, &observations, &waiting));
    CHECK(observations == (size_t)steps && waiting == (size_t)pending);
    /* The restored pending points are the original ones: telling and cancelling them works. */
    if (pending >= 2) {
      const double y = test_objective(points[0]);
      CHECK_OK(addbo_tell(original, points[0], TEST_DIM, y));
      CHECK_OK(addbo_tell(copy, points[0], TEST_DIM, y));
      CHECK_OK(addbo_cancel(original, points[1], TEST_DIM));
      CHECK_OK(addbo_cancel(copy, points[1], TEST_DIM));
    }
    check_same_future(original, copy, moment);
  }
  addbo_destroy(copy);
  addbo_destroy(original);
}

/* The same round trip with learning on: the graph, the lengthscales and the noise are
 * Gibbs-sampled every 8 tells, so the 30 asks after the load cross several relearns, and the
 * load happens with a learned model and a point pending. */
static void check_learning_moment(unsigned seed) {
  char config[TEST_CONFIG_SIZE];
  char* structure;
  addbo_optimizer* original = NULL;
  addbo_optimizer* copy;
  double pending[TEST_DIM];
  int i;
  test_config(config, seed);
  structure = strstr(config, "\"structure\"");
  if (!CHECK(structure != NULL)) return;
  snprintf(structure, (size_t)(config + sizeof config - structure),
           "\"structure\": {\"mode\": \"learn\", \"relearn_every\": 8,"
           " \"gibbs_evaluations\": 60}, \"kernel\": {\"noise_variance\": \"learn\"}}");
  if (!CHECK_OK(addbo_create(&original, config))) return;
  for (i = 0; i < 27; ++i) CHECK_OK(test_step(original));
  CHECK_OK(addbo_ask(original, pending, TEST_DIM));
  copy = reload(original);
  if (copy != NULL) check_same_future(original, copy, "with learning, across relearns");
  addbo_destroy(copy);
  addbo_destroy(original);
}

int main(void) {
  check_moment(11, 2, 0, "during the initial design");
  check_moment(12, TEST_INITIAL_POINTS - 1, 3, "with pending points spanning the initial design");
  check_moment(13, 12, 3, "with pending points");
  check_moment(14, 60, 0, "far into the run");
  check_learning_moment(15);
  return test_finish("test_save_load");
}
