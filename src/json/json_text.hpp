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
// documents give equal bytes (the saved state's promise, docs/saved-state.md).
std::string json_to_text(const nlohmann::json& document);

}  // namespace addbo::core
