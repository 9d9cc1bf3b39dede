// Shared parts of the fuzz targets (tests/fuzz/README.md): the contract checks, which abort()
// with a message (libFuzzer then saves the input), a handle that closes itself, save/load
// helpers and a reader that turns fuzz bytes into choices and numbers.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "addbo/addbo.h"

namespace addbo_fuzz {

// A broken promise of the C API: print what and abort (a crash for libFuzzer and for ctest).
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "addbo fuzz: contract broken: %s\n  addbo_last_error(): %s\n", what.c_str(),
               addbo_last_error());
  std::fflush(stderr);
  std::abort();
}

inline void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// Every status is one of addbo.h's values, a failure comes with a message, and
// ADDBO_ERR_INTERNAL ("a bug in addbo") never happens.
inline int check_status(int status, const char* call) {
  if (status < ADDBO_OK || status > ADDBO_ERR_INTERNAL) {
    fail(std::string(call) + " returned the unknown status " + std::to_string(status));
  }
  if (status == ADDBO_ERR_INTERNAL) fail(std::string(call) + " returned ADDBO_ERR_INTERNAL");
  if (status != ADDBO_OK && addbo_last_error()[0] == '\0') {
    fail(std::string(call) + " failed without a message");
  }
  return status;
}

// Owns an optimizer handle.
class Handle {
 public:
  Handle() = default;
  explicit Handle(addbo_optimizer* handle) : handle_(handle) {}
  Handle(Handle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      addbo_destroy(handle_);
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { addbo_destroy(handle_); }
  addbo_optimizer* get() const { return handle_; }
  addbo_optimizer** out() {
    addbo_destroy(handle_);
    handle_ = nullptr;
    return &handle_;
  }
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  addbo_optimizer* handle_ = nullptr;
};

// A string returned by addbo_info/addbo_save, copied.
inline std::string take_text(char* text) {
  std::string copy(text);
  addbo_free_string(text);
  return copy;
}

// addbo_info's text without what docs/c-api.md says is not part of the saved state: the time
// of the last learning ("seconds"), what the last ask did ("search.last_ask": "none" after a
// load), and before any learning the log-likelihood of the current model, which exists only
// once an ask has built it ("log_likelihood" is null after a load).
inline std::string comparable_info(const std::string& text) {
  nlohmann::json info = nlohmann::json::parse(text, nullptr, false);
  if (!info.is_object()) fail("addbo_info returned text that is not a JSON object: " + text);
  info.erase("seconds");
  if (info.contains("search") && info["search"].is_object()) info["search"].erase("last_ask");
  if (info.value("learned_at_observations", 0) == 0) info.erase("log_likelihood");
  return info.dump();
}

// addbo_save must succeed on every optimizer (its state is small here).
inline std::string save(const addbo_optimizer* handle, const char* where) {
  char* text = nullptr;
  const int status = check_status(addbo_save(handle, &text), "addbo_save");
  if (status != ADDBO_OK) fail(std::string("addbo_save failed (") + where + ")");
  check(text != nullptr, "addbo_save returned ADDBO_OK and no text");
  return take_text(text);
}

// Every state addbo_save writes loads, and saves back to the same bytes.
inline Handle restore(const std::string& state, const char* where) {
  Handle restored;
  const int status = check_status(addbo_load(restored.out(), state.c_str()), "addbo_load");
  if (status != ADDBO_OK) {
    fail(std::string("a state written by addbo_save does not load (") + where +
         "): " + addbo_last_error() + "\nstate: " + state);
  }
  const std::string again = save(restored.get(), where);
  if (again != state) {
    fail(std::string("load(save) saves different bytes (") + where + ")\nsaved:   " + state +
         "\nresaved: " + again);
  }
  return restored;
}

inline std::size_t dimension_of(const addbo_optimizer* handle) {
  std::size_t dim = 0;
  check(check_status(addbo_dimension(handle, &dim), "addbo_dimension") == ADDBO_OK,
        "addbo_dimension failed");
  return dim;
}

// Bitwise equality: NaN equals the same NaN, 0.0 differs from -0.0.
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof a[0]) == 0);
}

inline std::string point_text(const std::vector<double>& x) {
  std::string text = "[";
  char number[40];
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::snprintf(number, sizeof number, "%s%.17g", i == 0 ? "" : ", ", x[i]);
    text += number;
  }
  return text + "]";
}

// One call of the C API on a handle, with its arguments.
struct Call {
  enum Kind {
    ask,
    tell,
    cancel,
    best,
    count,
    info,
    learn,
    dimension,
    predict,
    predict_json,
    predicted_best,
    save_state
  } kind = ask;
  std::vector<double> x;      // tell, cancel, predict*: the point (its size is dim unless wrong)
  std::size_t dim = 0;        // ask, tell, cancel, best, predict*: the dim argument
  double y = 0.0;             // tell
  bool null_pointer = false;  // pass NULL for x (or y, counts, text, learned)

  std::string text() const {
    static const char* const names[] = {"ask",     "tell",         "cancel",         "best",
                                        "count",   "info",         "learn",          "dimension",
                                        "predict", "predict_json", "predicted_best", "save"};
    std::string out = std::string("addbo_") + names[kind] + "(dim " + std::to_string(dim);
    if (kind == tell || kind == cancel || kind == predict || kind == predict_json)
      out += ", x " + point_text(x);
    if (kind == tell) out += ", y " + point_text({y});
    if (null_pointer) out += ", NULL";
    return out + ")";
  }
};

// What a call returned.
struct Outcome {
  int status = ADDBO_OK;
  std::vector<double> x;
  double y = 0.0;
  std::size_t first = 0, second = 0;
  int learned = 0;
  std::string text;
};

// A bit pattern no call writes (a NaN with a payload): outputs must keep it after a failure.
inline double untouched() {
  const std::uint64_t bits = 0x7ff4deadbeef1234u;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// How perform makes the C call: directly. The allocation-failure test (tests/oom) passes a
// function object of its own, which arms its failing allocator around the C call alone.
struct DirectCall {
  template <class Body>
  int operator()(Body&& body) const {
    return body();
  }
};

// Runs the call; checks the status and that a failure left the outputs untouched.
template <class Api = DirectCall>
inline Outcome perform(addbo_optimizer* handle, const Call& call, Api&& api = Api()) {
  Outcome out;
  const double mark = untouched();
  switch (call.kind) {
    case Call::ask:
      out.x.assign(call.dim, mark);
      out.status = check_status(api([&] {
                                  return addbo_ask(
                                      handle, call.null_pointer ? nullptr : out.x.data(), call.dim);
                                }),
                                "addbo_ask");
      break;
    case Call::tell:
      out.status =
          check_status(api([&] {
                         return addbo_tell(handle, call.null_pointer ? nullptr : call.x.data(),
                                           call.dim, call.y);
                       }),
                       "addbo_tell");
      break;
    case Call::cancel:
      out.status = check_status(
          api([&] {
            return addbo_cancel(handle, call.null_pointer ? nullptr : call.x.data(), call.dim);
          }),
          "addbo_cancel");
      break;
    case Call::best:
      out.x.assign(call.dim, mark);
      out.y = mark;
      out.status = check_status(
          api([&] {
            return addbo_best(handle, call.null_pointer ? nullptr : out.x.data(), call.dim, &out.y);
          }),
          "addbo_best");
      break;
    case Call::count:
      out.first = out.second = 12345;
      out.status = check_status(api([&] {
                                  return addbo_count(handle, &out.first,
                                                     call.null_pointer ? nullptr : &out.second);
                                }),
                                "addbo_count");
      break;
    case Call::info:
    case Call::save_state:
    case Call::predict_json: {
      char* text = reinterpret_cast<char*>(&out);  // must become NULL on failure
      char** text_out = call.null_pointer ? nullptr : &text;
      const char* name = call.kind == Call::info         ? "addbo_info"
                         : call.kind == Call::save_state ? "addbo_save"
                                                         : "addbo_predict_json";
      out.status =
          check_status(api([&] {
                         return call.kind == Call::info ? addbo_info(handle, text_out)
                                : call.kind == Call::save_state
                                    ? addbo_save(handle, text_out)
                                    : addbo_predict_json(handle, call.x.data(), call.dim, text_out);
                       }),
                       name);
      if (call.null_pointer) break;
      if (out.status == ADDBO_OK) {
        check(text != nullptr, std::string(name) + " returned ADDBO_OK and no text");
        out.text = take_text(text);
        if (call.kind == Call::info) out.text = comparable_info(out.text);
      } else {
        check(text == nullptr, std::string("a failed ") + name + " did not set *json_out to NULL");
      }
      break;
    }
    case Call::predict:
      out.x.assign(2, mark);  // mean, stddev
      out.status =
          check_status(api([&] {
                         return addbo_predict(handle, call.null_pointer ? nullptr : call.x.data(),
                                              call.dim, &out.x[0], &out.x[1]);
                       }),
                       "addbo_predict");
      break;
    case Call::predicted_best:
      out.x.assign(call.dim + 2, mark);  // the point, its mean and stddev
      out.status = check_status(api([&] {
                                  return addbo_predicted_best(
                                      handle, call.null_pointer ? nullptr : out.x.data(), call.dim,
                                      &out.x[call.dim], &out.x[call.dim + 1]);
                                }),
                                "addbo_predicted_best");
      break;
    case Call::learn:
      out.learned = 7;
      out.status = check_status(
          api([&] { return addbo_learn(handle, call.null_pointer ? nullptr : &out.learned); }),
          "addbo_learn");
      if (out.status == ADDBO_OK && !call.null_pointer) {
        check(out.learned == 0 || out.learned == 1,
              "addbo_learn: *learned is " + std::to_string(out.learned));
      }
      break;
    case Call::dimension:
      out.first = 12345;
      out.status = check_status(
          api([&] { return addbo_dimension(handle, call.null_pointer ? nullptr : &out.first); }),
          "addbo_dimension");
      break;
  }
  if (out.status != ADDBO_OK) {
    for (double value : out.x) check(same_bits(value, mark), call.text() + " failed and wrote x");
    if (call.kind == Call::best) check(same_bits(out.y, mark), call.text() + " failed and wrote y");
    if (call.kind == Call::count)
      check(out.first == 12345 && out.second == 12345, call.text() + " failed and wrote a count");
    if (call.kind == Call::learn)
      check(out.learned == 7, call.text() + " failed and wrote *learned");
  }
  // A NULL pointer is refused (addbo_learn's `learned` may be NULL).
  if (call.null_pointer && call.kind != Call::learn) {
    check(out.status == ADDBO_ERR_INVALID_ARGUMENT,
          call.text() + " with a NULL pointer returned " + addbo_status_name(out.status));
  }
  return out;
}

inline bool same_outcome(const Outcome& a, const Outcome& b) {
  return a.status == b.status && same_bits(a.x, b.x) && same_bits(a.y, b.y) && a.first == b.first &&
         a.second == b.second && a.learned == b.learned && a.text == b.text;
}

inline std::string outcome_text(const Outcome& outcome) {
  std::string text = addbo_status_name(outcome.status);
  if (!outcome.x.empty()) text += " x " + point_text(outcome.x);
  if (!outcome.text.empty()) text += " text " + outcome.text;
  if (outcome.learned != 0) text += " learned " + std::to_string(outcome.learned);
  return text;
}

// Runs the call on `opt`, whose saved state is `state` (updated to the state after the call),
// and checks the contract:
//  - a call that may change the optimizer (ask, tell, cancel, learn) is also made on a twin
//    restored from `state`: both give the same outcome and save the same bytes afterwards
//    (load(save) continues identically);
//  - a failing call leaves the saved state byte-identical; a read (best, count, dimension,
//    info) never changes it.
//  `with_twin` false skips the twin (the costly part: a load and the call again, with a model
//  built from scratch), keeping the other checks.
inline Outcome step(Handle& opt, std::string& state, const Call& call, bool with_twin = true) {
  static const bool trace = std::getenv("ADDBO_FUZZ_TRACE") != nullptr;
  const bool changes = call.kind == Call::ask || call.kind == Call::tell ||
                       call.kind == Call::cancel || call.kind == Call::learn;
  const bool twinned = changes && with_twin;
  Handle twin;
  if (twinned) twin = restore(state, "before a call");
  const Outcome outcome = perform(opt.get(), call);
  if (trace) std::fprintf(stderr, "%s -> %s\n", call.text().c_str(), outcome_text(outcome).c_str());
  if (twinned) {
    const Outcome twin_outcome = perform(twin.get(), call);
    if (!same_outcome(outcome, twin_outcome)) {
      fail(call.text() + " differs on the optimizer restored from its saved state: " +
           outcome_text(outcome) + " vs " + outcome_text(twin_outcome) + "\nstate: " + state);
    }
  }
  const std::string after = save(opt.get(), "after a call");
  if ((outcome.status != ADDBO_OK || !changes) && after != state) {
    fail(call.text() + " returned " + addbo_status_name(outcome.status) +
         " and changed the saved state\nbefore: " + state + "\nafter:  " + after);
  }
  if (twinned && save(twin.get(), "after a call") != after) {
    fail(call.text() +
         ": the restored optimizer saves different bytes after the call\nstate before: " + state);
  }
  state = after;
  return outcome;
}

// After a successful create or load: save, load(save), info, and the first ask and tell (each
// checked against a twin). The ask is skipped above `max_dimension` variables (the targets'
// work bound).
inline void first_steps(Handle& opt, std::size_t max_dimension) {
  std::string state = save(opt.get(), "after create/load");
  restore(state, "after create/load");
  Call call;
  call.kind = Call::info;
  check(step(opt, state, call).status == ADDBO_OK, "addbo_info failed");
  const std::size_t dim = dimension_of(opt.get());
  if (dim > max_dimension) return;
  call.kind = Call::ask;
  call.dim = dim;
  const Outcome asked = step(opt, state, call);
  if (asked.status != ADDBO_OK) return;
  call.kind = Call::tell;
  call.x = asked.x;
  call.y = 1.0;
  step(opt, state, call);
}

// Fuzz bytes as a stream of choices; an exhausted stream reads zeros.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return size_ == 0; }
  std::uint8_t byte() {
    if (size_ == 0) return 0;
    --size_;
    return *data_++;
  }
  // A value in [0, bound), bound >= 1.
  std::uint32_t below(std::uint32_t bound) {
    const std::uint32_t value =
        bound <= 256 ? byte() : (static_cast<std::uint32_t>(byte()) << 8 | byte());
    return value % bound;
  }
  double fraction() { return (static_cast<double>(byte()) * 256.0 + byte()) / 65535.0; }
  double raw_double() {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | byte();
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  // A value to tell: ordinary values most of the time, and every kind of awkward double.
  double value() {
    switch (byte() % 16) {
      case 0:
        return std::nan("");
      case 1:
        return HUGE_VAL;
      case 2:
        return -HUGE_VAL;
      case 3:
        return 1e300 * (byte() % 2 ? 1 : -1);
      case 4:
        return 4.94e-324;
      case 5:
        return 0.0;
      case 6:
        return -0.0;
      case 7:
        return raw_double();
      case 8:
        return 1.0000000000000002e300;
      default:
        return (fraction() - 0.5) * 20.0;
    }
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

}  // namespace addbo_fuzz
