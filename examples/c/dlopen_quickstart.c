/* Quickstart without a link-time dependency: load libaddbo at run time through addbo_dl.h
 * (dlopen() and one dlsym() per function, done by addbo_dl_load()), minimise a function of mixed
 * variables (continuous, integer, categorical), and save and restore the optimizer half-way as
 * a long-running host would.
 *
 * Usage: dlopen_quickstart [path/to/libaddbo.so.0]   (default: ADDBO_LIBRARY_PATH, else
 * "libaddbo.so.0" from the loader's search path). Build: cc dlopen_quickstart.c -I<prefix>/include
 * -ldl; no -laddbo. */
#include <stdio.h>
#include <string.h>

#include "addbo/addbo_dl.h"

#ifndef ADDBO_LIBRARY_PATH
#define ADDBO_LIBRARY_PATH ADDBO_DL_DEFAULT_PATH
#endif

#define DIM 3
#define ITERATIONS 24

/* The black box: x in [-1, 1], k an integer in 1..6, c the index of one of three materials.
 * Its minimum, 0, is at x = 0.25, k = 4, c = 2; x and k interact. */
static double objective(const double* v) {
  static const double material_cost[3] = {0.3, 0.1, 0.0};
  const double x = v[0];
  const double k = v[1];
  const int c = (int)v[2];
  return (x - 0.25) * (x - 0.25) + 0.05 * (k - 4.0) * (k - 4.0) * (1.0 + x * x) + material_cost[c];
}

static const char* const config =
    "{\"variables\": ["
    " {\"name\": \"x\", \"type\": \"continuous\", \"lower\": -1, \"upper\": 1, \"grid\": 16},"
    " {\"name\": \"k\", \"type\": \"integer\", \"lower\": 1, \"upper\": 6},"
    " {\"name\": \"c\", \"type\": \"categorical\", \"choices\": [\"steel\", \"oak\", \"pine\"]}],"
    " \"goal\": \"minimize\", \"seed\": 3, \"initial_points\": 5,"
    " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1]]},"
    " \"kernel\": {\"lengthscales\": [0.3, 0.3, 0.5]}}";

static int report(const struct addbo_dl* api, const char* what, int status) {
  fprintf(stderr, "%s failed: %s: %s\n", what, api->status_name(status), api->last_error());
  return 1;
}

/* Replaces *opt by a copy restored from its saved state, as after a restart of the host. */
static int save_and_restore(const struct addbo_dl* api, addbo_optimizer** opt) {
  char* state = NULL;
  addbo_optimizer* restored = NULL;
  int status = api->save(*opt, &state);
  if (status != ADDBO_OK) return status;
  status = api->load(&restored, state);
  if (status == ADDBO_OK) {
    printf("saved and restored the optimizer (%u bytes of state)\n", (unsigned)strlen(state));
    api->destroy(*opt);
    *opt = restored;
  }
  api->free_string(state);
  return status;
}

static int run(const struct addbo_dl* api) {
  addbo_optimizer* opt = NULL;
  double v[DIM];
  double best = 0.0;
  int i;
  int status = api->create(&opt, config);
  if (status != ADDBO_OK) return report(api, "addbo_create", status);

  for (i = 1; i <= ITERATIONS && status == ADDBO_OK; ++i) {
    if (i == ITERATIONS / 2) status = save_and_restore(api, &opt);
    if (status == ADDBO_OK) status = api->ask(opt, v, DIM);
    if (status == ADDBO_OK) status = api->tell(opt, v, DIM, objective(v));
  }
  if (status == ADDBO_OK) status = api->best(opt, v, DIM, &best);
  if (status == ADDBO_OK) {
    printf("best value %.5f at x = %.3f, k = %.0f, c = %.0f\n", best, v[0], v[1], v[2]);
  }
  api->destroy(opt);
  return status == ADDBO_OK ? 0 : report(api, "the ask/tell loop", status);
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : ADDBO_LIBRARY_PATH;
  struct addbo_dl api;
  char error[512];
  int result;
  if (addbo_dl_load(&api, path, error, sizeof error) != ADDBO_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  result = run(&api);
  addbo_dl_unload(&api);
  return result;
}
