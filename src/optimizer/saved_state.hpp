// The saved state's text (docs/saved-state.md). The document itself is written and read by
// save_state and restore_state (optimizer_engine.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace addbo::core {

// Saved states are shallow; anything nested deeper is corrupt, and refusing it up front keeps
// the recursive code that walks JSON (dump, the readers) away from hostile depths.
constexpr int kMaxStateDepth = 64;

// The text of a saved state as JSON, by the rules of every document of the core
// (json/json_text.hpp) with kMaxStateDepth: throws StateError for text that is not exactly one
// JSON value (malformed, truncated, trailing garbage), a key repeated in one object, a number
// that overflows a double, or nesting deeper than kMaxStateDepth.
nlohmann::json parse_state_text(const std::string& text);

}  // namespace addbo::core
