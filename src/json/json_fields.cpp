#include "json/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "util/text.hpp"

namespace addbo::core {

namespace {

using json = nlohmann::json;

// Unknown keys longer than this are shortened in error messages (a 100 MB key is not echoed).
constexpr std::size_t kLongestKeyShown = 64;
constexpr double kTwoTo64 = 18446744073709551616.0;

bool is_whole(double value) { return std::isfinite(value) && std::floor(value) == value; }

}  // namespace

std::string pointer_child(const std::string& parent, const std::string& key) {
  std::string pointer = parent;
  pointer.reserve(parent.size() + key.size() + 1);
  pointer += '/';
  for (const char c : key) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
  return pointer;
}

std::string pointer_child(const std::string& parent, std::size_t index) {
  return parent + '/' + std::to_string(index);
}

void fail_at(const std::string& pointer, const std::string& message) {
  throw JsonError(pointer, message);
}

std::string describe_value(const json& value) {
  switch (value.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      if (value.empty()) return "an empty array";
      return "an array of " + std::to_string(value.size()) +
             (value.size() == 1 ? " element" : " elements");
    case json::value_t::number_float:
      return format_number(value.get<double>());
    default:
      return shorten_for_message(value.dump(-1, ' ', false, json::error_handler_t::replace));
  }
}

std::string got_value(const json& value) { return " (got " + describe_value(value) + ")"; }

JsonObject::JsonObject(const json& value, std::string pointer,
                       std::initializer_list<const char*> allowed)
    : JsonObject(value, std::move(pointer),
                 std::vector<std::string>(allowed.begin(), allowed.end())) {}

JsonObject::JsonObject(const json& value, std::string pointer,
                       const std::vector<std::string>& allowed)
    : value_(value), pointer_(std::move(pointer)) {
  if (!value.is_object()) fail_at(pointer_, "must be an object" + got_value(value));
  for (const auto& item : value.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
      std::string list;
      for (const std::string& name : allowed) list += (list.empty() ? "" : ", ") + name;
      fail_at(at(shorten_for_message(item.key(), kLongestKeyShown)),
              "unknown key (allowed here: " + list + ")");
    }
  }
}

const json* JsonObject::find(const char* key) const {
  const auto it = value_.find(key);
  return it == value_.end() ? nullptr : &*it;
}

const json& JsonObject::require(const char* key, const std::string& why) const {
  const json* value = find(key);
  if (value == nullptr) fail_at(at(key), why.empty() ? "is required" : "is required " + why);
  return *value;
}

void JsonObject::forbid(const char* key, const std::string& why) const {
  if (find(key) != nullptr) fail_at(at(key), "is not allowed " + why);
}

std::string JsonObject::at(const std::string& key) const { return pointer_child(pointer_, key); }

std::uint64_t require_integer(const json& value, const std::string& pointer, std::uint64_t min,
                              std::uint64_t max, IntegerSpelling spelling, const char* noun) {
  bool in_range = false;
  std::uint64_t result = 0;
  if (value.is_number_unsigned()) {
    result = value.get<std::uint64_t>();
    in_range = true;
  } else if (value.is_number_integer()) {
    const std::int64_t signed_value = value.get<std::int64_t>();
    in_range = signed_value >= 0;
    result = static_cast<std::uint64_t>(signed_value);
  } else if (value.is_number_float() && is_whole(value.get<double>()) &&
             spelling == IntegerSpelling::whole_number) {
    const double whole = value.get<double>();
    in_range = whole >= 0 && whole < kTwoTo64;
    if (in_range) result = static_cast<std::uint64_t>(whole);
  } else if (value.is_number_float() && is_whole(value.get<double>())) {
    fail_at(pointer, "must be " + std::string(noun) + " written without a fraction or exponent" +
                         got_value(value));
  } else {
    fail_at(pointer, "must be " + std::string(noun) + got_value(value));
  }
  if (!in_range || result < min || result > max) {
    fail_at(pointer, "must be " + std::string(noun) + " from " + std::to_string(min) + " to " +
                         std::to_string(max) + got_value(value));
  }
  return result;
}

double require_finite(const json& value, const std::string& pointer) {
  if (!value.is_number()) fail_at(pointer, "must be a number" + got_value(value));
  const double number = value.get<double>();
  if (!std::isfinite(number)) fail_at(pointer, "must be a finite number" + got_value(value));
  return number;
}

double require_positive(const json& value, const std::string& pointer) {
  const double number = require_finite(value, pointer);
  if (!(number > 0)) fail_at(pointer, "must be greater than 0" + got_value(value));
  return number;
}

bool require_boolean(const json& value, const std::string& pointer) {
  if (!value.is_boolean()) fail_at(pointer, "must be true or false" + got_value(value));
  return value.get<bool>();
}

const std::string& require_string(const json& value, const std::string& pointer) {
  if (!value.is_string()) fail_at(pointer, "must be a string" + got_value(value));
  try {
    (void)value.dump();
  } catch (const json::type_error&) {
    fail_at(pointer, "must be valid UTF-8");
  }
  return value.get_ref<const std::string&>();
}

void require_array(const json& value, const std::string& pointer, const std::string& description) {
  if (!value.is_array()) fail_at(pointer, "must be " + description + got_value(value));
}

void require_length(const json& value, const std::string& pointer, std::size_t length,
                    const std::string& elements) {
  if (value.size() != length) {
    fail_at(pointer,
            "must have exactly " + std::to_string(length) + " " + elements + got_value(value));
  }
}

}  // namespace addbo::core
