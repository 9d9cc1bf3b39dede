#include "state_text.hpp"

#include <cstddef>
#include <string>

#include "util/error.hpp"
#include "util/text.hpp"

namespace addbo::capi {
namespace {

// The deepest nesting of arrays and objects in the text, counting brackets outside strings.
// For valid JSON this is exact; for invalid JSON any miscount is harmless because the parser
// rejects the text anyway.
int nesting_depth(const char* text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (const char* p = text; *p != '\0'; ++p) {
    if (in_string) {
      if (*p == '\\' && p[1] != '\0') {
        ++p;  // the escaped character cannot end the string
      } else if (*p == '"') {
        in_string = false;
      }
    } else if (*p == '"') {
      in_string = true;
    } else if (*p == '[' || *p == '{') {
      if (++depth > deepest) deepest = depth;
    } else if (*p == ']' || *p == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

nlohmann::json parse_state_text(const char* text) {
  const int depth = nesting_depth(text);
  if (depth > kMaxStateDepth) {
    throw Error(Status::state, "state_json nests " + std::to_string(depth) +
                                   " levels deep; a saved state has at most " +
                                   std::to_string(kMaxStateDepth));
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // A parse_error, or out_of_range for a number that overflows a double; e.what() says where
    // after the library's tag.
    throw Error(Status::state, "state_json is not valid JSON: " + without_json_tag(e.what()));
  }
}

}  // namespace addbo::capi
