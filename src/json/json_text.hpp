// JSON text in and out, for every document of the core: the configuration, the saved state, and
// the info and prediction documents. One parser, so that every document is held to the same
// rules; one writer, so that every document is written the same way.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace addbo::core {

// What differs between the documents read from text.
struct JsonTextRules {
  const char* document;  // names the text in messages: "configuration", "saved state"
  int max_depth;         // arrays and objects nested deeper are refused before parsing
};

// Parses `text` (all of its bytes: a NUL byte is malformed JSON, not the end of the text) as
// exactly one JSON value. Throws JsonError: at "" for empty text, nesting deeper than
// rules.max_depth and malformed JSON (the message names the byte position, line and column), at the
// key's pointer for a key repeated in one object, at the value's pointer for a number that
// overflows a double. Messages never carry the JSON library's tags. Nothing else escapes except
// std::bad_alloc.
nlohmann::json parse_json_text(const std::string& text, const JsonTextRules& rules);

// The compact text of a document: no spaces, keys in sorted order, doubles exact, so that equal
// documents give equal bytes (the saved state's promise, docs/saved-state.md). The overload for
// a temporary releases it afterwards (release_json), also when writing fails.
std::string json_to_text(const nlohmann::json& document);
std::string json_to_text(nlohmann::json&& document);

// Empties a document from its leaves up, so that it is destroyed without allocating.
// nlohmann's destructor flattens a non-empty array or object into a std::vector it allocates
// inside the noexcept destructor: std::terminate when that allocation fails. So no document of
// the core is destroyed while it holds anything: each is built in place and released by these
// functions when it is dropped (also when building or reading it throws). Recursion is bounded by
// the depth of the document (kMaxStateDepth for parsed text; a few levels for those the core
// builds).
void release_json(nlohmann::json& document) noexcept;

// Calls release_json on a document when the scope ends: for a document parsed, read and dropped.
class JsonRelease {
 public:
  explicit JsonRelease(nlohmann::json& document) noexcept : document_(document) {}
  JsonRelease(const JsonRelease&) = delete;
  JsonRelease& operator=(const JsonRelease&) = delete;
  ~JsonRelease() { release_json(document_); }

 private:
  nlohmann::json& document_;
};

// slot = value, for a value that converts to an array: written `object[key] = value`, C++17
// converts the value before it makes the member, and if making the member then fails, the
// converted array is destroyed, which allocates. put(object[key], value) makes the member first.
template <class T>
void put(nlohmann::json& slot, const T& value) {
  slot = value;
}

// Sets `slot` to an array holding one array per element of `rows` (vectors of numbers, pairs),
// each made in place in the array: nlohmann's conversion of a nested container builds the inner
// arrays first and destroys those already built when a later one fails, which allocates.
template <class Rows>
void set_array_of_arrays(nlohmann::json& slot, const Rows& rows) {
  slot = nlohmann::json::array();
  for (const auto& row : rows) slot.emplace_back(row);
}

// A new object built by build(object) in place; if build throws, what it had built is released
// (release_json) before the exception goes on. The builders of the core's documents use it: they
// set members with operator[], append arrays and objects with emplace_back, and never build a
// nested value in a temporary (nlohmann's constructor from an initializer list of key-value
// pairs destroys a two-element array per member, which allocates; a temporary array destroyed
// while an exception is on its way out allocates too).
template <class Build>
nlohmann::json build_json_object(Build&& build) {
  nlohmann::json object = nlohmann::json::object();
  try {
    build(object);
  } catch (...) {
    release_json(object);
    throw;
  }
  return object;
}

}  // namespace addbo::core
