/* Test 1: every entry point given a NULL handle, NULL buffers, a wrong dim, a non-finite y or a
 * point outside the domain fails with the right status and a message that names the function
 * (and the argument), and leaves the optimizer's saved state byte-identical. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

/* The saved state of the optimizer under test before any of the failing calls. */
static char* reference_state = NULL;

static void check_state_unchanged(const addbo_optimizer* opt, const char* after) {
  char* state = test_save(opt);
  if (state != NULL && !CHECK(strcmp(state, reference_state) == 0)) {
    fprintf(stderr, "  the saved state changed after %s\n", after);
  }
  addbo_free_string(state);
}

/* A valid point of the test domain. */
static void valid_point(double* x) {
  x[0] = 0.5;
  x[1] = 1.0;
  x[2] = 2.0;
  x[3] = 1.0;
  x[4] = 0.25;
}

static void check_status_functions(void) {
  static const char* const names[] = {
      "ADDBO_OK",           "ADDBO_ERR_INVALID_ARGUMENT", "ADDBO_ERR_CONFIG",
      "ADDBO_ERR_STATE",    "ADDBO_ERR_NUMERICAL",        "ADDBO_ERR_OUT_OF_MEMORY",
      "ADDBO_ERR_INTERNAL", "ADDBO_ERR_INTERRUPTED"};
  int status;
  for (status = ADDBO_OK; status <= ADDBO_ERR_INTERRUPTED; ++status) {
    CHECK(strcmp(addbo_status_name(status), names[status]) == 0);
  }
  CHECK(strcmp(addbo_status_name(-1), "ADDBO_UNKNOWN_STATUS") == 0);
  CHECK(strcmp(addbo_status_name(8), "ADDBO_UNKNOWN_STATUS") == 0);
  CHECK(strcmp(addbo_version(), ADDBO_VERSION_STRING) == 0);
}

static void check_null_handle(void) {
  double x[TEST_DIM];
  double y = 0.0;
  size_t a = 0;
  size_t b = 0;
  char* text = (char*)"sentinel";
  valid_point(x);
  addbo_destroy(NULL); /* a no-op */
  addbo_free_string(NULL);
  CHECK_FAILS(addbo_dimension(NULL, &a), ADDBO_ERR_INVALID_ARGUMENT, "addbo_dimension",
              "opt is NULL");
  CHECK_FAILS(addbo_ask(NULL, x, TEST_DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_ask", "opt is NULL");
  CHECK_FAILS(addbo_tell(NULL, x, TEST_DIM, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "opt is NULL");
  CHECK_FAILS(addbo_cancel(NULL, x, TEST_DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_cancel",
              "opt is NULL");
  CHECK_FAILS(addbo_best(NULL, x, TEST_DIM, &y), ADDBO_ERR_INVALID_ARGUMENT, "addbo_best",
              "opt is NULL");
  CHECK_FAILS(addbo_count(NULL, &a, &b), ADDBO_ERR_INVALID_ARGUMENT, "addbo_count", "opt is NULL");
  CHECK_FAILS(addbo_predict(NULL, x, TEST_DIM, &y, &y), ADDBO_ERR_INVALID_ARGUMENT, "addbo_predict",
              "opt is NULL");
  CHECK_FAILS(addbo_predicted_best(NULL, x, TEST_DIM, &y, &y), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predicted_best", "opt is NULL");
  CHECK_FAILS(addbo_predict_json(NULL, x, TEST_DIM, &text), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predict_json", "opt is NULL");
  CHECK(text == NULL);
  text = (char*)"sentinel";
  CHECK_FAILS(addbo_info(NULL, &text), ADDBO_ERR_INVALID_ARGUMENT, "addbo_info", "opt is NULL");
  CHECK(text == NULL);
  text = (char*)"sentinel";
  CHECK_FAILS(addbo_save(NULL, &text), ADDBO_ERR_INVALID_ARGUMENT, "addbo_save", "opt is NULL");
  CHECK(text == NULL);
}

static void check_create_and_load_arguments(void) {
  char config[TEST_CONFIG_SIZE];
  addbo_optimizer* out = (addbo_optimizer*)config; /* any non-NULL value */
  test_config(config, 1);
  CHECK_FAILS(addbo_create(NULL, config), ADDBO_ERR_INVALID_ARGUMENT, "addbo_create",
              "out is NULL");
  CHECK_FAILS(addbo_create(&out, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_create",
              "config_json is NULL");
  CHECK(out == NULL);
  CHECK_FAILS(addbo_load(NULL, reference_state), ADDBO_ERR_INVALID_ARGUMENT, "addbo_load",
              "out is NULL");
  out = (addbo_optimizer*)config;
  CHECK_FAILS(addbo_load(&out, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_load",
              "state_json is NULL");
  CHECK(out == NULL);
  out = (addbo_optimizer*)config;
  CHECK_FAILS(addbo_create(&out, "{\"dimension\": 3,}"), ADDBO_ERR_CONFIG, "addbo_create", "");
  CHECK(out == NULL);
}

static void check_output_pointers(addbo_optimizer* opt) {
  double x[TEST_DIM];
  double y = 0.0;
  size_t a = 0;
  CHECK_FAILS(addbo_dimension(opt, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_dimension",
              "out is NULL");
  CHECK_FAILS(addbo_count(opt, NULL, &a), ADDBO_ERR_INVALID_ARGUMENT, "addbo_count",
              "observations is NULL");
  CHECK_FAILS(addbo_count(opt, &a, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_count",
              "pending is NULL");
  CHECK_FAILS(addbo_info(opt, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_info", "json_out is NULL");
  CHECK_FAILS(addbo_save(opt, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_save", "json_out is NULL");
  CHECK_FAILS(addbo_best(opt, x, TEST_DIM, NULL), ADDBO_ERR_INVALID_ARGUMENT, "addbo_best",
              "y is NULL");
  valid_point(x);
  CHECK_FAILS(addbo_predict(opt, x, TEST_DIM, NULL, &y), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predict", "mean is NULL");
  CHECK_FAILS(addbo_predict(opt, x, TEST_DIM, &y, NULL), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predict", "stddev is NULL");
  CHECK_FAILS(addbo_predict_json(opt, x, TEST_DIM, NULL), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predict_json", "json_out is NULL");
  CHECK_FAILS(addbo_predicted_best(opt, x, TEST_DIM, NULL, &y), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predicted_best", "mean is NULL");
  CHECK_FAILS(addbo_predicted_best(opt, x, TEST_DIM, &y, NULL), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predicted_best", "stddev is NULL");
  check_state_unchanged(opt, "NULL output pointers");
}

/* ask, tell, cancel and best with NULL points and wrong dims. */
static void check_point_arguments(addbo_optimizer* opt) {
  double x[TEST_DIM + 1];
  double y = 0.0;
  valid_point(x);
  CHECK_FAILS(addbo_ask(opt, NULL, TEST_DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_ask", "x is NULL");
  CHECK_FAILS(addbo_ask(opt, x, TEST_DIM - 1), ADDBO_ERR_INVALID_ARGUMENT, "addbo_ask",
              "dim is 4 but the optimizer has 5 variables");
  CHECK_FAILS(addbo_ask(opt, x, TEST_DIM + 1), ADDBO_ERR_INVALID_ARGUMENT, "addbo_ask", "dim is 6");
  CHECK_FAILS(addbo_ask(opt, x, 0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_ask", "dim is 0");
  CHECK_FAILS(addbo_tell(opt, NULL, TEST_DIM, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "x is NULL");
  CHECK_FAILS(addbo_tell(opt, x, TEST_DIM + 1, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "dim is 6 but the optimizer has 5 variables");
  CHECK_FAILS(addbo_cancel(opt, NULL, TEST_DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_cancel",
              "x is NULL");
  CHECK_FAILS(addbo_cancel(opt, x, 3), ADDBO_ERR_INVALID_ARGUMENT, "addbo_cancel", "dim is 3");
  /* A valid point that was never asked is not pending. */
  CHECK_FAILS(addbo_cancel(opt, x, TEST_DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_cancel", "");
  CHECK_FAILS(addbo_best(opt, NULL, TEST_DIM, &y), ADDBO_ERR_INVALID_ARGUMENT, "addbo_best",
              "x is NULL");
  CHECK_FAILS(addbo_best(opt, x, 1, &y), ADDBO_ERR_INVALID_ARGUMENT, "addbo_best", "dim is 1");
  CHECK_FAILS(addbo_predict(opt, NULL, TEST_DIM, &y, &y), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predict", "x is NULL");
  CHECK_FAILS(addbo_predict(opt, x, TEST_DIM - 1, &y, &y), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predict", "dim is 4 but the optimizer has 5 variables");
  CHECK_FAILS(addbo_predict(opt, NULL, 0, &y, &y), ADDBO_ERR_INVALID_ARGUMENT, "addbo_predict",
              "dim is 0");
  {
    char* text = (char*)"sentinel";
    CHECK_FAILS(addbo_predict_json(opt, x, TEST_DIM + 1, &text), ADDBO_ERR_INVALID_ARGUMENT,
                "addbo_predict_json", "dim is 6");
    CHECK(text == NULL);
    text = (char*)"sentinel";
    CHECK_FAILS(addbo_predict_json(opt, NULL, TEST_DIM, &text), ADDBO_ERR_INVALID_ARGUMENT,
                "addbo_predict_json", "x is NULL");
    CHECK(text == NULL);
  }
  CHECK_FAILS(addbo_predicted_best(opt, NULL, TEST_DIM, &y, &y), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predicted_best", "x is NULL");
  CHECK_FAILS(addbo_predicted_best(opt, x, 2, &y, &y), ADDBO_ERR_INVALID_ARGUMENT,
              "addbo_predicted_best", "dim is 2");
  check_state_unchanged(opt, "NULL points and wrong dims");
}

static void check_point_values(addbo_optimizer* opt) {
  /* Each row: the index to spoil and the bad value it gets. */
  static const struct {
    int index;
    double value;
  } bad[] = {
      {0, 1.5},
      {0, -0.1},
      {1, TEST_X1_UPPER + 0.5},
      {1, TEST_X1_LOWER - 1e-6},
      {2, 2.5},
      {2, 0.0},
      {2, TEST_K_UPPER + 1.0},
      {3, TEST_CHOICES},
      {3, -1.0},
      {3, 0.5},
      {4, 1e300},
      {0, NAN},
      {1, INFINITY},
      {4, -INFINITY},
  };
  double x[TEST_DIM];
  size_t i;
  valid_point(x);
  CHECK_FAILS(addbo_tell(opt, x, TEST_DIM, NAN), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "y is NaN");
  CHECK_FAILS(addbo_tell(opt, x, TEST_DIM, INFINITY), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "y is +Inf");
  CHECK_FAILS(addbo_tell(opt, x, TEST_DIM, -INFINITY), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "y is -Inf");
  for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    char names_index[16];
    double mean = -7.0, stddev = -7.0;
    snprintf(names_index, sizeof names_index, "x[%d]", bad[i].index);
    valid_point(x);
    x[bad[i].index] = bad[i].value;
    if (!CHECK_FAILS(addbo_tell(opt, x, TEST_DIM, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
                     names_index) ||
        !CHECK_FAILS(addbo_cancel(opt, x, TEST_DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_cancel",
                     "") ||
        !CHECK_FAILS(addbo_predict(opt, x, TEST_DIM, &mean, &stddev), ADDBO_ERR_INVALID_ARGUMENT,
                     "addbo_predict", names_index) ||
        !CHECK(mean == -7.0 && stddev == -7.0)) { /* outputs untouched on failure */
      fprintf(stderr, "  (x[%d] = %g)\n", bad[i].index, bad[i].value);
    }
  }
  check_state_unchanged(opt, "tells and cancels of bad values");
}

/* Successful calls leave the last-error message as it was. */
static void check_message_survives_success(addbo_optimizer* opt) {
  char before[256];
  size_t dim = 0;
  CHECK_FAILS(addbo_tell(opt, NULL, TEST_DIM, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "x is NULL");
  snprintf(before, sizeof before, "%s", addbo_last_error());
  CHECK_OK(addbo_dimension(opt, &dim));
  CHECK(dim == TEST_DIM);
  CHECK(strcmp(addbo_last_error(), before) == 0);
}

static void check_info(const addbo_optimizer* opt) {
  static const char* const keys[] = {
      "\"edges\"",        "\"cliques\"",        "\"junction_tree\"",
      "\"lengthscales\"", "\"noise_variance\"", "\"observations\"",
      "\"pending\"",      "\"log_likelihood\"", "\"likelihood_evaluations\"",
      "\"seconds\"",      "\"best\"",           "\"last_ask\"",
      "\"last_tell\"",    "\"variables\"",      "\"edge_names\"",
      "\"clique_names\""};
  char* info = NULL;
  size_t i;
  if (!CHECK_OK(addbo_info(opt, &info))) return;
  for (i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
    if (!CHECK(strstr(info, keys[i]) != NULL)) fprintf(stderr, "  info lacks %s\n", keys[i]);
  }
  addbo_free_string(info);
}

int main(void) {
  addbo_optimizer* opt;
  double x[TEST_DIM];
  double pending[TEST_DIM];
  double y = 0.0;
  size_t observations = 0;
  size_t waiting = 0;
  int i;

  CHECK(strcmp(addbo_last_error(), "") == 0); /* nothing failed yet on this thread */
  check_status_functions();
  check_null_handle();

  opt = test_create(1);
  if (opt == NULL) return test_finish("test_arguments");
  CHECK_FAILS(addbo_best(opt, x, TEST_DIM, &y), ADDBO_ERR_STATE, "addbo_best", "");
  /* No model before the first tell. */
  valid_point(x);
  CHECK_FAILS(addbo_predict(opt, x, TEST_DIM, &y, &y), ADDBO_ERR_STATE, "addbo_predict",
              "no observation");
  CHECK_FAILS(addbo_predicted_best(opt, x, TEST_DIM, &y, &y), ADDBO_ERR_STATE,
              "addbo_predicted_best", "no observation");
  for (i = 0; i < TEST_INITIAL_POINTS + 2; ++i) CHECK_OK(test_step(opt));
  CHECK_OK(addbo_ask(opt, pending, TEST_DIM));
  reference_state = test_save(opt);
  if (reference_state == NULL) return test_finish("test_arguments");

  check_create_and_load_arguments();
  check_output_pointers(opt);
  check_point_arguments(opt);
  check_point_values(opt);
  check_message_survives_success(opt);
  check_state_unchanged(opt, "all failing calls");
  check_info(opt);

  /* The state survived all of that: the pending point can still be cancelled, once. */
  CHECK_OK(addbo_cancel(opt, pending, TEST_DIM));
  CHECK_FAILS(addbo_cancel(opt, pending, TEST_DIM), ADDBO_ERR_INVALID_ARGUMENT, "addbo_cancel", "");
  CHECK_OK(addbo_count(opt, &observations, &waiting));
  CHECK(observations == TEST_INITIAL_POINTS + 2);
  CHECK(waiting == 0);
  CHECK_OK(addbo_best(opt, x, TEST_DIM, &y));
  CHECK(y == test_objective(x));

  addbo_free_string(reference_state);
  addbo_destroy(opt);
  return test_finish("test_arguments");
}
