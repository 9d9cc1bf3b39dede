/* addbo_interrupt: a host stops the learning of a call in progress.
 *  - arguments: a NULL handle; an interrupt of an idle handle changes nothing, and no call made
 *    after it is interrupted;
 *  - addbo_learn on another thread, learning for minutes: interrupted, ADDBO_ERR_INTERRUPTED,
 *    the saved state exactly as before, and the handle continues as one that never learned;
 *  - an ask that learns (automatic relearning with one thread: the ask runs the learning),
 *    interrupted the same way: the ask fails, nothing is pending, the state is as before;
 *  - with "relearn": "ahead" and two threads the ask due to learn begins the learning on a
 *    worker and returns, and the next ask waits for it: interrupted, it fails and adds nothing
 * pending; the handle, its learning still running, is then destroyed (which stops and joins the
 * worker). The interrupts are repeated until the call returns, so the outcome does not depend on
 * when the call starts. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "test_support.h"

#define DIM 6

/* Learning that would take minutes: ten million likelihood evaluations. */
static addbo_optimizer* create_slow(const char* relearn, int threads) {
  char config[512];
  addbo_optimizer* opt = NULL;
  snprintf(config, sizeof config,
           "{\"dimension\": %d, \"seed\": 3, \"initial_points\": 6, \"limits\": {\"threads\": %d},"
           " \"structure\": {\"mode\": \"learn\", \"relearn\": \"%s\","
           "  \"gibbs_evaluations\": 10000000}}",
           DIM, threads, relearn);
  CHECK_OK(addbo_create(&opt, config));
  return opt;
}

static double objective(const double* x) {
  return -(x[0] - 0.3) * (x[0] - 0.3) + x[1] * x[2] - x[3] * x[3] + 0.5 * x[4] - x[5] * x[0];
}

/* The initial design, told: the next ask would learn. */
static void tell_design(addbo_optimizer* opt) {
  double x[DIM];
  int i;
  for (i = 0; i < 6; ++i) {
    CHECK_OK(addbo_ask(opt, x, DIM));
    CHECK_OK(addbo_tell(opt, x, DIM, objective(x)));
  }
}

struct call {
  addbo_optimizer* opt;
  int learn; /* 1: addbo_learn, 0: addbo_ask */
  int status;
  double x[DIM];
  char message[256]; /* addbo_last_error() of the calling thread, where the call failed */
  volatile int done;
  pthread_mutex_t mutex;
};

static void* run_call(void* argument) {
  struct call* call = (struct call*)argument;
  int learned = -1;
  int status = call->learn ? addbo_learn(call->opt, &learned) : addbo_ask(call->opt, call->x, DIM);
  pthread_mutex_lock(&call->mutex);
  snprintf(call->message, sizeof call->message, "%s", addbo_last_error());
  call->status = status;
  call->done = 1;
  pthread_mutex_unlock(&call->mutex);
  return NULL;
}

static int is_done(struct call* call) {
  int done;
  pthread_mutex_lock(&call->mutex);
  done = call->done;
  pthread_mutex_unlock(&call->mutex);
  return done;
}

/* Runs the call on a thread and interrupts it every millisecond until it returns; checks that
 * it failed with ADDBO_ERR_INTERRUPTED and its message. x (for an ask) is passed in and out. */
static void interrupted_call(addbo_optimizer* opt, int learn, double* x, const char* function) {
  struct call call;
  pthread_t thread;
  const struct timespec pause = {0, 1000000};
  memset(&call, 0, sizeof call);
  call.opt = opt;
  call.learn = learn;
  if (x != NULL) memcpy(call.x, x, sizeof call.x);
  pthread_mutex_init(&call.mutex, NULL);
  if (!CHECK(pthread_create(&thread, NULL, run_call, &call) == 0)) return;
  while (!is_done(&call)) {
    CHECK_OK(addbo_interrupt(opt));
    nanosleep(&pause, NULL);
  }
  pthread_join(thread, NULL);
  pthread_mutex_destroy(&call.mutex);
  if (x != NULL) memcpy(x, call.x, sizeof call.x);
  CHECK(call.status == ADDBO_ERR_INTERRUPTED);
  CHECK(strncmp(call.message, function, strlen(function)) == 0);
  CHECK(strstr(call.message, "interrupted by addbo_interrupt") != NULL);
}

static void test_arguments(void) {
  addbo_optimizer* opt = test_create(1);
  addbo_optimizer* twin = test_create(1);
  char *a, *b;
  int i;
  CHECK_FAILS(addbo_interrupt(NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_interrupt", "opt is NULL");
  CHECK(strcmp(addbo_status_name(ADDBO_ERR_INTERRUPTED), "ADDBO_ERR_INTERRUPTED") == 0);
  if (opt == NULL || twin == NULL) return;
  /* An interrupt with no call in progress stops nothing that comes later. */
  CHECK_OK(addbo_interrupt(opt));
  CHECK_OK(addbo_interrupt(opt));
  for (i = 0; i < 8; ++i) {
    CHECK_OK(test_step(opt));
    CHECK_OK(test_step(twin));
  }
  a = test_save(opt);
  b = test_save(twin);
  CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
  addbo_free_string(a);
  addbo_free_string(b);
  addbo_destroy(opt);
  addbo_destroy(twin);
}

/* Whether the handle continues as the twin that never ran the interrupted call: the same asks
 * (manual mode: no learning) and the same saved states. */
static void check_continues_as(addbo_optimizer* opt, addbo_optimizer* twin) {
  double x[DIM], y[DIM];
  char *a, *b;
  int i;
  for (i = 0; i < 3; ++i) {
    CHECK_OK(addbo_ask(opt, x, DIM));
    CHECK_OK(addbo_ask(twin, y, DIM));
    CHECK(memcmp(x, y, sizeof x) == 0);
    CHECK_OK(addbo_tell(opt, x, DIM, objective(x)));
    CHECK_OK(addbo_tell(twin, y, DIM, objective(y)));
  }
  a = test_save(opt);
  b = test_save(twin);
  CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
  addbo_free_string(a);
  addbo_free_string(b);
}

static void test_learn_interrupted(void) {
  addbo_optimizer* opt = create_slow("manual", 2);
  addbo_optimizer* twin = create_slow("manual", 2);
  char *before, *after;
  if (opt == NULL || twin == NULL) return;
  tell_design(opt);
  tell_design(twin);
  before = test_save(opt);
  interrupted_call(opt, 1, NULL, "addbo_learn: ");
  after = test_save(opt);
  CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
  addbo_free_string(before);
  addbo_free_string(after);
  check_continues_as(opt, twin);
  addbo_destroy(opt);
  addbo_destroy(twin);
}

static void test_ask_interrupted(void) {
  addbo_optimizer* opt = create_slow("auto", 1);
  char *before, *after;
  double x[DIM] = {-1, -1, -1, -1, -1, -1};
  size_t observations = 0, pending = 7;
  int i;
  if (opt == NULL) return;
  tell_design(opt);
  before = test_save(opt);
  interrupted_call(opt, 0, x, "addbo_ask: ");
  for (i = 0; i < DIM; ++i) CHECK(x[i] == -1); /* untouched on failure */
  CHECK_OK(addbo_count(opt, &observations, &pending));
  CHECK(observations == 6 && pending == 0);
  after = test_save(opt);
  CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
  addbo_free_string(before);
  addbo_free_string(after);
  addbo_destroy(opt);
}

static void test_waiting_ask_interrupted(void) {
  addbo_optimizer* opt = create_slow("ahead", 2);
  double x[DIM] = {-1, -1, -1, -1, -1, -1};
  size_t observations = 0, pending = 7;
  int i;
  if (opt == NULL) return;
  tell_design(opt);
  CHECK_OK(addbo_ask(opt, x, DIM)); /* begins the learning, which runs on */
  CHECK_OK(addbo_tell(opt, x, DIM, objective(x)));
  for (i = 0; i < DIM; ++i) x[i] = -1;
  interrupted_call(opt, 0, x, "addbo_ask: ");
  for (i = 0; i < DIM; ++i) CHECK(x[i] == -1); /* untouched on failure */
  CHECK_OK(addbo_count(opt, &observations, &pending));
  CHECK(observations == 7 && pending == 0);
  addbo_destroy(opt);
}

int main(void) {
  test_arguments();
  test_learn_interrupted();
  test_ask_interrupted();
  test_waiting_ask_interrupted();
  return test_finish("capi_interrupt");
}
