/* Test 2: every malformed configuration of tests/data/bad_configs.txt is rejected by
 * addbo_create with ADDBO_ERR_CONFIG, a NULL handle and a message holding the expected JSON
 * pointer. File format: one case per line, "<JSON pointer><TAB><config JSON>"; the pointer may
 * be empty; lines starting with '#' and empty lines are comments.
 * Usage: test_bad_configs path/to/bad_configs.txt */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* The file is meant to cover the configuration rules broadly; fewer cases means it was cut. */
#define MIN_CASES 60

static void check_case(int line_number, const char* pointer, const char* config) {
  addbo_optimizer* out = (addbo_optimizer*)&out; /* any non-NULL value */
  if (!CHECK_FAILS(addbo_create(&out, config), ADDBO_ERR_CONFIG, "addbo_create", pointer)) {
    fprintf(stderr, "  bad_configs.txt line %d: pointer \"%s\", config %s\n", line_number, pointer,
            config);
  }
  CHECK(out == NULL);
  addbo_destroy(out);
}

int main(int argc, char** argv) {
  char* text;
  char* line;
  char* next;
  int line_number = 0;
  int cases = 0;
  if (!CHECK(argc == 2)) return test_finish("test_bad_configs");
  text = test_read_file(argv[1]);
  if (!CHECK(text != NULL)) {
    fprintf(stderr, "  cannot read %s\n", argv[1]);
    return test_finish("test_bad_configs");
  }
  for (line = text; line != NULL; line = next) {
    char* tab;
    size_t length;
    next = strchr(line, '\n');
    if (next != NULL) *next++ = '\0';
    ++line_number;
    length = strlen(line);
    if (length > 0 && line[length - 1] == '\r') line[--length] = '\0';
    if (length == 0 || line[0] == '#') continue;
    tab = strchr(line, '\t');
    if (!CHECK(tab != NULL)) {
      fprintf(stderr, "  bad_configs.txt line %d has no TAB\n", line_number);
      continue;
    }
    *tab = '\0';
    check_case(line_number, line, tab + 1);
    ++cases;
  }
  if (!CHECK(cases >= MIN_CASES)) fprintf(stderr, "  only %d cases read\n", cases);
  free(text);
  return test_finish("test_bad_configs");
}
