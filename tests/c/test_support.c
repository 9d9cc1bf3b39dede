#include "test_support.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t failures_mutex = PTHREAD_MUTEX_INITIALIZER;
static int failures = 0;
static int checks = 0;

void test_config(char* buffer, unsigned seed) {
  snprintf(
      buffer, TEST_CONFIG_SIZE,
      "{\"variables\": ["
      " {\"name\": \"x0\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 8},"
      " {\"name\": \"x1\", \"type\": \"continuous\", \"lower\": %g, \"upper\": %g,"
      "  \"grid\": 12},"
      " {\"name\": \"k\", \"type\": \"integer\", \"lower\": 1, \"upper\": %g},"
      " {\"name\": \"c\", \"type\": \"categorical\", \"choices\": [\"red\", \"green\","
      "  \"blue\"]},"
      " {\"name\": \"x4\", \"type\": \"continuous\", \"lower\": 0, \"upper\": 1, \"grid\": 8}],"
      " \"goal\": \"maximize\", \"seed\": %u, \"initial_points\": %d,"
      " \"structure\": {\"mode\": \"fixed\", \"edges\": [[0, 1], [1, 2], [3, 4]]},"
      " \"kernel\": {\"lengthscales\": [0.3, 0.3, 0.4, 0.5, 0.3]}}",
      TEST_X1_LOWER, TEST_X1_UPPER, TEST_K_UPPER, seed, TEST_INITIAL_POINTS);
}

double test_objective(const double* x) {
  /* Additive over the configured groups; the categorical index only selects an offset. */
  static const double offset[TEST_CHOICES] = {0.0, 0.4, -0.3};
  return sin(3.0 * x[0]) * cos(x[1]) - 0.1 * (x[1] - x[2]) * (x[1] - x[2]) +
         offset[(int)x[3]] * x[4];
}

static void record(int ok) {
  pthread_mutex_lock(&failures_mutex);
  ++checks;
  if (!ok) ++failures;
  pthread_mutex_unlock(&failures_mutex);
}

int test_check(int ok, const char* what, const char* file, int line) {
  record(ok);
  if (!ok) fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what);
  return ok;
}

int test_status(int status, int expected, const char* what, const char* file, int line) {
  const int ok = status == expected;
  record(ok);
  if (!ok) {
    fprintf(stderr, "%s:%d: %s returned %s, expected %s; last error: %s\n", file, line, what,
            addbo_status_name(status), addbo_status_name(expected), addbo_last_error());
  }
  return ok;
}

int test_failure(int status, int expected, const char* function, const char* fragment,
                 const char* what, const char* file, int line) {
  const char* message = addbo_last_error();
  const int ok = test_status(status, expected, what, file, line);
  const int named = strncmp(message, function, strlen(function)) == 0 &&
                    message[strlen(function)] == ':' && strstr(message, fragment) != NULL;
  /* The JSON library's internal tags ("[json.exception.parse_error.101]") never reach users. */
  const int untagged = strstr(message, "[json.exception") == NULL;
  record(named && untagged);
  if (!named) {
    fprintf(stderr, "%s:%d: %s: message \"%s\" should start with \"%s:\" and contain \"%s\"\n",
            file, line, what, message, function, fragment);
  }
  if (!untagged) {
    fprintf(stderr, "%s:%d: %s: message \"%s\" shows the JSON library's tag\n", file, line, what,
            message);
  }
  return ok && named && untagged;
}

int test_finish(const char* test_name) {
  fprintf(stderr, "%s: %d checks, %d failed\n", test_name, checks, failures);
  return failures == 0 && checks > 0 ? 0 : 1;
}

addbo_optimizer* test_create(unsigned seed) {
  char config[TEST_CONFIG_SIZE];
  addbo_optimizer* opt = NULL;
  test_config(config, seed);
  CHECK_OK(addbo_create(&opt, config));
  return opt;
}

char* test_save(const addbo_optimizer* opt) {
  char* state = NULL;
  CHECK_OK(addbo_save(opt, &state));
  return state;
}

int test_step(addbo_optimizer* opt) {
  double x[TEST_DIM];
  int status = addbo_ask(opt, x, TEST_DIM);
  if (status == ADDBO_OK) status = addbo_tell(opt, x, TEST_DIM, test_objective(x));
  return status;
}

char* test_read_file(const char* path) {
  FILE* file = fopen(path, "rb");
  char* text = NULL;
  long size;
  if (file == NULL) return NULL;
  if (fseek(file, 0, SEEK_END) == 0 && (size = ftell(file)) >= 0 && fseek(file, 0, SEEK_SET) == 0 &&
      (text = (char*)malloc((size_t)size + 1)) != NULL) {
    if (fread(text, 1, (size_t)size, file) == (size_t)size) {
      text[size] = '\0';
    } else {
      free(text);
      text = NULL;
    }
  }
  fclose(file);
  return text;
}
