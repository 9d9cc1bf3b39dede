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
  /* A NULL pointer, a wrong dim, a NaN or infinite y, a point outside the domain (out of
   * range, a non-whole integer value, a choice index out of range), cancelling a point that is
   * not pending. */
  ADDBO_ERR_INVALID_ARGUMENT = 1,
  /* The configuration text is not valid JSON or a field is invalid; the message names the
   * JSON pointer. */
  ADDBO_ERR_CONFIG = 2,
  /* A saved state is malformed, truncated or inconsistent (the message names the field); or
   * the call needs something the optimizer does not have yet (addbo_best() before any tell; the
   * C++ wrapper after close()); or the handle is busy (addbo_learn() while another
   * addbo_learn() runs on it); or a limit of the run is reached (addbo_ask() with
   * limits.max_pending points pending). */
  ADDBO_ERR_STATE = 3,
  /* The model failed numerically: no Cholesky factor even with jitter 1e-4 added to the noise. */
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
 * A description of the last failure of an addbo function on the calling thread, beginning with the
 * function's name and naming the offending argument or JSON pointer. Successful calls leave the
 * message as it was, so read it right after a failing call. The message is at most 2,047 bytes (a
 * longer one ends with "..."), kept in a buffer of the thread: recording it never allocates, so a
 * call that ran out of memory still says which call failed.
 * @return "" if no call has failed on this thread yet; never NULL. The string is owned by the
 *         library and valid until the next failing addbo call on the same thread; do not free it.
 */
ADDBO_API const char* addbo_last_error(void);

/*------------------------------------------------------------------------------------------------
 * The optimizer handle
 *----------------------------------------------------------------------------------------------*/

/* Opaque: created by addbo_create() or addbo_load(), released by addbo_destroy(). */
typedef struct addbo_optimizer addbo_optimizer;

/**
 * Creates an optimizer from a JSON configuration (variables, goal, seed, structure, kernel,
 * acquisition, limits, constraints; docs/configuration.md lists every key, its default and limits).
 * @param out         receives the new handle, owned by the caller (release with addbo_destroy());
 *                    set to NULL on failure.
 * @param config_json NUL-terminated UTF-8 JSON text; read only during the call.
 * @return ADDBO_OK; ADDBO_ERR_CONFIG if the text is not valid JSON or a field is invalid, also a
 *         given graph too large for limits.max_table_cells (the message holds the field's JSON
 *         pointer); ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL; ADDBO_ERR_OUT_OF_MEMORY.
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
 * Proposes the next point to evaluate and registers it as pending until it is told (addbo_tell()),
 * told as failed (addbo_tell_failure()) or cancelled (addbo_cancel()). The first initial_points
 * asks follow a Latin-hypercube design; later ones maximise the model's acquisition
 * (docs/configuration.md, "How an ask chooses its point"), and an ask that is due to learn the
 * structure runs the learning first and takes longer. With "relearn": "ahead" it begins the
 * learning instead and chooses its own point with the model it had; the learning runs while the
 * host evaluates that point (on a worker thread when limits.threads allows two or more, else
 * within this ask), and the next ask makes it the model, waiting for what remains of it if need
 * be (docs/configuration.md, "When learning happens"). Several points may be asked before any is
 * told (parallel evaluations): pending points enter the model as if observed at its lower
 * confidence bound there, and a model-based ask avoids the points already observed or pending, so
 * successive asks differ.
 * @param x   caller-owned buffer of `dim` doubles that receives the point; untouched on failure.
 * @param dim the number of variables.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer or a wrong `dim`; ADDBO_ERR_STATE
 *         when limits.max_pending points (default 256) are pending already, the message naming the
 *         limit (tell or cancel one first; limits.md); ADDBO_ERR_INTERRUPTED if a learning it
 *         ran, or the one it waited for, was stopped by addbo_interrupt() (nothing changed; a
 *         learning waited for goes on, for the next ask); ADDBO_ERR_NUMERICAL if the model
 *         cannot be fitted; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_ask(addbo_optimizer* opt, double* x, size_t dim);

/**
 * Records the value `y` of the objective at `x`. `x` may be any point of the domain, asked or not
 * (warm starts, points from elsewhere); if it is a pending point, that point stops being pending. A
 * told point is a pending one when its integer and categorical values are equal and each continuous
 * value is within 1e-6 of the variable's range of the pending value, in encoded units (on a log
 * scale, 1e-6 of the range of the logarithm: a point that went through text with six decimals still
 * matches on linear ranges of about 1 or wider; print log-scale values with %.17g, not %f); when
 * several pending points match, the nearest one (largest difference smallest) is taken, the first
 * asked on a tie. A numerically singular update never fails the call: the model's tables are
 * dropped and rebuilt with more jitter at the next ask.
 * @param x   caller-owned array of `dim` doubles, read only during the call.
 * @param dim the number of variables.
 * @param y   the objective's value, finite (as measured: not negated for minimisation).
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim`, a NaN or infinite
 *         `y`, a value outside its variable's range, a non-whole value of an integer variable or a
 *         choice index out of range (the message names the index and the variable), or a
 *         configuration with constraints (use addbo_tell_constrained()); ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_tell(addbo_optimizer* opt, const double* x, size_t dim, double y);

/**
 * addbo_tell() for a configuration with "constraints" (docs/configuration.md): records the value
 * `y` of the objective at `x` with the values of the constrained outcomes measured there. An
 * observation is feasible when every value is within its constraint's bounds; addbo_best() and
 * addbo_predicted_best() report the best feasible one, and asks look for the best point among those
 * likely feasible (docs/real-objectives.md). Pending points are matched as addbo_tell() matches
 * them.
 * @param x           caller-owned array of `dim` doubles, read only during the call.
 * @param dim         the number of variables.
 * @param y           the objective's value, finite.
 * @param constraints caller-owned array of `count` doubles: one finite value per entry of
 *                    "constraints", in its order; may be NULL when count is 0.
 * @param count       the number of constraints of the configuration.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim` or `count`, a
 *         value of y or of a constraint that is NaN or infinite (the message names the constraint),
 *         or x as addbo_tell(); ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_tell_constrained(addbo_optimizer* opt, const double* x, size_t dim, double y,
                                     const double* constraints, size_t count);

/**
 * Evaluating `x` failed: the simulation crashed, diverged or gave no value. The failure is kept (it
 * is in the saved state and counted by addbo_failure_count() and addbo_info()): no ask returns a
 * point of its grid cell again, and the optimizer learns where evaluations fail and steers its asks
 * away from regions that probably fail (docs/real-objectives.md). `x` may be any point of the
 * domain; if it is a pending point (matched as addbo_tell() matches), that point stops being
 * pending. To drop a pending point whose evaluation was lost rather than failed, use
 * addbo_cancel().
 * @param x   caller-owned array of `dim` doubles, read only during the call.
 * @param dim the number of variables.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim` or a point outside
 *         the domain (as addbo_tell()); ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_tell_failure(addbo_optimizer* opt, const double* x, size_t dim);

/**
 * The evaluation of a pending point was lost (a worker died, a job was cancelled): forget that
 * point without recording anything. An evaluation that failed is told with addbo_tell_failure()
 * instead, so that the optimizer learns from it.
 * @param x   caller-owned array of `dim` doubles equal to a point returned by addbo_ask() and
 *            neither told nor cancelled, matched as addbo_tell() matches pending points.
 * @param dim the number of variables.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim`, or a point that
 *         is not pending; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_cancel(addbo_optimizer* opt, const double* x, size_t dim);

/**
 * The best point told so far (largest y when maximising, smallest when minimising; the first one on
 * a tie) and the value told there. Pending points and failures never count; with constraints, only
 * feasible observations do. On a noisy objective (kernel.noise_variance "auto" once two evaluations
 * of a point disagreed) it is the told point with the best posterior mean, with the value told
 * there (docs/real-objectives.md).
 * @param x   caller-owned buffer of `dim` doubles that receives the point; untouched on failure.
 * @param dim the number of variables.
 * @param y   receives the value told for that point; untouched on failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE before the first tell, or while no observation is feasible;
 *         ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer or a wrong `dim`; ADDBO_ERR_NUMERICAL (a
 *         noisy objective's model cannot be fitted); ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_best(const addbo_optimizer* opt, double* x, size_t dim, double* y);

/**
 * What the model predicts at `x`: the posterior mean and standard deviation of the objective there,
 * in the units of y as told (the standardisation and the sign the model works with are undone).
 *
 * The model is the current one: the graph, lengthscales, noise variance and jitter of the last
 * learning (an ask that relearned, or addbo_learn()), or before any learning those of the
 * configuration (for learned values, the middle of their choices), as addbo_info() shows them. A
 * prediction never learns. Its data are the told observations only: pending points never count.
 *
 * `stddev` is the uncertainty of the objective itself, without the observation noise: a new
 * evaluation at `x` is predicted with standard deviation sqrt(stddev^2 + noise_stddev^2)
 * (noise_stddev from addbo_predict_json()). Nothing changes: the saved state, the generators and
 * the next ask are the same whether or not predictions were made.
 *
 * Cost: after an ask or a tell the model's factor is current and a prediction costs one triangular
 * solve, O(n^2) for n observations; after addbo_load(), a learning, or before the first model-based
 * ask the factor is built from the observations, O(n^3), at every call (a prediction caches
 * nothing) until an ask makes it current.
 * @param x      caller-owned array of `dim` doubles, a point of the domain (checked as addbo_tell()
 *               checks it).
 * @param dim    the number of variables.
 * @param mean   receives the posterior mean; untouched on failure.
 * @param stddev receives the posterior standard deviation; untouched on failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE before the first tell (the model has nothing to predict from;
 *         from the first tell on, predictions are those of the configured model, also during the
 *         initial design); ADDBO_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong `dim` or a point
 *         outside the domain (NaN included); ADDBO_ERR_NUMERICAL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_predict(const addbo_optimizer* opt, const double* x, size_t dim, double* mean,
                            double* stddev);

/**
 * addbo_predict() with the detail of the additive model, as a JSON object (an example in
 * docs/c-api.md). The model is a sum of one component per clique of the graph (the kernel's groups,
 * "cliques" in addbo_info()) plus a constant. The keys: "mean" and "stddev" as addbo_predict();
 * "offset", the model's constant (the mean of the values told), which plus the components' means is
 * "mean" up to rounding; "noise_stddev", the standard deviation of one evaluation's noise,
 * sqrt(noise_variance + jitter) in the units of y; "observations", the number of observations the
 * prediction uses (every one told up to the model's capacity, "model_capacity" of addbo_info():
 * limits.max_model_observations, or fewer under limits.max_model_work; then the part the model
 * is built from: "model_observations" of addbo_info(), limits.md); "observations_told", the
 * number told (addbo_count()), the same up to the cap; "cliques", one object per clique in the
 * order of addbo_info()'s "cliques", with "variables" (indices), "names", and the component's
 * "mean" and "stddev" at `x` in the units of y (the components are correlated, so their deviations
 * do not add up to "stddev"); "constraints", one object per constraint of the configuration with
 * its "name", the posterior "mean" and "stddev" of its value at `x` and the "probability" that it
 * meets its bounds; "success_probability", the failure model's probability that an evaluation at
 * `x` succeeds (1 while no evaluation failed); "failures", the number of failed evaluations told.
 * @param json_out receives a NUL-terminated UTF-8 string owned by the caller (release it with
 *                 addbo_free_string()); set to NULL on failure.
 * @return as addbo_predict().
 */
ADDBO_API int addbo_predict_json(const addbo_optimizer* opt, const double* x, size_t dim,
                                 char** json_out);

/**
 * The model's answer to "which point is best?": among the told points the model holds (every told
 * point, up to the model's capacity: limits.max_model_observations, or fewer under
 * limits.max_model_work), the one whose posterior mean is best (largest when
 * maximising, smallest when minimising; the first told on a tie), with that mean and standard
 * deviation exactly as addbo_predict() reports them. For a noisy objective the best value told is
 * biased upwards (the luckiest draw wins); the posterior mean averages the noise out over nearby
 * observations. Only told points are candidates: the model's mean is least reliable away from the
 * data, and a maximum of the additive mean can sit where no observation supports it. Pending points
 * never count.
 * @param x      caller-owned buffer of `dim` doubles that receives the point; untouched on failure.
 * @param dim    the number of variables.
 * @param mean   receives the posterior mean there; untouched on failure.
 * @param stddev receives the posterior standard deviation there; untouched on failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE before the first tell; ADDBO_ERR_INVALID_ARGUMENT for a NULL
 *         pointer or a wrong `dim`; ADDBO_ERR_NUMERICAL; ADDBO_ERR_OUT_OF_MEMORY.
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
 * Runs one round of model learning now, on every observation told so far: the graph and the
 * hyperparameters the configuration leaves to learning ("structure", "kernel"), as an ask that is
 * due to learn would (docs/configuration.md), and makes its result the model. With "structure":
 * {"relearn": "manual"} asks never learn and this is the only way the model learns, so the host
 * decides when the time goes into learning (between evaluations, on a worker thread while
 * evaluations run, or never); in the default "auto" mode asks also learn every
 * structure.relearn_every tells, and this call adds a round. After a round addbo_info() reports it:
 * "learned_at_observations", "likelihood_evaluations", "seconds".
 *
 * Threads: the handle's lock is held only to copy the data at the start and to commit the result at
 * the end. While the round runs, other threads may call addbo_ask(), addbo_tell(), addbo_cancel(),
 * addbo_info(), addbo_save() and the rest on the same handle; they use the model as it was. The
 * round learns from the observations told before the call; one told while it runs is used by the
 * next learning. What the round sees therefore depends on when it starts: results (and saved
 * states) are reproducible only when learn calls are not overlapped by other calls on the handle,
 * and then a learn call made between the same asks and tells on a restored handle continues
 * bit-identically. The result is not committed, and *learned is 0, when another learning was
 * committed meanwhile (an ask that relearned in "auto" mode): the newer model is kept. Only one
 * addbo_learn() may run on a handle at a time. Destroying the handle while it runs is a caller
 * error, as for any call in progress.
 * @param learned receives 1 when a learning round was committed, 0 when there was nothing to learn
 *                (the configuration learns nothing: a fixed graph with given lengthscales and
 *                noise, or "strategy": "random"; or fewer than two observations are told) or the
 *                round was overtaken; may be NULL; untouched on failure.
 * @return ADDBO_OK; ADDBO_ERR_STATE if another addbo_learn() is running on this handle (nothing
 *         changes); ADDBO_ERR_INVALID_ARGUMENT if opt is NULL; ADDBO_ERR_INTERRUPTED if
 *         addbo_interrupt() stopped it; ADDBO_ERR_NUMERICAL; ADDBO_ERR_OUT_OF_MEMORY. On failure
 *         the model is unchanged.
 */
ADDBO_API int addbo_learn(addbo_optimizer* opt, int* learned);

/**
 * Stops the learning of the calls in progress on the handle, from another thread: an
 * addbo_learn(), or an addbo_ask() that is learning (in "auto" mode, when a learning is due) or
 * waiting for the learning the previous ask began ("ahead" mode; that learning goes on, and the
 * next ask commits it), returns
 * ADDBO_ERR_INTERRUPTED ("addbo_ask: interrupted by addbo_interrupt: the learning was stopped and
 * nothing changed") within one step of the sampler: the learning is polled before every step, and a
 * step costs at most a few dozen likelihood evaluations (limits.md, "Learning work"). The
 * interrupted call changes nothing, as any failing call: the saved state, the generators and the
 * next ask are those of before the call, so a handle that was interrupted continues bit-identically
 * to one that never made the call.
 *
 * Which calls: only those in progress when addbo_interrupt() is made, including one still
 * waiting for the handle's lock; a call that starts later is not affected, so there is nothing
 * to reset. To stop a call that may not have started yet, repeat the interrupt until the call
 * returns. Only learning is interrupted: the rest of an ask (the posterior, the maximisation)
 * runs to its end, and so do all other calls. Thread-safe and lock-free: it never takes the
 * handle's mutex (which the call to interrupt holds) and returns at once; it must not run while
 * addbo_destroy() runs, as for any call. A host that wants a time budget starts a timer (a
 * watchdog thread) and interrupts when it runs out: without an interrupt, results never depend
 * on time. The bindings: interrupt() of the C++ wrapper, Java and Lua, Interrupt() in C#;
 * closing a Java or C# optimizer (close(), Dispose()) while a learn() runs on another thread
 * interrupts it, so that the close, and a process's exit, does not wait for the round.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if opt is NULL.
 */
ADDBO_API int addbo_interrupt(addbo_optimizer* opt);

/**
 * A JSON object describing the current model, the search and this handle's last ask and tell, for
 * display and diagnostics: the graph ("edges", "cliques", "junction_tree" with any grid
 * coarsening), the hyperparameters, the counts, the best point, the last learning, where the search
 * stands ("search") and this handle's "last_ask" and "last_tell", which are not saved. Every key is
 * described in docs/c-api.md, "The info document".
 * @param json_out receives a NUL-terminated UTF-8 string owned by the caller (release it with
 *                 addbo_free_string()); set to NULL on failure.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_info(const addbo_optimizer* opt, char** json_out);

/**
 * Saves the complete state (configuration, observations, pending points, learned model,
 * random generator) as one compact JSON document (docs/saved-state.md). In "relearn": "ahead"
 * mode a learning the last ask began is saved as the next ask will commit it, so the call waits
 * for it to end. The text is a pure function of the calls made on the handle: handles fed the same
 * calls save the same bytes, and saving a handle restored by addbo_load() gives back the same
 * bytes.
 * @param json_out receives a NUL-terminated UTF-8 string owned by the caller (release it with
 *                 addbo_free_string()); set to NULL on failure.
 * @return ADDBO_OK; ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL; ADDBO_ERR_OUT_OF_MEMORY.
 */
ADDBO_API int addbo_save(const addbo_optimizer* opt, char** json_out);

/**
 * Restores an optimizer from a document written by addbo_save(). The restored handle continues
 * bit-identically: its next ask returns the point the saved one would have.
 * @param out        receives the new handle, owned by the caller (release with addbo_destroy());
 *                   set to NULL on failure.
 * @param state_json NUL-terminated text from addbo_save(); read only during the call.
 * @return ADDBO_OK; ADDBO_ERR_STATE if the text is malformed, truncated, nested deeper than 64
 *         levels, has a key twice in one object, is of another format or version, or is
 *         inconsistent (the message names the field; the rules are those of a configuration's text:
 *         docs/saved-state.md); ADDBO_ERR_INVALID_ARGUMENT if a pointer is NULL;
 *         ADDBO_ERR_OUT_OF_MEMORY.
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
