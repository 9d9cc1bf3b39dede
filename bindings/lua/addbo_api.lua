-- The public Lua API of addbo, over the raw class that SWIG generates from ../addbo.i (see
-- addbo_lua.swg for why there are two layers). The build embeds this file in the module as a
-- C string (CMakeLists.txt and embed_lua.cmake beside it); luaopen_addbo runs it once with the
-- module table as its argument. The methods are documented once, for every language, in
-- ../optimizer_methods.swg (and from there in the generated reference, addbo_reference.lua in
-- the build tree). ctest bindings_lua_api_syntax checks that this file compiles;
-- bindings_lua_reference that it defines every method of the table and nothing else.

local module = ...
local Raw = module.Optimizer
local raw_create, raw_load, raw_version = Raw.create, Raw.load, Raw.version
local encode, decode, json_object = module._to_json, module._from_json, module._json_object
local error, getmetatable, setmetatable, type, pcall, ipairs = error, getmetatable, setmetatable, type, pcall, ipairs
local pairs, tonumber, tostring = pairs, tonumber, tostring
local format, concat, floor = string.format, table.concat, math.floor
-- This file runs in Lua 5.1, LuaJIT 2.1, 5.2, 5.3 and 5.4: no syntax or library function of a
-- later version than 5.1 unless checked for (ctest bindings_lua<version>_api_syntax compiles it
-- with each interpreter). A whole number as a Lua integer where the interpreter has integers
-- (5.3, 5.4), else as it is (a number is a double there).
local tointeger = math.tointeger or function(value)
  if type(value) == "number" and value == floor(value) then return value end
  return nil
end
-- addbo.null, JSON null: the light userdata NULL, which only C can make.
local null = decode("null")

-- Only the public API stays in the module table.
for key in pairs(module) do module[key] = nil end

-- Errors: every error of the module is an object {status = "ADDBO_ERR_...", message = "...",
-- where = "file:line: "} whose tostring is where .. status .. ": " .. message, the text that
-- string errors had before. `where` is the user's call site, as error(message, level) would
-- have prefixed it (the standalone interpreter prints tostring(err)).
local Error = { __name = "addbo.Error" }
Error.__tostring = function(e) return e.where .. e.status .. ": " .. e.message end

-- Raises the error object at `level`, counted as error() counts it from raise's caller. The
-- position comes from error() itself, through pcall, so that no debug library is needed.
local function raise(status, message, level)
  local _, where = pcall(error, "", level + 2)
  error(setmetatable({ status = status, message = message, where = where }, Error))
end

local INVALID = "ADDBO_ERR_INVALID_ARGUMENT"

local function bad_argument(number, method, reason, level)
  raise(INVALID, format("bad argument #%d to '%s' (%s)", number, method, reason), level + 1)
end

local Optimizer = {}              -- the methods; also addbo.Optimizer, callable as a constructor
local meta = {                    -- the metatable of every optimizer
  __index = Optimizer,
  __name = "addbo.Optimizer",
}
-- The raw object of every open optimizer (false once closed), out of the script's reach: an
-- optimizer is an empty table. Weak keys: an optimizer no longer referenced is collected, and
-- then its raw object, whose __gc frees the native one.
local natives = setmetatable({}, { __mode = "k" })
-- The integer and categorical variables of every optimizer (false when all are continuous).
local kinds_of = setmetatable({}, { __mode = "k" })
-- The constraint names of every optimizer, in the configuration's order (an empty list when it
-- has none), and their positions by name.
local constraints_of = setmetatable({}, { __mode = "k" })

-- The native object of `self`, or an error at the user's call site (level 3: the caller of
-- the method that called this).
local function native(self, method)
  if getmetatable(self) ~= meta then
    raise(INVALID, format("bad self to 'addbo.Optimizer:%s' (use opt:%s(...))", method, method), 3)
  end
  local raw = natives[self]
  if not raw then
    raise("ADDBO_ERR_STATE", format("addbo.Optimizer:%s: the optimizer is closed", method), 3)
  end
  return raw
end

-- The library's messages in Lua's terms (issue 27): its C function names become the Lua ones,
-- its 0-based positions Lua's 1-based ones, and its C argument names Lua's:
--   addbo_tell: dim is 2 but ...                   -> addbo.Optimizer:tell: #x is 2 but ...
--   addbo_tell_constrained: count is 1 but ...     -> addbo.Optimizer:tell: #constraints is 1 ...
--   addbo_tell: x[1] (variable 'n') = 9 is ...      -> addbo.Optimizer:tell: x[2] (variable 'n') ...
--   ... constraints[0] (constraint 'load') is NaN    -> ... constraints[1] (constraint 'load') ...
--   addbo_create: /variables/0/lower: must be ...   -> addbo.Optimizer: config.variables[1].lower: ...
--   addbo_load: saved state /observations/0/x: ... -> addbo.load: state.observations[1].x: ...
--   ... is already used by variable 0               -> ... is already used by variables[1]
--   ... use addbo_load to restore ...               -> ... use addbo.load to restore ...
-- The values inside the JSON documents keep the library's numbering (an edge [0, 1] names
-- variables[1] and variables[2]; a saved state holds categorical values as indices from 0), as
-- docs/bindings.md says.
local lua_function_names = {
  create = "addbo.Optimizer", load = "addbo.load", version = "addbo.version",
  tell_constrained = "addbo.Optimizer:tell", failure_count = "addbo.Optimizer:failures",
}
for _, method in ipairs({ "ask", "tell", "tell_failure", "cancel", "best", "predict",
                          "predict_json", "predicted_best", "count", "dimension", "learn", "info",
                          "save", "interrupt" }) do
  lua_function_names[method] = "addbo.Optimizer:" .. method
end

local function lua_function_name(c_name)
  return lua_function_names[c_name]
end

-- One segment of a JSON pointer as Lua indexes it: [n + 1] for an array's element, .key or
-- ["key"] for an object's member. `node` is the document's value the segment indexes, when
-- known (then a string key that looks like a number stays a key).
local function lua_path_segment(segment, node)
  local is_member = type(node) == "table" and node[segment] ~= nil
  if not is_member and segment:match("^%d+$") then
    return format("[%d]", tonumber(segment) + 1)
  elseif segment:match("^[%a_][%w_]*$") then
    return "." .. segment
  end
  return format("[%q]", segment)
end

-- A JSON pointer (/variables/0/lower) as the Lua path of the same value from `root`
-- (config.variables[1].lower), walking `document` (a table, or nil when unknown) alongside.
local function lua_path(pointer, root, document)
  if pointer == "/" then return root end  -- the library's name for the whole document
  local parts, node = { root }, document
  for segment in pointer:gmatch("/([^/]*)") do
    segment = segment:gsub("~1", "/"):gsub("~0", "~")
    parts[#parts + 1] = lua_path_segment(segment, node)
    if type(node) == "table" then
      local key = node[segment] ~= nil and segment or (tonumber(segment) or -1) + 1
      node = node[key]
    end
  end
  return concat(parts)
end

-- `message` from the library, for Lua. `root` ("config" or "state") and `document` (the table,
-- or nil) describe the JSON argument of the call, whose pointers are then written from it.
local function lua_message(message, root, document)
  local function_name, rest = message:match("^addbo_([%w_]+): (.*)$")
  if not function_name or not lua_function_name(function_name) then return message end
  -- A saved state's messages name it: "saved state /observations/0/x: ...".
  local pointer, reason = rest:gsub("^saved state /", "/"):match("^(/[^:]*): (.*)$")
  if pointer and root then
    rest = lua_path(pointer, root, document) .. ": " .. reason
  end
  rest = rest:gsub("^dim is ", "#x is ")
  rest = rest:gsub("^count is ", "#constraints is ")  -- the constraints' values
  rest = rest:gsub("%(addbo_tell_constrained%)", "(opt:tell(x, y, constraints))")
  -- x[1] (variable 'n'), point[1] (variable 'n'), constraints[0] (constraint 'load')
  rest = rest:gsub("([%a_]+)%[(%d+)%] %((%a+) '", function(name, index, what)
    if what ~= "variable" and what ~= "constraint" then return nil end
    return format("%s[%d] (%s '", name, tonumber(index) + 1, what)
  end)
  rest = rest:gsub("variables (%d+) and (%d+)", function(a, b)
    return format("variables[%d] and variables[%d]", tonumber(a) + 1, tonumber(b) + 1)
  end)
  rest = rest:gsub("variable (%d+)", function(index)
    return format("variables[%d]", tonumber(index) + 1)
  end)
  rest = rest:gsub("addbo_([%a_]+)", function(name) return lua_function_name(name) end)
  return lua_function_name(function_name) .. ": " .. rest
end

-- A raw result: the value, or (nil, message, status), which becomes an error at the user's
-- call site (level 3) with the message in Lua's terms. Never tail-called, so that the method's
-- frame counts.
local function result(value, message, status)
  if message ~= nil then raise(status, lua_message(message), 3) end
  return value
end

-- A JSON document argument: a table (encoded here) or JSON text without NUL bytes (the C API
-- reads a string up to its first NUL, so the rest would be silently ignored).
local function json_argument(value, method, name)
  if type(value) == "table" then
    local text, message = encode(value, name)
    if text == nil then bad_argument(1, method, message, 3) end
    return text
  end
  if type(value) ~= "string" then
    bad_argument(1, method, "table or JSON string expected, got " .. type(value), 3)
  end
  local nul = value:find("\0", 1, true)
  if nul then
    bad_argument(1, method, format("string contains a NUL byte at position %d", nul), 3)
  end
  return value
end

local function decoded(text, pointer)
  local value, message = decode(text, pointer)
  if message ~= nil then raise("ADDBO_ERR_INTERNAL", message, 3) end
  return value
end

-- Integer and categorical variables, from the configuration of the saved state: for each
-- variable false (continuous), "integer", or {name =, choices = {...}, index = {choice = i}}
-- with i the library's 0-based index; false when every variable is continuous.
local function variable_kinds(raw)
  local variables = decoded(result(raw:save()), "/config/variables")
  local kinds, any = {}, false
  for i, variable in ipairs(variables) do
    kinds[i] = false
    if variable.type == "integer" then
      kinds[i], any = "integer", true
    elseif variable.type == "categorical" then
      local index = {}
      for k, choice in ipairs(variable.choices) do index[choice] = k - 1 end
      kinds[i], any = { name = variable.name, choices = variable.choices, index = index }, true
    end
  end
  return any and kinds
end

-- A point from the library, in place: integers as Lua integers, categorical values as the
-- choice itself.
local function lua_point(kinds, x)
  if kinds and type(x) == "table" then
    for i, kind in ipairs(kinds) do
      local value = tointeger(x[i])
      if kind == "integer" then
        x[i] = value or x[i]
      elseif kind and value then
        x[i] = kind.choices[value + 1]
      end
    end
  end
  return x
end

local function quoted(choices)
  local parts = {}
  for i, choice in ipairs(choices) do parts[i] = format("%q", choice) end
  return concat(parts, ", ")
end

-- A point for the library: a copy with each categorical value (a choice) replaced by its
-- index. Errors at level 3 (the user's call of the method calling this).
local function library_point(kinds, x, method)
  if type(x) ~= "table" then
    bad_argument(1, method, "table expected, got " .. type(x), 3)
  end
  if not kinds then return x end
  local copy = {}
  for i = 1, #x do
    local value, kind = x[i], kinds[i]
    if type(kind) == "table" then
      local index = kind.index[value]
      if index == nil then
        raise(INVALID, format("addbo.Optimizer:%s: x[%d] (variable %q) is %s, not one of its choices %s",
                              method, i, kind.name, type(value) == "string" and format("%q", value)
                              or tostring(value), quoted(kind.choices)), 3)
      end
      value = index
    end
    copy[i] = value
  end
  return copy
end

-- The constraints of the configuration of the saved state: {names = {...}, index = {name = i}}.
local function constraint_names(raw)
  local constraints = decoded(result(raw:save()), "/config/constraints")
  local names, index = {}, {}
  for i, constraint in ipairs(constraints) do
    names[i], index[constraint.name] = constraint.name, i
  end
  return { names = names, index = index }
end

local function wrap(raw)
  local self = setmetatable({}, meta)
  natives[self] = raw
  kinds_of[self] = variable_kinds(raw)
  constraints_of[self] = constraint_names(raw)
  return self
end

-- The methods that pass straight through to the raw class (a learn() blocks this Lua state
-- until its round ends: a state runs one call at a time). Each is a function of its own with a
-- fixed number of parameters, so that extra arguments are ignored as before.
-- interrupt() is there for the API's completeness: a Lua state runs one call at a time, so only
-- a host thread outside it can stop a learning of this state's (addbo_interrupt).
for _, name in ipairs({ "dimension", "count", "pending", "failures", "save", "learn", "interrupt" }) do
  Optimizer[name] = function(self)
    local raw = native(self, name)
    local value = result(raw[name](raw))
    return value
  end
end

function Optimizer:ask()
  local raw = native(self, "ask")
  local x = result(raw:ask())
  return lua_point(kinds_of[self], x)
end

for _, name in ipairs({ "best", "predicted_best" }) do  -- {x = point, ...}
  Optimizer[name] = function(self)
    local raw = native(self, name)
    local value = result(raw[name](raw))
    lua_point(kinds_of[self], value.x)
    return value
  end
end

function Optimizer:info()
  local raw = native(self, "info")
  local info = decoded(result(raw:info()))
  local kinds = kinds_of[self]
  if kinds then  -- the points in it as the point methods give them
    if type(info.best) == "table" then lua_point(kinds, info.best.x) end
    if type(info.last_ask) == "table" then lua_point(kinds, info.last_ask.x) end
    for _, x in ipairs(info.pending_points or {}) do lua_point(kinds, x) end
  end
  return info
end

-- The saved state as a table: the library's document as save() writes it (categorical values
-- as indices from 0, as addbo.load reads them).
function Optimizer:save_table()
  local raw = native(self, "save_table")
  local value = decoded(result(raw:save()))
  return value
end

function Optimizer:cancel(x)
  local raw = native(self, "cancel")
  local value = result(raw:cancel(library_point(kinds_of[self], x, "cancel")))
  return value
end

function Optimizer:predict(x)
  local raw = native(self, "predict")
  local value = result(raw:predict(library_point(kinds_of[self], x, "predict")))
  lua_point(kinds_of[self], value.x)
  return value
end

function Optimizer:predict_json(x)
  local raw = native(self, "predict_json")
  local value = result(raw:predict_json(library_point(kinds_of[self], x, "predict_json")))
  return value
end

-- The constraints' values for the library, in the configuration's order, from a list
-- ({240, 75}) or a table by name ({stress = 240, temperature = 75}). Errors at level 3.
local function constraint_values(constraints, values, method)
  if type(values) ~= "table" then
    bad_argument(3, method, "table of constraint values expected, got " .. type(values), 3)
  end
  local list = {}
  for key, value in pairs(values) do
    local i = type(key) == "string" and constraints.index[key] or key
    if type(i) ~= "number" or constraints.names[i] == nil then
      raise(INVALID, format("addbo.Optimizer:%s: constraints has the key %s, which names no "
                            .. "constraint of the configuration (%s)", method,
                            type(key) == "string" and format("%q", key) or tostring(key),
                            quoted(constraints.names)), 3)
    end
    if type(value) ~= "number" then
      raise(INVALID, format("addbo.Optimizer:%s: constraint %q: number expected, got %s",
                            method, constraints.names[i], type(value)), 3)
    end
    list[i] = value
  end
  for i, name in ipairs(constraints.names) do
    if list[i] == nil then
      raise(INVALID, format("addbo.Optimizer:%s: no value for constraint %q", method, name), 3)
    end
  end
  return list
end

function Optimizer:tell(x, y, constraints)
  local raw = native(self, "tell")
  local point = library_point(kinds_of[self], x, "tell")
  if type(y) ~= "number" then
    bad_argument(2, "tell", "number expected, got " .. type(y), 2)
  end
  local value
  if constraints == nil then
    value = result(raw:tell(point, y))
  else
    value = result(raw:tell(point, y, constraint_values(constraints_of[self], constraints, "tell")))
  end
  return value
end

function Optimizer:tell_failure(x)
  local raw = native(self, "tell_failure")
  local value = result(raw:tell_failure(library_point(kinds_of[self], x, "tell_failure")))
  return value
end

-- Frees the native optimizer now. Closing again, or a closed optimizer going out of a <close>
-- scope, does nothing.
function Optimizer:close()
  if getmetatable(self) ~= meta then
    raise(INVALID, "bad self to 'addbo.Optimizer:close' (use opt:close())", 2)
  end
  local raw = natives[self]
  if raw then
    natives[self] = false
    raw:close()
  end
end

function Optimizer:closed()
  if getmetatable(self) ~= meta then
    raise(INVALID, "bad self to 'addbo.Optimizer:closed' (use opt:closed())", 2)
  end
  return not natives[self]
end

meta.__close = function(self) self:close() end
meta.__tostring = function(self)
  local raw = natives[self]
  if not raw then return "addbo.Optimizer (closed)" end
  return format("addbo.Optimizer (dimension %d, %d observations, %d pending)",
                raw:dimension() or 0, raw:count() or 0, raw:pending() or 0)
end

-- The failure of addbo.Optimizer(config) or addbo.load(state) as an error at the caller's call
-- site (level 3), its JSON pointers written from `argument` (a table or the JSON text).
local function raise_document_error(message, status, root, argument, text)
  local document = argument
  if type(argument) ~= "table" then document = decode(text) end
  raise(status, lua_message(message, root, document), 3)
end

setmetatable(Optimizer, {
  __call = function(_, config)
    local text = json_argument(config, "Optimizer", "config")
    local raw, message, status = raw_create(text)
    if raw == nil then raise_document_error(message, status, "config", config, text) end
    return wrap(raw)
  end,
})

module.Optimizer = Optimizer

function module.load(state)
  local text = json_argument(state, "load", "state")
  local raw, message, status = raw_load(text)
  if raw == nil then raise_document_error(message, status, "state", state, text) end
  return wrap(raw)
end

function module.version()
  return raw_version()
end

-- JSON for scripts (stock Lua has none), the conversions the methods use.
function module.to_json(value)
  local text, message = encode(value, "value")
  if text == nil then bad_argument(1, "to_json", message, 2) end
  return text
end

function module.from_json(text)
  if type(text) ~= "string" then
    bad_argument(1, "from_json", "JSON string expected, got " .. type(text), 2)
  end
  local value, message = decode(text)
  if message ~= nil then bad_argument(1, "from_json", message, 2) end
  return value
end

module.null = null
module.json_object = json_object
