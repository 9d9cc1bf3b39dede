/* addbo_learn: learning when the host decides ("structure": {"relearn": "manual"}).
 *  - arguments: a NULL handle; learned may be NULL;
 *  - nothing to learn (a fixed graph with given lengthscales and noise, "strategy": "random",
 *    fewer than two observations): ADDBO_OK with learned = 0;
 *  - manual mode end to end: asks never learn, addbo_learn does, on all current observations;
 *  - a busy handle: while one thread learns, a second addbo_learn is refused with
 *    ADDBO_ERR_STATE and asks and tells succeed; the handle then saves and loads;
 *  - save/load continuity: a restored manual run continues bit-identically through learns. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* A small learning configuration: the graph, lengthscales and noise are all learned. */
static void learning_config(char* buffer, size_t size, int dimension, unsigned seed,
                            const char* relearn, int gibbs_evaluations) {
  snprintf(buffer, size,
           "{\"dimension\": %d, \"seed\": %u, \"initial_points\": 5,"
           " \"structure\": {\"mode\": \"learn\", \"relearn\": \"%s\", \"relearn_every\": 3,"
           "  \"gibbs_evaluations\": %d},"
           " \"kernel\": {\"noise_variance\": \"learn\"}}",
           dimension, seed, relearn, gibbs_evaluations);
}

static addbo_optimizer* create_learning(int dimension, unsigned seed, const char* relearn,
                                        int gibbs_evaluations) {
  char config[512];
  addbo_optimizer* opt = NULL;
  learning_config(config, sizeof config, dimension, seed, relearn, gibbs_evaluations);
  CHECK_OK(addbo_create(&opt, config));
  return opt;
}

/* An additive objective on [0, 1]^dim with interacting neighbours. */
static double smooth_objective(const double* x, size_t dim) {
  double sum = 0.0;
  size_t d;
  for (d = 0; d + 1 < dim; d += 2) sum += (x[d] - 0.3) * (x[d + 1] - 0.6) - 0.5 * x[d] * x[d];
  if (dim % 2 == 1) sum -= (x[dim - 1] - 0.4) * (x[dim - 1] - 0.4);
  return sum;
}

/* One ask and the tell of smooth_objective(); x receives the asked point. */
static int smooth_step(addbo_optimizer* opt, double* x, size_t dim) {
  int status = addbo_ask(opt, x, dim);
  if (status != ADDBO_OK) return status;
  return addbo_tell(opt, x, dim, smooth_objective(x, dim));
}

/* info's "learned_at_observations"; (size_t)-1 when the info cannot be read. */
static size_t learned_at(const addbo_optimizer* opt) {
  static const char key[] = "\"learned_at_observations\":";
  char* info = NULL;
  const char* found;
  size_t value = (size_t)-1;
  if (!CHECK_OK(addbo_info(opt, &info))) return value;
  found = strstr(info, key);
  if (CHECK(found != NULL)) value = (size_t)strtoul(found + sizeof key - 1, NULL, 10);
  addbo_free_string(info);
  return value;
}

static int learn_flag(addbo_optimizer* opt) {
  int learned = -1;
  CHECK_OK(addbo_learn(opt, &learned));
  return learned;
}

static void test_arguments(void) {
  int learned = 7;
  addbo_optimizer* opt;
  CHECK_FAILS(addbo_learn(NULL, &learned), ADDBO_ERR_INVALID_ARGUMENT, "addbo_learn",
              "opt is NULL");
  CHECK(learned == 7); /* untouched on failure */
  CHECK_FAILS(addbo_learn(NULL, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_learn", "opt is NULL");
  /* learned may be NULL, also when a round is committed. */
  opt = create_learning(4, 1, "manual", 50);
  if (opt != NULL) {
    double x[4];
    int i;
    for (i = 0; i < 6; ++i) CHECK_OK(smooth_step(opt, x, 4));
    CHECK_OK(addbo_learn(opt, NULL));
    CHECK(learned_at(opt) == 6);
  }
  addbo_destroy(opt);
}

static void test_nothing_to_learn(void) {
  /* The C tests' configuration: fixed graph, lengthscales and noise given. */
  addbo_optimizer* fixed = test_create(3);
  addbo_optimizer* random_search = NULL;
  int i;
  if (fixed != NULL) {
    for (i = 0; i < 8; ++i) CHECK_OK(test_step(fixed));
    CHECK(learn_flag(fixed) == 0);
    CHECK(learned_at(fixed) == 0);
  }
  addbo_destroy(fixed);

  if (CHECK_OK(addbo_create(&random_search,
                            "{\"dimension\": 3, \"strategy\": \"random\","
                            " \"structure\": {\"relearn\": \"manual\"}}"))) {
    double x[3];
    for (i = 0; i < 6; ++i) CHECK_OK(smooth_step(random_search, x, 3));
    CHECK(learn_flag(random_search) == 0);
    CHECK(learned_at(random_search) == 0);
  }
  addbo_destroy(random_search);
}

static void test_too_few_observations(void) {
  addbo_optimizer* opt = create_learning(3, 2, "manual", 50);
  double x[3];
  if (opt == NULL) return;
  CHECK(learn_flag(opt) == 0); /* no observation */
  CHECK_OK(smooth_step(opt, x, 3));
  CHECK(learn_flag(opt) == 0); /* one observation */
  CHECK(learned_at(opt) == 0);
  CHECK_OK(smooth_step(opt, x, 3));
  CHECK(learn_flag(opt) == 1); /* two are enough */
  CHECK(learned_at(opt) == 2);
  addbo_destroy(opt);
}

static void test_manual_mode(void) {
  addbo_optimizer* manual = create_learning(5, 4, "manual", 100);
  addbo_optimizer* automatic = create_learning(5, 4, "auto", 100);
  char* state;
  double x[5];
  int i;
  if (manual == NULL || automatic == NULL) {
    addbo_destroy(manual);
    addbo_destroy(automatic);
    return;
  }
  /* Far past initial_points and relearn_every: asks never learn. */
  for (i = 0; i < 15; ++i) {
    CHECK_OK(smooth_step(manual, x, 5));
    CHECK(learned_at(manual) == 0);
  }
  /* The same run in auto mode has learned by now: the manual check is not vacuous. */
  for (i = 0; i < 15; ++i) CHECK_OK(smooth_step(automatic, x, 5));
  CHECK(learned_at(automatic) > 0);

  CHECK(learn_flag(manual) == 1);
  CHECK(learned_at(manual) == 15);
  for (i = 0; i < 4; ++i) {
    CHECK_OK(smooth_step(manual, x, 5));
    CHECK(learned_at(manual) == 15);
  }
  CHECK(learn_flag(manual) == 1);
  CHECK(learned_at(manual) == 19);
  /* A learn call also works in auto mode, on all current observations. */
  CHECK_OK(smooth_step(automatic, x, 5));
  CHECK(learn_flag(automatic) == 1);
  CHECK(learned_at(automatic) == 16);

  /* The mode is echoed in the saved configuration. */
  state = test_save(manual);
  CHECK(state != NULL && strstr(state, "\"relearn\":\"manual\"") != NULL);
  addbo_free_string(state);
  state = test_save(automatic);
  CHECK(state != NULL && strstr(state, "\"relearn\":\"auto\"") != NULL);
  addbo_free_string(state);
  addbo_destroy(manual);
  addbo_destroy(automatic);
}

/* A busy handle. Thread A learns on enough data that a round takes a while; the main thread
 * meanwhile calls addbo_learn until it is refused once (or A is done), and asks and tells. No
 * timing is assumed: the main thread may even start its own round first, and then A is the
 * one refused. */
#define BUSY_DIM 20
#define BUSY_OBSERVATIONS 400

struct busy_learner {
  addbo_optimizer* opt;
  pthread_mutex_t mutex;
  int started;
  int done;
  int status;
  int learned;
};

static int read_flag(struct busy_learner* a, const int* flag) {
  int value;
  pthread_mutex_lock(&a->mutex);
  value = *flag;
  pthread_mutex_unlock(&a->mutex);
  return value;
}

static void* learn_in_thread(void* argument) {
  struct busy_learner* a = (struct busy_learner*)argument;
  int status;
  int learned = -1;
  pthread_mutex_lock(&a->mutex);
  a->started = 1;
  pthread_mutex_unlock(&a->mutex);
  status = addbo_learn(a->opt, &learned);
  if (status == ADDBO_ERR_STATE) {
    CHECK(strstr(addbo_last_error(), "addbo_learn: a learning is already running") != NULL);
  }
  pthread_mutex_lock(&a->mutex);
  a->status = status;
  a->learned = learned;
  a->done = 1;
  pthread_mutex_unlock(&a->mutex);
  return NULL;
}

static void test_busy_handle(void) {
  char config[512];
  addbo_optimizer* opt = NULL;
  addbo_optimizer* copy = NULL;
  struct busy_learner a;
  pthread_t thread;
  unsigned long long state = 12345;
  double x[BUSY_DIM];
  int refused = 0;
  int main_committed = 0;
  int told = 0;
  int i;
  size_t d;
  size_t at;
  char* saved;
  char* saved_again;
  learning_config(config, sizeof config, BUSY_DIM, 9, "manual", 2000);
  if (!CHECK_OK(addbo_create(&opt, config))) return;
  for (i = 0; i < BUSY_OBSERVATIONS; ++i) { /* warm start: tells of points never asked */
    for (d = 0; d < BUSY_DIM; ++d) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      x[d] = (double)(state >> 11) / 9007199254740992.0;
    }
    CHECK_OK(addbo_tell(opt, x, BUSY_DIM, smooth_objective(x, BUSY_DIM)));
  }

  memset(&a, 0, sizeof a);
  a.opt = opt;
  a.status = -1;
  pthread_mutex_init(&a.mutex, NULL);
  if (!CHECK(pthread_create(&thread, NULL, learn_in_thread, &a) == 0)) return;
  while (!read_flag(&a, &a.started)) {
  }
  while (!refused && !main_committed && !read_flag(&a, &a.done)) {
    int learned = -1;
    const int status = addbo_learn(opt, &learned);
    if (status == ADDBO_ERR_STATE) {
      refused = 1;
      CHECK(strstr(addbo_last_error(),
                   "addbo_learn: a learning is already running on this "
                   "handle") != NULL);
    } else {
      /* Manual mode: nothing but another round could overtake this one, and the busy rule
       * allows none. */
      CHECK_STATUS(status, ADDBO_OK);
      CHECK(learned == 1);
      main_committed = 1;
    }
  }
  /* Asks and tells on the handle whose learning is (most likely) still running. */
  do {
    if (!CHECK_OK(smooth_step(opt, x, BUSY_DIM))) break;
    ++told;
  } while (told < 5 && !read_flag(&a, &a.done));
  pthread_join(thread, NULL);
  pthread_mutex_destroy(&a.mutex);

  CHECK(a.status == ADDBO_OK || a.status == ADDBO_ERR_STATE);
  /* A round that ran was committed, and at least one ran. */
  CHECK(a.status != ADDBO_OK || a.learned == 1);
  CHECK(a.status == ADDBO_OK || main_committed);
  if (!refused && a.status != ADDBO_ERR_STATE) {
    fprintf(stderr, "  note: the two learn calls did not overlap this time\n");
  }
  at = learned_at(opt);
  CHECK(at >= BUSY_OBSERVATIONS && at <= (size_t)(BUSY_OBSERVATIONS + told));
  CHECK(learn_flag(opt) == 1); /* the handle is free again */

  /* The handle saves and loads after all this, and the copy saves the same bytes. */
  saved = test_save(opt);
  if (saved != NULL && CHECK_OK(addbo_load(&copy, saved))) {
    saved_again = test_save(copy);
    CHECK(saved_again != NULL && strcmp(saved, saved_again) == 0);
    addbo_free_string(saved_again);
    CHECK_OK(addbo_ask(copy, x, BUSY_DIM));
  }
  addbo_free_string(saved);
  addbo_destroy(copy);
  addbo_destroy(opt);
}

/* Drives both handles with the same calls: asks compared bit for bit, learns at the same
 * places with the same results, and the same saved bytes at the end. */
static void test_save_load_continuity(void) {
  enum { DIM = 6, ROUNDS = 3, STEPS = 4 };
  addbo_optimizer* original = create_learning(DIM, 11, "manual", 150);
  addbo_optimizer* copy = NULL;
  char* saved;
  char* saved_copy;
  double a[DIM];
  double b[DIM];
  int round;
  int i;
  if (original == NULL) return;
  for (i = 0; i < 10; ++i) CHECK_OK(smooth_step(original, a, DIM));
  CHECK(learn_flag(original) == 1);
  for (i = 0; i < 2; ++i) CHECK_OK(smooth_step(original, a, DIM));
  saved = test_save(original);
  if (saved == NULL || !CHECK_OK(addbo_load(&copy, saved))) {
    addbo_free_string(saved);
    addbo_destroy(original);
    return;
  }
  addbo_free_string(saved);
  for (round = 0; round < ROUNDS; ++round) {
    for (i = 0; i < STEPS; ++i) {
      double y;
      if (!CHECK_OK(addbo_ask(original, a, DIM)) || !CHECK_OK(addbo_ask(copy, b, DIM))) break;
      if (!CHECK(memcmp(a, b, sizeof a) == 0)) {
        fprintf(stderr, "  round %d: ask %d differs after load\n", round, i);
      }
      y = smooth_objective(a, DIM);
      CHECK_OK(addbo_tell(original, a, DIM, y));
      CHECK_OK(addbo_tell(copy, b, DIM, y));
    }
    CHECK(learn_flag(original) == 1);
    CHECK(learn_flag(copy) == 1);
  }
  saved = test_save(original);
  saved_copy = test_save(copy);
  CHECK(saved != NULL && saved_copy != NULL && strcmp(saved, saved_copy) == 0);
  addbo_free_string(saved);
  addbo_free_string(saved_copy);
  addbo_destroy(original);
  addbo_destroy(copy);
}

int main(void) {
  test_arguments();
  test_nothing_to_learn();
  test_too_few_observations();
  test_manual_mode();
  test_busy_handle();
  test_save_load_continuity();
  return test_finish("test_learn");
}
