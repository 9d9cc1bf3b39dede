// Errors raised inside the core. The C API maps each Status to its ADDBO_ERR_* value and the
// message to addbo_last_error(); nothing else in the core knows about the C boundary.
#pragma once

#include <stdexcept>
#include <string>

namespace addbo::core {

enum class Status {
  ok = 0,
  invalid_argument = 1,
  config = 2,
  state = 3,
  numerical = 4,
  out_of_memory = 5,
  internal = 6,
  interrupted = 7,  // the host asked to stop (addbo_interrupt); nothing changed
};

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  Status status() const { return status_; }

 private:
  Status status_;
};

// A bad field of a JSON document the core reads (a configuration, a saved state): `pointer` is
// the JSON pointer of the offending field ("" for the root, shown as "/"), `message` what is
// wrong; what() is "<prefix><pointer>: <message>".
class DocumentError : public Error {
 public:
  const std::string& pointer() const { return pointer_; }
  // What is wrong, without the pointer.
  const std::string& message() const { return message_; }

 protected:
  DocumentError(Status status, const std::string& prefix, const std::string& pointer,
                const std::string& message)
      : Error(status, prefix + (pointer.empty() ? std::string("/") : pointer) + ": " + message),
        pointer_(pointer),
        message_(message) {}

 private:
  std::string pointer_;
  std::string message_;
};

// A bad configuration: Status::config, what() is "<pointer>: <message>".
class ConfigError : public DocumentError {
 public:
  ConfigError(const std::string& pointer, const std::string& message)
      : DocumentError(Status::config, "", pointer, message) {}
};

// A bad saved state: Status::state, what() is "saved state <pointer>: <message>".
class StateError : public DocumentError {
 public:
  StateError(const std::string& pointer, const std::string& message)
      : DocumentError(Status::state, "saved state ", pointer, message) {}
};

inline Error invalid_argument(const std::string& message) {
  return Error(Status::invalid_argument, message);
}

}  // namespace addbo::core
