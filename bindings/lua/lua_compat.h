// The few Lua C API calls the binding needs whose form differs between Lua 5.1 (and LuaJIT 2.1,
// which has 5.1's API), 5.2, 5.3 and 5.4, behind one name each, so that addbo_lua.swg and
// lua_json.h compile against any of them (CMake builds one module per interpreter it finds).
// Included after lua.h and lauxlib.h.
//
// The one real difference is numbers: Lua 5.3 and 5.4 have an integer subtype, 5.1, LuaJIT and
// 5.2 have doubles only. There, a number is taken for an integer when it is a whole number of
// magnitude at most 2^53 (every such double is exact, and JSON writers and readers agree on it):
// the configuration's "dimension": 6 must reach the library as the JSON integer 6, not 6.0.
#ifndef ADDBO_LUA_COMPAT_H
#define ADDBO_LUA_COMPAT_H

#include <cmath>
#include <cstddef>

namespace addbo_lua_compat {

// The length of the table at `index`, without metamethods.
inline std::size_t raw_length(lua_State* L, int index) {
#if LUA_VERSION_NUM >= 502
  return static_cast<std::size_t>(lua_rawlen(L, index));
#else
  return lua_objlen(L, index);
#endif
}

// Pushes t[i] of the table at `index` (no metamethods) and returns its type.
inline int raw_get_index(lua_State* L, int index, lua_Integer i) {
#if LUA_VERSION_NUM >= 503
  return lua_rawgeti(L, index, i);
#else
  lua_rawgeti(L, index, static_cast<int>(i));
  return lua_type(L, -1);
#endif
}

// t[i] = the value on top (popped), for the table at `index`.
inline void raw_set_index(lua_State* L, int index, lua_Integer i) {
#if LUA_VERSION_NUM >= 503
  lua_rawseti(L, index, i);
#else
  lua_rawseti(L, index, static_cast<int>(i));
#endif
}

// Whether the value at `index` is an integer: the subtype in 5.3 and later; before, a whole
// number within +-2^53.
inline bool is_integer(lua_State* L, int index) {
#if LUA_VERSION_NUM >= 503
  return lua_isinteger(L, index) != 0;
#else
  if (lua_type(L, index) != LUA_TNUMBER) return false;
  const double value = lua_tonumber(L, index);
  return value == std::floor(value) && std::fabs(value) <= 9007199254740992.0;
#endif
}

// The largest integer a Lua integer holds exactly: 2^63 - 1 with the integer subtype, 2^53
// (a double's exact range) without.
#if LUA_VERSION_NUM >= 503
constexpr lua_Integer max_integer = LUA_MAXINTEGER;
#else
constexpr lua_Integer max_integer = static_cast<lua_Integer>(9007199254740992LL);
#endif

// Loads a chunk of Lua source text (never precompiled code); returns 0 or an error status with
// the message on the stack. Lua 5.1's luaL_loadbuffer has no mode argument, so precompiled code
// (which starts with ESC) is refused here instead. LuaJIT has luaL_loadbufferx, but a module
// built against LuaJIT's headers stays loadable by Lua 5.1 (and the other way round) only if it
// calls nothing 5.1 lacks.
inline int load_text(lua_State* L, const char* text, std::size_t size, const char* name) {
#if LUA_VERSION_NUM >= 502
  return luaL_loadbufferx(L, text, size, name, "t");
#else
  if (size > 0 && text[0] == '\033') {
    lua_pushliteral(L, "attempt to load a binary chunk as text");
    return LUA_ERRSYNTAX;
  }
  return luaL_loadbuffer(L, text, size, name);
#endif
}

}  // namespace addbo_lua_compat

#endif  // ADDBO_LUA_COMPAT_H
