/*
 * addbo: Bayesian optimisation of expensive black-box functions that are additive over
 * overlapping groups of variables (G-Add-GP-UCB), driven by an ask/tell loop.
 *
 * This is the one public C header and the stable ABI of libaddbo. It compiles as C99 and C++.
 * Reference: docs/c-api.md (functions, status values, ownership, threads), docs/configuration.md
 * (the configuration keys), docs/saved-state.md (the saved-state format).
 *
 * Conventions (every function below follows them):
 *  - Functions that can fail return an int status: ADDBO_OK (0) or one of the ADDBO_ERR_*
 *    values below. The numeric values are pinned and never change.
 *  - On failure, the handle's state is unchanged, every output pointer named `out` or
 *    `json_out` is set to NULL (when the pointer itself is not NULL), other output buffers are
 *    left untouched, and addbo_last_error() describes the failure, naming the argument
 *    ("addbo_tell: x is NULL") or the JSON pointer of the configuration field
 *    ("addbo_create: /variables/3/upper: ...").
 *  - On success the last-error message is left as it was: read it only after a failure.
 *  - Points are arrays of `dim` doubles in the user's units: continuous values as they are,
 *    integer variables as whole doubles, categorical variables as the index of the choice.
 *    `dim` must equal the number of variables (see addbo_dimension()).
 *  - Buffers passed in are owned by the caller; the library never keeps a pointer to them.
 *    Strings returned by the library are allocated by it and must be released with
 *    addbo_free_string() (do not mix allocators).
 *  - Threads: one handle serialises its own calls with an internal mutex, so it may be shared
 *    between threads; separate handles are fully independent. The last-error message is per
 *    thread.
 *  - The library never prints, never exits, and never lets an exception cross this API.
 *
 * A typical loop:
 *
 *     addbo_optimizer* opt = NULL;
 *     if (addbo_create(&opt, config_json) != ADDBO_OK) { puts(addbo_last_error()); ... }
 *     for (i = 0; i < budget; ++i) {
 *       addbo_ask(opt, x, dim);
 *       addbo_tell(opt, x, dim, f(x));
 *     }
 *     addbo_best(opt, x, dim, &y);
 *     addbo_destroy(opt);
 */
#ifndef ADDBO_H
#define ADDBO_H

#include <stddef.h> /* size_t */

#ifdef __cplusplus
extern "C" {
#endif

/* ADDBO_API marks the exported functions. The library is built with -fvisibility=hidden and a
 * linker version script, so these functions are its only exported symbols. SWIG cannot parse
 * the attribute, hence the empty definition for it. */
#ifndef ADDBO_API
#if defined(SWIG)
#define ADDBO_API
#elif defined(ADDBO_BUILDING_LIBRARY) && defined(__GNUC__) && __GNUC__ >= 4
#define ADDBO_API __attribute__((visibility("default")))
#else
#define ADDBO_API
#endif
#endif

/*------------------------------------------------------------------------------------------------
 * Version
 *----------------------------------------------------------------------------------------------*/

#define ADDBO_VERSION_MAJOR 0
#define ADDBO_VERSION_MINOR 1
#define ADDBO_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if comparisons. */
#define ADDBO_VERSION_NUMBER \
  (ADDBO_VERSION_MAJOR * 10000 + ADDBO_VERSION_MINOR * 100 + ADDBO_VERSION_PATCH)
#define ADDBO_VERSION_QUOTE_(tokens) #tokens
#define ADDBO_VERSION_QUOTE(tokens) ADDBO_VERSION_QUOTE_(tokens)
/* "MAJOR.MINOR.PATCH" of this header, e.g. "0.1.0". */
#define ADDBO_VERSION_STRING \
  ADDBO_VERSION_QUOTE(ADDBO_VERSION_MAJOR.ADDBO_VERSION_MINOR.ADDBO_VERSION_PATCH)

/**
 * The version of the library actually loaded, as "MAJOR.MINOR.PATCH". Compare it with
 * ADDBO_VERSION_STRING to detect a header/library mismatch.
 * @return a static string owned by the library; never NULL; do not free it.
 */
ADDBO_API const char* addbo_version(void);

/*------------------------------------------------------------------------------------------------
 * Status values and errors
 *----------------------------------------------------------------------------------------------*/

/* Pinned numeric values: part of the ABI. */
enum addbo_status {
  /* Success. */
  ADDBO_OK = 0,
  /* A NULL pointer, a wrong dim, a NaN or infinite y, a point outside the domain. */
  ADDBO_ERR_INVALID_ARGUMENT = 1,
  /* The configuration JSON is malformed or invalid. */
  ADDBO_ERR_CONFIG = 2,
  /* A saved state is corrupted or truncated; or the call needs something the optimizer does
   * not have yet (addbo_best() before any tell); or the handle is busy (addbo_learn() while
   * another addbo_learn() runs on it). */
  ADDBO_ERR_STATE = 3,
  /* The model failed numerically (e.g. no Cholesky factor even with added jitter). */
  ADDBO_ERR_NUMERICAL = 4,
  /* An allocation failed. */
  ADDBO_ERR_OUT_OF_MEMORY = 5,
  /* A bug in addbo: please report it with the message. */
  ADDBO_ERR_INTERNAL = 6,
  /* The call's learning was stopped by addbo_interrupt(); nothing changed. */
  ADDBO_ERR_INTERRUPTED = 7
};

/**
 * The name of a status value, e.g. "ADDBO_OK", "ADDBO_ERR_CONFIG".
 * @return a static string owned by the library; "ADDBO_UNKNOWN_STATUS" for a value that is
 *         not one of the above; never NULL; do not free it.
 */
ADDBO_API const char* addbo_status_name(int status);

/**
 * A description of the last failure of an addbo function on the calling thread, beginning
 * with the function's name and naming the offending argument or JSON pointer.
 * Successful calls leave the message as it was, so read it right after a failing call.
 * @return "" if no call has failed on this thread yet; never NULL. The string is owned by the
 *         library and valid until the next failing addbo call on the same thread; do not free.
 */
ADDBO_API const char* addbo_last_error(void);

/*------------------------------------------------------------------------------------------------
 * The optimizer handle
 *----------------------------------------------------------------------------------------------*/

/* Opaque: created by addbo_create() or addbo_load(), released by addbo_destroy(). */
typedef struct addbo_optimizer addbo_optimizer;

/**
 * Creates an optimizer from a JSON configuration (variables, goal, seed, structure, kernel,
 * acquisition, limits; docs/configuration.md lists every key, its default and limits).
 * @param out         receives the new handle, owned by the caller (release with
 *                    addbo_destroy()); set to NULL on failure.
 * @param config_json NUL-terminated UTF-8 JSON text; read only during the call.
 * @return ADDBO_OK; ADDBO_ERR_CONFIG if the text is not valid JSON or a field is invalid (the
 *         message holds the field's JSON pointer); ADDBO_ERR_INVALID_ARGUMENT if a pointer is
 *         NULL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_create(addbo_optimizer** out, const char* config_json);

/**
 * Releases a handle and everything it owns. Strings returned earlier by addbo_info(),
 * addbo_save() or addbo_predict_json() stay valid (they belong to the caller). No other call may be
 * using the handle.
 * @param opt the handle, or NULL (then nothing happens).
 */
ADDBO_API void addbo_destroy(addbo_optimizer* opt);

/**
 * The number of variables, which is the `dim` every point argument must have.
 * @param out receives the number of variables.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL.
 */
ADDBO_API int addbo_dimension(const addbo_optimizer* opt, size_t* out);

/**
 * Proposes the next point to evaluate and registers it as pending until it is told
 * (addbo_tell()) or cancelled (addbo_cancel()). Several points may be asked before any is told
 * (parallel evaluations): pending points are taken into account, so successive asks differ.
 * @param x   caller-owned buffer of `dim` doubles that receives the point; untouched on failure.
 * @param dim the number of variables.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer or a wrong `dim`;
 *         ADDBO_ERR_STATE when limits.max_pending points are pending already (tell or cancel
 *         one first); ADDBO_ERR_NUMERICAL if the model cannot be fitted; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_ask(addbo_optimizer* opt, double* x, size_t dim);

/**
 * Records the value `y` of the objective at `x`. `x` may be any point of the domain, asked or
 * not (warm start); if it is a pending point (matched within 1e-6 of each continuous range,
 * docs/c-api.md), that point stops being pending.
 * @param x   caller-owned array of `dim` doubles, read only during the call.
 * @param dim the number of variables.
 * @param y   the objective's value, finite (as measured: not negated for minimisation).
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim`, a NaN or
 *         infinite `y`, a value outside its variable's range, a non-integer value of an
 *         integer variable or a categorical index out of range; ADDBO_ERR_NUMERICAL;
 *         ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_tell(addbo_optimizer* opt, const double* x, size_t dim, double y);

/**
 * addbo_tell() for a configuration with "constraints" (docs/configuration.md): records the
 * value `y` of the objective at `x` with the values of the constrained outcomes measured there.
 * An observation is feasible when every value is within its constraint's bounds; addbo_best()
 * and addbo_predicted_best() report the best feasible one, and asks look for the best point
 * among those likely feasible (docs/real-objectives.md).
 * @param x           caller-owned array of `dim` doubles, read only during the call.
 * @param dim         the number of variables.
 * @param y           the objective's value, finite.
 * @param constraints caller-owned array of `count` doubles: one finite value per entry of
 *                    "constraints", in its order; may be NULL when count is 0.
 * @param count       the number of constraints of the configuration.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim` or `count`, a
 *         value of y or of a constraint that is NaN or infinite (the message names the
 *         constraint), or x as addbo_tell(); ADDBO_ERR_NUMERICAL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_tell_constrained(addbo_optimizer* opt, const double* x, size_t dim, double y,
                                     const double* constraints, size_t count);

/**
 * Evaluating `x` failed: the simulation crashed, diverged or gave no value. The failure is kept
 * (it is in the saved state and counted by addbo_info()): no ask returns a point of its grid
 * cell again, and the optimizer learns where evaluations fail and steers its asks away from
 * regions that probably fail (docs/real-objectives.md). `x` may be any point of the domain; if
 * it is a pending point, that point stops being pending. To drop a pending point whose
 * evaluation was lost rather than failed, use addbo_cancel().
 * @param x   caller-owned array of `dim` doubles, read only during the call.
 * @param dim the number of variables.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim` or a point
 *         outside the domain (as addbo_tell()); ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_tell_failure(addbo_optimizer* opt, const double* x, size_t dim);

/**
 * The evaluation of a pending point failed: forget that point without recording a value.
 * @param x   caller-owned array of `dim` doubles equal to a point returned by addbo_ask() and
 *            not yet told or cancelled.
 * @param dim the number of variables.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim`, or a point
 *         that is not pending.
 */
ADDBO_API int addbo_cancel(addbo_optimizer* opt, const double* x, size_t dim);

/**
 * The best point told so far (largest y when maximising, smallest when minimising). Pending
 * points and failures never count; with constraints, only feasible observations do.
 * @param x   caller-owned buffer of `dim` doubles that receives the point; untouched on failure.
 * @param dim the number of variables.
 * @param y   receives the value told for that point; untouched on failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE before the first tell, or while no observation is
 *         feasible; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer or a wrong `dim`.
 */
ADDBO_API int addbo_best(const addbo_optimizer* opt, double* x, size_t dim, double* y);

/**
 * What the model predicts at `x`: the posterior mean and standard deviation of the objective,
 * in the units of y as told (not negated for minimisation). The model is the current one (the
 * graph and hyperparameters of the last learning, or as configured) given the told
 * observations only: pending points never count. `stddev` is the model's uncertainty about the
 * objective itself, without the observation noise (addbo_predict_json() reports that too).
 * Nothing changes: neither the saved state nor the next ask. See docs/c-api.md.
 * @param x      caller-owned array of `dim` doubles, a point of the domain (as for addbo_tell()).
 * @param dim    the number of variables.
 * @param mean   receives the posterior mean; untouched on failure.
 * @param stddev receives the posterior standard deviation; untouched on failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE before the first tell (no model yet);
 *         ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim` or a point outside the
 *         domain (NaN included); ADDBO_ERR_NUMERICAL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_predict(const addbo_optimizer* opt, const double* x, size_t dim, double* mean,
                            double* stddev);

/**
 * addbo_predict() with the detail of the additive model, as a JSON object: "mean", "stddev",
 * "offset" (the model's constant), "noise_stddev" (of one evaluation), "observations", and
 * "cliques": one object per group of the kernel with "variables" (indices), "names", and the
 * "mean" and "stddev" of that group's component, in the units of y. The mean is the offset
 * plus the sum of the components' means. See docs/c-api.md.
 * @param json_out receives a NUL-terminated UTF-8 string owned by the caller (release it with
 *                 addbo_free_string()); set to NULL on failure.
 * @return as addbo_predict().
 */
ADDBO_API int addbo_predict_json(const addbo_optimizer* opt, const double* x, size_t dim,
                                 char** json_out);

/**
 * The model's best point: among the told points, the one whose posterior mean is best
 * (largest when maximising, smallest when minimising; the first told on a tie), with that mean
 * and standard deviation as addbo_predict() gives them. For a noisy objective this is a better
 * answer than addbo_best(), whose value is biased by the noise.
 * @param x      caller-owned buffer of `dim` doubles that receives the point; untouched on failure.
 * @param dim    the number of variables.
 * @param mean   receives the posterior mean there; untouched on failure.
 * @param stddev receives the posterior standard deviation there; untouched on failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE before the first tell; ADDBO_ERR_INVALID_ARGUMENT for a
 *         NULL pointer or a wrong `dim`; ADDBO_ERR_NUMERICAL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_predicted_best(const addbo_optimizer* opt, double* x, size_t dim, double* mean,
                                   double* stddev);

/**
 * The number of told observations and of pending points (asked, neither told nor cancelled).
 * @param observations receives the number of observations.
 * @param pending      receives the number of pending points.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL.
 */
ADDBO_API int addbo_count(const addbo_optimizer* opt, size_t* observations, size_t* pending);

/**
 * The number of failed evaluations told (addbo_tell_failure()).
 * @param failures receives the number of failures.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL.
 */
ADDBO_API int addbo_failure_count(const addbo_optimizer* opt, size_t* failures);

/**
 * Runs one round of model learning now (structure and hyperparameters, as configured under
 * "structure" and "kernel") on every observation told so far, and makes its result the model.
 * With "structure": {"relearn": "manual"} this is the only way the model learns; in the default
 * "auto" mode asks also learn every structure.relearn_every tells, and this call adds a round.
 *
 * Threads: the handle's lock is held only to copy the data at the start and to commit the
 * result at the end. While the round runs, other threads may call addbo_ask(), addbo_tell(),
 * addbo_info(), addbo_save() etc. on the same handle; they use the model as it was. What the
 * round sees therefore depends on when it starts: results are reproducible (and a saved state
 * continues bit-identically) only when learn calls are not overlapped by other calls on the
 * handle. The result is not committed, and *learned is 0, when another learning was committed
 * meanwhile (an ask that relearned in "auto" mode): the newer model is kept.
 * Only one addbo_learn() may run on a handle at a time. Destroying the handle while it runs is
 * a caller error, as for any call in progress.
 * @param learned receives 1 when a learning round was committed, 0 when there was nothing to
 *                learn (the configuration learns nothing: a fixed graph with given
 *                lengthscales and noise, or "strategy": "random"; or fewer than two
 *                observations are told) or the round was overtaken; may be NULL; untouched on
 *                failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE if another addbo_learn() is running on this handle;
 *         ADDBO_ERR_INVALID_ARGUMENT if opt is NULL; ADDBO_ERR_NUMERICAL;
 *         ADDBO_ERR_OUT_OF_MEMORY. On failure the model is unchanged.
 */
ADDBO_API int addbo_learn(addbo_optimizer* opt, int* learned);

/**
 * Asks the calls in progress on the handle to stop their learning: an addbo_learn() and an
 * addbo_ask() that is learning then return ADDBO_ERR_INTERRUPTED, changing nothing (the saved
 * state, the generators and the next ask are as before the call), within one step of the
 * sampler (at most a few dozen likelihood evaluations). Calls that start after it are not
 * affected, and neither is the work of a call other than its learning. Thread-safe and
 * lock-free: made for another thread (a watchdog, a shutdown, a user's cancel button) while a
 * call runs; it never waits for the handle's lock. Destroying the handle while this runs is a
 * caller error, as for any call.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if opt is NULL.
 */
ADDBO_API int addbo_interrupt(addbo_optimizer* opt);

/**
 * A JSON object describing the model: at least "edges" (the current dependency graph as
 * [[i, j], ...], i < j), "cliques", "junction_tree" (with any grid coarsening),
 * "lengthscales", "noise_variance", "observations", "pending", and the last structure
 * learning's "log_likelihood", "likelihood_evaluations", "seconds" and
 * "learned_at_observations" (the number of observations it saw; 0 before any learning); also
 * "variables" (names) and the edges, cliques and junction-tree nodes by name, "best", and this
 * handle's "last_ask" (phase, beta_t, acquisition value, time) and "last_tell" (time), which
 * are not saved (docs/c-api.md).
 * @param json_out receives a NUL-terminated UTF-8 string owned by the caller (release it with
 *                 addbo_free_string()); set to NULL on failure.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_info(const addbo_optimizer* opt, char** json_out);

/**
 * Saves the complete state (configuration, observations, pending points, learned model,
 * random generator) as one compact JSON document (docs/saved-state.md). The text is a pure
 * function of the calls made on the handle: handles fed the same calls save the same bytes,
 * and saving a handle restored by addbo_load() gives back the same bytes.
 * @param json_out receives a NUL-terminated UTF-8 string owned by the caller (release it with
 *                 addbo_free_string()); set to NULL on failure.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_save(const addbo_optimizer* opt, char** json_out);

/**
 * Restores an optimizer from a document written by addbo_save(). The restored handle
 * continues bit-identically: its next ask returns the point the saved one would have.
 * @param out        receives the new handle, owned by the caller (release with
 *                   addbo_destroy()); set to NULL on failure.
 * @param state_json NUL-terminated text from addbo_save(); read only during the call.
 * @return ADDBO_OK; ADDBO_ERR_STATE if the text is malformed, truncated, nested deeper than 64
 *         levels or inconsistent (the message says where); ADDBO_ERR_INVALID_ARGUMENT if a
 *         pointer is NULL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_load(addbo_optimizer** out, const char* state_json);

/**
 * Releases a string returned by addbo_info(), addbo_save() or addbo_predict_json().
 * @param s the string, or NULL (then nothing happens).
 */
ADDBO_API void addbo_free_string(char* s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ADDBO_H */
