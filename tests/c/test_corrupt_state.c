/* Test 4: addbo_load on damaged text never crashes. Every truncation of a saved state is
 * rejected with ADDBO_ERR_STATE; a state with one byte flipped is either rejected with
 * ADDBO_ERR_STATE or loads into a working optimizer; hostile documents (deep nesting, wrong
 * types, trailing bytes, a key twice in one object) are ADDBO_ERR_STATE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define FLIPS 200
#define DEEP 100000

/* Loads text that must be rejected. */
static int check_rejected(const char* text) {
  addbo_optimizer* out = (addbo_optimizer*)&out; /* any non-NULL value */
  const int ok = CHECK_FAILS(addbo_load(&out, text), ADDBO_ERR_STATE, "addbo_load", "");
  CHECK(out == NULL);
  addbo_destroy(out);
  return ok;
}

static void check_truncations(const char* state) {
  const size_t length = strlen(state);
  char* prefix = (char*)malloc(length + 1);
  size_t cut;
  if (!CHECK(prefix != NULL)) return;
  /* A compact JSON object is only complete at its final '}': every prefix is invalid. */
  for (cut = 0; cut < length; ++cut) {
    memcpy(prefix, state, cut);
    prefix[cut] = '\0';
    if (!check_rejected(prefix)) fprintf(stderr, "  truncated at byte %u\n", (unsigned)cut);
  }
  free(prefix);
}

/* A loaded (possibly altered) state must be fully usable: it saves, its save loads back to the
 * same bytes, and it can ask. */
static void check_usable(addbo_optimizer* opt, size_t offset) {
  double x[TEST_DIM];
  addbo_optimizer* again = NULL;
  char* state = test_save(opt);
  char* state_again = NULL;
  if (state != NULL && CHECK_OK(addbo_load(&again, state))) state_again = test_save(again);
  if (!CHECK(state_again != NULL && strcmp(state, state_again) == 0)) {
    fprintf(stderr, "  after the flip at byte %u\n", (unsigned)offset);
  }
  if (!CHECK_OK(addbo_ask(opt, x, TEST_DIM))) {
    fprintf(stderr, "  after the flip at byte %u\n", (unsigned)offset);
  }
  addbo_free_string(state_again);
  addbo_free_string(state);
  addbo_destroy(again);
}

static void check_flips(const char* state) {
  const size_t length = strlen(state);
  char* damaged = (char*)malloc(length + 1);
  unsigned long random = 12345;
  int flip;
  int accepted = 0;
  if (!CHECK(damaged != NULL)) return;
  for (flip = 0; flip < FLIPS; ++flip) {
    addbo_optimizer* opt = NULL;
    size_t offset;
    int status;
    random = (random * 1103515245UL + 12345UL) % 2147483648UL; /* a fixed LCG: reproducible */
    offset = (size_t)(random % length);
    memcpy(damaged, state, length + 1);
    damaged[offset] ^= (char)(1 << (flip % 8));
    /* A byte turned NUL would only truncate the text, which is covered above. */
    if (damaged[offset] == '\0') damaged[offset] = '0';
    status = addbo_load(&opt, damaged);
    if (status == ADDBO_OK) {
      ++accepted;
      check_usable(opt, offset);
      addbo_destroy(opt);
    } else if (!CHECK_STATUS(status, ADDBO_ERR_STATE)) {
      fprintf(stderr, "  flip at byte %u ('%c' -> '%c')\n", (unsigned)offset, state[offset],
              damaged[offset]);
    } else {
      CHECK(opt == NULL && addbo_last_error()[0] != '\0');
    }
  }
  fprintf(stderr, "%d of %d single-byte flips loaded\n", accepted, FLIPS);
  free(damaged);
}

/* '[' repeated `depth` times, then as many ']'. */
static char* nested(size_t depth) {
  char* text = (char*)malloc(2 * depth + 1);
  if (text != NULL) {
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    text[2 * depth] = '\0';
  }
  return text;
}

static void check_hostile_documents(const char* state) {
  static const char* const documents[] = {"",   " ",         "null",           "{}",       "[]",
                                          "42", "\"state\"", "{\"format\": 1", "\xff\xfe", "1e999"};
  const size_t length = strlen(state);
  char* trailing = (char*)malloc(length + 3);
  char* deep = nested(65);
  char* deeper = nested(DEEP);
  char* duplicated = (char*)malloc(length + 13);
  size_t i;
  for (i = 0; i < sizeof documents / sizeof documents[0]; ++i) check_rejected(documents[i]);
  /* A key twice in one object is refused at its pointer, as in a configuration (before, the
   * last one silently won): the state with "version":1, inserted at the start. */
  if (duplicated != NULL) {
    memcpy(duplicated, "{\"version\":1,", 13);
    memcpy(duplicated + 13, state + 1, length); /* the rest and the NUL */
    if (check_rejected(duplicated)) {
      CHECK(strstr(addbo_last_error(), "saved state /version: duplicate key \"version\"") != NULL);
    }
  }
  if (trailing != NULL) {
    memcpy(trailing, state, length);
    memcpy(trailing + length, "{}", 3);
    check_rejected(trailing);
  }
  /* 65 levels is past the documented limit of 64: refused before parsing. */
  if (deep != NULL && check_rejected(deep)) CHECK(strstr(addbo_last_error(), "65") != NULL);
  if (deeper != NULL) check_rejected(deeper);
  free(duplicated);
  free(trailing);
  free(deep);
  free(deeper);
}

int main(void) {
  addbo_optimizer* opt = test_create(21);
  char* state;
  double pending[TEST_DIM];
  int i;
  if (opt == NULL) return test_finish("test_corrupt_state");
  /* A state with observations, the model in use, and a pending point: a few KB. */
  for (i = 0; i < TEST_INITIAL_POINTS + 3; ++i) CHECK_OK(test_step(opt));
  CHECK_OK(addbo_ask(opt, pending, TEST_DIM));
  state = test_save(opt);
  if (state != NULL) {
    fprintf(stderr, "saved state: %u bytes\n", (unsigned)strlen(state));
    check_truncations(state);
    check_flips(state);
    check_hostile_documents(state);
  }
  addbo_free_string(state);
  addbo_destroy(opt);
  return test_finish("test_corrupt_state");
}
