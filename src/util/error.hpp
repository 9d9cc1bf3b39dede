// Errors raised inside the core. The C API maps each Status to its ADDBO_ERR_* value and the
// message to addbo_last_error(); nothing else in the core knows about the C boundary.
#pragma once

#include <stdexcept>
#include <string>

namespace addbo {

enum class Status {
  ok = 0,
  invalid_argument = 1,
  config = 2,
  state = 3,
  numerical = 4,
  out_of_memory = 5,
  internal = 6,
};

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  Status status() const { return status_; }

 private:
  Status status_;
};

// A bad configuration; `pointer` is the JSON pointer of the offending field ("" for the root).
class ConfigError : public Error {
 public:
  ConfigError(const std::string& pointer, const std::string& message)
      : Error(Status::config, (pointer.empty() ? std::string("/") : pointer) + ": " + message),
        pointer_(pointer),
        message_(message) {}
  const std::string& pointer() const { return pointer_; }
  // What is wrong, without the pointer (what() is "<pointer>: <message>").
  const std::string& message() const { return message_; }

 private:
  std::string pointer_;
  std::string message_;
};

inline Error invalid_argument(const std::string& message) {
  return Error(Status::invalid_argument, message);
}

}  // namespace addbo
