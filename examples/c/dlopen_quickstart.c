/* Quickstart without a link-time dependency: load libaddbo.so at run time with dlopen(), look
 * up the functions with dlsym(), minimise a function of mixed variables (continuous, integer,
 * categorical), and save and restore the optimizer half-way as a long-running host would.
 *
 * Usage: dlopen_quickstart [path/to/libaddbo.so]   (default: ADDBO_LIBRARY_PATH, else
 * "libaddbo.so" from the loader's search path). addbo.h is used for its types and status
 * values only. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "addbo/addbo.h"

#ifndef ADDBO_LIBRARY_PATH
#define ADDBO_LIBRARY_PATH "libaddbo.so"
#endif

#define DIM 3
#define ITERATIONS 24

/* The functions this program uses, filled by dlsym(). */
struct addbo_api {
  const char* (*status_name)(int);
  const char* (*last_error)(void);
  int (*create)(addbo_optimizer**, const char*);
  void (*destroy)(addbo_optimizer*);
  int (*ask)(addbo_optimizer*, double*, size_t);
  int (*tell)(addbo_optimizer*, const double*, size_t, double);
  int (*best)(const addbo_optimizer*, double*, size_t, double*);
  int (*save)(const addbo_optimizer*, char**);
  int (*load)(addbo_optimizer**, const char*);
  void (*free_string)(char*);
};

/* ISO C has no conversion from dlsym's void* to a function pointer; POSIX guarantees that the
 * representations agree, so copy the bytes. */
static int lookup(void* library, const char* name, void* function_pointer, size_t size) {
  void* symbol = dlsym(library, name);
  if (symbol == NULL) {
    fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
    return 0;
  }
  memcpy(function_pointer, &symbol, size);
  return 1;
}

#define LOOKUP(api, library, field, name) \
  lookup(library, name, (void*)&(api)->field, sizeof((api)->field))

static int load_api(void* library, struct addbo_api* api) {
  return LOOKUP(api, library, status_name, "addbo_status_name") &&
         LOOKUP(api, library, last_error, "addbo_last_error") &&
         LOOKUP(api, library, create, "addbo_create") &&
         LOOKUP(api, library, destroy, "addbo_destroy") && LOOKUP(api, library, ask, "addbo_ask") &&
         LOOKUP(api, library, tell, "addbo_tell") && LOOKUP(api, library, best, "addbo_best") &&
         LOOKUP(api, library, save, "addbo_save") && LOOKUP(api, library, load, "addbo_load") &&
         LOOKUP(api, library, free_string, "addbo_free_string");
}

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

static int report(const struct addbo_api* api, const char* what, int status) {
  fprintf(stderr, "%s failed: %s: %s\n", what, api->status_name(status), api->last_error());
  return 1;
}

/* Replaces *opt by a copy restored from its saved state, as after a restart of the host. */
static int save_and_restore(const struct addbo_api* api, addbo_optimizer** opt) {
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

static int run(const struct addbo_api* api) {
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
  struct addbo_api api;
  int result;
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "dlopen(%s): %s\n", path, dlerror());
    return 1;
  }
  result = load_api(library, &api) ? run(&api) : 1;
  dlclose(library);
  return result;
}
