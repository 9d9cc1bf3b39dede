// Text for messages users read: numbers and the JSON library's exception texts. Every message that
// prints a double goes through format_number(), so a value prints the same everywhere and reads
// back exactly.
#pragma once

#include <cstddef>
#include <string>

namespace addbo::core {

// The shortest text that reads back as exactly `value` (round trip), independent of the global
// and C locales: whole numbers below 1e15 in magnitude as integers ("2", "4096"), others with
// the fewest significant digits that round-trip, without an exponent from 1e-4 to below 1e17
// ("0.1", "0.0001", "1234567.5", "0.30000000000000004") and with one outside ("1e-09",
// "2.5e-09", "1e+20"); NaN and the infinities as "NaN", "Infinity", "-Infinity" (JSON's
// spellings in the configuration's rules).
std::string format_number(double value);

// `text` cut to at most `limit` bytes plus "..." for quoting user input in an error message; never
// cuts inside a UTF-8 sequence, so messages stay valid UTF-8 for the language bindings.
std::string shorten_for_message(const std::string& text, std::size_t limit = 40);

// nlohmann::json's what() texts start with a tag such as "[json.exception.type_error.302] ";
// users get the rest. Text without the tag is returned unchanged. The second form allocates
// nothing: it points into `what`.
std::string without_json_tag(const std::string& what);
const char* skip_json_tag(const char* what) noexcept;

}  // namespace addbo::core
