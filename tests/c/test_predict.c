/* addbo_predict, addbo_predict_json and addbo_predicted_best through the C API: predictions
 * change nothing (the saved state stays byte-identical and the next asks are those of a twin
 * optimizer that never predicts), the predicted best is reported as addbo_predict reports it,
 * and info holds the best point and the last ask and tell. (The values themselves are checked
 * against the dense reference posterior in tests/test_predict.cpp.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* Every prediction the API offers, at a few points; returns 0 if one failed unexpectedly. */
static int predict_everything(const addbo_optimizer* opt, size_t observations) {
  static const double points[2][TEST_DIM] = {{0.5, 1.0, 2.0, 1.0, 0.25},
                                             {0.0, -2.0, 4.0, 2.0, 1.0}};
  double x[TEST_DIM], mean = 0.0, stddev = 0.0, again_mean = 0.0, again_stddev = 0.0;
  char* json = NULL;
  size_t k;
  if (observations == 0) {
    return CHECK_FAILS(addbo_predict(opt, points[0], TEST_DIM, &mean, &stddev), ADDBO_ERR_STATE,
                       "addbo_predict", "no observation") &&
           CHECK_FAILS(addbo_predict_json(opt, points[0], TEST_DIM, &json), ADDBO_ERR_STATE,
                       "addbo_predict_json", "no observation") &&
           CHECK(json == NULL) &&
           CHECK_FAILS(addbo_predicted_best(opt, x, TEST_DIM, &mean, &stddev), ADDBO_ERR_STATE,
                       "addbo_predicted_best", "no observation");
  }
  for (k = 0; k < 2; ++k) {
    if (!CHECK_OK(addbo_predict(opt, points[k], TEST_DIM, &mean, &stddev))) return 0;
    CHECK(isfinite(mean) && isfinite(stddev) && stddev >= 0.0);
    if (!CHECK_OK(addbo_predict_json(opt, points[k], TEST_DIM, &json))) return 0;
    CHECK(strstr(json, "\"cliques\":[{") != NULL);
    CHECK(strstr(json, "\"names\":[\"x0\",\"x1\",\"k\"]") != NULL ||
          strstr(json, "\"names\":[\"x0\",\"x1\"]") != NULL);
    CHECK(strstr(json, "\"noise_stddev\":") != NULL);
    addbo_free_string(json);
  }
  if (!CHECK_OK(addbo_predicted_best(opt, x, TEST_DIM, &mean, &stddev))) return 0;
  CHECK_OK(addbo_predict(opt, x, TEST_DIM, &again_mean, &again_stddev));
  CHECK(mean == again_mean && stddev == again_stddev);
  return 1;
}

int main(void) {
  addbo_optimizer* quiet = test_create(5);
  addbo_optimizer* predicting = test_create(5);
  double a[TEST_DIM], b[TEST_DIM], pending_a[TEST_DIM], pending_b[TEST_DIM];
  size_t observations = 0;
  int i;
  if (quiet == NULL || predicting == NULL) return test_finish("test_predict");

  for (i = 0; i < 3 * TEST_INITIAL_POINTS; ++i) {
    char* before = test_save(predicting);
    char* after;
    char* info = NULL;
    predict_everything(predicting, observations);
    after = test_save(predicting);
    if (before != NULL && after != NULL && !CHECK(strcmp(before, after) == 0)) {
      fprintf(stderr, "  predictions changed the saved state after %d steps\n", i);
    }
    addbo_free_string(before);
    addbo_free_string(after);

    CHECK_OK(addbo_ask(quiet, a, TEST_DIM));
    CHECK_OK(addbo_ask(predicting, b, TEST_DIM));
    if (!CHECK(memcmp(a, b, sizeof a) == 0)) fprintf(stderr, "  the asks differ at step %d\n", i);
    if (i % 4 == 3) { /* predictions with a point pending */
      CHECK_OK(addbo_ask(quiet, pending_a, TEST_DIM));
      predict_everything(predicting, observations);
      CHECK_OK(addbo_ask(predicting, pending_b, TEST_DIM));
      CHECK(memcmp(pending_a, pending_b, sizeof a) == 0);
      CHECK_OK(addbo_cancel(quiet, pending_a, TEST_DIM));
      CHECK_OK(addbo_cancel(predicting, pending_b, TEST_DIM));
    }
    CHECK_OK(addbo_tell(quiet, a, TEST_DIM, test_objective(a)));
    CHECK_OK(addbo_tell(predicting, b, TEST_DIM, test_objective(b)));
    ++observations;

    if (CHECK_OK(addbo_info(predicting, &info))) {
      char expected[64];
      CHECK(strstr(info, "\"last_ask\":{") != NULL);
      CHECK(strstr(info, "\"last_tell\":{\"time\":\"") != NULL);
      CHECK(strstr(info, "\"variables\":[\"x0\",\"x1\",\"k\",\"c\",\"x4\"]") != NULL);
      CHECK(strstr(info, "\"edge_names\":[[\"x0\",\"x1\"],[\"x1\",\"k\"],[\"c\",\"x4\"]]") != NULL);
      CHECK(strstr(info, i < TEST_INITIAL_POINTS ? "\"phase\":\"initial design\"" : "\"beta\":") !=
            NULL);
      /* The best point is there (its values are compared with addbo_best's in
       * tests/test_predict.cpp, which reads the JSON). */
      CHECK(strstr(info, "\"best\":{\"x\":[") != NULL);
      snprintf(expected, sizeof expected, "\"observations\":%d,", i + 1);
      CHECK(strstr(info, expected) != NULL);
      addbo_free_string(info);
    }
  }
  {
    char* one = test_save(quiet);
    char* two = test_save(predicting);
    CHECK(one != NULL && two != NULL && strcmp(one, two) == 0);
    addbo_free_string(one);
    addbo_free_string(two);
  }
  addbo_destroy(quiet);
  addbo_destroy(predicting);
  return test_finish("test_predict");
}
