-- Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/<target>/seed-*.
--   LUA_CPATH="build/bindings/lua/5.4/?.so;;" lua5.4 tests/fuzz/make_corpus.lua [tests/fuzz/corpus]
-- The seeds are committed; run this again when the configuration or the state format changes
-- (and when fuzz_calls.cpp changes how it reads its bytes). Inputs that found bugs are kept
-- beside the seeds as regression-*, and are not written here.
local addbo = require("addbo")
local out = arg[1] or "tests/fuzz/corpus"

local function write(path, bytes)
  local file = assert(io.open(path, "wb"))
  file:write(bytes)
  file:close()
end

-- fuzz_config: valid configurations of every kind, and a few invalid ones.
local configs = {
  '{"dimension": 2}',
  '{"dimension": 6, "seed": 7, "initial_points": 4}',
  '{"variables": [{"name": "x", "lower": -1, "upper": 1, "grid": 16}, {"name": "k", "type": "integer",'
    .. ' "lower": 1, "upper": 6}, {"name": "c", "type": "categorical", "choices": ["steel", "oak", "pine"]}],'
    .. ' "goal": "minimize", "seed": 3, "initial_points": 4}',
  '{"variables": [{"name": "lr", "scale": "log", "lower": 1e-5, "upper": 0.1, "grid": 17},'
    .. ' {"name": "n", "type": "integer", "scale": "log", "lower": 1, "upper": 1000}]}',
  '{"dimension": 4, "structure": {"mode": "fixed", "edges": [[0, 1], [2, 3]]},'
    .. ' "kernel": {"lengthscales": [0.2, 0.2, 0.3, 0.3], "noise_variance": 0.001}}',
  '{"variables": [{"name": "a", "lower": 0, "upper": 1}, {"name": "b", "lower": 0, "upper": 1}],'
    .. ' "structure": {"mode": "fixed", "edges": [["a", "b"]]}}',
  '{"dimension": 5, "structure": {"mode": "disjoint", "relearn_every": 5, "gibbs_evaluations": 50}}',
  '{"dimension": 8, "structure": {"mode": "random-tree", "tree_edges": 3}}',
  '{"dimension": 3, "structure": {"relearn": "manual", "expected_degree": 2, "max_clique_cells": 1024,'
    .. ' "max_learning_points": 20}, "kernel": {"noise_variance": "learn",'
    .. ' "lengthscale_choices": [0.1, 0.5], "noise_variance_choices": [1e-6, 0.01]}}',
  '{"dimension": 2, "strategy": "random", "seed": 18446744073709551615}',
  '{"dimension": 3, "acquisition": {"beta_scale": 0.25, "local_search": false},'
    .. ' "limits": {"max_table_cells": 4096, "threads": 2}}',
  '{"dimension": 3, "structure": {"edge_prior": 0.3}}',
  '{"dimension": 2,}',
  '{"dimension": 2, "bogus": 1}',
  '{"variables": []}',
  '{"dimension": 3, "limits": {"max_model_observations": 4, "max_pending": 2}}',
}
for i, text in ipairs(configs) do
  write(("%s/config/seed-%02d.json"):format(out, i), text)
end

-- fuzz_state: states saved after a few calls, with and without pending points.
local function objective(x)
  local sum = 0
  for i = 1, #x do
    -- A categorical value is its choice (a string) in Lua; it does not count here.
    if type(x[i]) == "number" then sum = sum - (x[i] - 0.3) ^ 2 end
  end
  return sum
end
local states = {
  { '{"dimension": 2, "initial_points": 2, "structure": {"gibbs_evaluations": 20, "relearn_every": 2}}', 0, false },
  { '{"dimension": 2, "initial_points": 2, "structure": {"gibbs_evaluations": 20, "relearn_every": 2}}', 5, true },
  { '{"dimension": 3, "initial_points": 3, "structure": {"mode": "fixed", "edges": [[0, 1]]},'
      .. ' "kernel": {"lengthscales": [0.2, 0.3, 0.4], "noise_variance": 0.001}}', 6, true },
  { '{"dimension": 3, "initial_points": 2, "structure": {"mode": "disjoint", "gibbs_evaluations": 15,'
      .. ' "relearn_every": 2}}', 5, false },
  { '{"variables": [{"name": "x", "lower": -1, "upper": 1, "grid": 8}, {"name": "k", "type": "integer",'
      .. ' "lower": 1, "upper": 6}, {"name": "c", "type": "categorical", "choices": ["a", "b", "c"]}],'
      .. ' "goal": "minimize", "initial_points": 3, "structure": {"gibbs_evaluations": 15, "relearn_every": 2}}',
    5, true },
  { '{"dimension": 2, "strategy": "random"}', 3, true },
  { '{"dimension": 3, "initial_points": 2, "structure": {"relearn": "manual", "gibbs_evaluations": 20},'
      .. ' "kernel": {"noise_variance": "learn"}}', 4, false, true },
  { '{"dimension": 2, "initial_points": 2, "structure": {"gibbs_evaluations": 10, "relearn_every": 2},'
      .. ' "limits": {"max_model_observations": 4, "max_pending": 2}}', 8, true },
}
for i, case in ipairs(states) do
  local opt <close> = addbo.Optimizer(case[1])
  for _ = 1, case[2] do
    local x = opt:ask()
    opt:tell(x, objective(x))
  end
  if case[4] then opt:learn() end
  if case[3] then opt:ask() end
  write(("%s/state/seed-%02d.json"):format(out, i), opt:save())
end

-- fuzz_calls: byte programs (fuzz_calls.cpp reads them: setup, seed, then one call per byte
-- with its argument bytes).
local ASK, TELL_PENDING, TELL_FRESH, TELL_TOLD, CANCEL, BEST, COUNT, INFO, LEARN, ROUND_TRIP,
      WRONG, DIMENSION, TELL_NEAR = 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
local function value(v)  -- an ordinary value: (fraction - 0.5) * 20 with fraction = v
  local n = math.floor((v / 20 + 0.5) * 65535 + 0.5)
  return string.char(9, n // 256, n % 256)
end
local NAN, INF, HUGE, TINY = string.char(0), string.char(1), string.char(3, 1), string.char(4)
local function program(setup, seed, ...)
  return string.char(setup, seed) .. table.concat({ ... })
end
local function rounds(n)
  local parts = {}
  for k = 1, n do
    parts[#parts + 1] = string.char(ASK, TELL_PENDING, 0) .. value(-k / n)
  end
  return table.concat(parts)
end
local setups = 12  -- the number of configurations in fuzz_calls.cpp
for setup = 0, setups - 1 do
  write(("%s/calls/seed-%02d"):format(out, setup), program(setup, setup,
    rounds(5), string.char(BEST, COUNT, INFO, DIMENSION, LEARN, ROUND_TRIP),
    string.char(ASK, ASK, CANCEL, 1, TELL_NEAR, 0, 7) .. value(0.5),
    rounds(3), string.char(TELL_TOLD, 0) .. value(1)))
end
write(out .. "/calls/seed-awkward", program(0, 1,
  rounds(3), string.char(ASK, TELL_PENDING, 0) .. NAN, string.char(TELL_PENDING, 0) .. INF,
  string.char(TELL_PENDING, 0) .. HUGE, string.char(TELL_PENDING, 0) .. TINY,
  string.char(TELL_FRESH, 3, 3) .. value(1), string.char(WRONG, 0x18, WRONG, 0x01, WRONG, 0x06, WRONG, 0x2b),
  string.char(CANCEL, 0, CANCEL, 0), rounds(2)))
write(out .. "/calls/seed-many-pending", program(2, 5,
  string.rep(string.char(ASK), 8), string.rep(string.char(TELL_PENDING, 0) .. value(0.25), 4),
  string.char(LEARN, ROUND_TRIP, ASK, BEST)))
print("corpora written to " .. out)
