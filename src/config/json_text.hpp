// Text-level JSON handling for the configuration (internal to src/config): the checks nlohmann's
// parser does not make on its own (nesting depth, duplicate keys) and JSON-pointer building.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "util/text.hpp"  // shorten_for_message

namespace addbo {

// The JSON pointer of member `key` / element `index` of the value at `parent` (RFC 6901: "~" and
// "/" in keys are escaped as "~0" and "~1").
std::string pointer_child(const std::string& parent, const std::string& key);
std::string pointer_child(const std::string& parent, std::size_t index);

// Parses `text` as one JSON document. Throws ConfigError: at "" for empty text, nesting deeper
// than kMaxJsonDepth and malformed JSON (the message names the byte position); at the key's
// pointer for a key repeated in one object; at the value's pointer for a number that overflows a
// double. Nothing else escapes except std::bad_alloc.
nlohmann::json parse_json_text(const std::string& text);

}  // namespace addbo
