/* Calls made while the process exits (docs/c-api.md, "Exit"): from an atexit handler that runs
 * after the library's own teardown, from a destructor of the program, and from another thread
 * that keeps calling while main returns. Each call must work or fail with a status; the
 * process must end, with status 0 (ctest's timeout catches a hang). The calls use two threads
 * (limits.threads), a learning, and every kind of call.
 *   test_exit atexit | destructor | thread */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "addbo/addbo.h"

#define DIM 6

static const char* const config =
    "{\"dimension\": 6, \"seed\": 5, \"initial_points\": 4, \"limits\": {\"threads\": 2},"
    " \"structure\": {\"mode\": \"learn\", \"relearn_every\": 2, \"gibbs_evaluations\": 60}}";

static void fail(const char* what, int status) {
  fprintf(stderr, "test_exit: %s: %s (%s)\n", what, addbo_status_name(status), addbo_last_error());
  _exit(1); /* from a handler, the only way to change the exit status */
}

static void check(int status, const char* what) {
  if (status != ADDBO_OK) fail(what, status);
}

/* A run of every kind of call; returns through fail() on the first failure. */
static void calls(void) {
  addbo_optimizer *opt = NULL, *restored = NULL;
  double x[DIM], mean, stddev, y;
  char *state = NULL, *info = NULL, *detail = NULL;
  int i, learned;
  check(addbo_create(&opt, config), "addbo_create");
  for (i = 0; i < 10; ++i) {
    check(addbo_ask(opt, x, DIM), "addbo_ask");
    check(addbo_tell(opt, x, DIM, x[0] * x[1] - x[2] + 0.1 * i), "addbo_tell");
  }
  check(addbo_learn(opt, &learned), "addbo_learn");
  check(addbo_predict(opt, x, DIM, &mean, &stddev), "addbo_predict");
  check(addbo_predict_json(opt, x, DIM, &detail), "addbo_predict_json");
  check(addbo_best(opt, x, DIM, &y), "addbo_best");
  check(addbo_info(opt, &info), "addbo_info");
  check(addbo_save(opt, &state), "addbo_save");
  check(addbo_load(&restored, state), "addbo_load");
  check(addbo_ask(restored, x, DIM), "addbo_ask (restored)");
  check(addbo_interrupt(restored), "addbo_interrupt");
  addbo_destroy(restored);
  if (addbo_create(&restored, "{") != ADDBO_ERR_CONFIG) fail("a bad configuration", -1);
  addbo_free_string(state);
  addbo_free_string(info);
  addbo_free_string(detail);
  addbo_destroy(opt);
}

static void at_exit(void) { calls(); }

__attribute__((destructor)) static void program_destructor(void) {
  const char* mode = getenv("ADDBO_TEST_EXIT_MODE");
  if (mode != NULL && strcmp(mode, "destructor") == 0) calls();
}

static void* keep_calling(void* unused) {
  (void)unused;
  for (;;) calls();
  return NULL;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  pthread_t thread;
  if (strcmp(mode, "atexit") == 0) {
    /* Registered before the library's pool exists, so it runs after the pool's teardown. */
    if (atexit(at_exit) != 0) return 1;
    calls();
  } else if (strcmp(mode, "destructor") == 0) {
    setenv("ADDBO_TEST_EXIT_MODE", "destructor", 1);
    calls();
  } else if (strcmp(mode, "thread") == 0) {
    calls();
    if (pthread_create(&thread, NULL, keep_calling, NULL) != 0) return 1;
    usleep(20000);
  } else {
    fprintf(stderr, "usage: test_exit atexit | destructor | thread\n");
    return 2;
  }
  return 0;
}
