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
local error, getmetatable, setmetatable, type, select = error, getmetatable, setmetatable, type, select
local format = string.format

-- Only the public API stays in the module table.
for key in pairs(module) do module[key] = nil end

local Optimizer = {}              -- the methods; also addbo.Optimizer, callable as a constructor
local meta = {                    -- the metatable of every optimizer
  __index = Optimizer,
  __name = "addbo.Optimizer",
}
-- The raw object of every open optimizer (false once closed), out of the script's reach: an
-- optimizer is an empty table. Weak keys: an optimizer no longer referenced is collected, and
-- then its raw object, whose __gc frees the native one.
local natives = setmetatable({}, { __mode = "k" })

-- The native object of `self`, or an error at the caller's call site (level 3: the user's code).
local function native(self, method)
  if getmetatable(self) ~= meta then
    error(format("bad self to 'addbo.Optimizer:%s' (use opt:%s(...))", method, method), 3)
  end
  local raw = natives[self]
  if not raw then
    error(format("ADDBO_ERR_STATE: addbo.Optimizer:%s: the optimizer is closed", method), 3)
  end
  return raw
end

-- A raw result: the value, or (nil, message) which becomes an error at the user's call site.
-- Always called as a tail call (`return result(...)`), so level 2 is the user's code.
local function result(value, message)
  if message ~= nil then error(message, 2) end
  return value
end

local function wrap(raw)
  local self = setmetatable({}, meta)
  natives[self] = raw
  return self
end

-- A JSON text argument: a string without NUL bytes (the C API reads a string up to its first
-- NUL, so the rest would be silently ignored).
local function check_text(text, method)
  if type(text) ~= "string" then
    error(format("bad argument #1 to '%s' (JSON string expected, got %s)", method, type(text)), 3)
  end
  local nul = text:find("\0", 1, true)
  if nul then
    error(format("bad argument #1 to '%s' (string contains a NUL byte at position %d)", method, nul), 3)
  end
end

local function check_point(x, method)
  if type(x) ~= "table" then
    error(format("bad argument #1 to '%s' (table of numbers expected, got %s)", method, type(x)), 3)
  end
end

-- The methods that pass straight through to the raw class, by their arguments (a learn() blocks
-- this Lua state until its round ends: a state runs one call at a time). Each is a function of
-- its own with a fixed number of parameters, so that extra arguments are ignored as before, and
-- errors raised by native() and check_point() (level 3) and by result() (a tail call, level 2)
-- point at the user's call.
for _, name in ipairs({ "ask", "best", "predicted_best", "dimension", "count", "pending", "info",
                        "save", "learn" }) do
  Optimizer[name] = function(self)
    local raw = native(self, name)
    return result(raw[name](raw))
  end
end

for _, name in ipairs({ "cancel", "predict", "predict_json" }) do  -- one point x
  Optimizer[name] = function(self, x)
    local raw = native(self, name)
    check_point(x, name)
    return result(raw[name](raw, x))
  end
end

function Optimizer:tell(x, y)
  local raw = native(self, "tell")
  check_point(x, "tell")
  if type(y) ~= "number" then
    error(format("bad argument #2 to 'tell' (number expected, got %s)", type(y)), 2)
  end
  return result(raw:tell(x, y))
end

-- Frees the native optimizer now. Closing again, or a closed optimizer going out of a <close>
-- scope, does nothing.
function Optimizer:close()
  if getmetatable(self) ~= meta then
    error("bad self to 'addbo.Optimizer:close' (use opt:close())", 2)
  end
  local raw = natives[self]
  if raw then
    natives[self] = false
    raw:close()
  end
end

function Optimizer:closed()
  if getmetatable(self) ~= meta then
    error("bad self to 'addbo.Optimizer:closed' (use opt:closed())", 2)
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

setmetatable(Optimizer, {
  __call = function(_, config_json)
    check_text(config_json, "Optimizer")
    local raw, message = raw_create(config_json)
    if raw == nil then error(message, 2) end
    return wrap(raw)
  end,
})

module.Optimizer = Optimizer

function module.load(state_json)
  check_text(state_json, "load")
  local raw, message = raw_load(state_json)
  if raw == nil then error(message, 2) end
  return wrap(raw)
end

function module.version()
  return raw_version()
end
