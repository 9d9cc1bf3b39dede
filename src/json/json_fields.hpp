// The field readers every document of the core is read with (the configuration, the saved
// state): each takes a JSON value and its JSON pointer, and returns the checked value or throws
// JsonError at that pointer with the same words for the same rule, whichever document it is in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "json/json_error.hpp"

namespace addbo::core {

// The JSON pointer of member `key` / element `index` of the value at `parent` (RFC 6901: "~" and
// "/" in keys are escaped as "~0" and "~1").
std::string pointer_child(const std::string& parent, const std::string& key);
std::string pointer_child(const std::string& parent, std::size_t index);

// Throws JsonError(pointer, message): for the checks a reader makes beyond the ones below.
[[noreturn]] void fail_at(const std::string& pointer, const std::string& message);

// A short rendering of a value for messages ("an object", "an array of 3 elements", "0.5",
// "\"text\""), and the same as " (got ...)" to end a message with.
std::string describe_value(const nlohmann::json& value);
std::string got_value(const nlohmann::json& value);

// The members of a JSON object, its keys all checked against a list: any other key is refused at
// its pointer ("unknown key (allowed here: ...)", a long key cut short in the pointer). Keeps a
// reference to `value`, which must outlive it.
class JsonObject {
 public:
  JsonObject(const nlohmann::json& value, std::string pointer,
             std::initializer_list<const char*> allowed);
  JsonObject(const nlohmann::json& value, std::string pointer,
             const std::vector<std::string>& allowed);

  // An optional member: null when absent.
  const nlohmann::json* find(const char* key) const;
  // A required member: "is required" (then `why`, when given) when absent.
  const nlohmann::json& require(const char* key, const std::string& why = "") const;
  // A member the schema allows in this object only in other cases: "is not allowed <why>".
  void forbid(const char* key, const std::string& why) const;
  // The pointer of member `key`.
  std::string at(const std::string& key) const;
  const std::string& pointer() const { return pointer_; }

 private:
  const nlohmann::json& value_;
  std::string pointer_;
};

// How an integer may be written: as a JSON integer only (7), or also as a float with a whole
// value (7.0, 7e0), which the configuration accepts from writers that only have doubles.
enum class IntegerSpelling { integer_only, whole_number };

// An integer from `min` to `max` (the whole unsigned 64-bit range at most); never a boolean.
// `noun` names what is expected in messages ("must be an integer from 1 to 8").
std::uint64_t require_integer(const nlohmann::json& value, const std::string& pointer,
                              std::uint64_t min, std::uint64_t max,
                              IntegerSpelling spelling = IntegerSpelling::integer_only,
                              const char* noun = "an integer");
// A finite number; "must be greater than 0" for the positive one.
double require_finite(const nlohmann::json& value, const std::string& pointer);
double require_positive(const nlohmann::json& value, const std::string& pointer);
bool require_boolean(const nlohmann::json& value, const std::string& pointer);
// A string that dumps as valid UTF-8 (text input is already checked by the parser; this catches
// documents built in C++), so that it can go into a saved state and an error message.
const std::string& require_string(const nlohmann::json& value, const std::string& pointer);
// An array ("must be <description>"); then, for an array, exactly `length` elements ("must have
// exactly <length> <elements>").
void require_array(const nlohmann::json& value, const std::string& pointer,
                   const std::string& description);
void require_length(const nlohmann::json& value, const std::string& pointer, std::size_t length,
                    const std::string& elements);

// Whether `value` is the string `text`. Never allocates: nlohmann's operator== against a
// literal builds a JSON temporary inside a noexcept function (std::terminate when that
// allocation fails).
inline bool is_string_value(const nlohmann::json& value, const char* text) noexcept {
  return value.is_string() && value.get_ref<const std::string&>() == text;
}

// A string from a set: one table per enumeration, used both to read and to write, so that the
// two cannot drift.
template <class E>
using NameTable = std::initializer_list<std::pair<const char*, E>>;

template <class E>
const char* name_of(const NameTable<E>& table, E value) {
  for (const auto& entry : table) {
    if (entry.second == value) return entry.first;
  }
  return "";  // unreachable for a valid enum value
}

template <class E>
E require_name(const nlohmann::json& value, const std::string& pointer, const NameTable<E>& table) {
  std::string options;
  for (const auto& entry : table) {
    if (is_string_value(value, entry.first)) return entry.second;
    options += (options.empty() ? "\"" : ", \"") + std::string(entry.first) + "\"";
  }
  fail_at(pointer, "must be one of " + options + got_value(value));
}

}  // namespace addbo::core
