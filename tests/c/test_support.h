/* Shared utilities of the C API tests: failure counting, status checks, a small configuration
 * and the objective every test optimises. */
#ifndef ADDBO_TEST_SUPPORT_H
#define ADDBO_TEST_SUPPORT_H

#include <stddef.h>

#include "addbo/addbo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The test configuration: 5 variables of every type with overlapping groups {0,1} and {1,2}
 * plus {3,4}, small grids, fixed graph and lengthscales (structure learning is not needed to
 * exercise the API, and keeps the tests fast). */
#define TEST_DIM 5
#define TEST_INITIAL_POINTS 5
#define TEST_CONFIG_SIZE 1024
/* Domain of the test configuration, for tests that build points by hand. */
#define TEST_X1_LOWER (-2.0)
#define TEST_X1_UPPER 3.0
#define TEST_K_UPPER 4.0 /* integer variable 2 takes 1..4 */
#define TEST_CHOICES 3   /* categorical variable 3 takes 0..2 */

/* Writes the test configuration with the given seed into buffer[TEST_CONFIG_SIZE]. */
void test_config(char* buffer, unsigned seed);

/* A deterministic objective over a point of the test configuration. */
double test_objective(const double* x);

/* Records a failure unless `ok`; prints what failed. Thread-safe. Returns `ok`. */
int test_check(int ok, const char* what, const char* file, int line);
/* Records a failure unless status == expected; prints both names and addbo_last_error(). */
int test_status(int status, int expected, const char* what, const char* file, int line);
/* For a call expected to fail: the status, and a last-error message that starts with
 * `function`, contains `fragment` ("" when any non-empty message will do) and no tag of the
 * JSON library ("[json.exception..."). */
int test_failure(int status, int expected, const char* function, const char* fragment,
                 const char* what, const char* file, int line);
/* Prints a summary; the process exit code (0 when nothing failed). */
int test_finish(const char* test_name);

/* C++ tests use doctest's macros of the same names instead. */
#ifndef __cplusplus
#define CHECK(cond) test_check((cond) != 0, #cond, __FILE__, __LINE__)
#define CHECK_OK(call) test_status((call), ADDBO_OK, #call, __FILE__, __LINE__)
#define CHECK_STATUS(call, expected) test_status((call), (expected), #call, __FILE__, __LINE__)
#define CHECK_FAILS(call, expected, function, fragment) \
  test_failure((call), (expected), (function), (fragment), #call, __FILE__, __LINE__)
#endif

/* Creates an optimizer from the test configuration; NULL (and a recorded failure) if it fails. */
addbo_optimizer* test_create(unsigned seed);
/* addbo_save() into a string to release with addbo_free_string(); NULL on failure (recorded). */
char* test_save(const addbo_optimizer* opt);
/* One ask followed by the tell of test_objective(); returns the first failing status. */
int test_step(addbo_optimizer* opt);
/* Reads a whole file into a malloc'd NUL-terminated string (free()); NULL if unreadable. */
char* test_read_file(const char* path);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ADDBO_TEST_SUPPORT_H */
