#include "util/text.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>

#if __has_include(<charconv>)
#include <charconv>
#endif
#if !defined(__cpp_lib_to_chars)
#include <nlohmann/json.hpp>
#endif

namespace addbo::core {

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  // Whole values as the user most likely wrote them ("1000000", not "1e+06"); -0 as "0".
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
#if defined(__cpp_lib_to_chars)
  // Without a precision, to_chars writes the shortest digits that round-trip, in the "C" style
  // whatever the locale: "d.ddde±XX". Like %g, values from 1e-4 to below 1e17 are then written
  // without the exponent ("1234567.5", "0.0001"), others keep it ("1e-09", "1e+20").
  char buffer[64];
  const std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string scientific(buffer, result.ptr);
  const std::string::size_type e = scientific.find('e');
  int exponent = 0;
  for (std::string::size_type i = e + 2; i < scientific.size(); ++i) {
    exponent = exponent * 10 + (scientific[i] - '0');
  }
  if (scientific[e + 1] == '-') exponent = -exponent;
  if (exponent < -4 || exponent >= 17) return scientific;
  const bool negative = scientific[0] == '-';
  std::string digits;
  for (std::string::size_type i = negative ? 1 : 0; i < e; ++i) {
    if (scientific[i] != '.') digits += scientific[i];
  }
  std::string text = negative ? "-" : "";
  if (exponent < 0) {
    text += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  } else {
    const std::size_t whole = static_cast<std::size_t>(exponent) + 1;
    if (digits.size() <= whole) {
      text += digits + std::string(whole - digits.size(), '0');
    } else {
      text += digits.substr(0, whole) + "." + digits.substr(whole);
    }
  }
  return text;
#endif
}

std::string shorten_for_message(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  // Back up over UTF-8 continuation bytes (10xxxxxx) to the start of a character.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

const char* skip_json_tag(const char* what) noexcept {
  static const char kPrefix[] = "[json.exception.";
  if (std::strncmp(what, kPrefix, sizeof kPrefix - 1) != 0) return what;
  const char* end = std::strstr(what, "] ");
  return end == nullptr ? what : end + 2;
}

std::string without_json_tag(const std::string& what) { return skip_json_tag(what.c_str()); }

}  // namespace addbo::core
