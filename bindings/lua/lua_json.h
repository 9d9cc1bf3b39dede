// Lua values <-> JSON text for the Lua binding, with nlohmann_json (a dependency of the core):
// stock Lua has no JSON library, and the configuration, info() and saved states are JSON
// documents. Included by addbo_lua.swg, after lua.h and lua_compat.h; registered there as the C
// functions behind addbo.to_json and addbo.from_json (addbo_api.lua checks their arguments
// first).
//
// Numbers keep their type and their exact value both ways (Lua 5.3 and 5.4): a Lua integer is a
// JSON integer and a JSON integer a Lua integer; a float is written as nlohmann writes every
// double (the shortest text that reads back as the same double, 1.0 not 1), which is how the
// library writes its documents. So a saved state decoded to a table and encoded again gives the
// same bytes (keys are sorted in both). A JSON integer above 2^63 - 1 (only a seed can be)
// becomes the string of its decimal digits, since Lua has no unsigned integers; configurations
// and saved states take the seed as such a string too. Lua 5.1, LuaJIT and 5.2 have no
// integers: there a whole number within +-2^53 is written as a JSON integer (lua_compat.h), so
// 1.0 is written 1 (the same double for every reader), and a JSON integer above 2^53 becomes
// the string of its digits (below -2^53, the nearest double).
//
// Failures are returned as (nil, message), never raised: lua_error is a longjmp when Lua is built
// as C, which would skip the destructors of the C++ objects alive here. Only Lua's own
// out-of-memory error while pushing a decoded value can still jump out (leaking the parsed
// document's memory, nothing worse).
#ifndef ADDBO_LUA_JSON_H
#define ADDBO_LUA_JSON_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "lua_compat.h"

namespace addbo_lua_json {

using addbo_lua_compat::is_integer;

// Deeper nesting is refused both ways: no document of the library nests more than 6 levels,
// and the bound keeps the C stack and the Lua stack of these recursions small.
constexpr int max_depth = 64;

// A table that appears at several places of a value (no cycle: a DAG) is written out at each of
// them, so k small tables each holding the previous one twice make 2^k values. The values
// written are bounded by the value's own size: at most kExpansionFactor per distinct value of
// the tables met so far, plus kExpansionAllowance (a configuration that reuses a small table
// here and there stays far below); past that the value is refused at the place reached.
constexpr std::size_t kExpansionFactor = 16;
constexpr std::size_t kExpansionAllowance = 65536;

// Lua -> JSON. `object_marker` is the stack index of addbo.json_object, the metatable that
// makes a table a JSON object even when empty (an unmarked empty table is an array).
class Encoder {
 public:
  Encoder(lua_State* L, int object_marker) : L_(L), object_marker_(object_marker) {}

  // Encodes the value at `index` (absolute); on failure returns false and error() says why,
  // naming the value by its path from `path` (e.g. config.kernel.lengthscales[2]).
  bool encode(int index, nlohmann::json& out, std::string path, int depth = 0) {
    if (++written_ > kExpansionFactor * distinct_ + kExpansionAllowance) {
      return fail(path, "makes the value expand to more than " + std::to_string(written_ - 1) +
                            " JSON values: a table that appears at several places is written "
                            "out at each, and " +
                            std::to_string(kExpansionFactor) + " per distinct value plus " +
                            std::to_string(kExpansionAllowance) + " is the most");
    }
    switch (lua_type(L_, index)) {
      case LUA_TBOOLEAN:
        out = lua_toboolean(L_, index) != 0;
        return true;
      case LUA_TNUMBER:
        if (is_integer(L_, index)) {
          out = static_cast<std::int64_t>(lua_tointeger(L_, index));
          return true;
        } else {
          const double value = lua_tonumber(L_, index);
          if (std::isnan(value)) return fail(path, "is NaN, which JSON cannot represent");
          if (std::isinf(value)) return fail(path, "is infinite, which JSON cannot represent");
          out = value;
          return true;
        }
      case LUA_TSTRING: {
        std::size_t size = 0;
        const char* text = lua_tolstring(L_, index, &size);
        out = std::string(text, size);
        return true;
      }
      case LUA_TLIGHTUSERDATA:
        if (lua_touserdata(L_, index) == nullptr) {  // addbo.null
          out = nullptr;
          return true;
        }
        return fail(path, "is a light userdata (only addbo.null stands for JSON null)");
      case LUA_TTABLE:
        return encode_table(index, out, path, depth);
      default:
        return fail(path, std::string("is a ") + luaL_typename(L_, index) +
                              ", which JSON cannot represent");
    }
  }

  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& path, const std::string& reason) {
    error_ = path + " " + reason;
    return false;
  }

  // A key as a script would write it, for messages.
  std::string describe_key(int index) const {
    char buffer[64];
    switch (lua_type(L_, index)) {
      case LUA_TNUMBER:
        if (is_integer(L_, index)) {
          std::snprintf(buffer, sizeof buffer, "%lld",
                        static_cast<long long>(lua_tointeger(L_, index)));
        } else {
          std::snprintf(buffer, sizeof buffer, "%.17g", lua_tonumber(L_, index));
        }
        return buffer;
      case LUA_TBOOLEAN:
        return lua_toboolean(L_, index) ? "true" : "false";
      default:
        return std::string("a ") + luaL_typename(L_, index);
    }
  }

  bool encode_table(int index, nlohmann::json& out, const std::string& path, int depth) {
    if (depth >= max_depth) {
      return fail(path, "nests deeper than " + std::to_string(max_depth) + " levels");
    }
    const void* identity = lua_topointer(L_, index);
    for (const void* open : open_tables_) {
      if (open == identity) return fail(path, "contains itself (a cycle)");
    }
    if (!lua_checkstack(L_, 4)) return fail(path, "nests too deeply for the Lua stack");
    bool marked_object = false;
    if (lua_getmetatable(L_, index)) {
      marked_object = lua_rawequal(L_, -1, object_marker_) != 0;
      lua_pop(L_, 1);
    }
    // Which keys: strings make an object, 1..n an array; anything else, or both, is refused.
    std::size_t count = 0;
    bool string_keys = false;
    bool integer_keys = false;
    lua_Integer largest = 0;
    lua_pushnil(L_);
    while (lua_next(L_, index) != 0) {
      lua_pop(L_, 1);  // the value; the key stays for lua_next
      ++count;
      if (lua_type(L_, -1) == LUA_TSTRING) {
        string_keys = true;
      } else if (is_integer(L_, -1) && lua_tointeger(L_, -1) >= 1) {
        integer_keys = true;
        if (lua_tointeger(L_, -1) > largest) largest = lua_tointeger(L_, -1);
      } else {
        const std::string key = describe_key(-1);
        lua_pop(L_, 1);
        return fail(path, "has the key " + key +
                              ": JSON objects have string keys and arrays keys 1, 2, ..., n");
      }
    }
    if (string_keys && integer_keys) {
      return fail(path, "mixes string keys and integer keys: JSON has objects or arrays, not both");
    }
    if (integer_keys && marked_object) {
      return fail(path, "is marked as a JSON object (addbo.json_object) but has integer keys");
    }
    if (integer_keys && static_cast<lua_Integer>(count) != largest) {
      return fail(path, "is an array with holes: " + std::to_string(count) +
                            " values under keys up to " + std::to_string(largest));
    }

    if (seen_tables_.insert(identity).second) distinct_ += count + 1;
    open_tables_.push_back(identity);
    if (string_keys || marked_object) {
      out = nlohmann::json::object();
      lua_pushnil(L_);
      while (lua_next(L_, index) != 0) {
        std::size_t size = 0;
        const char* key = lua_tolstring(L_, -2, &size);  // a string: no conversion
        const std::string name(key, size);
        nlohmann::json& member = out[name];
        if (!encode(lua_gettop(L_), member, path + "." + name, depth + 1)) {
          lua_pop(L_, 2);
          return false;
        }
        lua_pop(L_, 1);
      }
    } else {
      out = nlohmann::json::array();
      for (lua_Integer i = 1; i <= largest; ++i) {
        addbo_lua_compat::raw_get_index(L_, index, i);
        out.push_back(nullptr);
        const bool ok =
            encode(lua_gettop(L_), out.back(), path + "[" + std::to_string(i) + "]", depth + 1);
        lua_pop(L_, 1);
        if (!ok) return false;
      }
    }
    open_tables_.pop_back();
    return true;
  }

  lua_State* L_;
  int object_marker_;
  std::vector<const void*> open_tables_;         // the tables on the path being encoded: cycles
  std::unordered_set<const void*> seen_tables_;  // every table met, for distinct_
  std::size_t distinct_ = 0;                     // the values of the distinct tables met
  std::size_t written_ = 0;                      // the values written so far
  std::string error_;
};

// JSON -> Lua: pushes `value` (null as addbo.null, the light userdata NULL; an empty object as
// an empty table with the metatable at `object_marker`, so that it encodes back as {}). On
// failure pushes nothing more than it leaves behind on the stack (the caller resets the top),
// sets `error` and returns false.
inline bool push(lua_State* L, const nlohmann::json& value, int object_marker, int depth,
                 std::string& error) {
  if (value.is_structured() && depth >= max_depth) {  // counted as the encoder counts
    error = "the JSON text nests deeper than " + std::to_string(max_depth) + " levels";
    return false;
  }
  if (!lua_checkstack(L, 4)) {
    error = "the JSON text nests too deeply for the Lua stack";
    return false;
  }
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      lua_pushlightuserdata(L, nullptr);
      return true;
    case nlohmann::json::value_t::boolean:
      lua_pushboolean(L, value.get<bool>() ? 1 : 0);
      return true;
    case nlohmann::json::value_t::number_integer:
      lua_pushinteger(L, static_cast<lua_Integer>(value.get<std::int64_t>()));
      return true;
    case nlohmann::json::value_t::number_unsigned: {
      const std::uint64_t number = value.get<std::uint64_t>();
      if (number <= static_cast<std::uint64_t>(addbo_lua_compat::max_integer)) {
        lua_pushinteger(L, static_cast<lua_Integer>(number));
      } else {
        // No Lua number holds it exactly: its decimal digits, which the library's one such
        // field (the seed) also accepts, so that a decoded state encodes back unchanged.
        const std::string digits = std::to_string(number);
        lua_pushlstring(L, digits.data(), digits.size());
      }
      return true;
    }
    case nlohmann::json::value_t::number_float:
      lua_pushnumber(L, value.get<double>());
      return true;
    case nlohmann::json::value_t::string: {
      const std::string& text = value.get_ref<const std::string&>();
      lua_pushlstring(L, text.data(), text.size());
      return true;
    }
    case nlohmann::json::value_t::array: {
      lua_createtable(L, static_cast<int>(value.size()), 0);
      lua_Integer i = 0;
      for (const nlohmann::json& element : value) {
        if (!push(L, element, object_marker, depth + 1, error)) return false;
        addbo_lua_compat::raw_set_index(L, -2, ++i);
      }
      return true;
    }
    case nlohmann::json::value_t::object: {
      lua_createtable(L, 0, static_cast<int>(value.size()));
      for (const auto& member : value.items()) {
        lua_pushlstring(L, member.key().data(), member.key().size());
        if (!push(L, member.value(), object_marker, depth + 1, error)) return false;
        lua_rawset(L, -3);
      }
      if (value.empty()) {
        lua_pushvalue(L, object_marker);
        lua_setmetatable(L, -2);
      }
      return true;
    }
    default:
      error = "the JSON value has a type Lua cannot represent";
      return false;
  }
}

// addbo.to_json's C side: (value, path name) -> text, or (nil, message). Upvalue 1: the marker
// metatable addbo.json_object.
inline int to_json(lua_State* L) {
  lua_settop(L, 2);
  std::string text;
  std::string error;
  try {
    const std::string root = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "value";
    Encoder encoder(L, lua_upvalueindex(1));
    nlohmann::json document;
    if (encoder.encode(1, document, root)) {
      // Strict: a string that is not UTF-8 is refused (the library reads UTF-8 only).
      text = document.dump();
    } else {
      error = encoder.error();
    }
  } catch (const nlohmann::json::type_error&) {
    error = "a string of the table is not valid UTF-8";
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = e.what();
  }
  lua_settop(L, 2);
  if (!error.empty()) {
    lua_pushnil(L);
    lua_pushlstring(L, error.data(), error.size());
    return 2;
  }
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// addbo.from_json's C side: (text[, JSON pointer]) -> the value, or only the part at the
// pointer (no Lua table is built for the rest), or (nil, message). Upvalue 1: as for to_json.
inline int from_json(lua_State* L) {
  std::size_t size = 0;
  const char* text = lua_tolstring(L, 1, &size);
  if (text == nullptr) {
    lua_pushnil(L);
    lua_pushliteral(L, "JSON text expected");
    return 2;
  }
  lua_settop(L, 2);
  std::string error;
  try {
    const nlohmann::json document = nlohmann::json::parse(text, text + size);
    if (lua_type(L, 2) == LUA_TSTRING) {  // only the part at this JSON pointer
      const nlohmann::json::json_pointer pointer(lua_tostring(L, 2));
      if (push(L, document.at(pointer), lua_upvalueindex(1), 0, error)) return 1;
    } else if (push(L, document, lua_upvalueindex(1), 0, error)) {
      return 1;
    }
  } catch (const nlohmann::json::parse_error& e) {
    error = e.what();  // names the position: "parse error at line 1, column 7: ..."
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = e.what();
  }
  lua_settop(L, 2);
  lua_pushnil(L);
  lua_pushlstring(L, error.data(), error.size());
  return 2;
}

}  // namespace addbo_lua_json

#endif  // ADDBO_LUA_JSON_H
