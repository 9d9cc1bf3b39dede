// addbo for C++: a header-only RAII wrapper over the C API of addbo.h (and nothing else), which
// turns every failing status into an addbo::Error. The SWIG bindings wrap these classes.
//
//   addbo::Optimizer opt(config_json);
//   for (int i = 0; i < budget; ++i) {
//     std::vector<double> x = opt.ask();
//     opt.tell(x, f(x));
//   }
//   addbo::Observation best = opt.best();
//
// Thread safety is that of the C API: one Optimizer may be shared between threads (calls are
// serialised inside the library), but moving, assigning or closing it must not race with use.
#ifndef ADDBO_HPP
#define ADDBO_HPP

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "addbo.h"

namespace addbo {

// A failed call: status() is the ADDBO_ERR_* value, what() the library's message, which names
// the function and the offending argument or JSON pointer.
class Error : public std::runtime_error {
 public:
  Error(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }
  // "ADDBO_ERR_CONFIG" etc.; a static string, never NULL.
  const char* status_name() const { return addbo_status_name(status_); }

 private:
  int status_;
};

// A told point and its value.
struct Observation {
  std::vector<double> x;
  double y = 0.0;
};

// What the model predicts at x: the posterior mean and standard deviation of the objective, in
// the units of y as told (stddev without the observation noise).
struct Prediction {
  std::vector<double> x;
  double mean = 0.0;
  double stddev = 0.0;
};

// Owns one addbo_optimizer handle. Move-only; the handle is released by close() or the
// destructor. After close() (or after being moved from), every method but close() throws
// Error with status ADDBO_ERR_STATE.
class Optimizer {
 public:
  // Creates an optimizer from a JSON configuration; throws Error (ADDBO_ERR_CONFIG with the
  // JSON pointer for an invalid one).
  explicit Optimizer(const std::string& config_json) {
    check(addbo_create(&handle_, config_json.c_str()));
  }
  // Restores a state written by save(); throws Error (ADDBO_ERR_STATE if it is corrupt).
  static Optimizer load(const std::string& state_json) {
    addbo_optimizer* handle = nullptr;
    check(addbo_load(&handle, state_json.c_str()));
    return Optimizer(handle);
  }

  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;
  Optimizer(Optimizer&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Optimizer& operator=(Optimizer&& other) noexcept {
    if (this != &other) {
      close();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Optimizer() { close(); }

  // Releases the handle now; calling it again does nothing.
  void close() noexcept {
    addbo_destroy(handle_);
    handle_ = nullptr;
  }
  bool closed() const noexcept { return handle_ == nullptr; }

  // The number of variables: the length of every point.
  std::size_t dimension() const {
    std::size_t dim = 0;
    check(addbo_dimension(handle(), &dim));
    return dim;
  }
  // The next point to evaluate, registered as pending until told or cancelled.
  std::vector<double> ask() {
    std::vector<double> x(dimension());
    check(addbo_ask(handle(), x.data(), x.size()));
    return x;
  }
  // Records the value y of the objective at x (any point of the domain, asked or not).
  void tell(const std::vector<double>& x, double y) {
    check(addbo_tell(handle(), x.data(), x.size(), y));
  }
  // The same with the values of the configuration's constraints, one per constraint in their
  // order (addbo_tell_constrained).
  void tell(const std::vector<double>& x, double y, const std::vector<double>& constraints) {
    check(addbo_tell_constrained(handle(), x.data(), x.size(), y, constraints.data(),
                                 constraints.size()));
  }
  // Evaluating x failed (crashed, diverged, gave no value): kept as a failure, which the
  // optimizer learns from and never asks again (addbo_tell_failure).
  void tell_failure(const std::vector<double>& x) {
    check(addbo_tell_failure(handle(), x.data(), x.size()));
  }
  // The evaluation of the pending point x was lost (not failed): forget it.
  void cancel(const std::vector<double>& x) { check(addbo_cancel(handle(), x.data(), x.size())); }
  // The best told point (with constraints, the best feasible one); throws Error
  // (ADDBO_ERR_STATE) before the first tell, or while none is feasible.
  Observation best() const {
    Observation best;
    best.x.resize(dimension());
    check(addbo_best(handle(), best.x.data(), best.x.size(), &best.y));
    return best;
  }
  // The model's posterior mean and standard deviation at x, from the told observations;
  // changes nothing. Throws Error (ADDBO_ERR_STATE) before the first tell.
  Prediction predict(const std::vector<double>& x) const {
    Prediction prediction;
    check(addbo_predict(handle(), x.data(), x.size(), &prediction.mean, &prediction.stddev));
    prediction.x = x;
    return prediction;
  }
  // predict() with the per-clique detail as JSON text (addbo_predict_json).
  std::string predict_json(const std::vector<double>& x) const {
    char* raw = nullptr;
    check(addbo_predict_json(handle(), x.data(), x.size(), &raw));
    return take(raw);
  }
  // The told point with the best posterior mean, and the prediction there; throws Error
  // (ADDBO_ERR_STATE) before the first tell.
  Prediction predicted_best() const {
    Prediction best;
    best.x.resize(dimension());
    check(addbo_predicted_best(handle(), best.x.data(), best.x.size(), &best.mean, &best.stddev));
    return best;
  }
  // The number of told observations.
  std::size_t count() const { return counts().first; }
  // The number of pending points (asked, neither told nor cancelled).
  std::size_t pending() const { return counts().second; }
  // The number of failed evaluations told.
  std::size_t failures() const {
    std::size_t failures = 0;
    check(addbo_failure_count(handle(), &failures));
    return failures;
  }
  // Runs one learning round now on all observations told (structure.relearn "manual" leaves
  // learning to this call). True when it was committed; false when there was nothing to learn
  // or another learning was committed meanwhile. Other threads may use this optimizer while it
  // runs; a second concurrent learn() throws Error (ADDBO_ERR_STATE).
  bool learn() {
    int learned = 0;
    check(addbo_learn(handle(), &learned));
    return learned != 0;
  }

  // Stops the learning of the calls in progress on this optimizer (addbo_interrupt): a learn()
  // or an ask() that is learning throws Error with status ADDBO_ERR_INTERRUPTED and changes
  // nothing; calls made later are not affected. Thread-safe and lock-free: call it from another
  // thread while a call runs (never concurrently with close() or the destructor).
  void interrupt() { check(addbo_interrupt(handle())); }
  // The model as JSON text (graph, cliques, junction tree, hyperparameters, counts).
  std::string info() const { return text(addbo_info); }
  // The complete state as JSON text, for load().
  std::string save() const { return text(addbo_save); }

 private:
  explicit Optimizer(addbo_optimizer* handle) noexcept : handle_(handle) {}

  static void check(int status) {
    if (status != ADDBO_OK) throw Error(status, addbo_last_error());
  }
  addbo_optimizer* handle() const {
    if (handle_ == nullptr) throw Error(ADDBO_ERR_STATE, "addbo::Optimizer: used after close()");
    return handle_;
  }
  std::pair<std::size_t, std::size_t> counts() const {
    std::pair<std::size_t, std::size_t> counts;
    check(addbo_count(handle(), &counts.first, &counts.second));
    return counts;
  }
  // Calls addbo_info or addbo_save and copies the returned string, which is freed even if the
  // copy throws.
  std::string text(int (*get)(const addbo_optimizer*, char**)) const {
    char* raw = nullptr;
    check(get(handle(), &raw));
    return take(raw);
  }
  // Copies a string returned by the library and frees it, even if the copy throws.
  static std::string take(char* raw) {
    const std::unique_ptr<char, void (*)(char*)> owned(raw, addbo_free_string);
    return std::string(owned.get());
  }

  addbo_optimizer* handle_ = nullptr;
};

}  // namespace addbo

#endif  // ADDBO_HPP
