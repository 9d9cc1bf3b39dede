-- Lua example: maximise a 6-variable function that is additive over the pairs (x1, x2),
-- (x3, x4), (x5, x6) with the ask/tell loop of addbo.Optimizer, and print the best point.
--
-- Run (from the build directory, after cmake --build), with any Lua the module was built for:
--   LUA_CPATH="bindings/lua/5.4/?.so;;" lua5.4 ../examples/lua/optimize_additive.lua
--   LUA_CPATH="bindings/lua/luajit/?.so;;" luajit ../examples/lua/optimize_additive.lua
-- ctest runs it as bindings_lua_example (and bindings_lua51_example, bindings_luajit_example, ...).
local addbo = require("addbo")

-- The black box: its maximum, 0, is at (0.3, 0.7, 0.55, 0.2, 0.8, 0.45).
local center = { 0.3, 0.7, 0.55, 0.2, 0.8, 0.45 }
local function black_box(x)
  local sum = 0.0
  for k = 1, 6, 2 do
    local a, b = x[k] - center[k], x[k + 1] - center[k + 1]
    sum = sum - (a * a + b * b - a * b)  -- the pair (x[k], x[k+1]) interacts
  end
  return sum
end

-- Six continuous variables on [0, 1], named x0 .. x5; the dependency graph (which variables
-- interact, by name) and the kernel lengthscales are given. A table, or the same as JSON text.
local config = {
  dimension = 6,
  structure = { mode = "fixed", edges = { { "x0", "x1" }, { "x2", "x3" }, { "x4", "x5" } } },
  kernel = { lengthscales = { 0.2, 0.2, 0.2, 0.2, 0.2, 0.2 } },
  seed = 1,
}

print("addbo " .. addbo.version())
local optimizer = addbo.Optimizer(config)  -- in Lua 5.4, `local optimizer <close> = ...`
for evaluation = 1, 60 do
  local x = optimizer:ask()
  local y = black_box(x)  -- the expensive evaluation, done by the host
  optimizer:tell(x, y)
  if evaluation % 10 == 0 then
    print(("evaluation %2d  y % .5f  best % .5f"):format(evaluation, y, optimizer:best().y))
  end
end
local best = optimizer:best()
local coordinates = {}
for i, v in ipairs(best.x) do coordinates[i] = ("%.4f"):format(v) end
print(("best y %.5f at x = [%s]"):format(best.y, table.concat(coordinates, ", ")))
optimizer:close()  -- frees the native optimizer now (the garbage collector would, later)
