/*
 * addbo_dl.h: use libaddbo without linking it, by loading it at run time with dlopen() (POSIX).
 *
 * A plug-in host, or a program that should start even where addbo is not installed, loads the
 * library when it needs it. This header gives one function-pointer type per function of
 * addbo.h (addbo_<name>_fn), a struct addbo_dl with one pointer per function, and
 * addbo_dl_load(), which opens the library, checks its major version and fills the struct,
 * naming the first missing symbol when it cannot. Header only: link with -ldl (part of libc
 * since glibc 2.34, where -ldl is harmless), not with -laddbo.
 *
 *     struct addbo_dl api;
 *     char error[256];
 *     addbo_optimizer* opt = NULL;
 *     if (addbo_dl_load(&api, NULL, error, sizeof error) != ADDBO_OK) {
 *       fprintf(stderr, "%s\n", error);   // e.g. "addbo_dl_load: cannot open libaddbo.so.0: ..."
 *       return 1;
 *     }
 *     if (api.create(&opt, "{\"dimension\": 2}") != ADDBO_OK) puts(api.last_error());
 *     ...
 *     api.destroy(opt);
 *     addbo_dl_unload(&api);
 *
 * The types repeat the prototypes of addbo.h by hand, because C99 has no typeof. They cannot
 * drift apart unnoticed: tests/dl assigns every function of addbo.h to its type in C compiled
 * with -Werror and compares the types exactly in C++, and checks that ADDBO_DL_FUNCTIONS names
 * every function that addbo.h declares. Reference: docs/installing.md (loading at run time).
 */
#ifndef ADDBO_DL_H
#define ADDBO_DL_H

#include <dlfcn.h>
#include <stddef.h> /* offsetof, size_t */
#include <stdio.h>  /* snprintf */
#include <string.h> /* memcpy */

#include "addbo.h" /* the types and status values; no symbol of the library is referenced */

#ifdef __cplusplus
extern "C" {
#endif

/* One type per function of addbo.h, in the header's order. */
typedef const char* (*addbo_version_fn)(void);
typedef const char* (*addbo_status_name_fn)(int status);
typedef const char* (*addbo_last_error_fn)(void);
typedef int (*addbo_create_fn)(addbo_optimizer** out, const char* config_json);
typedef void (*addbo_destroy_fn)(addbo_optimizer* opt);
typedef int (*addbo_dimension_fn)(const addbo_optimizer* opt, size_t* out);
typedef int (*addbo_ask_fn)(addbo_optimizer* opt, double* x, size_t dim);
typedef int (*addbo_tell_fn)(addbo_optimizer* opt, const double* x, size_t dim, double y);
typedef int (*addbo_tell_constrained_fn)(addbo_optimizer* opt, const double* x, size_t dim,
                                         double y, const double* constraints, size_t count);
typedef int (*addbo_tell_failure_fn)(addbo_optimizer* opt, const double* x, size_t dim);
typedef int (*addbo_cancel_fn)(addbo_optimizer* opt, const double* x, size_t dim);
typedef int (*addbo_best_fn)(const addbo_optimizer* opt, double* x, size_t dim, double* y);
typedef int (*addbo_predict_fn)(const addbo_optimizer* opt, const double* x, size_t dim,
                                double* mean, double* stddev);
typedef int (*addbo_predict_json_fn)(const addbo_optimizer* opt, const double* x, size_t dim,
                                     char** json_out);
typedef int (*addbo_predicted_best_fn)(const addbo_optimizer* opt, double* x, size_t dim,
                                       double* mean, double* stddev);
typedef int (*addbo_count_fn)(const addbo_optimizer* opt, size_t* observations, size_t* pending);
typedef int (*addbo_failure_count_fn)(const addbo_optimizer* opt, size_t* failures);
typedef int (*addbo_learn_fn)(addbo_optimizer* opt, int* learned);
typedef int (*addbo_interrupt_fn)(addbo_optimizer* opt);
typedef int (*addbo_info_fn)(const addbo_optimizer* opt, char** json_out);
typedef int (*addbo_save_fn)(const addbo_optimizer* opt, char** json_out);
typedef int (*addbo_load_fn)(addbo_optimizer** out, const char* state_json);
typedef void (*addbo_free_string_fn)(char* s);

/* X(name) for every function addbo_<name> of addbo.h: the loader's table, and a list for
 * programs that want to walk the functions (tests/dl does). */
#define ADDBO_DL_FUNCTIONS(X) \
  X(version)                  \
  X(status_name)              \
  X(last_error)               \
  X(create)                   \
  X(destroy)                  \
  X(dimension)                \
  X(ask)                      \
  X(tell)                     \
  X(tell_constrained)         \
  X(tell_failure)             \
  X(cancel)                   \
  X(best)                     \
  X(predict)                  \
  X(predict_json)             \
  X(predicted_best)           \
  X(count)                    \
  X(failure_count)            \
  X(learn)                    \
  X(interrupt)                \
  X(info)                     \
  X(save)                     \
  X(load)                     \
  X(free_string)

/* The loaded library: api.ask(opt, x, dim) calls addbo_ask. Every pointer is NULL when the
 * library is not loaded. Spelled out (not generated from ADDBO_DL_FUNCTIONS) so that readers
 * and editors see the fields. */
struct addbo_dl {
  void* library; /* the dlopen() handle */
  addbo_version_fn version;
  addbo_status_name_fn status_name;
  addbo_last_error_fn last_error;
  addbo_create_fn create;
  addbo_destroy_fn destroy;
  addbo_dimension_fn dimension;
  addbo_ask_fn ask;
  addbo_tell_fn tell;
  addbo_tell_constrained_fn tell_constrained;
  addbo_tell_failure_fn tell_failure;
  addbo_cancel_fn cancel;
  addbo_best_fn best;
  addbo_predict_fn predict;
  addbo_predict_json_fn predict_json;
  addbo_predicted_best_fn predicted_best;
  addbo_count_fn count;
  addbo_failure_count_fn failure_count;
  addbo_learn_fn learn;
  addbo_interrupt_fn interrupt;
  addbo_info_fn info;
  addbo_save_fn save;
  addbo_load_fn load;
  addbo_free_string_fn free_string;
};

/* What addbo_dl_load() opens when given no path: the soname, because a run-time installation
 * (a Debian libaddbo0 package, a copied lib/ directory) has no unversioned libaddbo.so link,
 * and because another major version, whose ABI differs, has another file name. */
#define ADDBO_DL_DEFAULT_PATH "libaddbo.so." ADDBO_VERSION_QUOTE(ADDBO_VERSION_MAJOR)

/* Internal: the struct's bytes, without an old-style cast in C++ (-Wold-style-cast). */
#ifdef __cplusplus
#define ADDBO_DL_BYTES_(pointer) reinterpret_cast<unsigned char*>(pointer)
#else
#define ADDBO_DL_BYTES_(pointer) ((unsigned char*)(pointer))
#endif

/* Static inline: each translation unit gets its own private copy, and nothing is exported. */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define ADDBO_DL_INLINE static inline
#elif defined(__GNUC__)
#define ADDBO_DL_INLINE static __inline__ __attribute__((unused))
#else
#define ADDBO_DL_INLINE static
#endif

/**
 * Closes the library loaded by addbo_dl_load() and sets every pointer of `api` to NULL. Every
 * handle created through it must be destroyed first, and strings it returned released.
 * @param api the table, or NULL (then nothing happens); unloading twice is harmless.
 */
ADDBO_DL_INLINE void addbo_dl_unload(struct addbo_dl* api) {
  if (api == NULL) return;
  if (api->library != NULL) dlclose(api->library);
  api->library = NULL;
#define ADDBO_DL_CLEAR_(name) api->name = NULL;
  ADDBO_DL_FUNCTIONS(ADDBO_DL_CLEAR_)
#undef ADDBO_DL_CLEAR_
}

/* Internal: the major version of a "MAJOR.MINOR.PATCH" string, or -1. */
ADDBO_DL_INLINE int addbo_dl_major_(const char* version) {
  int major = 0;
  const char* digit = version;
  if (version == NULL) return -1;
  for (; *digit >= '0' && *digit <= '9' && major < 100000; ++digit) {
    major = major * 10 + (*digit - '0');
  }
  return digit != version && *digit == '.' ? major : -1;
}

/**
 * Opens libaddbo with dlopen(path, RTLD_NOW | RTLD_LOCAL) and fills `api` with its functions.
 * @param api        receives the library handle and one pointer per function; on failure every
 *                   pointer is NULL (and the library is closed again).
 * @param path       the library: a file name searched as dlopen() does (LD_LIBRARY_PATH, the
 *                   program's RUNPATH, the system directories) or a path with a '/'; NULL for
 *                   ADDBO_DL_DEFAULT_PATH ("libaddbo.so.0").
 * @param error      receives a NUL-terminated message on failure, truncated to error_size, e.g.
 *                   "addbo_dl_load: addbo_learn is missing from ./libaddbo.so.0 (...)"; may
 *                   be NULL. addbo_last_error() cannot help: the library may not be loaded.
 * @param error_size the size of `error` in bytes.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if `api` is NULL; ADDBO_ERR_STATE if the
 *         library cannot be opened, has another major version than this header, or lacks a
 *         function of this header (it is older than the header).
 */
ADDBO_DL_INLINE int addbo_dl_load(struct addbo_dl* api, const char* path, char* error,
                                  size_t error_size) {
  /* Where each pointer goes in the struct, by symbol name; addbo_version comes first, so that
   * a library of another major version is named as such rather than by a missing function. */
  static const struct {
    const char* symbol;
    size_t offset;
  } functions[] = {
#define ADDBO_DL_ENTRY_(name) {"addbo_" #name, offsetof(struct addbo_dl, name)},
      ADDBO_DL_FUNCTIONS(ADDBO_DL_ENTRY_)
#undef ADDBO_DL_ENTRY_
  };
  const int report = error != NULL && error_size > 0;
  size_t i;
  if (report) error[0] = '\0';
  if (api == NULL) {
    if (report) snprintf(error, error_size, "addbo_dl_load: api is NULL");
    return ADDBO_ERR_INVALID_ARGUMENT;
  }
  api->library = NULL;
  addbo_dl_unload(api);
  if (path == NULL) path = ADDBO_DL_DEFAULT_PATH;

  /* RTLD_NOW: a library that cannot resolve its own dependencies fails here, not at a later
   * call. RTLD_LOCAL: its symbols do not leak into the host's namespace. */
  api->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (api->library == NULL) {
    const char* detail = dlerror();
    if (report) {
      snprintf(error, error_size, "addbo_dl_load: cannot open %s (%s)", path,
               detail ? detail : "no reason given");
    }
    return ADDBO_ERR_STATE;
  }
  for (i = 0; i < sizeof functions / sizeof functions[0]; ++i) {
    void* symbol;
    dlerror(); /* clear any earlier error, so that the one reported is dlsym's */
    symbol = dlsym(api->library, functions[i].symbol);
    if (symbol == NULL) {
      const char* detail = dlerror();
      if (report) {
        snprintf(error, error_size, "addbo_dl_load: %s is missing from %s (%s)",
                 functions[i].symbol, path, detail ? detail : "a NULL symbol");
      }
      addbo_dl_unload(api);
      return ADDBO_ERR_STATE;
    }
    /* ISO C has no conversion from dlsym's void* to a function pointer; POSIX guarantees that
     * their representations agree, so copy the bytes. */
    memcpy(ADDBO_DL_BYTES_(api) + functions[i].offset, &symbol, sizeof symbol);
    if (functions[i].offset == offsetof(struct addbo_dl, version) &&
        addbo_dl_major_(api->version()) != ADDBO_VERSION_MAJOR) {
      /* Another major version has another ABI: refuse it even when it looks complete. */
      if (report) {
        const char* version = api->version();
        snprintf(error, error_size,
                 "addbo_dl_load: %s is addbo %.40s, another major version than addbo_dl.h %s", path,
                 version ? version : "(no version)", ADDBO_VERSION_STRING);
      }
      addbo_dl_unload(api);
      return ADDBO_ERR_STATE;
    }
  }
  return ADDBO_OK;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ADDBO_DL_H */
