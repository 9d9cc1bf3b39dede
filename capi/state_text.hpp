// Turns the text given to addbo_load() into JSON, before the core checks its contents.
#pragma once

#include <nlohmann/json.hpp>

namespace addbo::capi {

// Saved states are shallow; anything nested deeper is corrupt, and refusing it up front keeps
// the recursive code that walks JSON (dump, the core's readers) away from hostile depths.
constexpr int kMaxStateDepth = 64;

// Throws Error(Status::state) for text that is not exactly one JSON value (malformed,
// truncated, trailing garbage, a number that overflows a double) or nests deeper than
// kMaxStateDepth.
nlohmann::json parse_state_text(const char* text);

}  // namespace addbo::capi
