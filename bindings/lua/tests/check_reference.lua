-- The Lua module against its reference, which is written from bindings/optimizer_methods.swg:
--   lua5.4 check_reference.lua <addbo_reference.lua> <directory of addbo.so>
-- Every documented function and method exists in the module with the documented number of
-- parameters, and the module has nothing undocumented (opt:close() and opt:closed() are the
-- Lua side's own, documented in the reference's header, as are the values addbo.null and
-- addbo.json_object). Exit status 0 when all hold.
local reference_path, module_dir = arg[1], arg[2]
package.cpath = module_dir .. "/?.so;" .. package.cpath
local addbo = require("addbo")
local reference = assert(loadfile(reference_path, "t", {}))()

local failures = 0
local function check(ok, what)
  if not ok then
    failures = failures + 1
    io.stderr:write("CHECK failed: ", what, "\n")
  end
end

-- The parameters of a Lua function (self included for a method), or nil for anything else.
local function parameters(f)
  if type(f) ~= "function" then return nil end
  local info = debug.getinfo(f, "u")
  return info.what ~= "C" and info.nparams or nil
end

local function compare(documented, actual, owner, lua_only)
  local count = 0
  for name, stub in pairs(documented) do
    count = count + 1
    local implementation = actual[name]
    if name == "Optimizer" and owner == "addbo" then
      -- The constructor: a table with a __call metamethod taking (table, config_json).
      local call = getmetatable(implementation) and getmetatable(implementation).__call
      check(parameters(call) == parameters(stub) + 1, "addbo.Optimizer(...) is callable with "
        .. parameters(stub) .. " argument(s)")
    else
      check(implementation ~= nil, owner .. "." .. name .. " is documented but missing")
      check(parameters(implementation) == parameters(stub),
        string.format("%s.%s takes %s parameters, the reference %s", owner, name,
          tostring(parameters(implementation)), tostring(parameters(stub))))
    end
  end
  check(count > 0, "the reference documents something in " .. owner)
  for name in pairs(actual) do
    check(documented[name] ~= nil or lua_only[name], owner .. "." .. name .. " is not documented")
  end
end

compare(reference.module, addbo, "addbo", { null = true, json_object = true })
compare(reference.Optimizer, addbo.Optimizer, "addbo.Optimizer", { close = true, closed = true })
if failures > 0 then
  io.stderr:write(failures, " check(s) failed\n")
  os.exit(1)
end
print("the module matches its reference")
