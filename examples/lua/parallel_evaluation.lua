-- Lua example of parallel evaluation with ask/tell: keeps K evaluations in flight, tells each
-- value as soon as its evaluation finishes (in whatever order they finish) and asks for the next
-- point at once.
--
-- Lua has no threads, so the concurrency here is simulated: each evaluation is a coroutine that
-- needs a number of scheduler rounds ("ticks") to finish, different for each evaluation, and
-- the scheduler resumes the running ones in turn. All of it runs on one OS thread; no two
-- evaluations ever compute at the same time. What it shows is the part that matters for addbo:
-- the bookkeeping of a pool whose evaluations complete out of order. With real work elsewhere
-- (jobs on a cluster, worker processes started with io.popen), a coroutine would start its job,
-- then yield until a poll finds the job done, and the loop below stays the same.
--
-- Run (from the build directory, after cmake --build), with any Lua the module was built for:
--   LUA_CPATH="bindings/lua/5.4/?.so;;" lua5.4 ../examples/lua/parallel_evaluation.lua
-- ctest runs it as bindings_lua_parallel_example (and bindings_luajit_parallel_example, ...).
local addbo = require("addbo")

local IN_FLIGHT, EVALUATIONS = 4, 60

-- The black box: additive over the pairs (x1, x2), (x3, x4), (x5, x6), maximum 0 at
-- (0.3, 0.7, 0.55, 0.2, 0.8, 0.45).
local center = { 0.3, 0.7, 0.55, 0.2, 0.8, 0.45 }
local function black_box(x)
  local sum = 0.0
  for k = 1, 6, 2 do
    local a, b = x[k] - center[k], x[k + 1] - center[k + 1]
    sum = sum - (a * a + b * b - a * b)  -- the pair (x[k], x[k+1]) interacts
  end
  return sum
end

-- Evaluation `index` as a coroutine: it yields for 1-19 ticks (varying with the index, so that
-- evaluations finish in another order than they started), then returns the value.
local function start_evaluation(x, index)
  return coroutine.create(function()
    for _ = 1, 1 + (index * 7) % 19 do coroutine.yield() end
    return black_box(x)
  end)
end

local config = [=[{"dimension": 6, "seed": 1,
  "structure": {"mode": "fixed", "edges": [[0, 1], [2, 3], [4, 5]]},
  "kernel": {"lengthscales": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]}}]=]

print(("addbo %s: %d evaluations, %d in flight (coroutines, simulated)"):format(
  addbo.version(), EVALUATIONS, IN_FLIGHT))
local optimizer = addbo.Optimizer(config)
local running = {}  -- {x = point, worker = coroutine}
local asked, told, most_pending = 0, 0, 0

-- Asks for the next point and starts its evaluation in `pool`.
local function ask_next(pool)
  local x = optimizer:ask()  -- pending until told
  pool[#pool + 1] = { x = x, worker = start_evaluation(x, asked) }
  asked = asked + 1
  most_pending = math.max(most_pending, optimizer:pending())
end

for _ = 1, math.min(IN_FLIGHT, EVALUATIONS) do ask_next(running) end
while told < EVALUATIONS do
  -- One tick: resume every running evaluation once; tell each that finished and start the next
  -- in its place (it runs from the next tick).
  local still_running = {}
  for _, evaluation in ipairs(running) do
    local ok, y = coroutine.resume(evaluation.worker)
    if not ok then error("an evaluation failed: " .. tostring(y)) end
    if coroutine.status(evaluation.worker) == "dead" then
      optimizer:tell(evaluation.x, y)
      told = told + 1
      if told % 10 == 0 then
        print(("told %2d  y % .5f  best % .5f"):format(told, y, optimizer:best().y))
      end
      if asked < EVALUATIONS then ask_next(still_running) end
    else
      still_running[#still_running + 1] = evaluation
    end
  end
  running = still_running
end

local best = optimizer:best()
local coordinates = {}
for i, v in ipairs(best.x) do coordinates[i] = ("%.4f"):format(v) end
print(("best y %.5f at x = [%s]"):format(best.y, table.concat(coordinates, ", ")))
print(("at most %d points were pending at once"):format(most_pending))
-- Every asked point was told, and no more than IN_FLIGHT were ever out.
assert(optimizer:count() == EVALUATIONS and optimizer:pending() == 0 and most_pending <= IN_FLIGHT,
  "unexpected counts")
optimizer:close()
