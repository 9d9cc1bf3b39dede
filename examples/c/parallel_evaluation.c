/* Parallel evaluation with ask/tell in C: K worker threads (pthreads) share one optimizer; each
 * asks for a point, evaluates it and tells the value, then asks again, so K evaluations are in
 * flight and none waits for another's.
 *
 * The handle may be shared because addbo serialises all calls on one handle with an internal
 * mutex (docs/c-api.md, "Threads"); addbo_last_error is per thread, so each worker reads the
 * message of its own failure. The workers must all have returned before addbo_destroy.
 * Which point each worker gets depends on the order in which the calls reach the handle, so a
 * run is not reproducible point by point (examples/parallel/parallel_evaluation.cpp calls ask
 * and tell from one thread instead). ctest runs it as example_c_parallel_evaluation. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "addbo/addbo.h"

#define DIM 6
#define IN_FLIGHT 4
#define EVALUATIONS 60

/* The black box: additive over the pairs (x0, x1), (x2, x3), (x4, x5), maximum 0 at
 * (0.3, 0.7, 0.55, 0.2, 0.8, 0.45). Evaluation `index` takes 2-20 ms, varying with the index,
 * so that evaluations finish in another order than they started, as real ones do. */
static double black_box(const double* x, int index) {
  static const double center[DIM] = {0.3, 0.7, 0.55, 0.2, 0.8, 0.45};
  struct timespec pause;
  double sum = 0.0;
  int k;
  pause.tv_sec = 0;
  pause.tv_nsec = (long)(2 + (index * 7) % 19) * 1000000L;
  nanosleep(&pause, NULL);
  for (k = 0; k < DIM; k += 2) {
    const double a = x[k] - center[k], b = x[k + 1] - center[k + 1];
    sum -= a * a + b * b - a * b; /* the pair (x[k], x[k+1]) interacts */
  }
  return sum;
}

/* What the workers share besides the handle: how many evaluations have been started. */
static pthread_mutex_t budget_mutex = PTHREAD_MUTEX_INITIALIZER;
static int started = 0;

struct worker {
  pthread_t thread;
  addbo_optimizer* opt;
  int evaluations; /* done by this worker */
  int status;      /* ADDBO_OK, or the first failure */
  char message[256];
};

/* Claims the next evaluation's index, or returns -1 when the budget is spent. */
static int claim_evaluation(void) {
  int index = -1;
  pthread_mutex_lock(&budget_mutex);
  if (started < EVALUATIONS) index = started++;
  pthread_mutex_unlock(&budget_mutex);
  return index;
}

static void* work(void* argument) {
  struct worker* self = (struct worker*)argument;
  double x[DIM];
  int index;
  while ((index = claim_evaluation()) >= 0) {
    double y;
    self->status = addbo_ask(self->opt, x, DIM); /* pending until told */
    if (self->status != ADDBO_OK) break;
    y = black_box(x, index); /* the expensive part, outside any addbo call */
    self->status = addbo_tell(self->opt, x, DIM, y);
    if (self->status != ADDBO_OK) break;
    ++self->evaluations;
  }
  if (self->status != ADDBO_OK) {
    /* This thread's own last error: another worker's failure cannot overwrite it. */
    snprintf(self->message, sizeof self->message, "%s: %s", addbo_status_name(self->status),
             addbo_last_error());
  }
  return NULL;
}

static const char* const config =
    "{\"dimension\": 6, \"seed\": 1,"
    " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [2, 3], [4, 5]]},"
    " \"kernel\": {\"lengthscales\": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}}";

int main(void) {
  struct worker workers[IN_FLIGHT];
  addbo_optimizer* opt = NULL;
  double best_x[DIM], best_y = 0.0;
  size_t told = 0, pending = 0;
  int failed = 0;
  int created = 0;
  int i;
  int status = addbo_create(&opt, config);
  if (status != ADDBO_OK) {
    fprintf(stderr, "addbo_create: %s: %s\n", addbo_status_name(status), addbo_last_error());
    return 1;
  }
  printf("addbo %s: %d evaluations, %d worker threads\n", addbo_version(), EVALUATIONS, IN_FLIGHT);
  for (i = 0; i < IN_FLIGHT; ++i) {
    workers[i].opt = opt;
    workers[i].evaluations = 0;
    workers[i].status = ADDBO_OK;
    workers[i].message[0] = '\0';
    if (pthread_create(&workers[i].thread, NULL, work, &workers[i]) != 0) {
      /* The workers already running share the budget between them. */
      fprintf(stderr, "pthread_create failed: %d workers instead of %d\n", created, IN_FLIGHT);
      failed = 1;
      break;
    }
    ++created;
  }
  /* Every worker returns before the handle is destroyed. */
  for (i = 0; i < created; ++i) {
    pthread_join(workers[i].thread, NULL);
    printf("worker %d: %d evaluations\n", i, workers[i].evaluations);
    if (workers[i].status != ADDBO_OK) {
      fprintf(stderr, "worker %d failed: %s\n", i, workers[i].message);
      failed = 1;
    }
  }
  status = addbo_count(opt, &told, &pending);
  if (status == ADDBO_OK) status = addbo_best(opt, best_x, DIM, &best_y);
  if (status != ADDBO_OK) {
    fprintf(stderr, "%s: %s\n", addbo_status_name(status), addbo_last_error());
    failed = 1;
  } else {
    printf("best y %.5f at x = (", best_y);
    for (i = 0; i < DIM; ++i) printf(i == 0 ? "%.4f" : ", %.4f", best_x[i]);
    printf(")\n%zu told, %zu pending\n", told, pending);
    /* Every asked point was told (unless no worker could start). */
    if (created > 0 && (told != EVALUATIONS || pending != 0)) failed = 1;
  }
  addbo_destroy(opt);
  return failed;
}
