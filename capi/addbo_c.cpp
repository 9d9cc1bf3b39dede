// The extern "C" entry points of addbo.h: argument checks, locking, copying in and out. Text
// goes to and comes from the core's facade (addbo::core::Optimizer) as it is: no JSON here.
// Each fallible body runs inside guarded(), which turns whatever it throws into a status.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "addbo/addbo.h"
#include "guard.hpp"
#include "handle.hpp"
#include "optimizer/optimizer.hpp"
#include "util/error.hpp"

namespace {

using addbo::capi::guarded;
using addbo::core::invalid_argument;

void require_pointer(const void* pointer, const char* name) {
  if (pointer == nullptr) throw invalid_argument(std::string(name) + " is NULL");
}

// Checked before the pointer itself, so that an empty std::vector (data() == NULL) passed by a
// wrapper is reported as the size mismatch it really is.
void require_dimension(const addbo_optimizer& handle, std::size_t dim) {
  const std::size_t expected = handle.core.dimension();
  if (dim != expected) {
    throw invalid_argument("dim is " + std::to_string(dim) + " but the optimizer has " +
                           std::to_string(expected) + " variables");
  }
}

void require_finite(double value, const char* name) {
  if (std::isnan(value)) throw invalid_argument(std::string(name) + " is NaN");
  if (std::isinf(value)) {
    throw invalid_argument(std::string(name) + (value > 0 ? " is +Inf" : " is -Inf"));
  }
}

// The point arguments of ask/tell/cancel/best: dim matches, then the buffer exists.
void require_point(const addbo_optimizer& handle, const void* x, std::size_t dim) {
  require_dimension(handle, dim);
  require_pointer(x, "x");
}

std::vector<double> copy_point(const double* x, std::size_t dim) {
  return std::vector<double>(x, x + dim);
}

// Strings handed to C are malloc'd so that addbo_free_string() is a plain free().
char* to_c_string(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy == nullptr) throw std::bad_alloc();
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

// Output handles and strings are NULL on failure: clear them before anything can fail.
template <typename T>
void clear_output(T** out) {
  if (out != nullptr) *out = nullptr;
}

// addbo_info and addbo_save: the text of one of the core's documents as a malloc'd string.
int copy_document(const char* function, const addbo_optimizer* opt, char** json_out,
                  std::string (addbo::core::Optimizer::*document)() const) {
  clear_output(json_out);
  return guarded(function, [&] {
    require_pointer(opt, "opt");
    require_pointer(json_out, "json_out");
    std::lock_guard<std::mutex> lock(opt->mutex);
    *json_out = to_c_string((opt->core.*document)());
  });
}

}  // namespace

const char* addbo_version(void) { return ADDBO_VERSION_STRING; }

const char* addbo_status_name(int status) {
  switch (status) {
    case ADDBO_OK:
      return "ADDBO_OK";
    case ADDBO_ERR_INVALID_ARGUMENT:
      return "ADDBO_ERR_INVALID_ARGUMENT";
    case ADDBO_ERR_CONFIG:
      return "ADDBO_ERR_CONFIG";
    case ADDBO_ERR_STATE:
      return "ADDBO_ERR_STATE";
    case ADDBO_ERR_NUMERICAL:
      return "ADDBO_ERR_NUMERICAL";
    case ADDBO_ERR_OUT_OF_MEMORY:
      return "ADDBO_ERR_OUT_OF_MEMORY";
    case ADDBO_ERR_INTERNAL:
      return "ADDBO_ERR_INTERNAL";
    case ADDBO_ERR_INTERRUPTED:
      return "ADDBO_ERR_INTERRUPTED";
    default:
      return "ADDBO_UNKNOWN_STATUS";
  }
}

int addbo_create(addbo_optimizer** out, const char* config_json) {
  clear_output(out);
  return guarded("addbo_create", [&] {
    require_pointer(out, "out");
    require_pointer(config_json, "config_json");
    *out = new addbo_optimizer(addbo::core::Optimizer::from_config_text(config_json));
  });
}

void addbo_destroy(addbo_optimizer* opt) { delete opt; }

int addbo_dimension(const addbo_optimizer* opt, size_t* out) {
  return guarded("addbo_dimension", [&] {
    require_pointer(opt, "opt");
    require_pointer(out, "out");
    std::lock_guard<std::mutex> lock(opt->mutex);
    *out = opt->core.dimension();
  });
}

int addbo_ask(addbo_optimizer* opt, double* x, size_t dim) {
  return guarded("addbo_ask", [&] {
    require_pointer(opt, "opt");
    // Taken before the lock: an interrupt made while the call waits for it counts too.
    const addbo::core::InterruptCheck interrupt = opt->interrupts.check();
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    const std::vector<double> point = opt->core.ask(interrupt);
    std::copy(point.begin(), point.end(), x);
  });
}

int addbo_tell(addbo_optimizer* opt, const double* x, size_t dim, double y) {
  return guarded("addbo_tell", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    require_finite(y, "y");
    opt->core.tell(copy_point(x, dim), y);
  });
}

int addbo_tell_constrained(addbo_optimizer* opt, const double* x, size_t dim, double y,
                           const double* constraints, size_t count) {
  return guarded("addbo_tell_constrained", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    require_finite(y, "y");
    const std::size_t expected = opt->core.config().constraints.size();
    if (count != expected) {
      throw invalid_argument("count is " + std::to_string(count) + " but the configuration has " +
                             std::to_string(expected) + " constraints");
    }
    if (count > 0) require_pointer(constraints, "constraints");
    const std::vector<double> values =
        count > 0 ? std::vector<double>(constraints, constraints + count) : std::vector<double>();
    opt->core.tell(copy_point(x, dim), y, values);
  });
}

int addbo_tell_failure(addbo_optimizer* opt, const double* x, size_t dim) {
  return guarded("addbo_tell_failure", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    opt->core.tell_failure(copy_point(x, dim));
  });
}

int addbo_cancel(addbo_optimizer* opt, const double* x, size_t dim) {
  return guarded("addbo_cancel", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    opt->core.cancel(copy_point(x, dim));
  });
}

int addbo_best(const addbo_optimizer* opt, double* x, size_t dim, double* y) {
  return guarded("addbo_best", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    require_pointer(y, "y");
    const addbo::core::Observation best = opt->core.best();
    std::copy(best.x.begin(), best.x.end(), x);
    *y = best.y;
  });
}

int addbo_predict(const addbo_optimizer* opt, const double* x, size_t dim, double* mean,
                  double* stddev) {
  return guarded("addbo_predict", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    require_pointer(mean, "mean");
    require_pointer(stddev, "stddev");
    const addbo::core::Prediction prediction = opt->core.predict(copy_point(x, dim));
    *mean = prediction.mean;
    *stddev = prediction.stddev;
  });
}

int addbo_predict_json(const addbo_optimizer* opt, const double* x, size_t dim, char** json_out) {
  clear_output(json_out);
  return guarded("addbo_predict_json", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    require_pointer(json_out, "json_out");
    const addbo::core::Prediction prediction = opt->core.predict(copy_point(x, dim));
    *json_out = to_c_string(opt->core.prediction_text(prediction));
  });
}

int addbo_predicted_best(const addbo_optimizer* opt, double* x, size_t dim, double* mean,
                         double* stddev) {
  return guarded("addbo_predicted_best", [&] {
    require_pointer(opt, "opt");
    std::lock_guard<std::mutex> lock(opt->mutex);
    require_point(*opt, x, dim);
    require_pointer(mean, "mean");
    require_pointer(stddev, "stddev");
    const addbo::core::PredictedBest best = opt->core.predicted_best();
    std::copy(best.x.begin(), best.x.end(), x);
    *mean = best.prediction.mean;
    *stddev = best.prediction.stddev;
  });
}

int addbo_count(const addbo_optimizer* opt, size_t* observations, size_t* pending) {
  return guarded("addbo_count", [&] {
    require_pointer(opt, "opt");
    require_pointer(observations, "observations");
    require_pointer(pending, "pending");
    std::lock_guard<std::mutex> lock(opt->mutex);
    *observations = opt->core.observation_count();
    *pending = opt->core.pending_count();
  });
}

int addbo_failure_count(const addbo_optimizer* opt, size_t* failures) {
  return guarded("addbo_failure_count", [&] {
    require_pointer(opt, "opt");
    require_pointer(failures, "failures");
    std::lock_guard<std::mutex> lock(opt->mutex);
    *failures = opt->core.failure_count();
  });
}

int addbo_info(const addbo_optimizer* opt, char** json_out) {
  return copy_document("addbo_info", opt, json_out, &addbo::core::Optimizer::info_text);
}

int addbo_save(const addbo_optimizer* opt, char** json_out) {
  return copy_document("addbo_save", opt, json_out, &addbo::core::Optimizer::save_text);
}

int addbo_load(addbo_optimizer** out, const char* state_json) {
  clear_output(out);
  return guarded("addbo_load", [&] {
    require_pointer(out, "out");
    require_pointer(state_json, "state_json");
    *out = new addbo_optimizer(addbo::core::Optimizer::from_state_text(state_json));
  });
}

int addbo_learn(addbo_optimizer* opt, int* learned) {
  return guarded("addbo_learn", [&] {
    require_pointer(opt, "opt");
    const addbo::core::InterruptCheck interrupt = opt->interrupts.check();
    std::shared_ptr<addbo::core::LearningJob> job;
    {
      std::lock_guard<std::mutex> lock(opt->mutex);
      if (opt->learning) {
        throw addbo::core::Error(addbo::core::Status::state,
                                 "a learning is already running on this handle");
      }
      job = opt->core.begin_learning(interrupt);
      if (job != nullptr) opt->learning = true;
    }
    if (job == nullptr) {  // the configuration learns nothing, or too few observations
      if (learned != nullptr) *learned = 0;
      return;
    }
    // Whatever the learning round throws, the handle must not stay busy for ever.
    struct BusyFlag {
      addbo_optimizer* handle;
      bool cleared = false;
      ~BusyFlag() {
        if (cleared) return;
        std::lock_guard<std::mutex> lock(handle->mutex);
        handle->learning = false;
      }
    } busy{opt};
    // The round reads only the job's copy of the data, so other threads may ask, tell, save and
    // read info on the handle meanwhile, with the model they had.
    addbo::core::Optimizer::run_learning(*job);
    bool committed = false;
    {
      std::lock_guard<std::mutex> lock(opt->mutex);
      // Cleared before committing, in the same critical section, so that a failing commit
      // leaves the handle free too.
      opt->learning = false;
      busy.cleared = true;
      committed = opt->core.finish_learning(*job);
    }
    if (learned != nullptr) *learned = committed ? 1 : 0;
  });
}

int addbo_interrupt(addbo_optimizer* opt) {
  return guarded("addbo_interrupt", [&] {
    require_pointer(opt, "opt");
    opt->interrupts.request();
  });
}

void addbo_free_string(char* s) { std::free(s); }
