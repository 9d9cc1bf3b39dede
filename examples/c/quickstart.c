/* Quickstart: maximise an additive function of 6 variables whose terms couple neighbours along
 * a chain, with the ask/tell loop of libaddbo. Build and run: see examples/c/CMakeLists.txt
 * (ctest runs it as example_c_quickstart). */
#include <stdio.h>

#include "addbo/addbo.h"

#define DIM 6
#define ITERATIONS 40

/* The black box. Its maximum, 0, is at x = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7): every neighbour pair
 * (x[i], x[i+1]) interacts, which is exactly the chain graph given in the configuration. */
static double objective(const double* x) {
  double value = -(x[0] - 0.2) * (x[0] - 0.2);
  int i;
  for (i = 0; i + 1 < DIM; ++i) {
    const double gap = x[i + 1] - x[i] - 0.1;
    value -= gap * gap;
  }
  return value;
}

/* The graph and the lengthscales are given, so nothing is learned: the shortest loop. The
 * other examples learn them (docs/examples.md). */
static const char* const config =
    "{\"variables\": ["
    " {\"name\": \"x0\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 16},"
    " {\"name\": \"x1\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 16},"
    " {\"name\": \"x2\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 16},"
    " {\"name\": \"x3\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 16},"
    " {\"name\": \"x4\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 16},"
    " {\"name\": \"x5\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 16}],"
    " \"goal\": \"maximize\", \"seed\": 7, \"initial_points\": 8,"
    " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]},"
    " \"kernel\": {\"lengthscales\": [0.3, 0.3, 0.3, 0.3, 0.3, 0.3]}}";

/* Prints the failure and returns 1, for `return fail(...)` in main. */
static int fail(const char* what, int status) {
  fprintf(stderr, "%s failed: %s: %s\n", what, addbo_status_name(status), addbo_last_error());
  return 1;
}

int main(void) {
  addbo_optimizer* opt = NULL;
  double x[DIM];
  double best_y = 0.0;
  int status;
  int i;

  printf("addbo %s\n", addbo_version());
  status = addbo_create(&opt, config);
  if (status != ADDBO_OK) return fail("addbo_create", status);

  for (i = 1; i <= ITERATIONS; ++i) {
    double y;
    status = addbo_ask(opt, x, DIM);
    if (status != ADDBO_OK) break;
    y = objective(x); /* the expensive evaluation, done by the host */
    status = addbo_tell(opt, x, DIM, y);
    if (status != ADDBO_OK) break;
    if (i % 5 == 0) {
      status = addbo_best(opt, x, DIM, &best_y);
      if (status != ADDBO_OK) break;
      printf("iteration %2d  last y % .5f  best y % .5f\n", i, y, best_y);
    }
  }
  if (status == ADDBO_OK) status = addbo_best(opt, x, DIM, &best_y);
  if (status != ADDBO_OK) {
    addbo_destroy(opt);
    return fail("the ask/tell loop", status);
  }

  printf("best y %.5f at x = (", best_y);
  for (i = 0; i < DIM; ++i) printf(i == 0 ? "%.3f" : ", %.3f", x[i]);
  printf(")\n");
  addbo_destroy(opt);
  return 0;
}
