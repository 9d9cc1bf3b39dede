/* Test 5: threads. 16 threads each drive their own handle; 8 threads share one handle with
 * asks, tells, counts and saves interleaved. No crash, no lost observation, and the
 * last-error message is private to each thread. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

#define OWN_THREADS 16
#define OWN_STEPS 12
#define SHARED_THREADS 8
#define SHARED_ROUNDS 6

static pthread_barrier_t barrier;

static void* drive_own_handle(void* argument) {
  const unsigned index = (unsigned)(size_t)argument;
  char expected[64];
  double x[TEST_DIM] = {0};
  size_t observations = 0;
  size_t pending = 0;
  addbo_optimizer* opt;
  int i;
  CHECK(addbo_last_error()[0] == '\0'); /* a new thread starts with no message */
  opt = test_create(100 + index);
  if (opt != NULL) {
    for (i = 0; i < OWN_STEPS; ++i) CHECK_OK(test_step(opt));
    CHECK_OK(addbo_count(opt, &observations, &pending));
    CHECK(observations == OWN_STEPS && pending == 0);
  }
  /* Each thread fails with its own message, waits until all have failed, and must still read
   * its own message. */
  snprintf(expected, sizeof expected, "dim is %u ", 100 + index);
  CHECK_FAILS(addbo_tell(opt, x, 100 + index, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              opt != NULL ? expected : "opt is NULL");
  pthread_barrier_wait(&barrier);
  CHECK(opt == NULL || strstr(addbo_last_error(), expected) != NULL);
  addbo_destroy(opt);
  return NULL;
}

static void* drive_shared_handle(void* argument) {
  addbo_optimizer* opt = (addbo_optimizer*)argument;
  int round;
  pthread_barrier_wait(&barrier); /* start together to maximise interleaving */
  for (round = 0; round < SHARED_ROUNDS; ++round) {
    double x[TEST_DIM];
    size_t observations = 0;
    size_t pending = 0;
    if (!CHECK_OK(addbo_ask(opt, x, TEST_DIM))) continue;
    CHECK_OK(addbo_count(opt, &observations, &pending));
    CHECK(pending >= 1); /* our own point at least, until we tell it */
    if (round % 3 == 0) addbo_free_string(test_save(opt));
    if (round % 3 == 1) { /* our own first point is told: the model exists */
      double mean = 0.0, stddev = -1.0;
      CHECK_OK(addbo_predict(opt, x, TEST_DIM, &mean, &stddev));
      CHECK(stddev >= 0.0);
    }
    CHECK_OK(addbo_tell(opt, x, TEST_DIM, test_objective(x)));
  }
  return NULL;
}

static void run_threads(int count, void* (*body)(void*), void* shared) {
  pthread_t threads[OWN_THREADS];
  int i;
  pthread_barrier_init(&barrier, NULL, (unsigned)count);
  for (i = 0; i < count; ++i) {
    void* argument = shared != NULL ? shared : (void*)(size_t)i;
    CHECK(pthread_create(&threads[i], NULL, body, argument) == 0);
  }
  for (i = 0; i < count; ++i) pthread_join(threads[i], NULL);
  pthread_barrier_destroy(&barrier);
}

int main(void) {
  addbo_optimizer* shared;
  size_t observations = 0;
  size_t pending = 0;
  run_threads(OWN_THREADS, drive_own_handle, NULL);

  shared = test_create(7);
  if (shared == NULL) return test_finish("test_threads");
  run_threads(SHARED_THREADS, drive_shared_handle, shared);
  CHECK_OK(addbo_count(shared, &observations, &pending));
  CHECK(observations == SHARED_THREADS * SHARED_ROUNDS);
  CHECK(pending == 0);
  addbo_destroy(shared);
  return test_finish("test_threads");
}
