#include "json/json_text.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "json/json_error.hpp"
#include "json/json_fields.hpp"
#include "util/text.hpp"

namespace addbo::core {

namespace {

using json = nlohmann::json;

// nlohmann reports a double overflow ("1e400") with this out_of_range id.
constexpr int kNumberOverflowId = 406;

// One linear pass over the raw text before any parsing, so a hostile document with thousands of
// nested brackets is rejected without building (or later walking) a deep tree. Brackets inside
// strings do not count; a backslash escapes the next byte, which covers \" and \\. It also refuses
// NUL bytes: nlohmann's lexer takes a NUL for the end of the input and would accept "[1]\0[",
// and JSON has no NUL outside strings (inside, it must be written \u0000). Positions are counted
// from 1, as the parser counts them in its messages.
void check_raw_text(const std::string& text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  std::size_t line = 1;
  std::size_t line_start = 0;  // index of the current line's first byte
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0') {
      throw JsonError("", "malformed JSON at byte " + std::to_string(i + 1) + " (line " +
                              std::to_string(line) + ", column " +
                              std::to_string(i - line_start + 1) +
                              "): a NUL byte (inside a string, write it as \\u0000)");
    }
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        throw JsonError("", "JSON nesting is deeper than the limit of " +
                                std::to_string(max_depth) + " levels (level " +
                                std::to_string(depth) + " opens at byte " + std::to_string(i + 1) +
                                ")");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      // Unbalanced closers are malformed JSON; the parser reports them with a position.
      --depth;
    }
  }
}

bool is_blank(const std::string& text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

// "malformed JSON at byte 17 (line 1, column 17): syntax error while parsing ..." from nlohmann's
// "parse error at line 1, column 17: syntax error while parsing ...".
std::string malformed_message(std::size_t position, const json::exception& error) {
  std::string detail = without_json_tag(error.what());
  const std::string prefix = "parse error at ";
  const std::string::size_type colon = detail.find(": ");
  std::string where = "at byte " + std::to_string(position);
  if (detail.rfind(prefix, 0) == 0 && colon != std::string::npos) {
    where += " (" + detail.substr(prefix.size(), colon - prefix.size()) + ")";
    detail.erase(0, colon + 2);
  }
  return "malformed JSON " + where + ": " + detail;
}

// A SAX handler that builds the document like nlohmann's own DOM parser, but also knows the JSON
// pointer of the value being read. That lets it reject a key repeated in one object (nlohmann
// silently keeps the last one, which would hide a user's mistake or an edit of a saved state) and
// name the field whose number overflows a double.
class DocumentBuilder {
 public:
  explicit DocumentBuilder(json& root) : root_(root) {}

  bool null() { return add(nullptr); }
  bool boolean(bool value) { return add(value); }
  bool number_integer(json::number_integer_t value) { return add(value); }
  bool number_unsigned(json::number_unsigned_t value) { return add(value); }
  bool number_float(json::number_float_t value, const std::string& /*text*/) { return add(value); }
  bool string(std::string& value) { return add(std::move(value)); }
  bool binary(json::binary_t& value) { return add(json::binary(std::move(value))); }

  bool start_object(std::size_t /*elements*/) { return open(json::object()); }
  bool start_array(std::size_t /*elements*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& name) {
    Frame& frame = open_.back();
    if (frame.container->contains(name)) {
      throw JsonError(pointer_child(frame.pointer, name),
                      "duplicate key \"" + shorten_for_message(name) +
                          "\": each key may appear only once in an object");
    }
    frame.key = std::move(name);
    return true;
  }

  bool parse_error(std::size_t position, const std::string& token, const json::exception& error) {
    if (error.id == kNumberOverflowId) {
      throw JsonError(next_pointer(), "the number " + shorten_for_message(token) +
                                          " is too large in magnitude for a double");
    }
    throw JsonError("", malformed_message(position, error));
  }

 private:
  struct Frame {
    json* container;
    std::string pointer;
    std::string key;  // objects: the key whose value comes next
  };

  // The pointer of the value the parser is about to deliver.
  std::string next_pointer() const {
    if (open_.empty()) return "";
    const Frame& frame = open_.back();
    return frame.container->is_object() ? pointer_child(frame.pointer, frame.key)
                                        : pointer_child(frame.pointer, frame.container->size());
  }

  json* place(json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Frame& frame = open_.back();
    if (frame.container->is_object()) return &((*frame.container)[frame.key] = std::move(value));
    // Growing this array cannot invalidate an open frame: frames deeper than it are closed.
    frame.container->push_back(std::move(value));
    return &frame.container->back();
  }

  bool add(json&& value) {
    place(std::move(value));
    return true;
  }

  bool open(json&& container) {
    std::string pointer = next_pointer();
    json* slot = place(std::move(container));
    open_.push_back(Frame{slot, std::move(pointer), std::string()});
    return true;
  }

  bool close() {
    open_.pop_back();
    return true;
  }

  json& root_;
  std::vector<Frame> open_;
};

}  // namespace

json parse_json_text(const std::string& text, const JsonTextRules& rules) {
  if (is_blank(text)) throw JsonError("", "the " + std::string(rules.document) + " text is empty");
  check_raw_text(text, rules.max_depth);
  json document;
  try {
    DocumentBuilder builder(document);
    // The builder throws on every error, so a false return cannot happen; guard it anyway.
    if (!json::sax_parse(text, &builder)) throw JsonError("", "malformed JSON");
  } catch (const json::exception& error) {
    release_json(document);
    // The lexer and parser report through the builder; this is for anything they throw directly.
    throw JsonError("", "malformed JSON: " + without_json_tag(error.what()));
  } catch (...) {
    release_json(document);
    throw;
  }
  return document;
}

std::string json_to_text(const json& document) { return document.dump(); }

std::string json_to_text(json&& document) {
  const JsonRelease release(document);
  return document.dump();
}

void release_json(json& document) noexcept {
  if (json::array_t* array = document.get_ptr<json::array_t*>()) {
    for (json& element : *array) release_json(element);
    array->clear();
  } else if (json::object_t* object = document.get_ptr<json::object_t*>()) {
    for (auto& member : *object) release_json(member.second);
    object->clear();
  }
}

}  // namespace addbo::core
