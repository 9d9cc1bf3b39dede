/* The error messages users read (docs/c-api.md, "Errors"): numbers in shortest round-trip form,
 * the choices of a categorical variable, a configuration given to addbo_load and a saved state
 * given to addbo_create named as such, and no tag of the JSON library. Also log-scale variables
 * through the C API: asks, tells, save and load give the same bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static const char* const kConfig =
    "{\"variables\": ["
    "{\"name\": \"tiny\", \"lower\": 1e-9, \"upper\": 1e-8},"
    "{\"name\": \"material\", \"type\": \"categorical\", \"choices\": [\"steel\", \"oak\", "
    "\"pine\"]},"
    "{\"name\": \"third\", \"lower\": 0.1, \"upper\": 0.30000000000000004}],"
    " \"initial_points\": 3}";

static void check_point_messages(void) {
  addbo_optimizer* opt = NULL;
  double x[3];
  if (!CHECK_OK(addbo_create(&opt, kConfig))) return;
  x[0] = 1e-10;
  x[1] = 0;
  x[2] = 0.2;
  CHECK_FAILS(addbo_tell(opt, x, 3, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "x[0] (variable 'tiny') = 1e-10 is outside [1e-09, 1e-08]");
  x[0] = 5e-9;
  x[2] = nextafter(0.30000000000000004, 1.0);
  CHECK_FAILS(addbo_cancel(opt, x, 3), ADDBO_ERR_INVALID_ARGUMENT, "addbo_cancel",
              "= 0.3000000000000001 is outside [0.1, 0.30000000000000004]");
  x[2] = 0.2;
  x[1] = 3;
  CHECK_FAILS(addbo_tell(opt, x, 3, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "x[1] (variable 'material') = 3 is not the index of a choice; the choices are "
              "0 \"steel\", 1 \"oak\", 2 \"pine\"");
  x[1] = 0.5;
  CHECK_FAILS(addbo_tell(opt, x, 3, 1.0), ADDBO_ERR_INVALID_ARGUMENT, "addbo_tell",
              "= 0.5 is not the index of a choice");
  x[1] = 2;
  CHECK_OK(addbo_tell(opt, x, 3, 1.0));
  addbo_destroy(opt);

  /* Configuration errors print numbers the same way. */
  opt = NULL;
  CHECK_FAILS(addbo_create(&opt, "{\"variables\": [{\"lower\": 1e-8, \"upper\": 1e-9}]}"),
              ADDBO_ERR_CONFIG, "addbo_create",
              "/variables/0/upper: must be greater than lower (1e-08)");
  CHECK(opt == NULL);
}

static void check_wrong_documents(void) {
  addbo_optimizer* opt = NULL;
  addbo_optimizer* loaded = (addbo_optimizer*)&loaded;
  char* state;
  /* A configuration given to addbo_load. */
  CHECK_FAILS(addbo_load(&loaded, kConfig), ADDBO_ERR_STATE, "addbo_load",
              "this looks like a configuration");
  CHECK_FAILS(addbo_load(&loaded, "{\"dimension\": 3}"), ADDBO_ERR_STATE, "addbo_load",
              "use addbo_create");
  CHECK(loaded == NULL);
  /* A saved state given to addbo_create. */
  if (!CHECK_OK(addbo_create(&opt, kConfig))) return;
  state = test_save(opt);
  addbo_destroy(opt);
  opt = (addbo_optimizer*)&opt;
  if (state != NULL) {
    CHECK_FAILS(addbo_create(&opt, state), ADDBO_ERR_CONFIG, "addbo_create",
                "/format: this looks like a saved state");
    CHECK_FAILS(addbo_create(&opt, state), ADDBO_ERR_CONFIG, "addbo_create", "use addbo_load");
    CHECK(opt == NULL);
    addbo_free_string(state);
  }
  /* Malformed text: where, without the JSON library's tag (test_failure checks every failing
   * call's message for it), in the same words for both texts (one parser, src/json/). */
  CHECK_FAILS(addbo_load(&loaded, "{\"format\": "), ADDBO_ERR_STATE, "addbo_load",
              "saved state /: malformed JSON at byte 12 (line 1, column 12): syntax error");
  CHECK_FAILS(addbo_create(&opt, "{\"dimension\": 2,}"), ADDBO_ERR_CONFIG, "addbo_create",
              "/: malformed JSON at byte 17 (line 1, column 17): syntax error");
  CHECK_FAILS(addbo_load(&loaded, "{\"format\": 1e400}"), ADDBO_ERR_STATE, "addbo_load",
              "saved state /format: the number 1e400 is too large in magnitude for a double");
  CHECK_FAILS(addbo_create(&opt, "{\"seed\": 1e400}"), ADDBO_ERR_CONFIG, "addbo_create",
              "/seed: the number 1e400 is too large in magnitude for a double");
  CHECK_FAILS(addbo_load(&loaded, "{\"format\": 1, \"format\": 2}"), ADDBO_ERR_STATE, "addbo_load",
              "saved state /format: duplicate key \"format\"");
  CHECK_FAILS(addbo_create(&opt, "{\"seed\": 1, \"seed\": 2}"), ADDBO_ERR_CONFIG, "addbo_create",
              "/seed: duplicate key \"seed\"");
  CHECK(loaded == NULL && opt == NULL);
}

/* An objective over the log-scale configuration below, in decades. */
static double log_objective(const double* x) {
  const double a = log10(x[0]) + 3, b = log10(x[1]) - 2;
  return -a * a - b * b;
}

static void check_log_round_trip(void) {
  static const char* const config =
      "{\"variables\": ["
      "{\"name\": \"lr\", \"lower\": 1e-6, \"upper\": 1, \"scale\": \"log\"},"
      "{\"name\": \"trees\", \"type\": \"integer\", \"lower\": 1, \"upper\": 100000,"
      " \"scale\": \"log\", \"grid\": 16}],"
      " \"initial_points\": 6, \"seed\": 3}";
  addbo_optimizer* opt = NULL;
  addbo_optimizer* restored = NULL;
  char* saved;
  char* saved_again;
  double x[2], y[2];
  int i;
  if (!CHECK_OK(addbo_create(&opt, config))) return;
  for (i = 0; i < 20; ++i) {
    if (!CHECK_OK(addbo_ask(opt, x, 2))) break;
    CHECK(x[0] >= 1e-6 && x[0] <= 1);
    CHECK(x[1] >= 1 && x[1] <= 100000 && x[1] == floor(x[1]));
    CHECK_OK(addbo_tell(opt, x, 2, log_objective(x)));
  }
  CHECK_OK(addbo_ask(opt, x, 2)); /* pending */
  saved = test_save(opt);
  if (saved != NULL && CHECK(strstr(saved, "\"scale\":\"log\"") != NULL) &&
      CHECK_OK(addbo_load(&restored, saved))) {
    saved_again = test_save(restored);
    CHECK(saved_again != NULL && strcmp(saved, saved_again) == 0);
    addbo_free_string(saved_again);
    for (i = 0; i < 5; ++i) {
      CHECK_OK(addbo_ask(opt, x, 2));
      CHECK_OK(addbo_ask(restored, y, 2));
      CHECK(memcmp(x, y, sizeof x) == 0);
      CHECK_OK(addbo_tell(opt, x, 2, log_objective(x)));
      CHECK_OK(addbo_tell(restored, y, 2, log_objective(y)));
    }
  }
  addbo_free_string(saved);
  addbo_destroy(restored);
  addbo_destroy(opt);
}

int main(void) {
  check_point_messages();
  check_wrong_documents();
  check_log_round_trip();
  return test_finish("test_messages");
}
