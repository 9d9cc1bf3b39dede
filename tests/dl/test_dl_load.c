/* addbo_dl_load() against the built libaddbo.so, with no link to it: a short ask/tell loop
 * through the loaded table, a save and load, an error message through api.last_error; and the
 * unloading with a handle whose learning still runs on a worker thread (stopped and joined by
 * the unload, which must not crash); and the
 * failures: a missing file, a library lacking a function (named in the message), a library of
 * another major version, a NULL table, a short or absent error buffer. With no path it opens
 * ADDBO_DL_DEFAULT_PATH, which ctest makes findable through LD_LIBRARY_PATH.
 * Usage: test_dl_load <libaddbo.so> <partial stub library> <next-major stub library> */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "addbo/addbo_dl.h"

static int failures = 0;

#define CHECK(condition)                                                                        \
  ((condition) ? 1                                                                              \
               : (fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #condition), \
                  ++failures, 0))

#define CHECK_NULL(name) CHECK(api->name == NULL);
#define CHECK_SET(name) CHECK(api->name != NULL);

static void check_cleared(const struct addbo_dl* api) {
  CHECK(api->library == NULL);
  ADDBO_DL_FUNCTIONS(CHECK_NULL)
}

/* A failing load: the status, a cleared table, and a message that contains `expected`. */
static void check_refused(const char* path, const char* expected) {
  struct addbo_dl loaded;
  struct addbo_dl* api = &loaded;
  char error[512];
  memset(&loaded, 0xff, sizeof loaded); /* garbage, as in an uninitialised variable */
  CHECK(addbo_dl_load(api, path, error, sizeof error) == ADDBO_ERR_STATE);
  check_cleared(api);
  printf("refused: %s\n", error);
  if (!CHECK(strstr(error, expected) != NULL)) fprintf(stderr, "  expected \"%s\"\n", expected);
  CHECK(strncmp(error, "addbo_dl_load: ", 15) == 0);
}

/* The maximum of -(x0 - 0.3)^2 - (x1 - 0.7)^2, through the loaded functions only. */
static void run_loop(const struct addbo_dl* api) {
  addbo_optimizer* opt = NULL;
  addbo_optimizer* restored = NULL;
  double x[2], best = 0.0, nan_y = 0.0;
  size_t observations = 0, pending = 0;
  char* state = NULL;
  int i;
  CHECK(strcmp(api->version(), ADDBO_VERSION_STRING) == 0);
  CHECK(strcmp(api->status_name(ADDBO_ERR_CONFIG), "ADDBO_ERR_CONFIG") == 0);
  if (!CHECK(api->create(&opt, "{\"dimension\": 2, \"seed\": 1}") == ADDBO_OK)) return;
  for (i = 0; i < 12; ++i) {
    CHECK(api->ask(opt, x, 2) == ADDBO_OK);
    CHECK(api->tell(opt, x, 2, -(x[0] - 0.3) * (x[0] - 0.3) - (x[1] - 0.7) * (x[1] - 0.7)) ==
          ADDBO_OK);
  }
  CHECK(api->count(opt, &observations, &pending) == ADDBO_OK);
  CHECK(observations == 12 && pending == 0);
  CHECK(api->best(opt, x, 2, &best) == ADDBO_OK);
  CHECK(best <= 0.0 && best > -0.5);

  /* A failure through the table: the status, and the library's message for this thread. */
  CHECK(api->ask(opt, x, 2) == ADDBO_OK);
  nan_y = nan("");
  CHECK(api->tell(opt, x, 2, nan_y) == ADDBO_ERR_INVALID_ARGUMENT);
  CHECK(strstr(api->last_error(), "addbo_tell") != NULL);
  CHECK(api->cancel(opt, x, 2) == ADDBO_OK);

  CHECK(api->save(opt, &state) == ADDBO_OK && state != NULL);
  CHECK(api->load(&restored, state) == ADDBO_OK);
  api->free_string(state);
  CHECK(api->count(restored, &observations, &pending) == ADDBO_OK);
  CHECK(observations == 12);
  api->destroy(restored);
  api->destroy(opt);
  printf("12 asks and tells through addbo_dl: best %.4f\n", best);
}

/* Leaves a handle (not destroyed, as a host that unloads without cleaning up) whose last ask
 * began a long learning, which a worker thread runs after the ask returned. */
static void leave_learning_running(const struct addbo_dl* api) {
  addbo_optimizer* opt = NULL;
  double x[6];
  int i;
  if (!CHECK(api->create(&opt,
                         "{\"dimension\": 6, \"seed\": 3, \"initial_points\": 4,"
                         " \"limits\": {\"threads\": 2}, \"structure\": {\"relearn\": \"ahead\","
                         " \"relearn_every\": 1,"
                         " \"gibbs_evaluations\": 1000000}}") == ADDBO_OK)) {
    return;
  }
  for (i = 0; i < 5; ++i) {
    CHECK(api->ask(opt, x, 6) == ADDBO_OK);
    if (i < 4) CHECK(api->tell(opt, x, 6, x[0] - x[1] * x[2]) == ADDBO_OK);
  }
}

int main(int argc, char** argv) {
  struct addbo_dl loaded;
  struct addbo_dl* api = &loaded;
  char error[512];
  char small[16];
  if (!CHECK(argc == 4)) return 1;

  /* The real library, by path. */
  if (CHECK(addbo_dl_load(api, argv[1], error, sizeof error) == ADDBO_OK)) {
    CHECK(error[0] == '\0');
    CHECK(api->library != NULL);
    ADDBO_DL_FUNCTIONS(CHECK_SET)
    run_loop(api);
    leave_learning_running(api);
  } else {
    fprintf(stderr, "  %s\n", error);
  }
  addbo_dl_unload(api);
  {
    /* Time for a worker the unload left running to reach the unmapped code. */
    const struct timespec pause = {0, 200000000};
    nanosleep(&pause, NULL);
  }
  check_cleared(api);
  addbo_dl_unload(api); /* twice is harmless */

  /* By its soname, through the loader's search path; and with no error buffer. */
  if (CHECK(addbo_dl_load(api, NULL, NULL, 0) == ADDBO_OK)) {
    CHECK(strcmp(api->version(), ADDBO_VERSION_STRING) == 0);
  }
  addbo_dl_unload(api);

  check_refused("./no-such-dir/libaddbo.so.0", "cannot open ./no-such-dir/libaddbo.so.0");
  /* The first function of ADDBO_DL_FUNCTIONS that the partial library lacks. */
  check_refused(argv[2], "addbo_last_error is missing from");
  check_refused(argv[3], "another major version");

  CHECK(addbo_dl_load(NULL, argv[1], error, sizeof error) == ADDBO_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(error, "addbo_dl_load: api is NULL") == 0);
  /* A short buffer receives a truncated, terminated message. */
  CHECK(addbo_dl_load(api, "./no-such-dir/x.so", small, sizeof small) == ADDBO_ERR_STATE);
  CHECK(strlen(small) == sizeof small - 1 && strncmp(small, "addbo_dl_load: ", 15) == 0);

  if (failures != 0) fprintf(stderr, "test_dl_load: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
