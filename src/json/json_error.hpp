// The one error of the JSON layer: a field of a document and what is wrong with it. The layer
// does not know whose document it reads; each reader turns a JsonError into its own error at its
// entry point (parse_config: ConfigError, ADDBO_ERR_CONFIG; the saved state: StateError,
// ADDBO_ERR_STATE), so that the same rule gives the same pointer and words in both.
#pragma once

#include <stdexcept>
#include <string>

namespace addbo::core {

class JsonError : public std::runtime_error {
 public:
  // `pointer` is the JSON pointer of the field ("" for the root).
  JsonError(const std::string& pointer, const std::string& message)
      : std::runtime_error((pointer.empty() ? std::string("/") : pointer) + ": " + message),
        pointer_(pointer),
        message_(message) {}
  const std::string& pointer() const { return pointer_; }
  const std::string& message() const { return message_; }

 private:
  std::string pointer_;
  std::string message_;
};

}  // namespace addbo::core
